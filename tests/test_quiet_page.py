"""Issue 20, finding 14: a learner's page never shows a traceback (with the install's paths)
when a widget's callback fails; krypteach's log goes to the server's log, not to the page.
A real kernel, as Voilà starts one for a page (``krypteach serve`` gives it its key)."""

from __future__ import annotations

import json
import os
import subprocess
import time

import jupyter_client

_CODE = r'''
import logging, ipywidgets as w
import krypteach.widgets
b = w.Button(description="x")
clicks = []
def boom(_b): raise ValueError("/srv/school/site-packages/secret.py broke")
b.on_click(boom)
b.on_click(lambda _b: clicks.append(1))
logging.getLogger("krypteach.guard").warning("a warning from the guard")
print(b.model_id)
'''


def _run(env: dict[str, str], tmp_path) -> tuple[list[dict], list[dict], str]:
    """(iopub messages of the cell, of a click, the kernel's own stderr)."""
    err = tmp_path / "kernel.err"
    km = jupyter_client.KernelManager(kernel_name="python3")
    with open(err, "wb") as f:
        km.start_kernel(env={**os.environ, **env}, stderr=f, stdout=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        cell, click = [], []
        msg_id = kc.execute(_CODE)
        while True:
            m = kc.get_iopub_msg(timeout=60)
            cell.append(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" \
                    and m["parent_header"].get("msg_id") == msg_id:
                break
        model = [m["content"]["text"] for m in cell if m["msg_type"] == "stream" and m["content"]["name"] == "stdout"]
        msg = kc.session.msg("comm_msg", {"comm_id": model[-1].strip().splitlines()[-1],
                                          "data": {"method": "custom", "content": {"event": "click"}}})
        kc.shell_channel.send(msg)
        while True:
            m = kc.get_iopub_msg(timeout=60)
            click.append(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" \
                    and m["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                break
        done = kc.execute_interactive("print(len(clicks))", timeout=60, output_hook=lambda m: click.append(m))
        assert done["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    time.sleep(0.2)
    return cell, click, err.read_text(errors="replace")


def _shown(messages: list[dict]) -> str:
    return json.dumps([m["content"] for m in messages if m["msg_type"] in ("stream", "error", "display_data")])


def test_a_failing_callback_shows_no_traceback_on_a_served_page(tmp_path):
    cell, click, stderr = _run({"KRYPTEACH_LEARNER_KEY": "ab" * 32}, tmp_path)
    shown = _shown(cell) + _shown(click)
    assert "Traceback" not in shown and "secret.py" not in shown and "a warning from the guard" not in shown, shown
    assert not any(m["msg_type"] == "error" for m in click)
    assert '"text": "1\\n"' in _shown(click)  # the other callback still ran
    # the teacher's terminal (the kernel's own stderr) has it all
    assert "a widget's callback boom failed" in stderr and "Traceback" in stderr and "secret.py broke" in stderr
    assert "a warning from the guard" in stderr


def test_in_jupyterlab_the_traceback_is_still_shown(tmp_path):
    env = dict.fromkeys(("KRYPTEACH_LEARNER_KEY", "VOILA_BASE_URL", "VOILA_APP_PORT", "KRYPTEACH_SITE"), "")
    _cell, click, _stderr = _run(env, tmp_path)
    assert any(m["msg_type"] == "error" and m["content"]["ename"] == "ValueError" for m in click)

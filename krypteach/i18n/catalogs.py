"""The catalogs, kept with Babel: ``python -m krypteach.i18n.catalogs update|check``.

``update`` extracts every marked text (``_()``, ``N_()``, ``ngettext()``, ``NN_()`` in the package;
markdown cells and ``_()`` in the lessons) into one template per domain
(``locale/<domain>.pot``), merges it into each language's ``.po`` (the English one is
filled with the source texts, which may then be corrected there) and compiles the
``.mo`` files the package reads. ``check`` lists what is missing: a message without a
translation (or marked fuzzy), a translation whose ``{placeholders}`` or links differ
from the source, a template or a compiled file out of date. The tests run ``check``.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import DOMAINS, LANGUAGES, LOCALE

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = ["SOURCES", "template", "update", "check", "main"]

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent
#: where each domain's texts are written (folders or files, relative to the repository)
SOURCES: dict[str, tuple[str, ...]] = {
    "engine": ("krypteach/engine", "krypteach/bots", "krypteach/play"),
    "teaching": ("krypteach/teaching",),
    "views": ("krypteach/views",),
    "widgets": ("krypteach/widgets",),
    "serve": ("krypteach/serve", "krypteach/classroom", "krypteach/site", "krypteach/cli.py"),
    "lessons": ("lessons",),
}
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "NN_": (1, 2)}
#: fixed, so that a template changes only when its messages do
STAMP = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)?(?:[!:][^{}]*)?\}(?!\})")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _files(domain: str) -> list[Path]:
    out: list[Path] = []
    for entry in SOURCES[domain]:
        path = ROOT / entry
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            pattern = "*.ipynb" if domain == "lessons" else "*.py"
            out.extend(p for p in sorted(path.rglob(pattern)) if ".ipynb_checkpoints" not in p.parts
                       and "__pycache__" not in p.parts and not p.name.startswith("."))
    return out


def template(domain: str) -> Catalog:
    """The domain's messages, read from its sources now."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract

    from .notebooks import notebook_messages

    cat = Catalog(project="krypteach", version="1", creation_date=STAMP, revision_date=STAMP,
                  msgid_bugs_address="", copyright_holder="krypteach developers", charset="utf-8",
                  fuzzy=False)
    for path in _files(domain):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix == ".ipynb":
            nb = json.loads(path.read_text(encoding="utf-8"))
            for cell, message, comments in notebook_messages(nb):
                _add(cat, message, (rel, cell), comments)
        else:
            with path.open("rb") as f:
                for lineno, message, comments, _ctx in extract("python", f, keywords=KEYWORDS,
                                                               comment_tags=("i18n:",)):
                    _add(cat, message, (rel, lineno), comments)
    return cat


def _add(cat, message: Any, location: tuple[str, int], comments: list[str]) -> None:  # type: ignore[no-untyped-def]
    if isinstance(message, tuple):
        message = tuple(m for m in message if m is not None)
        if len(message) == 1:
            message = message[0]
    if not message:
        return
    flags = ("python-brace-format",) if any(PLACEHOLDER.search(m) for m in _texts(message)) else ()
    existing = cat.get(message)
    if existing is not None:
        existing.locations.append(location)
        return
    cat.add(message, None, locations=[location], auto_comments=comments, flags=flags)


def _texts(message) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return tuple(message) if isinstance(message, (tuple, list)) else (message,)


def _paths(domain: str, lang: str | None = None) -> Path:
    if lang is None:
        return LOCALE / f"{domain}.pot"
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def _write_po(path: Path, cat) -> None:  # type: ignore[no-untyped-def]
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, ignore_obsolete=True, sort_by_file=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def _read_po(path: Path, locale: str | None = None):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _mo_bytes(cat) -> bytes:  # type: ignore[no-untyped-def]
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def update(domains: Iterable[str] = DOMAINS) -> None:
    """Templates from the sources, merged into every language's catalog, compiled."""
    from babel.messages.catalog import Catalog

    for domain in domains:
        tmpl = template(domain)
        _write_po(_paths(domain), tmpl)
        for lang in LANGUAGES:
            path = _paths(domain, lang)
            fresh = copy.deepcopy(tmpl)  # Catalog.update shares the template's messages
            if path.exists():
                cat = _read_po(path, lang)
                cat.update(fresh, no_fuzzy_matching=False, update_header_comment=False)
            else:
                cat = Catalog(locale=lang, domain=domain, project="krypteach", version="1",
                              creation_date=STAMP, revision_date=STAMP, fuzzy=False)
                cat.update(fresh)
            cat.revision_date = STAMP
            cat.fuzzy = False
            cat.obsolete.clear()
            if lang == "en":  # the source texts are the English ones
                for m in cat:
                    if m.id and (not _texts(m.string) or not all(_texts(m.string)) or m.fuzzy):
                        m.string = m.id
                        m.flags.discard("fuzzy")
            _write_po(path, cat)
            (path.with_suffix(".mo")).write_bytes(_mo_bytes(cat))


def _same_marks(source: str, text: str) -> list[str]:
    problems = []
    # the same names (a translation may say one of them once where the English says it twice)
    a = sorted({m.group(0) for m in PLACEHOLDER.finditer(source)})
    b = sorted({m.group(0) for m in PLACEHOLDER.finditer(text)})
    if a != b:
        problems.append(f"placeholders {a} in the source, {b} in the translation")
    la, lb = sorted(LINK.findall(source)), sorted(LINK.findall(text))
    if la != lb:
        problems.append(f"links {la} in the source, {lb} in the translation")
    return problems


def check(domains: Iterable[str] = DOMAINS) -> list[str]:
    """Every problem with the catalogs, one line each (empty: all is well)."""
    problems: list[str] = []
    for domain in domains:
        tmpl = template(domain)
        pot = _paths(domain)
        if not pot.exists():
            problems.append(f"{domain}: no template {pot.name}: run python -m krypteach.i18n.catalogs update")
            continue
        on_disk = {m.id for m in _read_po(pot) if m.id}
        now = {m.id for m in tmpl if m.id}
        for new in sorted(map(str, now - on_disk))[:5]:
            problems.append(f"{domain}: {new[:60]!r} is not in {pot.name}: run python -m krypteach.i18n.catalogs update")
        for gone in sorted(map(str, on_disk - now))[:5]:
            problems.append(f"{domain}: {gone[:60]!r} is in {pot.name} but no longer in the sources: run update")
        for lang in LANGUAGES:
            path = _paths(domain, lang)
            if not path.exists():
                problems.append(f"{domain}/{lang}: no catalog {path}")
                continue
            cat = _read_po(path, lang)
            for m in tmpl:
                if not m.id:
                    continue
                tr = cat.get(m.id)
                where = f"{domain}/{lang}: {_texts(m.id)[0][:60]!r}"
                if tr is None or not _texts(tr.string) or not all(_texts(tr.string)):
                    problems.append(f"{where} has no translation")
                    continue
                if tr.fuzzy:
                    problems.append(f"{where} is marked fuzzy (the source changed): check the translation")
                for src, text in zip(_texts(m.id) * 2, _texts(tr.string)):
                    problems.extend(f"{where}: {p}" for p in _same_marks(src, text))
            mo = path.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != _mo_bytes(cat):
                problems.append(f"{domain}/{lang}: {mo.name} is not compiled from {path.name}: run update")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "check"
    domains = tuple(args) or DOMAINS
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown or command not in ("update", "check"):
        print(f"usage: python -m krypteach.i18n.catalogs update|check [{'|'.join(DOMAINS)} ...]", file=sys.stderr)
        return 2
    if command == "update":
        update(domains)
    problems = check(domains)
    for p in problems:
        print(p)
    if command == "check":
        print(f"{len(problems)} problems" if problems else "the catalogs are complete")
    else:
        print("updated; " + (f"{len(problems)} problems left" if problems else "the catalogs are complete"))
    return 1 if problems and command == "check" else 0


if __name__ == "__main__":
    raise SystemExit(main())

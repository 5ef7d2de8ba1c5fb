"""The ``krypteach`` command line.

``krypteach serve`` serves the lessons as a web app (Voilà), ``krypteach lab``
opens them in JupyterLab, ``krypteach simulate`` plays many givar,
``krypteach rules-sheet`` writes the rules on one printed page, ``krypteach build-site``
writes the lessons as a static site whose Python runs in the browser.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .i18n import N_, LanguageError, _, check_language, language, ngettext, use_language
from .i18n.numbers import number

if TYPE_CHECKING:
    from .engine.game import Giv

__all__ = ["lessons_dir", "main"]


class _Formatter(argparse.HelpFormatter):
    """argparse's help, with its own headings in the language of the command line."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


#: argparse's own usage errors (Python 3.11–3.13 words them so), said in the command line's language
_ARGPARSE_ERRORS = (
    (re.compile(r"unrecognized arguments: (?P<args>.*)"), N_("unrecognized arguments: {args}")),
    (re.compile(r"(?P<option>\S+): expected one argument"), N_("{option}: expected one argument")),
    (re.compile(r"the following arguments are required: (?P<args>.*)"),
     N_("the following arguments are required: {args}")),
    (re.compile(r"(?P<option>\S+): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)"),
     N_("{option}: invalid choice: {value} (choose from {choices})")),
    (re.compile(r"(?P<option>\S+): invalid int value: (?P<value>.*)"), N_("{option}: {value} is not a whole number")),
)


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr, ``krypteach: …``, exit status 2; help and
    errors in the language of the command line (:func:`main`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=_("show this help and exit"))

    def error(self, message: str) -> NoReturn:
        message = message.removeprefix("argument ")
        for pattern, words in _ARGPARSE_ERRORS:
            m = pattern.fullmatch(message)
            if m:
                message = _(words).format(**m.groupdict())
                break
        # i18n: a usage error: {message} is argparse's (or krypteach's) text, {prog} "krypteach serve"
        self.exit(2, _("krypteach: {message} (see {prog} --help)").format(message=message, prog=self.prog) + "\n")


def _whole_number(lo: int, hi: int | None = None, grouped: bool = True) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number ``lo``–``hi`` (``hi=None``: no upper end), said as
    the language writes numbers (``1–100 000``; ``grouped=False`` for a port: ``1–65535``)."""

    def parse(text: str) -> int:
        low, high = (number(lo), number(hi)) if grouped and hi is not None else (str(lo), str(hi))
        span = _("{low}–{high}").format(low=low, high=high) if hi is not None else _("{low} or more").format(
            low=number(lo))
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{text} is not a whole number: it must be {span}").format(
                text=repr(text), span=span)) from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(_("{value} is not allowed: it must be a whole number, {span}").format(
                value=value, span=span))
        return value

    parse.__name__ = f"whole number {lo}–{hi}" if hi is not None else f"whole number {lo}+"
    return parse


def _language_arg(text: str) -> str:
    """An argparse ``type=`` for ``--lang``: a language krypteach speaks (``sv``, ``en``)."""
    try:
        return check_language(text)
    except LanguageError:
        raise argparse.ArgumentTypeError(_("{value} is not a language krypteach speaks: choose sv (Svenska) or "
                                           "en (English)").format(value=repr(text))) from None


def _lang_in(argv: list[str]) -> str | None:
    """The language ``--lang`` names on the command line, when it names one krypteach speaks."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.removeprefix("--lang=") if arg.startswith("--lang=") else (
            argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None)
        if value is not None:
            try:
                return check_language(value)
            except LanguageError:
                return None
    return None


_port = _whole_number(1, 65535, grouped=False)


def _lessons_folder(text: str) -> str:
    """An argparse ``type=`` for ``--dir``: a folder that holds lesson notebooks."""
    folder = Path(text)
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(
            (_("{folder} is not a folder: give the folder that holds the lesson notebooks") if folder.exists() else
             _("{folder} does not exist: give the folder that holds the lesson notebooks")).format(folder=text))
    if not any(folder.glob("*.ipynb")):
        raise argparse.ArgumentTypeError(_("{folder} holds no lesson notebooks (no .ipynb files): give the lessons "
                                           "folder").format(folder=text))
    return text


def lessons_dir(explicit: str | None = None) -> Path:
    """Where the lesson notebooks are: ``--dir``, ``$KRYPTEACH_LESSONS``, the
    installed copy, or the source tree's ``lessons/`` folder. A folder given as
    ``explicit`` must hold notebooks: there is no falling back from it."""
    candidates = []
    if explicit:
        try:
            return Path(_lessons_folder(explicit)).resolve()
        except argparse.ArgumentTypeError as e:
            raise SystemExit(f"krypteach: --dir {e}") from None
    if os.environ.get("KRYPTEACH_LESSONS"):
        # set on purpose: a folder that is not there or holds no lessons is an error, never
        # a silent fall back to another copy of the lessons
        try:
            return Path(_lessons_folder(os.environ["KRYPTEACH_LESSONS"])).resolve()
        except argparse.ArgumentTypeError as e:
            raise SystemExit(f"krypteach: $KRYPTEACH_LESSONS: {e}") from None
    here = Path(__file__).resolve().parent
    candidates += [here / "_lessons", here.parent / "lessons", Path.cwd() / "lessons"]
    for c in candidates:
        if c.is_dir() and any(c.glob("*.ipynb")):
            return c.resolve()
    raise SystemExit(_("krypteach: no lessons folder found (looked in: {folders})").format(
        folders=", ".join(str(c) for c in candidates)))


def _lesson_file(folder: Path, number: int | None) -> str | None:
    if number is None:
        return None
    matches = sorted(p.name for p in folder.glob(f"{number:02d}*.ipynb"))
    if not matches:
        have = ", ".join(sorted(p.name for p in folder.glob("*.ipynb")))
        raise SystemExit(_("krypteach: no lesson {number} in {folder} (lessons: {have})").format(
            number=f"{number:02d}", folder=folder, have=have))
    return matches[0]


def cmd_serve(args: argparse.Namespace) -> int:
    """``krypteach serve``: Voilà for a class, in this process (see docs/classroom.md)."""
    folder = lessons_dir(args.dir)
    try:
        import voila  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise SystemExit(_("krypteach serve needs Voilà: pip install voila")) from None
    cfg = _classroom_config(args.config)
    # serve's own lines in the class's language: --lang, the classroom file's, else $KRYPTEACH_LANG
    with use_language(args.lang or cfg.language or language()):
        return _serve(args, folder, cfg)


def _serve(args: argparse.Namespace, folder: Path, cfg: Any) -> int:
    from .serve import ServeOptions, serve
    from .serve.gate import normalize_code

    start = _lesson_file(folder, 0) if any(folder.glob("00*.ipynb")) else None
    first = args.lesson if args.lesson is not None else (int(cfg.first_lesson) if cfg.first_lesson else None)
    lesson = _lesson_file(folder, first) if first is not None else None
    class_code = args.class_code if args.class_code is not None else (None if args.open else cfg.class_code)
    teacher_code = args.teacher_code if args.teacher_code is not None else cfg.teacher_code
    if args.class_code is not None and args.open:
        raise SystemExit(_("krypteach serve: --class-code and --open do not go together (--open means no code)"))
    if class_code is not None and len(normalize_code(class_code)) < 4:
        raise SystemExit(_("krypteach serve: --class-code needs at least 4 letters or digits"))
    if teacher_code is not None and len(normalize_code(teacher_code)) < 6:
        raise SystemExit(_("krypteach serve: --teacher-code needs at least 6 letters or digits"))
    try:
        shown = cfg.lesson_files(folder)
    except ValueError as e:
        raise SystemExit(f"krypteach: {e}") from None
    if shown is not None and start is not None and start not in shown:
        shown.insert(0, start)  # the start page is always there: it links the others
    env = job_caps_env(args.max_givar or cfg.max_givar or 2000, args.max_job_seconds or cfg.max_job_seconds or 120)
    env.update(classroom_env(cfg, shown))
    progress = args.progress if args.progress is not None else (cfg.progress or None)
    class_size = args.class_size if args.class_size is not None else (cfg.class_size or 0)
    options = ServeOptions(folder=folder, port=args.port, host=args.host, start_page=start, lesson=lesson,
                           class_code=class_code, open_door=args.open, class_size=class_size,
                           max_kernels=args.max_kernels, per_client=args.per_browser, grace=float(args.cull_idle),
                           allow_hosts=list(args.allow_host or []), kernel_env=env,
                           progress=progress, teacher_code=teacher_code, shown=shown,
                           language=args.lang or cfg.language or "en")
    return serve(options)


def _classroom_config(path: str | None) -> Any:
    from .classroom.config import ClassroomConfig, ConfigError

    if path is None:
        return ClassroomConfig()
    try:
        return ClassroomConfig.load(path)
    except ConfigError as e:
        raise SystemExit(f"krypteach: {e}") from None


def classroom_env(cfg: Any, shown: list[str] | None) -> dict[str, str]:
    """What the lessons' kernels need of the classroom file: the lessons shown (the start page
    lists them), the games' rule preset and bots, the language; and the live class's tables
    (their bot, the delay before it plays a gone learner's seat), which the server reads too."""
    env = {}
    if shown is not None:
        env["KRYPTEACH_SHOWN"] = ",".join(name[:2] for name in shown)
    if cfg.game_rules:
        env["KRYPTEACH_GAME_RULES"] = cfg.game_rules
    if cfg.bots:
        env["KRYPTEACH_GAME_BOTS"] = ",".join(cfg.bots)
    if cfg.live_bot:
        env["KRYPTEACH_LIVE_BOT"] = cfg.live_bot
    if cfg.live_replace_after is not None:
        env["KRYPTEACH_LIVE_REPLACE_AFTER"] = str(cfg.live_replace_after)
    if cfg.live_hints:
        env["KRYPTEACH_LIVE_HINTS"] = "1"
    if cfg.language:
        env["KRYPTEACH_LANG"] = cfg.language
    return env


def job_caps_env(max_givar: int, max_seconds: int) -> dict[str, str]:
    """The caps on long jobs, for every kernel of ``krypteach serve``: one process per job
    (thirty pages each on every core would starve the clicks), the teacher's caps.

    >>> job_caps_env(500, 60)["KRYPTEACH_JOBS"]
    '1'
    """
    from .play.limits import ENV_JOBS, ENV_MAX_GIVAR, ENV_MAX_SECONDS

    return {ENV_MAX_GIVAR: str(max_givar), ENV_MAX_SECONDS: str(max_seconds), ENV_JOBS: "1"}


def cmd_lab(args: argparse.Namespace) -> int:
    folder = lessons_dir(args.dir)
    cmd = [sys.executable, "-m", "jupyterlab", f"--notebook-dir={folder}", f"--port={args.port}",
           f"--ServerApp.ip={args.host}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    if args.no_browser:
        cmd.append("--no-browser")
    print(_("Opening the lessons in {folder} with JupyterLab").format(folder=folder))
    sys.stdout.flush()
    try:
        return subprocess.call(cmd)
    except KeyboardInterrupt:
        return 0


def rules_from_arg(text: str | None, players: int | None) -> Any:
    """The rules of ``--rules`` (a preset name, a JSON file of options or inline
    JSON) with ``--players``; a bad value exits with one line naming it."""
    from .engine.records import parse_json
    from .engine.rules import Rules, RulesError

    where = f"--rules {text}"
    try:
        if text is None:
            rules = Rules()
        elif text.endswith(".json") or Path(text).is_file():
            try:
                data = Path(text).read_bytes()
            except OSError as e:
                raise RulesError(_("{where}: cannot read the file ({reason})").format(
                    where=where, reason=e.strerror or e)) from None
            rules = Rules.from_dict(parse_json(data, where, RulesError))
        elif text.strip().startswith("{"):
            rules = Rules.from_dict(parse_json(text, where, RulesError))
        else:
            rules = Rules.preset(text)
    except RulesError as e:
        message = str(e)
        if not message.startswith(where + ":"):
            message = f"{where}: {message}"
        raise SystemExit(f"krypteach: {message}") from None
    if players is None or players == rules.players:
        return rules
    if rules.teams == "threes" and players != 6:
        raise SystemExit(_("krypteach: --players {players} does not fit --rules {rules}: its teams of three need "
                           "6 players; leave out --players or choose other rules").format(players=players, rules=text))
    if rules.teams == "pairs" and players not in (4, 6):
        raise SystemExit(_("krypteach: --players {players} does not fit --rules {rules}: its teams of two need "
                           "4 or 6 players; leave out --players or choose other rules").format(
                               players=players, rules=text))
    try:
        return rules.replace(players=players, givar=None if rules.givar is None else players)
    except RulesError as e:
        raise SystemExit(_("krypteach: --players {players} does not fit --rules {rules}: {reason}").format(
            players=players, rules=text, reason=e)) from None


def _outputs(args: argparse.Namespace, header: list[str]) -> Any:
    """The ``--record``/``--csv`` files, their paths checked before any giv is played."""
    from .play.outputs import GivOutputs, OutputError

    try:
        return GivOutputs(args.record, args.csv, header)
    except OutputError as e:
        raise SystemExit(f"krypteach: {e}") from None


def cmd_simulate(args: argparse.Namespace) -> int:
    from .play.simulate import seat_bots, simulate

    rules = rules_from_arg(args.rules, args.players)
    bots = None
    if args.bots is not None:
        bots = [b.strip() for b in args.bots.split(",")]
        if not all(bots):
            raise SystemExit(_("krypteach: --bots {bots}: name the bots, separated by commas: one for all "
                               "seats or one per seat ({players}), each one of {levels}").format(
                                   bots=repr(args.bots), players=rules.players, levels=_levels()))
    try:
        sim_bots = seat_bots(bots, rules.players)
        from .bots import check_bot_rules

        for level in dict.fromkeys(sim_bots):
            check_bot_rules(level, rules)
    except ValueError as e:
        raise SystemExit(f"krypteach: --bots {args.bots!r}: {e}") from None
    header = ["giv", "seat", "bot", "dealer", "card_points", "marks", "dukningar", "score"]
    with _outputs(args, header) as out:

        def on_giv(g: Giv) -> None:
            r = g.result
            out.add(g, ([out.count, s, sim_bots[s], g.dealer, r.card_points[s], r.marks[s], r.dukningar[s], r.scores[s]]
                        for s in range(rules.players)))

        try:
            sim = simulate(rules, args.givar, seed=args.seed, bots=bots, progress=None, on_giv=on_giv, jobs=args.jobs)
        except ValueError as e:
            raise SystemExit(f"krypteach: {e}") from None
    print(sim.summary())
    out.report()
    return 0


def _levels() -> str:
    from .bots import BOT_LEVELS

    return ", ".join(BOT_LEVELS)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="krypteach", description=_("Learn Krypkasino (the Swedish misère Kasino) by playing it."))
    p.add_argument("--version", action="version", version=f"krypteach {__version__}",
                   help=_("show the version of krypteach and exit"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("serve", help=_("serve the lessons to a class as a clickable web app (Voilà)"))
    s.add_argument("--port", type=_port, default=8866, help=_("port 1–65535 (default 8866); a taken port is an error"))
    s.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (0.0.0.0 lets a class on the network connect)"))
    s.add_argument("--lesson", type=_whole_number(0, 99), default=None,
                   help=_("the lesson the class starts with: kept warm like the start page"))
    s.add_argument("--dir", type=_lessons_folder, default=None, help=_("lessons folder (default: the installed lessons)"))
    s.add_argument("--class-code", default=None, metavar="CODE",
                   help=_("the code learners type once (default: a new random code each start)"))
    s.add_argument("--open", action="store_true", help=_("no class code (a private machine only)"))
    s.add_argument("--config", default=None, metavar="FILE",
                   help=_("a classroom file (TOML: codes, lessons shown, game rules and bots, caps, language; "
                        "docs/classroom.md); options given here win over it"))
    s.add_argument("--class-size", type=_whole_number(0, 200), default=None, metavar="N",
                   help=_("warm N kernels for the start page (and --lesson) before the class arrives"))
    s.add_argument("--max-kernels", type=_whole_number(1, 1000), default=None, metavar="N",
                   help=_("pages open at once, beyond which learners see 'the class is full' "
                        "(default: what fits in the free memory)"))
    s.add_argument("--per-browser", type=_whole_number(1, 50), default=5, metavar="N",
                   help=_("lesson pages one browser may have open at once (default 5)"))
    s.add_argument("--allow-host", action="append", metavar="NAME",
                   help=_("a host name learners may use besides this machine's names and addresses (repeatable)"))
    s.add_argument("--cull-idle", type=_whole_number(5), default=60, metavar="SECONDS",
                   help=_("seconds a page's kernel lives on after the page is closed or loses its connection"))
    s.add_argument("--progress", default=None, metavar="FILE|URL|off",
                   help=_("where learners' progress is kept: a SQLite file (default: in the user data folder), "
                        "postgresql://… , or off"))
    s.add_argument("--teacher-code", default=None, metavar="CODE",
                   help=_("the code of the teacher's page /krypteach/teacher (default: a new random code each start)"))
    s.add_argument("--max-givar", type=_whole_number(1, 100_000), default=None, metavar="N",
                   help=_("givar one run of the variant lab may play per rule set (default {n})").format(n=number(2000)))
    s.add_argument("--max-job-seconds", type=_whole_number(5, 86_400), default=None, metavar="SECONDS",
                   help=_("seconds one long job in a page (the variant lab) may run (default 120)"))
    s.add_argument("--lang", type=_language_arg, default=None, metavar="sv|en",
                   help=_("the class's language: where a new browser lands (every lesson is served in Swedish "
                        "and English; the start page lets a learner switch, and the choice is remembered)"))
    s.set_defaults(func=cmd_serve)

    lab = sub.add_parser("lab", help=_("open the lessons in JupyterLab"))
    lab.add_argument("--port", type=_port, default=8888)
    lab.add_argument("--host", default="127.0.0.1")
    lab.add_argument("--dir", type=_lessons_folder, default=None)
    lab.add_argument("--no-browser", action="store_true")
    lab.set_defaults(func=cmd_lab)

    sim = sub.add_parser("simulate", help=_("play many givar with bots and print a summary"))
    sim.add_argument("--players", type=_whole_number(2, 6), default=None, help=_("2–6 (default: from --rules, else 2)"))
    sim.add_argument("--givar", type=_whole_number(1), default=100, help=_("number of givar, 1 or more (default 100)"))
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--rules", default=None, help=_("a preset name, a JSON file of options, or inline JSON"))
    sim.add_argument("--bots", default=None, help=_("comma-separated bot levels, one for all seats or one per seat"))
    sim.add_argument("--record", default=None, help=_("write every giv to this JSON Lines file"))
    sim.add_argument("--csv", default=None, help=_("write one row per seat per giv to this CSV file"))
    sim.add_argument("--jobs", type=_whole_number(1), default=None,
                     help=_("processes to play on (default: every core); the results are the same for any number"))
    sim.set_defaults(func=cmd_simulate)

    tour = sub.add_parser("tournament", help=_("bots against each other, seats rotated, with confidence intervals"))
    tour.add_argument("--players", type=_whole_number(2, 6), default=None, help=_("2–6 (default: from --rules, else 2)"))
    tour.add_argument("--givar", type=_whole_number(1), default=None,
                      help=_("number of givar, a multiple of the number of bots (default: 10 per bot)"))
    tour.add_argument("--bots", default="careful,random",
                      help=_("comma-separated bot levels (random, careful, expert); options after a colon, "
                           "separated by ';', e.g. 'expert:rollouts=120'"))
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--rules", default=None, help=_("a preset name, a JSON file of options, or inline JSON"))
    tour.add_argument("--record", default=None, help=_("write every giv to this JSON Lines file"))
    tour.add_argument("--csv", default=None, help=_("write one row per seat per giv (giv,seat,bot,score)"))
    tour.add_argument("--jobs", type=_whole_number(1), default=None,
                      help=_("processes to play on (default: every core); the results are the same for any number"))
    tour.set_defaults(func=cmd_tournament)

    rev = sub.add_parser("review", help=_("review one seat's decisions in every giv of a record file: which moves "
                                          "cost points, how many, and why"))
    rev.add_argument("file", metavar="GIVAR.jsonl", help=_("a JSON Lines file of givar, as simulate and tournament "
                                                           "write with --record"))
    rev.add_argument("--seat", type=_whole_number(0), default=0, help=_("the seat to review (default 0)"))
    rev.add_argument("--samples", "--budget", type=_whole_number(1, 400), default=24,
                     help=_("deals of the unseen cards per decision, 1–400 (default 24): more for narrower intervals"))
    rev.add_argument("--seed", type=int, default=0)
    rev.add_argument("--json", action="store_true", help=_("one JSON object per giv, each decision with its verdict"))
    rev.add_argument("--jobs", type=_whole_number(1), default=None,
                     help=_("processes to review on (default: every core); the results are the same for any number"))
    rev.set_defaults(func=cmd_review)

    sheet = sub.add_parser("rules-sheet", help=_("write the one-page rules sheet to print (HTML, A4)"))
    sheet.add_argument("--out", default=None, metavar="FILE", help=_("write it to this file (default: print it)"))
    sheet.add_argument("--rules", default=None, help=_("a preset name, a JSON file of options, or inline JSON"))
    sheet.set_defaults(func=cmd_rules_sheet)

    site = sub.add_parser("build-site", help=_("the lessons as a static site: Python runs in each learner's browser "
                                             "(voici; docs/deploy.md)"))
    site.add_argument("out", metavar="OUT", help=_("the folder to write the site to (new, empty, or an earlier site)"))
    site.add_argument("--pyodide", default=None, metavar="DIR|npm",
                      help=_("a local Pyodide for a site that needs no internet: a folder with pyodide.js, or npm "
                           "(assemble one from the npm package pyodide); default: Pyodide's CDN"))
    site.add_argument("--lang", type=_language_arg, default=None, metavar="sv|en",
                      help=_("the lessons' language (KRYPTEACH_LANG in every page's kernel)"))
    site.add_argument("--config", default=None, metavar="FILE",
                      help=_("a classroom file (docs/classroom.md): the lessons shown, the games' rules and bots, "
                           "the language and caps; codes and the progress store do not apply to a static site"))
    site.add_argument("--dir", type=_lessons_folder, default=None, help=_("lessons folder (default: the installed lessons)"))
    site.set_defaults(func=cmd_build_site)

    puz = sub.add_parser("puzzles", help=_("check (re-prove) the shipped capture puzzles, or generate a set"))
    puz.add_argument("--check", action="store_true", help=_("re-prove every puzzle; exit non-zero if any fails"))
    puz.add_argument("--file", default=None, help=_("a puzzle file instead of the shipped one"))
    puz.add_argument("--show", default=None, metavar="ID", help=_("print one puzzle with its answer"))
    puz.add_argument("--generate", action="store_true", help=_("generate a new set (see --seed, --per, --out)"))
    puz.add_argument("--seed", type=int, default=2024)
    puz.add_argument("--per", type=_whole_number(1, 100), default=5, help=_("puzzles per kind and difficulty, 1–100"))
    puz.add_argument("--out", default=None)
    puz.set_defaults(func=cmd_puzzles)
    return p


def cmd_build_site(args: argparse.Namespace) -> int:
    """``krypteach build-site OUT``: the lessons as a static site (:mod:`krypteach.site`)."""
    from .site import SiteError, build_site

    folder = lessons_dir(args.dir)
    cfg = _classroom_config(args.config)
    try:
        shown = cfg.lesson_files(folder)
    except ValueError as e:
        raise SystemExit(f"krypteach: {e}") from None
    start = _lesson_file(folder, 0) if any(folder.glob("00*.ipynb")) else None
    if shown is not None and start is not None and start not in shown:
        shown.insert(0, start)
    env = job_caps_env(cfg.max_givar or 2000, cfg.max_job_seconds or 120)
    env.update(classroom_env(cfg, shown))
    if args.lang:
        env["KRYPTEACH_LANG"] = args.lang
    try:
        result = build_site(args.out, folder, pyodide=args.pyodide, shown=shown, env=env)
    except SiteError as e:
        message = str(e)
        raise SystemExit(message if message.startswith("krypteach") else f"krypteach: {message}") from None
    print(result.summary())
    return 0


def cmd_rules_sheet(args: argparse.Namespace) -> int:
    """``krypteach rules-sheet``: the rules on one printed page, as ``/krypteach/rules`` serves it."""
    from .views.rules_sheet import rules_sheet_html

    page = rules_sheet_html(rules_from_arg(args.rules, None))
    if args.out is None:
        sys.stdout.write(page)
        return 0
    from .play.outputs import OutputError, check_output_path

    try:
        path = check_output_path(args.out, "--out")
    except OutputError as e:
        raise SystemExit(f"krypteach: {e}") from None
    path.write_text(page, encoding="utf-8")
    print(_("rules sheet written to {path}: open it in a browser and print it (one A4 page)").format(path=path))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """The review of one seat in every giv of a record file: each decision's verdict, the loss
    against the best move with its interval, and why (``--json``: one JSON object a line)."""
    import json

    from tqdm import tqdm  # type: ignore[import-untyped]

    from .engine.records import RecordError, read_records
    from .i18n.numbers import percent
    from .play.review import review_givar

    try:
        givar = list(read_records(args.file))
    except OSError as e:
        raise SystemExit(_("krypteach: {file}: cannot read it ({problem})").format(
            file=args.file, problem=e.strerror or e)) from None
    except RecordError as e:
        raise SystemExit(f"krypteach: {args.file}: {e}") from None
    if not givar:
        raise SystemExit(_("krypteach: {file}: no giv in it").format(file=args.file))
    bar = tqdm(total=len(givar), unit=_("giv"), disable=args.json or not sys.stderr.isatty(), file=sys.stderr)
    try:
        reviews = review_givar(givar, seat=args.seat, samples=args.samples, seed=args.seed, jobs=args.jobs,
                               progress=lambda n: bar.update(n - bar.n))
    except ValueError as e:
        raise SystemExit(f"krypteach: --seat {args.seat}: {e}") from None
    finally:
        bar.close()
    if args.json:
        for r in reviews:
            print(json.dumps(r, ensure_ascii=False))
        return 0
    for r in reviews:
        flagged = [d for d in r["decisions"] if d["verdict"] != "fine"]
        print(_("Giv {n} ({game}), seat {seat}: move quality {quality} ({decisions} decisions with a choice, "
                "{flagged} flagged)").format(n=r["giv"], game=r["game"], seat=r["seat"],
                                             quality=percent(r["quality"]), decisions=len(r["decisions"]),
                                             flagged=len(flagged)))
        for d in flagged:
            print(_("  move {ply}: {why}").format(ply=d["ply"] + 1, why=d["why"]))
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """``krypteach tournament``: see ``krypteach tournament --help``."""
    from .bots import BotError
    from .play.tournament import check_bots, tournament

    rules = rules_from_arg(args.rules, args.players)
    bots = [b.strip() for b in args.bots.split(",")]
    givar = args.givar if args.givar is not None else 10 * len(bots)
    try:
        bots = list(check_bots(bots, givar, rules))
    except BotError as e:
        raise SystemExit(f"krypteach: --bots {args.bots!r}: {e}") from None
    except ValueError as e:
        message = str(e).removeprefix(f"givar={givar!r} ")
        raise SystemExit(f"krypteach: --givar {givar} {message}") from None
    with _outputs(args, ["giv", "seat", "bot", "score"]) as out:

        def on_giv(g: Giv, lineup: tuple[str, ...]) -> None:
            scores = g.result.scores
            out.add(g, ([out.count, s, lineup[s], scores[s]] for s in range(rules.players)))

        try:
            t = tournament(rules, givar, bots, seed=args.seed, progress=None, on_giv=on_giv, jobs=args.jobs)
        except ValueError as e:  # a bot that breaks a rule
            raise SystemExit(f"krypteach: {e}") from None
    print(t.summary())
    out.report()
    return 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    """``krypteach puzzles``: check the shipped puzzles, or generate a set."""
    from collections import Counter

    from .teaching.puzzles import (
        ALL_KINDS,
        DIFFICULTIES,
        KINDS,
        check_puzzles,
        load_puzzles,
        make_puzzle_set,
        save_puzzles,
        solve,
    )

    if args.generate:
        from .play.outputs import OutputError, check_output_path

        out = args.out or "puzzles.json"
        try:
            check_output_path(out, "--out")
        except OutputError as e:
            raise SystemExit(f"krypteach: {e}") from None
        puzzles = make_puzzle_set(args.seed, args.per)
        counts, problems = check_puzzles(puzzles)
        save_puzzles(puzzles, out, seed=args.seed, per=args.per,
                     generator=f"krypteach.teaching.puzzles.make_puzzle_set({args.seed}, {args.per})")
        print(ngettext("{n} puzzle written to {out}", "{n} puzzles written to {out}", len(puzzles)).format(
            n=len(puzzles), out=out))
        return 1 if problems else 0
    try:  # the shipped check covers both games: Krypkasino's puzzles and classic Kasino's build puzzles
        puzzles = load_puzzles(args.file) if args.file else load_puzzles(game="all")
    except OSError as e:
        print(_("krypteach: --file {file}: cannot read it ({reason})").format(file=args.file, reason=e.strerror or e),
              file=sys.stderr)
        return 2
    except ValueError as e:
        print(_("krypteach: cannot read the puzzles: {reason}").format(reason=e), file=sys.stderr)
        return 2
    if args.show:
        for p in puzzles:
            if p.id == args.show:
                print(p.prompt)
                print(_("Answer: {answers}").format(answers=", ".join(p.answers)))
                print(solve(p).explanation)
                return 0
        print(_("krypteach: --show {id}: no puzzle with that id (ids look like {example})").format(
                  id=args.show, example=puzzles[0].id)
              if puzzles else _("krypteach: --show {id}: there are no puzzles").format(id=args.show), file=sys.stderr)
        return 2
    counts, problems = check_puzzles(puzzles)
    for kind in ALL_KINDS:
        if kind not in KINDS and not counts[kind]:
            continue
        by_diff = Counter(p.difficulty for p in puzzles if p.kind == kind)
        detail = ", ".join(f"{by_diff[d]} {d}" for d in DIFFICULTIES if by_diff[d])
        print(f"{kind:<20} {counts[kind]:3d}  ({detail})")
    kasino = sum(1 for p in puzzles if p.kind not in KINDS)
    if kasino:
        print(_("{krypkasino} puzzles of Krypkasino, {kasino} build puzzles of classic Kasino and avig kasino").format(
            krypkasino=len(puzzles) - kasino, kasino=kasino))
    print(ngettext("{n} puzzle", "{n} puzzles", len(puzzles)).format(n=len(puzzles)))
    if problems:
        for line in problems:
            print(_("FAILED: {problem}").format(problem=line))
        print(ngettext("{n} problem: the solver could not prove every puzzle",
                       "{n} problems: the solver could not prove every puzzle", len(problems)).format(n=len(problems)))
        return 1
    if args.check:
        print(_("every answer proved by the solver"))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status. Bad input is one line on
    stderr, ``krypteach: …``, and status 1 (2 for a usage error found by argparse,
    which exits through ``SystemExit``)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # the command line's own words (help, errors, what it prints) in the language of --lang,
    # else $KRYPTEACH_LANG, else English; serve switches to the classroom file's language once read
    with use_language(_lang_in(argv) or language()):
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        func: Callable[[argparse.Namespace], int] = args.func  # set by each subparser's set_defaults
        try:
            return func(args)
        except SystemExit as e:
            if not isinstance(e.code, str):
                raise
            print(e.code, file=sys.stderr)
            return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The classroom configuration file (TOML): ``krypteach serve --config klass.toml``.

Read with the standard library (:mod:`tomllib`) and checked key by key: a bad key or
value is one :class:`ConfigError` naming the key and what is allowed. Every key is
optional; the command line's own options win over the file. The example, with every
key, is :data:`EXAMPLE` (and docs/classroom.md).

>>> cfg = ClassroomConfig.from_text(EXAMPLE)
>>> cfg.class_code, cfg.lessons[:3], cfg.game_rules, cfg.bots, cfg.max_givar, cfg.language
('K7RPX', ['00', '01', '02'], 'krypkasino', ['random', 'careful'], 1000, 'sv')
>>> ClassroomConfig.from_text('[class]\\ncolour = "red"')
Traceback (most recent call last):
...
krypteach.classroom.config.ConfigError: [class] colour is not a key here; the keys of [class] are: code, teacher_code, language
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import N_, _

__all__ = ["EXAMPLE", "LANGUAGES", "ClassroomConfig", "ConfigError"]

LANGUAGES = ("sv", "en")

EXAMPLE = """\
# krypteach classroom configuration: krypteach serve --config klass.toml

[class]
code = "K7RPX"              # the code learners type once (letters and digits, 4 or more)
teacher_code = "LARARE2481" # opens /krypteach/teacher (6 or more; never the class code)
language = "sv"             # "sv" or "en"

[lessons]
# the lessons shown, in this order (their numbers); the start page lists them so
show = ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09"]
first = "07"                # the lesson the class starts with (kept warm for the class)

[game]
rules = "krypkasino"        # the rule preset of the lessons' games (krypteach.engine.rules.PRESETS)
bots = ["random", "careful"]  # the computer players a learner may choose

[live]
bot = "careful"             # the computer player of a table's empty seats (and of a learner gone too long)
replace_after = 60          # seconds a learner's page may be gone before the computer plays their seat
hints = false               # true: a learner at a table may ask for a hint, as against the computer

[caps]
max_givar = 1000            # givar one run of the variant lab may play per rule set
max_job_seconds = 120       # seconds one long job in a page may run

[server]
class_size = 30             # warm this many pages of the first lesson before the class arrives
progress = ""               # a SQLite file or postgresql://...; "" for the default file, "off" for none
"""

#: section -> key -> (type, what is allowed: translated where shown)
_SCHEMA: dict[str, dict[str, tuple[type | tuple[type, ...], str]]] = {
    "class": {"code": (str, N_("text, 4 or more letters or digits")),
              "teacher_code": (str, N_("text, 6 or more letters or digits")),
              # i18n: the values of LANGUAGES, as typed in the file
              "language": (str, N_('"sv" or "en"'))},
    "lessons": {"show": (list, N_('a list of lesson numbers such as ["00", "01"]')),
                "first": (str, N_('a lesson number such as "07"'))},
    "game": {"rules": (str, N_("a rule preset name")),
             "bots": (list, N_('a list of computer players such as ["random", "careful"]'))},
    "live": {"bot": (str, N_('one computer player such as "careful"')),
             "replace_after": (int, N_("a whole number of seconds from 5 to 3,600")),
             "hints": (bool, N_("true or false"))},
    "caps": {"max_givar": (int, N_("a whole number from 1 to 100,000")),
             "max_job_seconds": (int, N_("a whole number from 5 to 86,400"))},
    "server": {"class_size": (int, N_("a whole number from 0 to 200")),
               "progress": (str, N_('a file, a postgresql:// address, "" or "off"'))},
}


def _not_allowed(where: str, section: str, key: str, value: object, allowed: str) -> ConfigError:
    # i18n: {where} is "" or "klass.toml: "; [{section}] {key} as in the file
    return ConfigError(_("{where}[{section}] {key} = {value} is not allowed: {allowed}").format(
        where=where, section=section, key=key, value=repr(value), allowed=allowed))


class ConfigError(ValueError):
    """A classroom file that cannot be used; the message names the key and what is allowed."""


@dataclass
class ClassroomConfig:
    """What a classroom file says (None: not said, the command line or the default decides)."""

    class_code: str | None = None
    teacher_code: str | None = None
    language: str | None = None
    lessons: list[str] | None = None
    first_lesson: str | None = None
    game_rules: str | None = None
    bots: list[str] | None = None
    live_bot: str | None = None
    live_replace_after: int | None = None
    live_hints: bool | None = None
    max_givar: int | None = None
    max_job_seconds: int | None = None
    class_size: int | None = None
    progress: str | None = None
    source: str = "<text>"
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> ClassroomConfig:
        """Read and check a classroom file."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise ConfigError(_("{path}: cannot read the classroom file: {why}").format(path=p, why=e.strerror)) \
                from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ConfigError(_("{path}: the classroom file is not UTF-8 text (byte {n})").format(path=p, n=e.start)) \
                from None
        return cls.from_text(text, source=str(p))

    @classmethod
    def from_text(cls, text: str, source: str = "<text>") -> ClassroomConfig:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(_("{path}: not valid TOML: {why}").format(path=source, why=e)) from None
        except RecursionError:  # arrays or tables nested thousands deep
            raise ConfigError(_("{path}: not a classroom file: its values are nested too deep").format(
                path=source)) from None
        where = "" if source == "<text>" else f"{source}: "
        for section, body in raw.items():
            if section not in _SCHEMA:
                raise ConfigError(_("{where}[{section}] is not a section here; the sections are: {sections}").format(
                    where=where, section=section, sections=", ".join(f"[{s}]" for s in _SCHEMA)))
            if not isinstance(body, dict):
                raise ConfigError(_("{where}{section} must be a section [{section}], not a single value").format(
                    where=where, section=section))
            for key, value in body.items():
                if key not in _SCHEMA[section]:
                    raise ConfigError(_("{where}[{section}] {key} is not a key here; the keys of [{section}] are: "
                                        "{keys}").format(where=where, section=section, key=key,
                                                         keys=", ".join(_SCHEMA[section])))
                kind, allowed = _SCHEMA[section][key]
                if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
                    raise _not_allowed(where, section, key, value, _(allowed))
        cfg = cls(source=source)

        def get(s: str, k: str) -> Any:  # the value, checked against _SCHEMA above, or None
            return raw.get(s, {}).get(k)

        cfg.class_code = get("class", "code")
        cfg.teacher_code = get("class", "teacher_code")
        cfg.language = get("class", "language")
        cfg.lessons = get("lessons", "show")
        cfg.first_lesson = get("lessons", "first")
        cfg.game_rules = get("game", "rules")
        cfg.bots = get("game", "bots")
        cfg.live_bot = get("live", "bot")
        cfg.live_replace_after = get("live", "replace_after")
        cfg.live_hints = get("live", "hints")
        cfg.max_givar = get("caps", "max_givar")
        cfg.max_job_seconds = get("caps", "max_job_seconds")
        cfg.class_size = get("server", "class_size")
        cfg.progress = get("server", "progress")
        cfg._check(where)
        return cfg

    def _check(self, where: str) -> None:
        from ..bots import BOT_LEVELS
        from ..engine.rules import PRESETS, Rules

        def bad(section: str, key: str, value: object, allowed: str) -> ConfigError:
            return _not_allowed(where, section, key, value, allowed)

        def schema(section: str, key: str) -> str:
            return _(_SCHEMA[section][key][1])

        def letters(text: str) -> int:
            return sum(ch.isalnum() for ch in text)

        if self.class_code is not None and letters(self.class_code) < 4:
            raise bad("class", "code", self.class_code, schema("class", "code"))
        if self.teacher_code is not None and letters(self.teacher_code) < 6:
            raise bad("class", "teacher_code", self.teacher_code, schema("class", "teacher_code"))
        if (self.class_code and self.teacher_code
                and self.class_code.replace(" ", "").upper() == self.teacher_code.replace(" ", "").upper()):
            raise ConfigError(_("{where}[class] teacher_code must not be the class code: learners know that one")
                              .format(where=where))
        if self.language is not None and self.language not in LANGUAGES:
            raise bad("class", "language", self.language, schema("class", "language"))
        for key, values in (("show", self.lessons), ("first", [self.first_lesson] if self.first_lesson else None)):
            for v in values or []:
                if not (isinstance(v, str) and len(v) == 2 and v.isdigit()):
                    raise bad("lessons", key, v, _('two-digit lesson numbers such as "03"'))
        if self.lessons is not None:
            if not self.lessons:
                raise bad("lessons", "show", self.lessons, _("at least one lesson"))
            if len(set(self.lessons)) != len(self.lessons):
                raise bad("lessons", "show", self.lessons, _("each lesson once"))
            if self.first_lesson and self.first_lesson not in self.lessons:
                raise bad("lessons", "first", self.first_lesson, _("one of the lessons shown"))
        # the lessons' game page plays every preset: Krypkasino's, then classic Kasino's (with builds)
        offered = [name for game in ("krypkasino", "kasino") for name in PRESETS if Rules.preset(name).game == game]
        if self.game_rules is not None and self.game_rules not in offered:
            raise bad("game", "rules", self.game_rules, _("one of {names}").format(names=", ".join(offered)))
        if self.bots is not None:
            if not self.bots or any(not isinstance(b, str) or b not in BOT_LEVELS for b in self.bots):
                raise bad("game", "bots", self.bots, _("one or more of {names}").format(names=", ".join(BOT_LEVELS)))
        if self.live_bot is not None and self.live_bot not in BOT_LEVELS:
            raise bad("live", "bot", self.live_bot, _("one of {names}").format(names=", ".join(BOT_LEVELS)))
        for section, key, lo, hi in (("caps", "max_givar", 1, 100_000), ("caps", "max_job_seconds", 5, 86_400),
                                     ("server", "class_size", 0, 200), ("live", "replace_after", 5, 3600)):
            value = getattr(self, "live_" + key if section == "live" else key)
            if value is not None and not lo <= value <= hi:
                raise bad(section, key, value, schema(section, key))

    def lesson_files(self, folder: Path) -> list[str] | None:
        """The notebook file names shown, in order (None: every lesson), each checked to exist."""
        if self.lessons is None:
            return None
        out = []
        for number in self.lessons:
            found = sorted(p.name for p in folder.glob(f"{number}_*.ipynb"))
            if not found:
                have = ", ".join(sorted(p.name[:2] for p in folder.glob("[0-9][0-9]_*.ipynb")))
                raise ConfigError(_("{path}: [lessons] show names lesson {number}, which is not in {folder} "
                                    "(lessons: {have})").format(path=self.source, number=number, folder=folder,
                                                                have=have))
            out.append(found[0])
        return out

"""Issue 19: one word for each thing, as the seeds say it, in every catalog.

The glossary is the table under "## Words" in docs/i18n.md; its last column lists the words it
retires (``sv`` ones in the Swedish translations, ``en`` ones in the English texts). This test
reads them from the doc itself, so the doc and the check cannot drift apart, and fails naming
the msgid of each message that still uses one. A retired word is allowed only where the doc's
exceptions table says so. The same test holds the typography: a Swedish text has no "—"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from krypteach.i18n import DOMAINS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "i18n.md"
LOCALE = ROOT / "krypteach" / "i18n" / "locale"


def _words_section(text: str) -> str:
    start = text.index("\n## Words\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def _tables(section: str) -> list[list[list[str]]]:
    """Every markdown table of ``section``: its rows (without the header and the rule), as cells."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            tables.append(rows[2:])
            rows = []
    return tables


def _retired_in(cell: str) -> list[tuple[str, str]]:
    """(language, word) pairs of a "retired" cell: ``sv `a`, `b`; en `c` ``; ``sv, en `d` ``."""
    found = []
    for langs, words in re.findall(r"\b(sv, en|sv|en)\s+((?:`[^`]+`(?:\s*,\s*)?)+)", cell):
        for word in re.findall(r"`([^`]+)`", words):
            found.extend((lang, word) for lang in langs.split(", "))
    return found


def glossary(doc: Path = DOC) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The doc's retired words, ``[(lang, word)]``, and its exceptions, ``[(lang, word, piece)]``."""
    tables = _tables(_words_section(doc.read_text(encoding="utf-8")))
    words_table = next(t for t in tables if t and len(t[0]) == 4)
    retired = [pair for row in words_table for pair in _retired_in(row[3])]
    exceptions_table = next(t for t in tables if t and len(t[0]) == 3)
    exceptions = []
    for row in exceptions_table:
        [(lang, word)] = _retired_in(row[0])
        piece = re.fullmatch(r"`(.+)`", row[1])
        assert piece, f"docs/i18n.md: an exception's piece must be in backticks: {row[1]!r}"
        exceptions.append((lang, word, piece.group(1)))
    return retired, exceptions


def pattern(word: str) -> re.Pattern[str]:
    """A whole-word, any-case pattern for a retired ``word`` (``*`` at the end: any ending)."""
    stem, tail = (word[:-1], r"\w*") if word.endswith("*") else (word, "")
    return re.compile(rf"(?<!\w){re.escape(stem)}{tail}(?!\w)", re.IGNORECASE)


def texts(locale: Path = LOCALE) -> list[tuple[str, str, str, str]]:
    """Every text of every catalog: ``(domain, lang, msgid, text)``; the English texts are the
    msgids (the source), the Swedish ones the translations."""
    out = []
    for domain in DOMAINS:
        with (locale / "sv" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            catalog = read_po(f, locale="sv")
        for m in catalog:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            out.extend((domain, "en", ids[0], i) for i in ids)
            out.extend((domain, "sv", ids[0], s) for s in strings if s)
    return out


def problems(items: list[tuple[str, str, str, str]], retired: list[tuple[str, str]],
             exceptions: list[tuple[str, str, str]]) -> list[str]:
    """What breaks the glossary: a retired word (not excepted), or "—" in a Swedish text."""
    found = []
    for domain, lang, msgid, text in items:
        for word_lang, word in retired:
            if word_lang != lang:
                continue
            allowed = [piece for e_lang, e_word, piece in exceptions if (e_lang, e_word) == (lang, word)]
            rest = re.sub(r"\{\w*\}", " ", text)  # a placeholder's name is not a word of the text
            for piece in allowed:
                rest = rest.replace(piece, " ")
            hit = pattern(word).search(rest)
            if hit:
                found.append(f"{domain}/{lang}: retired {word!r} ({hit.group(0)!r}) in msgid {msgid[:90]!r}")
        if lang == "sv" and "—" in text:
            found.append(f"{domain}/sv: '—' (Swedish writes a spaced en dash ' – ') in msgid {msgid[:90]!r}")
    return found


RETIRED, EXCEPTIONS = glossary()


def test_the_doc_retires_the_words_of_issue_19():
    words = {w for _lang, w in RETIRED}
    assert {"tvilling*", "intag*", "kvar i leken", "rundan", "baklänges", "protokollfil*", "given delar",
            "match*", "gives away"} <= words
    assert ("en", "match*") in RETIRED and ("sv", "tvilling*") in RETIRED
    assert ("sv", "storan 2") in RETIRED and ("en", "storan 2") in RETIRED  # "sv, en" gives both
    assert EXCEPTIONS and all(lang in ("sv", "en") for lang, _w, _p in EXCEPTIONS)


def test_every_catalog_follows_the_glossary():
    found = problems(texts(), RETIRED, EXCEPTIONS)
    assert not found, "\n".join(found)


def test_every_exception_is_still_needed():
    """An exception that no message needs any more is taken out of the doc."""
    items = texts()
    for lang, word, piece in EXCEPTIONS:
        assert (lang, word) in RETIRED, f"docs/i18n.md: the exception {piece!r} is for a word not retired: {word!r}"
        used = [t for _d, t_lang, _i, t in items if t_lang == lang and piece in t and pattern(word).search(piece)]
        assert used, f"docs/i18n.md: no {lang} text needs the exception {piece!r} any more"


@pytest.mark.parametrize(("item", "said"), [
    (("teaching", "sv", "You take {cards} with its twin {card}", "Du tar {cards} med tvillingkortet {card}"),
     "teaching/sv: retired 'tvilling*' ('tvillingkortet') in msgid 'You take {cards} with its twin {card}'"),
    (("widgets", "en", "Find the träffar (find the matches)", "Find the träffar (find the matches)"),
     "widgets/en: retired 'match*' ('matches') in msgid 'Find the träffar (find the matches)'"),
    (("views", "sv", "{game} — the rules", "{game} — reglerna"),
     "views/sv: '—' (Swedish writes a spaced en dash ' – ') in msgid '{game} — the rules'"),
])
def test_a_retired_word_is_named_with_its_msgid(item, said):
    """The words the catalogs used before issue 19 fail the check, naming the message."""
    assert problems([item], RETIRED, EXCEPTIONS) == [said]


def test_whole_words_only_and_the_exceptions_hold():
    assert pattern("intag*").search("Med fritt intag får du")
    assert not pattern("intag*").search("du tar in ett kort")
    assert not pattern("rundan").search("runt bordet") and not pattern("match*").search("rematchen")
    fine = [("engine", "en", "x", "{where}: the stored result {stored} does not match the replay {replayed}"),
            ("lessons", "en", "y", "A **parti** (match) is several givar"),
            ("views", "sv", "z", "Krypkasino – reglerna på en sida")]
    assert problems(fine, RETIRED, EXCEPTIONS) == []
    assert problems([("lessons", "en", "w", "A **parti** (match) is a match")], RETIRED, EXCEPTIONS) == [
        "lessons/en: retired 'match*' ('match') in msgid 'w'"]

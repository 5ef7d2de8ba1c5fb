"""Find English sentences in text meant to be Swedish (issue 19: "no English sentence", not just no
untranslated message id: a sentence built in code from English pieces has no msgid at all).

A sentence (split at . ! ? : ; and line ends) is English when it holds two or more of the common
English words below, none of which is a Swedish word (so "in", "be", "get", "by", "from", "man"
are left out: ta *in*, *be*, *get*, *by*)."""

from __future__ import annotations

import re

ENGLISH = frozenset("""
the you your yours and is it its of to with for takes take taken taking points point this that these those
not are can cards card table seat move moves which what there nothing legal play plays played will into
only next turn has have was were a an on or if when about better expected looking ahead unseen may lie
fine either gets no yes one two three any every each other than more less most least should would could
must why how here been being do does did done try again answer check show hide wrong right correct
""".split())

_SENTENCE = re.compile(r"[.!?:;\n]+")
_WORD = re.compile(r"[A-Za-zÅÄÖåäöÉé]+")
_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")  # 9♣, A♠: not words


def english_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that read as English (two or more English-only words)."""
    out = []
    for sentence in _SENTENCE.split(_CARD.sub(" ", text)):
        words = [w.lower() for w in _WORD.findall(sentence)]
        if sum(w in ENGLISH for w in words) >= 2:
            out.append(sentence.strip())
    return out

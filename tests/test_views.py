"""Tests for krypteach.views (pure SVG drawing of cards)."""
import re
import xml.etree.ElementTree as ET

import pytest

from krypteach.i18n import use_language
from krypteach.views import card_label, card_name, card_svg, row_svg, stack_svg

NS = "{http://www.w3.org/2000/svg}"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
CODES = [r + s for s in "SHDC" for r in RANKS]
RED, BLACK, BLUE, GREEN = "#c8102e", "#1b1b1b", "#1f5fbf", "#1a7f37"


class FakeCard:
    """Stand-in for the engine's Card: only str() matters."""

    def __init__(self, code):
        self.code = code

    def __str__(self):
        return self.code


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def texts(root):
    return [t.text for t in root.iter(NS + "text")]


def fills(root):
    return {t.get("fill") for t in root.iter(NS + "text")}


@pytest.mark.parametrize("code", CODES)
def test_every_card_is_valid_svg_with_its_name(code):
    root = parse(card_svg(code))
    assert root.get("aria-label") == card_name(code)
    assert root.get("role") == "img"
    assert root.get("width") == "72" and root.get("height") == "101"
    assert root.get("viewBox") == "0 0 100 140"  # drawn in a 5:7 box, scaled to the width
    assert root.find(NS + "title").text == card_name(code)
    rank = code[:-1]
    assert rank in texts(root)
    assert card_label(code)[-1] in texts(root)


def test_card_object_is_accepted_and_output_is_deterministic():
    assert card_svg(FakeCard("10D")) == card_svg("10D")
    assert card_svg(FakeCard("10H")) == card_svg("10H") != card_svg("10D")  # the object's text decides
    assert card_name(FakeCard("2S")) == "2 of spades (lillan)"


@pytest.mark.parametrize("width", [40, 60, 72, 90, 131])
def test_aspect_ratio(width):
    root = parse(card_svg("5C", width=width))
    assert root.get("width") == str(width)
    assert root.get("height") == str(round(width * 7 / 5))


@pytest.mark.parametrize("code", CODES)
def test_two_colour_deck(code):
    colour = RED if code[-1] in "HD" else BLACK
    assert fills(parse(card_svg(code))) == {colour}


@pytest.mark.parametrize("suit, colour", [("S", BLACK), ("H", RED), ("D", BLUE), ("C", GREEN)])
def test_four_colour_deck(suit, colour):
    for rank in RANKS:
        assert fills(parse(card_svg(rank + suit, four_color=True))) == {colour}


def test_selected_changes_border_not_size():
    plain, chosen = card_svg("7H"), card_svg("7H", selected=True)
    assert plain != chosen
    assert "#f0a400" in chosen and "#f0a400" not in plain
    a, b = parse(plain), parse(chosen)
    assert (a.get("width"), a.get("height"), a.get("viewBox")) == \
        (b.get("width"), b.get("height"), b.get("viewBox"))


def test_face_down_shows_no_rank():
    svg = card_svg("KH", face_down=True)
    root = parse(svg)
    assert texts(root) == []
    assert "kung" not in svg and "hjärter" not in svg and "♥" not in svg
    assert root.get("aria-label") == root.find(NS + "title").text
    assert card_svg(None, face_down=True) == card_svg("2C", face_down=True)


def test_attrs_are_escaped_on_root():
    root = parse(card_svg("AS", attrs={"class": "card", "data-code": 'a"<b>&'}))
    assert root.get("class") == "card"
    assert root.get("data-code") == 'a"<b>&'
    with pytest.raises(ValueError, match="bad SVG attribute name: 'bad name'"):
        card_svg("AS", attrs={"bad name": "x"})


def row_width(svg):
    return int(parse(svg).get("width"))


def test_row_svg_sizes():
    empty, one = row_svg([]), row_svg(["AS"])
    thirteen = row_svg(CODES[:13])
    assert "empty" in texts(parse(empty))
    assert row_width(empty) <= row_width(one) < row_width(row_svg(["AS", "2S"])) \
        < row_width(thirteen)
    root = parse(thirteen)
    assert len(root.findall(NS + "svg")) == 13
    assert root.get("height") == "101"


def test_row_svg_label_overlap_and_selection():
    assert "bordet" in texts(parse(row_svg([], label="bordet")))
    fanned = row_svg(CODES[:13], overlap=0.5)
    assert row_width(fanned) < row_width(row_svg(CODES[:13]))
    assert row_width(row_svg(CODES[:13], overlap=5)) == row_width(row_svg(CODES[:13], overlap=0.7))
    picked = parse(row_svg(["AS", "KH", "10D"], selected={1}))
    marks = ["#f0a400" in ET.tostring(s, encoding="unicode") for s in picked.findall(NS + "svg")]
    assert marks == [False, True, False]
    colours = fills(parse(row_svg(["AD", "AC"], four_color=True)))
    assert {BLUE, GREEN} <= colours


@pytest.mark.parametrize("count", [0, 1, 3, 52])
def test_stack_svg(count):
    root = parse(stack_svg(count, label="klädda högen"))
    assert str(count) in texts(root)
    assert "klädda högen" in texts(root)
    assert str(count) in root.get("aria-label")


def test_stack_svg_rejects_negative():
    with pytest.raises(ValueError, match="count must be >= 0, got -1"):
        stack_svg(-1)


@pytest.mark.parametrize("bad", ["", "1S", "11H", "ZS", "10X", "10", "as", "A S", "KDD"])
def test_bad_code_raises_naming_the_text(bad):
    for func in (card_svg, card_name, card_label):
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            func(bad)
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        row_svg(["AS", bad])


@pytest.mark.parametrize("code, sv, en", [
    ("10D", "ruter 10 (storan)", "10 of diamonds (storan)"), ("2S", "spader 2 (lillan)", "2 of spades (lillan)"),
    ("AS", "spader ess", "ace of spades"), ("QH", "hjärter dam", "queen of hearts"),
    ("JC", "klöver knekt", "jack of clubs"), ("KD", "ruter kung", "king of diamonds"), ("7H", "hjärter 7", "7 of hearts"),
])
def test_card_name_follows_the_page_language(code, sv, en):
    """A screen reader reads a card in the page's language (issue 21: "hjärter 10" on English pages)."""
    with use_language("sv"):
        assert card_name(code) == sv
    with use_language("en"):
        assert card_name(code) == en


@pytest.mark.parametrize("code, label", [("10D", "10♦"), ("AS", "A♠"), ("QH", "Q♥"), ("2C", "2♣")])
def test_card_label(code, label):
    assert card_label(code) == label

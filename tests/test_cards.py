import pickle

import pytest

from krypteach import Card, CardParseError, double_deck, parse_cards


@pytest.mark.parametrize("text, code", [
    ("10d", "10D"), ("10D", "10D"), ("10♦", "10D"), ("as", "AS"), ("A♠", "AS"), ("q♥", "QH"),
    (" 7 c ", "7C"), ("K♣", "KC"), ("j♢", "JD"), ("2S", "2S"),
])
def test_parse_is_case_insensitive_and_takes_symbols(text, code):
    assert str(Card.parse(text)) == code
    assert Card(text) is Card.parse(code)


@pytest.mark.parametrize("bad", ["11H", "ZZ", "", "10", "♠", "10DD", "AX", "KK"])
def test_bad_text_names_the_text(bad):
    with pytest.raises(CardParseError) as e:
        Card.parse(bad)
    assert repr(bad) in str(e.value)
    assert isinstance(e.value, ValueError)


def test_values_and_names():
    assert [Card(c).rank for c in ("AS", "2H", "10D", "JC", "QS", "KH")] == [1, 2, 10, 11, 12, 13]
    assert Card("10D").name == "ruter 10 (storan)" and Card("2S").name == "spader 2 (lillan)"
    assert Card("AS").name == "spader ess" and Card("QH").name == "hjärter dam"
    assert Card("KH").is_face and not Card("10H").is_face


def test_card_points():
    assert Card("10D").points == 3   # storan
    assert Card("2S").points == 2    # lillan
    assert Card("AS").points == 2    # spader ess
    assert Card("AH").points == 1 and Card("AD").points == 1 and Card("AC").points == 1
    assert Card("7S").points == 1 and Card("KS").points == 1
    assert Card("10H").points == 0 and Card("2D").points == 0 and Card("QH").points == 0
    assert sum(c.points for c in double_deck()) == 42


def test_cards_are_hashable_values_that_round_trip():
    c = Card("9H")
    assert {c: 1}[Card("9h")] == 1
    assert pickle.loads(pickle.dumps(c)) is c
    assert eval(repr(c)) is c
    assert sorted(parse_cards("KS 2H AS 2S")) == parse_cards("AS 2S 2H KS")


def test_double_deck_has_each_card_twice():
    deck = double_deck()
    assert len(deck) == 104 and all(deck.count(c) == 2 for c in set(deck))


def test_svg_display():
    from krypteach.views import card_svg

    svg = Card("10D")._repr_svg_()
    assert svg == card_svg("10D")  # the views' drawing of this very card
    assert svg.startswith("<svg") and "10 of diamonds (storan)" in svg

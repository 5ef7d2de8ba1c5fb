"""Every field of a Krypkasino move's explanation, word for word, with concrete cards
(docs/mutation/engine.md, "The explanations: engine/explain.py").

tests/test_explain.py checks that the words are right and said once and that the verdict is the
game's; these pin each branch's whole :class:`Explanation`: the message, the move it is about, the
träffar it splits a capture into, the cards that are ``missing`` or ``extra`` and the ``better``
moves the page offers, under the rule options that change them (the ace's value, the capture rule,
tvångstabbe on or off)."""

import pytest

from krypteach import Rules, parse_cards
from krypteach.engine.explain import explain_krypkasino_move
from krypteach.engine.moves import Explanation, Move
from krypteach.i18n import use_language


def E(legal, rule, message, move, *, traffar=(), missing="", extra="", better=(), tabbe=0):
    """An explanation written with card codes: ``traffar=["3C+4C"]``, ``missing="7C"``, ``better=["7H:7C"]``."""
    return Explanation(legal, rule, message, Move.parse(move),
                       traffar=tuple(tuple(parse_cards(g.replace("+", " "))) for g in traffar),
                       missing=tuple(parse_cards(missing)), extra=tuple(parse_cards(extra)),
                       better=tuple(Move.parse(m) for m in better), tabbe=tabbe)


CASES = [
    # a card not in the hand, a card not on the table (an empty hand and table said so; a card asked twice)
    (('', '5C', '2C', {}),
     E(False, 'not-in-hand', '2♣ is not in your hand (your hand: empty).', '2C')),
    (('9H 4S', '5C', '2C', {}),
     E(False, 'not-in-hand', '2♣ is not in your hand (your hand: 9♥ 4♠).', '2C')),
    (('KS', '', 'KS:KS', {}),
     E(False, 'not-on-table', 'K♠ is not on the table (the table: empty).', 'KS:KS', extra='KS')),
    (('9H', '4D', '9H:4D+4D', {}),
     E(False, 'not-on-table', '4♦ is not on the table (the table: 4♦).', '9H:4D+4D', extra='4D')),
    # tvångstabbe: the forced card itself, with one or two others that could take the whole table too,
    # another card where one or two could; the ace counts 14 only where the rules say so
    (('5C', '5S', '5C', {}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your 5♣ can take the whole table (5♠), so it must take everything.', '5C', missing='5S', better=['5C:5S'])),
    (('5C 5D', '5S', '5C', {}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your 5♣ can take the whole table (5♠), so it must take everything. You may play your 5♦ (5♠) instead: it too would take the whole table.', '5C', missing='5S', better=['5C:5S', '5D:5S'])),
    (('5C 5D 5H', '5S', '5C', {}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your 5♣ can take the whole table (5♠), so it must take everything. You may play your 5♦ (5♠) or your 5♥ (5♠) instead: each of them would take the whole table.', '5C', missing='5S', better=['5C:5S', '5D:5S', '5H:5S'])),
    (('5C 5D 2H', '5S', '2H', {}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your 5♣ (5♠) or your 5♦ (5♠) can take the whole table, so you must play one of them and take everything.', '2H', missing='5S', better=['5C:5S', '5D:5S'])),
    (('5C 2H', '5S', '2H', {}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your 5♣ can take the whole table (5♠), so you must play it and take everything.', '2H', missing='5S', better=['5C:5S'])),
    # without tvångstabbe a card with a träff must still capture
    (('5C', '5S', '5C', {'forced_tabbe': False}),
     E(False, 'must-capture', 'You may not creep (krypa) with 5♣: it has a träff — it can take 5♠. A card that can capture must capture.', '5C', better=['5C:5S'])),
    (('AS 6H', '7D 7C', '6H', {'ace': '14hand'}),
     E(False, 'tvangstabbe', 'Tvångstabbe (forced tabbe): your A♠ can take the whole table (7♦+7♣ = 14), so you must play it and take everything.', '6H', missing='7D 7C', better=['AS:7D+7C'])),
    (('AS 6H', '7D 7C', '6H', {'ace': '1'}),
     E(True, 'ok', '6♥ has no träff, so it creeps (kryper): it is laid on the table.', '6H')),
    # creeps: allowed under the free rule, or with no träff
    (('AD', 'AH 3C', 'AD', {'capture': 'free'}),
     E(True, 'ok', 'A♦ creeps (kryper); under the free rule you may creep even though it could capture.', 'AD')),
    (('KS', '', 'KS', {}),
     E(True, 'ok', 'K♠ has no träff, so it creeps (kryper): it is laid on the table.', 'KS')),
    # captures that are no träffar: the card has none here (an ace counting 1, an ace from the hand counting 14
    # and so taking no ace), one card that is none, two cards adding up to something else
    (('9H', '4D', '9H:4D', {}),
     E(False, 'not-traffar', '9♥ has no träff on this table, so it cannot take anything: it creeps.', '9H:4D', extra='4D', better=['9H'])),
    (('AC', '5D 9C', 'AC:5D', {'ace': '1'}),
     E(False, 'not-traffar', 'A♣ has no träff on this table, so it cannot take anything: it creeps.', 'AC:5D', extra='5D', better=['AC'])),
    (('AC 9S', 'AH', 'AC:AH', {'ace': '14hand'}),
     E(False, 'not-traffar', 'A♣ has no träff on this table, so it cannot take anything: it creeps.', 'AC:AH', extra='AH', better=['AC'])),
    (('JH', '8C 3C', 'JH:8C', {'forced_tabbe': False}),
     E(False, 'not-traffar', '8♣ is not a träff for your J♥: the cards you take must split into träffar: single cards of the same rank, or groups that add up to 11.', 'JH:8C', extra='8C', better=['JH:3C+8C'])),
    (('AD', 'AH 3C', 'AD:3C', {'ace': '1'}),
     E(False, 'not-traffar', '3♣ is not a träff for your A♦: the cards you take must split into träffar: single cards of the same rank, or groups that add up to 1.', 'AD:3C', extra='3C', better=['AD:AH'])),
    (('AD', 'AH 3C', 'AD:AH+3C', {}),
     E(False, 'not-traffar', 'A♥+3♣ is not a träff for your A♦: they add up to 4, and the cards you take must split into träffar: single cards of the same rank, or groups that add up to 14.', 'AD:AH+3C', extra='AH 3C', better=['AD:AH'])),
    # legal captures: a tabbe, a dubbeltabbe (the lone card's twin), cards that stay
    (('5C', '5S', '5C:5S', {}),
     E(True, 'ok', '5♣ takes 5♠. Tabbe: the table is empty!', '5C:5S', traffar=['5S'], tabbe=1)),
    (('9H', '9H', '9H:9H', {}),
     E(True, 'ok', '9♥ takes 9♥. Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two tabbar!', '9H:9H', traffar=['9H'], tabbe=2)),
    (('9C', '9S 5D 8C', '9C:9S', {}),
     E(True, 'ok', '9♣ takes 9♠; 5♦ 8♣ stay.', '9C:9S', traffar=['9S'])),
    # take all you can: the träff left behind, and the capture to make instead (one, or two to choose from)
    (('7H', '4C 3C 7C', '7H:7C', {'forced_tabbe': False}),
     E(False, 'take-all', 'You must take all you can: 3♣+4♣ also make 7 and would stay on the table. Take 7♣ and 3♣+4♣.', '7H:7C', traffar=['7C'], missing='3C 4C', better=['7H:3C+4C+7C'])),
    (('7H', '4C 3C 7C', '7H:3C+4C', {'forced_tabbe': False}),
     E(False, 'take-all', 'You must take all you can: 7♣ is also a träff for 7♥ and would stay on the table. Take 7♣ and 3♣+4♣.', '7H:3C+4C', traffar=['3C+4C'], missing='7C', better=['7H:3C+4C+7C'])),
    (('AH', 'AC AD 3S 10C', 'AH:AC+3S+10C', {'forced_tabbe': False}),
     E(False, 'take-all', 'You must take all you can: A♦ is also a träff for A♥ and would stay on the table. Take A♦ and A♣+3♠+10♣.', 'AH:AC+3S+10C', traffar=['AC+3S+10C'], missing='AD', better=['AH:AD+AC+3S+10C', 'AH:AD+AC'])),
    (('AS', 'AH AC QS', 'AS:AH', {'forced_tabbe': False}),
     E(False, 'take-all', 'You must take all you can: A♣ is also a träff for A♠ and would stay on the table. Take A♥+A♣+Q♠, or A♥ and A♣.', 'AS:AH', traffar=['AH'], missing='AC QS', better=['AS:AH+AC+QS', 'AS:AH+AC'])),
    (('AC', 'AD AH 6D 6C KH', 'AC:AD+KH', {'capture': 'maximum'}),
     E(False, 'take-all', 'You must take all you can: A♥ is also a träff for A♣ and would stay on the table. Take A♥+A♦+6♦+6♣; K♥ stays.', 'AC:AD+KH', traffar=['AD+KH'], missing='AH 6D 6C', better=['AC:AH+AD+6D+6C'])),
    # the maximum rule
    (('AD', 'AH 5C 8C 4C', 'AD:AH', {'capture': 'maximum'}),
     E(False, 'maximum', "Under the 'maximum' rule you must take the most cards: A♦ can take 3 cards, this takes 1.", 'AD:AH', traffar=['AH'], better=['AD:AH+5C+8C'])),
    # under the maximum rule with the ace counting 14 from the hand, A♥ left on the table is no träff for A♠:
    # the rule broken is the maximum rule, not "take all you can"
    (('AS', '6C 8C 5D AH', 'AS:6C+8C', {'ace': '14hand', 'capture': 'maximum'}),
     E(False, 'maximum', "Under the 'maximum' rule you must take the most cards: A♠ can take 3 cards, this takes 2.", 'AS:6C+8C', traffar=['6C+8C'], better=['AS:AH+5D+8C'])),
    # a card's ways to capture: a twin's capture is the same move; past three, the rest are counted
    (('10H', 'AH 9C 9D 9S 9H 9C', '10H', {}),
     E(False, 'must-capture', 'You may not creep (krypa) with 10♥: it has a träff — it can take A♥+9♠ or A♥+9♥ or A♥+9♦ or A♥+9♣. A card that can capture must capture.', '10H', better=['10H:AH+9S', '10H:AH+9H', '10H:AH+9D', '10H:AH+9C'])),
    (('10H', 'AH 9C 9D 9S 9H', '10H', {}),
     E(False, 'must-capture', 'You may not creep (krypa) with 10♥: it has a träff — it can take A♥+9♠ or A♥+9♥ or A♥+9♦ or A♥+9♣. A card that can capture must capture.', '10H', better=['10H:AH+9S', '10H:AH+9H', '10H:AH+9D', '10H:AH+9C'])),
    (('10H', 'AH 9C 9D 9S 9H 2C 7C', '10H', {}),
     E(False, 'must-capture', 'You may not creep (krypa) with 10♥: it has a träff — it can take A♥+2♣+7♣, or A♥+9♠, or A♥+9♥, or one of 2 more ways. A card that can capture must capture.', '10H', better=['10H:AH+2C+7C', '10H:AH+9S', '10H:AH+9H', '10H:AH+9D', '10H:AH+9C'])),
    (('10H', 'AH 9C 9D 9S 2C 7C', '10H', {}),
     E(False, 'must-capture', 'You may not creep (krypa) with 10♥: it has a träff — it can take A♥+2♣+7♣ or A♥+9♠ or A♥+9♦ or A♥+9♣. A card that can capture must capture.', '10H', better=['10H:AH+2C+7C', '10H:AH+9S', '10H:AH+9D', '10H:AH+9C'])),
]


@pytest.mark.parametrize(("position", "expected"), CASES, ids=[f"{c[0][2]}-{i}" for i, c in enumerate(CASES)])
def test_each_explanation_is_pinned_whole(position, expected):
    hand, table, move, options = position
    with use_language("en"):
        assert explain_krypkasino_move(parse_cards(hand), parse_cards(table), move, Rules(**options)) == expected


def test_a_move_given_as_a_move_is_explained_as_its_text_is():
    hand, table = parse_cards("7H"), parse_cards("4C 3C 7C")
    rules = Rules(forced_tabbe=False)
    assert explain_krypkasino_move(hand, table, Move.parse("7H:7C"), rules) == \
        explain_krypkasino_move(hand, table, "7H:7C", rules)

"""Issue 11: the engine's texts in Swedish and English.

What a learner reads from the engine: why a move is legal or not (``explain_move``, Krypkasino and
classic Kasino's builds), what a move does (``Move.describe``), the typed errors a page shows (an
illegal move, a card or move that cannot be read, a rule option that is not allowed), the rules in
words (``Rules.describe``, the presets) and the caps on long jobs. In Swedish they say "9♣ tar 9♠
och 2♣+7♥. 5♦ ligger kvar."; in English they are exactly as before."""

from __future__ import annotations

import random

import pytest

from krypteach import Card, Giv, IllegalMoveError, Move, Rules, RulesError, parse_cards
from krypteach.engine.builds import Build
from krypteach.engine.cards import CardParseError
from krypteach.engine.games import explain_move
from krypteach.engine.games.kasino import explain_kasino_move
from krypteach.engine.moves import MoveParseError
from krypteach.engine.rules import PRESETS, preset_description
from krypteach.i18n import use_language
from krypteach.i18n.catalogs import check as check_catalogs
from krypteach.play.limits import JobCaps, JobTooBig
from krypteach.play.outputs import OutputError, check_output_path

#: English words that must not be left in a Swedish explanation
ENGLISH = (" takes ", " take ", " creeps", " creep ", " the ", " table", " your ", " you ", "You ", " and ",
           " or ", " must ", " stays", " stay", " build ", " cannot ", " is ", " may ")


def test_the_engine_catalogs_are_complete():
    assert check_catalogs(["engine"]) == []


def test_a_capture_and_what_stays_in_swedish_and_english():
    hand, table = parse_cards("9C"), parse_cards("9S 2C 5D 7H")
    with use_language("sv"):
        assert explain_move(hand, table, "9C:9S+2C+7H").message == "9♣ tar 9♠ och 2♣+7♥. 5♦ ligger kvar."
        e = explain_move(hand, table, "9C:9S")
        assert (e.legal, e.rule) == (False, "take-all")
        assert e.message == ("Du måste ta allt du kan: 2♣+7♥ blir också 9 och skulle ligga kvar på bordet. "
                             "Ta 9♠ och 2♣+7♥. 5♦ ligger kvar.")
        assert Move.parse("9C:9S+2C+7H").describe() == "9♣ tar 2♣+7♥+9♠"
        assert Move.parse("7H").describe() == "7♥ kryper"
    assert explain_move(hand, table, "9C:9S+2C+7H").message == "9♣ takes 9♠ and 2♣+7♥; 5♦ stays."
    assert explain_move(hand, table, "9C:9S").message == (
        "You must take all you can: 2♣+7♥ also make 9 and would stay on the table. Take 9♠ and 2♣+7♥; 5♦ stays.")
    assert Move.parse("7H").describe() == "7♥ creeps"


def test_must_capture_tvangstabbe_and_tabbe_in_swedish():
    with use_language("sv"):
        text = explain_move(parse_cards("AS"), parse_cards("6C 8S 2S 4C"), "AS").message
        assert text == ("Du får inte krypa med A♠: den har en träff och kan ta 2♠+4♣+8♠ eller 6♣+8♠. "
                        "Ett kort som kan ta in måste ta in.")
        text = explain_move(parse_cards("AS 6H"), parse_cards("7D 7C"), "6H").message
        assert text == "Tvångstabbe: din A♠ kan ta hela bordet (7♦+7♣ = 14), så du måste spela den och ta allt."
        text = explain_move(parse_cards("10S"), parse_cards("AH 7C 3D 9S"), "10S:AH+7C+3D+9S").message
        assert text == "10♠ tar A♥+9♠ och 3♦+7♣. Tabbe: bordet är tomt!"
        assert "Dubbeltabbe" in explain_move(parse_cards("QH"), parse_cards("QH"), "QH:QH").message
        assert "ligger inte på bordet (bordet: 7♦ 7♣)" in explain_move(parse_cards("AS"), parse_cards("7D 7C"),
                                                                       "AS:7H").message
        assert "finns inte på din hand (din hand: A♠)" in explain_move(parse_cards("AS"), parse_cards("7D"),
                                                                       "7H").message
    assert explain_move(parse_cards("AS 6H"), parse_cards("7D 7C"), "6H").message.startswith(
        "Tvångstabbe (forced tabbe): your A♠ can take the whole table")


def test_a_giv_explains_the_dukning_and_refuses_an_illegal_move_in_swedish():
    g = Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    with use_language("sv"):
        text = g.explain("10H:AH+3D+7C+9S", names=["Du", "Bo"]).message
        assert text.endswith("Bo spelade precis före dig, så Bo dukade för tabben och får en dukning.")
        text = g.explain("10H:AH+3D+7C+9S").message
        assert text.endswith("Spelaren före dig dukade för tabben och får en dukning.")
        with pytest.raises(IllegalMoveError, match="4H kan inte spelas: 4♥ finns inte på din hand"):
            g.play("4H")
    assert g.explain("10H:AH+3D+7C+9S", names=["Ann", "Bo"]).message.endswith(
        "Bo moved just before you, so Bo gets a dukning (dukade för tabben).")
    # the learner moved just before (issue 19: it said "You moved just before you, so You get …")
    you = Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    assert you.explain("10H:AH+3D+7C+9S", names=["Ann", "You"]).message.endswith(
        "You moved just before, so you get a dukning (dukade för tabben).")
    with use_language("sv"):
        assert you.explain("10H:AH+3D+7C+9S", names=["Ann", "Du"]).message.endswith(
            "Du spelade precis före och dukade för tabben, så du får en dukning.")
    with pytest.raises(IllegalMoveError, match="4H cannot be played: 4♥ is not in your hand"):
        g.play("4H")


def test_classic_kasino_builds_are_explained_in_swedish():
    k = Rules(game="kasino")
    table = [Card("7C"), Build(9, parse_cards("4S 5H"), 0)]
    with use_language("sv"):
        e = explain_kasino_move(parse_cards("9D 7H"), table, Move.parse("7H:7C"), k, 0)
        assert e.rule == "build-owner-must-act"
        assert e.message == ("Du äger ett bygge på 9 (4♠+5♥): ta det eller bygg på det nu – 9♦ tar det. "
                             "Du får inte låta det ligga och spela något annat.")
        text = explain_kasino_move(parse_cards("5H 9D"), [Card("4S")], "5H>9:4S", k, 0).message
        assert text.startswith("5♥ på 4♠ bygger 9 (”bygger nio”). Nu äger du bygget: din 9♦ tar det.")
        text = explain_kasino_move(parse_cards("5H 8D"), [Card("4S")], "5H>9:4S", k, 0).message
        assert "inga bluffbyggen" in text and text.endswith("dina andra kort är 8♦.")
        assert Move.parse("5H>9:4S").describe() == "5♥ bygger 9 med 4♠"
    text = explain_kasino_move(parse_cards("5H 8D"), [Card("4S")], "5H>9:4S", k, 0).message
    assert text == ("You may build 9 only with another card of that value in your hand to take it "
                    "(no bluff builds): your other cards are 8♦.")


def _positions(seed: int, rules: Rules, count: int):
    """Positions met in random givar: (hand, table, player, every legal move and a few illegal ones)."""
    from krypteach.engine.games import legal_moves

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = Giv(rules, seed=rng.getrandbits(32))
        while not g.is_over and len(out) < count:
            hand, table = list(g.hands[g.turn]), list(g.table)
            legal = legal_moves(hand, table, rules, g.turn)
            cards = [c for x in table for c in (x.cards if isinstance(x, Build) else (x,))]
            tries = list(legal) + [Move(c) for c in hand]
            tries += [Move(c, rng.sample(cards, k=min(len(cards), rng.randint(1, 3)))) for c in hand if cards]
            out.append((hand, table, g.turn, tries))
            g.push(rng.choice(legal))
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules(capture="maximum"), Rules(game="kasino"),
                                   Rules.preset("avig-kasino")], ids=["krypkasino", "maximum", "kasino", "avig"])
def test_no_english_is_left_in_a_swedish_explanation(rules):
    """Every explanation of every legal move, and of creeps and random captures, in positions of random
    givar: in Swedish no English word is left, and each says something else than in English."""
    seen = set()
    for hand, table, player, tries in _positions(7, rules, 60):
        for move in tries:
            english = explain_move(hand, table, move, rules, player)
            with use_language("sv"):
                swedish = explain_move(hand, table, move, rules, player)
            assert (swedish.legal, swedish.rule) == (english.legal, english.rule)
            assert swedish.message != english.message
            padded = f" {swedish.message} "
            assert not [w for w in ENGLISH if w in padded], (str(move), swedish.message)
            seen.add(english.rule)
    assert {"ok"} < seen  # illegal moves were explained too


def test_card_and_move_errors_in_swedish():
    with use_language("sv"):
        with pytest.raises(CardParseError) as err:
            Card.parse("11H")
        text = str(err.value)
        assert text.startswith("'11H' är inget kort: skriv valören A 2 3 4 5 6 7 8 9 10 J Q K")
        assert "knekt" in text and "hjärter" in text and "10D eller A♠" in text
        with pytest.raises(MoveParseError, match=r"är inget drag .* skriv t\.ex\. 7H eller 9H:2C"):
            Move.parse("9H:XX")
        with pytest.raises(MoveParseError, match="'x' är inget värde för ett bygge"):
            Move.parse("5H>x:4S")
    with pytest.raises(CardParseError, match="'11H' is not a card: write rank A 2"):
        Card.parse("11H")


def test_rules_in_words_and_their_errors_in_swedish():
    with use_language("sv"):
        assert Rules(table_next=0).describe() == "Krypkasino, 2 spelare (inga nya kort till bordet efter första utdelningen)"
        assert Rules(players=4, teams="pairs", ace="1", tabbe_points=10).describe() == (
            "Krypkasino, 4 spelare (i par, esset räknas bara som 1, en tabbe +10)")
        assert preset_description("ace-low") == "Esset räknas bara som 1"
        assert preset_description("kasino").startswith("Vanligt kasino med byggen")
        with pytest.raises(RulesError, match="players=9 går inte: värdet måste vara 2–6"):
            Rules(players=9)
        with pytest.raises(RulesError, match="teams='pairs' kräver players=4 eller 6, inte players=3"):
            Rules(players=3, teams="pairs")
        with pytest.raises(RulesError, match="okänd variant 'nope'"):
            Rules.preset("nope")
    assert Rules(players=4, teams="pairs", ace="1", tabbe_points=10).describe() == (
        "Krypkasino, 4 players (in pairs, the ace counts 1 only, a tabbe mark +10)")
    assert [preset_description(name) for name in PRESETS] == [text for text, _ in PRESETS.values()]


def test_caps_and_output_errors_in_swedish(tmp_path):
    caps = JobCaps(max_givar=1000, max_seconds=60)
    with use_language("sv"):
        with pytest.raises(JobTooBig) as err:
            caps.check(1000, "careful", rule_sets=20)
        assert str(err.value) == ("1000 givar × 20 regeluppsättningar med datorspelaren försiktig skulle ta ungefär "
                                  "3 minuter; gränsen här är 1 minut: högst 300 givar")
        with pytest.raises(JobTooBig, match="5000 givar är fler än klassen får köra"):
            caps.check(5000, "careful")
        with pytest.raises(OutputError, match="är en mapp; ange ett filnamn i den"):
            check_output_path(tmp_path, "--csv")
    with pytest.raises(JobTooBig) as err:
        caps.check(1000, "careful", rule_sets=20)
    assert str(err.value) == ("1000 givar × 20 rule sets with careful players would take about 3 minutes; "
                              "the cap here is 1 minute: at most 300 givar")


def test_a_broken_record_file_is_named_in_swedish():
    import io
    import json

    from krypteach.engine.records import RecordError, giv_from_record, giv_to_record, read_records

    g = Giv(seed=3)
    g.play(g.legal_moves()[0])
    g.play(g.legal_moves()[0])
    rec = giv_to_record(g)
    rec["moves"][1]["player"] = rec["moves"][0]["player"]
    text = "\n" + json.dumps(rec)
    with use_language("sv"):
        with pytest.raises(RecordError, match=r"^rad 2, drag 2: det är plats \d+:s tur, inte plats \d+:s$"):
            list(read_records(io.StringIO(text)))
        with pytest.raises(RecordError, match=r"^rad 1: inte giltig JSON \(.* vid kolumn 2\)$"):
            list(read_records(io.StringIO("{")))
        bad = giv_to_record(g)
        bad["deals"][0] = {"x": 1}
        with pytest.raises(RecordError, match=r'^sparad giv, utdelning 0: här ska det stå \{"hands"'):
            giv_from_record(bad)
    with pytest.raises(RecordError, match=r"^line 2, move 2: it is seat \d+'s turn, not seat \d+'s$"):
        list(read_records(io.StringIO(text)))

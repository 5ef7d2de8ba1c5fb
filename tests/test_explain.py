"""explain_move and Giv.explain: the words are right, said once, with players named,
and the verdict is always the game's own (Giv.play, legal_moves)."""

import random
import re

import pytest

from krypteach import Card, Giv, IllegalMoveError, Move, Rules, capture_options, explain_move, legal_moves, parse_cards
from krypteach.teaching.narrate import seat_names
from krypteach.views import giv_html
from krypteach.widgets import (
    CountPointsExercise,
    DukningExercise,
    FindTraffarExercise,
    GameTable,
    TakeAllExercise,
    TvangstabbeExercise,
)


def explain(hand, table, move, rules=None):
    return explain_move(parse_cards(hand), parse_cards(table), move, rules)


def sentences(text):
    """The sentences of a message (its lines, each split after . ! ?), trimmed."""
    out = []
    for line in text.splitlines():
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", line) if s.strip()]
    return out


def assert_said_once(text):
    said = sentences(text)
    twice = {s for s in said if said.count(s) > 1}
    assert not twice, f"said twice: {twice} in {text!r}"


def card_groups(text):
    """Card groups written with + (``A♥+9♠``): what a message shows of a split."""
    return re.findall(r"(?:[0-9AJQK]+[♠♥♦♣]\+)+[0-9AJQK]+[♠♥♦♣]", text)


# --- 2. the tvångstabbe shows the forced card's OWN split ---------------------------------

def test_tvangstabbe_names_the_forced_card_with_its_own_split():
    # 7 + 7 is a träff only for the ace, which counts 14
    e = explain("AS 6H", "7D 7C", "6H")
    assert (e.legal, e.rule) == (False, "tvangstabbe")
    assert e.message == ("Tvångstabbe (forced tabbe): your A♠ can take the whole table (7♦+7♣ = 14), "
                         "so you must play it and take everything.")
    assert e.missing == tuple(parse_cards("7D 7C")) and [str(m) for m in e.better] == ["AS:7D+7C"]


def test_tvangstabbe_played_card_that_is_forced_shows_its_own_split():
    # hand A♠ 7♥ on 7♦ 7♣: the 7♥ takes the table as two single sevens, the A♠ as 7+7 = 14
    e = explain("AS 7H", "7D 7C", "7H:7D")
    assert e.message == ("Tvångstabbe (forced tabbe): your 7♥ can take the whole table (7♦ and 7♣), so it must "
                         "take everything. You may play your A♠ (7♦+7♣ = 14) instead: it too would take the whole table.")
    e = explain("AS 7H", "7D 7C", "AS")  # the ace may not creep either
    assert e.message.startswith("Tvångstabbe (forced tabbe): your A♠ can take the whole table (7♦+7♣ = 14), "
                                "so it must take everything. You may play your 7♥ (7♦ and 7♣) instead")


def test_tvangstabbe_with_several_forced_cards_offers_each_with_its_split():
    e = explain("AS 7H 6H", "7D 7C", "6H")
    assert e.message == ("Tvångstabbe (forced tabbe): your A♠ (7♦+7♣ = 14) or your 7♥ (7♦ and 7♣) can take "
                         "the whole table, so you must play one of them and take everything.")
    g = Giv.from_position([["AS", "7H", "6H"], ["2C", "3C", "4C"]], ["7D", "7C"])
    with pytest.raises(IllegalMoveError, match=re.escape("your A♠ (7♦+7♣ = 14) or your 7♥ (7♦ and 7♣)")):
        g.play("6H")


def test_tvangstabbe_sums_are_shown_with_their_value():
    e = explain("4C 10S 6H", "AH 7C 3D 9S", "4C")
    assert "your 10♠ can take the whole table (A♥+9♠ = 10 and 3♦+7♣ = 10)" in e.message


# --- 3. alternatives with "or", the parts of one capture with "and" ------------------------

def test_alternative_captures_are_joined_with_or():
    # the A♠'s two captures share the 8♠: it takes one OR the other
    e = explain("AS", "6C 8S 2S 4C", "AS")
    assert e.rule == "must-capture"
    assert e.message == ("You may not creep (krypa) with A♠: it has a träff — it can take 2♠+4♣+8♠ or 6♣+8♠. "
                         "A card that can capture must capture.")


def test_the_parts_of_one_capture_are_joined_with_and():
    assert explain("9C", "9S 2C 5D 7H", "9C:9S+2C+7H").message == "9♣ takes 9♠ and 2♣+7♥; 5♦ stays."
    assert "it can take 9♠ and 2♣+7♥. A card" in explain("9C", "9S 2C 5D 7H", "9C").message


def test_alternatives_of_several_parts_are_set_apart():
    e = explain("9C", "9S 2C 7H 2D", "9C")
    assert "it can take 9♠ and 2♦+7♥, or 9♠ and 2♣+7♥." in e.message
    e = explain("9C", "9S 2C 7H 2D", "9C:9S")
    assert e.message.endswith("Take 9♠ and 2♦+7♥, or 9♠ and 2♣+7♥.")


def test_many_alternatives_are_counted_not_listed():
    e = explain("9C", "2S 2H 2D 2C 7S 7H", "9C")
    assert e.message.count(", or ") == 3 and "or one of 3 more ways." in e.message
    e = explain("9C", "2S 2H 2D 2C 7S", "9C")  # four: all shown
    assert "it can take 2♠+7♠ or 2♥+7♠ or 2♦+7♠ or 2♣+7♠." in e.message


# --- 4. players by name, never by seat number ------------------------------------------------

def test_giv_explain_names_the_player_who_gets_the_dukning():
    g = Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    named = g.explain("10H:AH+3D+7C+9S", names=["Ann", "Bo"])
    assert named.message == ("10♥ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty! "
                             "Bo moved just before you, so Bo gets a dukning (dukade för tabben).")
    plain = g.explain("10H:AH+3D+7C+9S").message
    assert plain.endswith("Tabbe: the table is empty! The player who moved just before you gets a dukning "
                          "(dukade för tabben).")
    assert "seat" not in plain.lower()
    with pytest.raises(ValueError, match=r"2 names needed, one per seat; got \['Ann'\]"):
        g.explain("10H:AH+3D+7C+9S", names=["Ann"])


def test_giv_explain_dubbeltabbe_names_the_setter():
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1)
    assert g.explain("QH:QH", names=["You", "Bea"]).message.endswith(
        "Bea moved just before you, so Bea gets two dukningar (dukade för tabben).")


def test_game_table_status_names_the_player_who_gets_the_dukning():
    for seed in range(60):
        table = GameTable(seed=seed)
        rng = random.Random(seed)
        g = table.giv
        while not g.is_over:
            tabbar = [m for m in g.legal_moves() if m.capture and len(m.capture) == len(g.table)]
            if tabbar and g.turns:
                break
            move = rng.choice(g.legal_moves())
            table.select_hand(move.card)
            table.select_table(move.capture or [])
            table.play_selected()
        else:
            continue
        break
    else:  # pragma: no cover - the seeds above have one
        pytest.fail("no position with a tabbe for you")
    setter = table.names[g.turns[-1].player]
    table.select_hand(tabbar[0].card)
    status = table.status_text()
    assert f"{setter} moved just before you, so {setter} gets " in status and "Seat" not in status


def test_giv_html_names_players_without_names_given():
    g = Giv(seed=1)
    h = giv_html(g)
    assert "Bea to play." in h and "Seat" not in h
    assert all(f">{name}" in h for name in seat_names(2))
    assert "Ann to play." in giv_html(g, names=["Bo", "Ann"])


def test_game_table_fills_missing_names_with_default_names():
    table = GameTable(Rules(players=4), seed=1, names=["Ann", "Bea"])
    assert table.names == ["Ann", "Bea", "Dan", "Eva"]


# --- 5. no sentence said twice ----------------------------------------------------------------

def test_no_tabbe_possible_states_the_tvangstabbe_once():
    ex = TvangstabbeExercise(hand="4C 10S 6H", table="AH 7C 3D 9S")
    ex.no_tabbe()
    assert ex.message == ("There is one. Tvångstabbe (forced tabbe): your 10♠ can take the whole table "
                          "(A♥+9♠ = 10 and 3♦+7♣ = 10), so you must play it and take everything.\n"
                          "The table says tabbe på tio.")
    assert ex.message.count("whole table") == 1 and card_groups(ex.message) == ["A♥+9♠", "3♦+7♣"]
    ex.show_answer()
    assert ex.message == ("Tvångstabbe (tabbe på tio): you must play your 10♠ and take the whole table.\n"
                          "10♠ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty!")
    ex.hand_row.select(["10S"])
    ex.check()
    assert ex.message == ("Yes — tvångstabbe. 10♠ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty!\n"
                          "The table says tabbe på tio.")


def test_a_group_that_is_no_traff_is_named_once():
    e = explain("9C", "9S 2C 5D 7H", "9C:2C+5D+7H")
    assert e.message == ("2♣+5♦+7♥ is not a träff for your 9♣: they add up to 14, and the cards you take must "
                         "split into träffar: single cards of the same rank, or groups that add up to 9.")


def test_take_all_answer_lists_only_the_other_captures():
    ex = TakeAllExercise(card="9C", table="2S 2H 7D")
    ex.show_answer()
    assert ex.message == ("9♣ takes 2♠+7♦; 2♥ stays.\n"
                          "There are 2 ways to take all you can; any of them is right. The other:\n"
                          "9♣ takes 2♥+7♦")


def test_dukning_answer_says_once_who_moved_before():
    g = Giv.from_position([["10S", "4C"], ["4H", "5D"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    g.play("10S:AH+3D+7C+9S")
    ex = DukningExercise(g, names=["Ann", "Bo"])
    ex.show_answer()
    assert ex.message == ("Bo gets a dukning (−5): Bo made the move just before the tabbe.\n"
                          "Ann emptied the table with 10♠ — a tabbe, one tabbe mark (+5) for Ann.")
    ex.answer(0)
    assert ex.message.startswith("Not Ann: Ann made the tabbe. Bo gets a dukning")


def _press_everything(ex, rng):
    """Every button an exercise has, with random and right answers, and the messages it says."""
    said = []
    if isinstance(ex, DukningExercise):
        for seat in [None, *range(len(ex.names))]:
            ex.answer(seat)
            said.append(ex.message)
    elif isinstance(ex, CountPointsExercise):
        for value in (ex.expected + 1, ex.expected + 2, ex.expected):
            ex.points.value = str(value)
            ex.check()
            said.append(ex.message)
    elif isinstance(ex, TvangstabbeExercise):
        ex.no_tabbe()
        said.append(ex.message)
        for i in range(len(ex.hand)):
            ex.hand_row.selected = [i]
            ex.check()
            said.append(ex.message)
    else:
        row = ex.table_row
        for _ in range(4):
            row.selected = sorted(rng.sample(range(len(row.cards)), rng.randint(1, min(3, len(row.cards)))))
            ex.check()
            said.append(ex.message)
        if isinstance(ex, TakeAllExercise):
            ex.creep()
            said.append(ex.message)
            for option in ex.options:
                row.select(option)
                ex.check()
                said.append(ex.message)
    ex.show_answer()
    said.append(ex.message)
    return said


@pytest.mark.parametrize("cls", [FindTraffarExercise, TakeAllExercise, TvangstabbeExercise,
                                 DukningExercise, CountPointsExercise])
def test_exercise_feedback_never_says_a_sentence_twice(cls):
    rng = random.Random(7)
    for difficulty in (1, 2, 3):
        ex = cls(seed=difficulty, difficulty=difficulty)
        for _ in range(4):
            ex.new_position()
            for message in _press_everything(ex, rng):
                assert_said_once(message)
                if cls is TvangstabbeExercise:  # nor the table's split shown twice
                    groups = card_groups(message)
                    assert len(groups) == len(set(groups)), message


def test_game_table_says_nothing_twice():
    rng = random.Random(3)
    for players in (2, 3):
        table = GameTable(Rules(players=players), seed=players)
        while not table.giv.is_over:
            for card in table.giv.hands[0]:
                table.select_hand(card)
                assert_said_once(table.status_text())
            move = rng.choice(table.giv.legal_moves())
            table.select_hand(move.card)
            table.select_table(move.capture or [])
            table.play_selected()
            assert_said_once(table.message)
        table.undo()
        assert_said_once(table.message)


# --- 6. explain_move and Giv.play agree on every move ----------------------------------------

def _illegal_samples(g, rng):
    """Moves the player to move may not make: wrong captures, creeps with a träff, cards not in
    hand, a wrong card (or a wrong capture) under tvångstabbe."""
    hand, table, legal = g.hand, g.table, g.legal_moves()
    samples = []
    for card in dict.fromkeys(hand):
        samples.append(Move(card))
        if table:
            k = rng.randint(1, len(table))
            samples.append(Move(card, rng.sample(table, k)))
            samples.append(Move(card, table))
    for m in legal:
        if m.capture and len(m.capture) > 1:
            samples.append(Move(m.card, m.capture[:-1]))  # takes less than it must
    if table:
        for card in dict.fromkeys(hand):  # what the other capture rules would let it take
            for mode in ("maximal", "free"):
                options = capture_options(card, table, g.rules.replace(capture=mode))
                samples += [Move(card, cap) for cap in rng.sample(options, min(3, len(options)))]
    missing = [Card(i) for i in range(52) if Card(i) not in hand]
    samples.append(Move(rng.choice(missing)))
    if table:
        samples.append(Move(hand[0], [*table[:1], Card("KS") if Card("KS") not in table else Card("KH")]))
    return [m for m in samples if m not in legal]


def _check_position(g, rng, counts):
    hand, table, rules = g.hand, g.table, g.rules
    legal = g.legal_moves()
    assert legal == legal_moves(hand, table, rules)
    for m in legal:
        e = explain_move(hand, table, m, rules)
        assert e.legal and e.rule == "ok", (rules, hand, table, m, e.message)
        assert g.explain(m).legal
        counts["legal"] += 1
    for m in _illegal_samples(g, rng):
        e = explain_move(hand, table, m, rules)
        assert not e.legal and e.rule != "ok", (rules, hand, table, m, e.message)
        with pytest.raises(IllegalMoveError) as raised:
            g.play(m)
        assert raised.value.explanation is not None and raised.value.explanation.rule == e.rule
        assert e.message in str(raised.value)
        counts[e.rule] += 1


def test_explain_move_agrees_with_the_game_over_random_givar():
    rng = random.Random(2027)
    counts = {"legal": 0}
    counts.update((r, 0) for r in ("not-in-hand", "not-on-table", "tvangstabbe", "must-capture", "not-traffar",
                                   "take-all", "maximum"))
    for _ in range(16):
        rules = Rules(players=rng.choice([2, 3, 4, 5, 6]), capture=rng.choice(["maximal", "maximum", "free"]),
                      ace=rng.choice(["1or14", "1", "14hand"]), forced_tabbe=rng.random() < 0.7,
                      dubbeltabbe=rng.random() < 0.8, table_first=rng.choice([0, 4, 8]),
                      hand_size=rng.choice([2, 4, 6]))
        g = Giv(rules, seed=rng.getrandbits(32))
        while not g.is_over:
            _check_position(g, rng, counts)
            g.play(rng.choice(g.legal_moves()))
    # every kind of verdict was met, many times
    assert all(n >= 20 for n in counts.values()), counts


@pytest.mark.parametrize("hand, table, rules", [
    ("9C 4H", "9S 2C 5D 7H", Rules()),                     # the seed example: take 9 and 2+7
    ("AS 7H", "7D 7C", Rules()),                            # two tvångstabbe cards, each its own split
    ("AS 7H", "7D 7C", Rules(ace="1")),                     # the ace counts 1: only the seven
    ("10S 4H", "AH 7C 3D 9S", Rules(forced_tabbe=False)),   # no tvångstabbe: the 4 takes A+3
    ("8H 2C", "AS AH 6D 7C", Rules(capture="maximum")),    # the most cards
    ("9C 3D", "9S 2C 5D 7H", Rules(capture="free")),       # any union of träffar, or creep
    ("AC 5S", "AH KS", Rules(ace="14hand")),                # a played ace takes no lone ace
    ("QH 2C", "QH", Rules()),                               # dubbeltabbe
    ("4H KS", "", Rules()),                                 # empty table: everything creeps
])
def test_explain_move_agrees_with_the_game_in_hand_made_positions(hand, table, rules):
    g = Giv.from_position([parse_cards(hand), parse_cards("2H 3H")[:len(parse_cards(hand))]], parse_cards(table),
                          rules=rules)
    counts = {"legal": 0}
    counts.update((r, 0) for r in ("not-in-hand", "not-on-table", "tvangstabbe", "must-capture", "not-traffar",
                                   "take-all", "maximum"))
    _check_position(g, random.Random(1), counts)
    assert counts["legal"] == len(g.legal_moves()) > 0

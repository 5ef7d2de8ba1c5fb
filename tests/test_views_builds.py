"""Classic Kasino's builds in the views and on the game page (issue 12), with concrete builds:
[9:4S+5H@…] (4♠ + 5♥ built to 9), the locked double nine [9:4S+5H+9C@…], a build of 13."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

from krypteach import Giv, Move, Rules
from krypteach.bots import BotError
from krypteach.engine.builds import Build, parse_table
from krypteach.engine.cards import parse_cards
from krypteach.views import CardsView, giv_html, table_html
from krypteach.views.html import build_html
from krypteach.views.svg import build_label, build_svg
from krypteach.widgets import GameTable, ReplayViewer
from krypteach.widgets import game_table as game_table_module
from krypteach.widgets.game_table import TableRowWidget
from krypteach.widgets.rules_picker import OFFERED, RulesPicker

NS = "{http://www.w3.org/2000/svg}"
K = Rules.preset("kasino")
NINE = Build.parse("[9:4S+5H@1]")
DOUBLE_NINE = Build.parse("[9:4S+5H+9C@0]")


def _group(html_text: str, build: str) -> str:
    """The build group's opening tag in ``html_text``."""
    m = re.search(r'<div[^>]*data-build="' + re.escape(build) + r'"[^>]*>', html_text)
    assert m, f"no group for {build} in {html_text[:300]}"
    return m.group(0)


def _attr(tag: str, name: str) -> str:
    m = re.search(rf'\b{name}="([^"]*)"', tag)
    assert m, (name, tag)
    return m.group(1)


# --------------------------------------------------------------------------- svg
def test_build_svg_fans_the_cards_with_the_value_big():
    root = ET.fromstring(build_svg(9, ["4S", "5H"], width=60))
    assert root.get("aria-label") == "Bygge 9 (build of 9): 4♠ + 5♥"
    cards = root.findall(NS + "svg")
    assert [c.find(NS + "title").text for c in cards] == ["4 of spades", "5 of hearts"]
    xs = [float(c.get("x")) for c in cards]
    assert 0 < xs[1] - xs[0] < 60  # fanned: the second card overlaps the first
    value = [t for t in root.iter(NS + "text") if t.text == "9"]
    assert len(value) == 1 and float(value[0].get("font-size")) > 60 * 0.2  # big, not a corner index
    assert len(root.findall(NS + "circle")) == 1
    assert int(root.get("width")) >= 60 + xs[1]


def test_a_locked_build_has_a_double_ring_and_says_so():
    root = ET.fromstring(build_svg(9, ["4S", "5H", "9C"], locked=True))
    assert len(root.findall(NS + "circle")) == 2
    assert root.get("aria-label") == "Bygge 9 (build of 9), låst (locked): 4♠ + 5♥ + 9♣"
    assert len(root.findall(NS + "svg")) == 3


@pytest.mark.parametrize("kwargs,label", [
    ({"owner": "Ann"}, "Bygge 9 (build of 9): 4♠ + 5♥, Ann's"),
    ({"yours": True}, "Bygge 9 (build of 9): 4♠ + 5♥, yours"),
    ({"owner": "Bea", "locked": True}, "Bygge 9 (build of 9), låst (locked): 4♠ + 5♥, Bea's"),
    ({}, "Bygge 9 (build of 9): 4♠ + 5♥"),
])
def test_build_label(kwargs, label):
    assert build_label(9, ["4S", "5H"], **kwargs) == label


def test_build_svg_refuses_an_empty_build():
    with pytest.raises(ValueError, match="at least one card"):
        build_svg(9, [])


# --------------------------------------------------------------------------- html
def test_build_html_is_one_group_named_for_a_screen_reader():
    h = build_html(NINE, names=["You", "Ann"])
    tag = _group(h, "[9:4S+5H@1]")
    assert _attr(tag, "aria-label") == "Bygge 9 (build of 9): 4♠ + 5♥, Ann&#x27;s"
    assert _attr(tag, "role") == "img" and _attr(tag, "data-value") == "9" and _attr(tag, "data-owner") == "1"
    assert "Bygge 9 (build of 9)" in h and "Ann&#x27;s" in h and "låst" not in h
    # the picture inside is hidden from a screen reader: the group's label says it all
    assert re.search(r'<svg[^>]*aria-hidden="true"', h)
    assert 'class="kt-card' not in h  # the cards of a build are not loose cards


def test_build_html_yours_locked_and_selected():
    h = build_html(DOUBLE_NINE)  # seat 0 is yours by default
    tag = _group(h, "[9:4S+5H+9C@0]")
    assert _attr(tag, "aria-label") == "Bygge 9 (build of 9), låst (locked): 4♠ + 5♥ + 9♣, yours"
    assert "kt-locked" in _attr(tag, "class") and "låst (locked)" in h and ">yours<" in h
    assert "kt-selected" not in _attr(tag, "class")
    assert "kt-selected" in _attr(_group(build_html(DOUBLE_NINE, selected=True), "[9:4S+5H+9C@0]"), "class")
    # you=None names every owner, seat 0 too
    assert "You&#x27;s" in build_html(DOUBLE_NINE, you=None)


def test_table_html_draws_loose_cards_and_builds_in_order():
    t = table_html(["7C", NINE, "KD", "[13:4C+9D@0]"], names=["You", "Bea"])
    assert t.count('class="kt-card"') == 2 and t.count('class="kt-build"') == 2
    assert t.index('data-card="7C"') < t.index('data-build="[9:4S+5H@1]"') < t.index('data-card="KD"') \
        < t.index('data-build="[13:4C+9D@0]"')
    assert 'aria-label="Table (bordet): 2 cards, 2 builds"' in t
    assert "Bea&#x27;s" in t and ">yours<" in t and "Bygge 13 (build of 13)" in t
    # a table without builds is labelled as before
    assert 'aria-label="Table (bordet): 2 cards"' in table_html(["7C", "KD"])


def test_table_html_refuses_what_is_neither_card_nor_build():
    with pytest.raises(ValueError, match="not a card code or a build"):
        table_html(["7C", "9X"])
    with pytest.raises(ValueError, match="is not a build"):
        table_html(["[9:4S+5H]"])  # a build without its owner


def test_cards_view_takes_a_table_with_builds():
    v = CardsView("7C [9:4S+5H@1] KD+2S", kind="table", names=["Ann", "Bo"], width=44)
    assert v.cards == ["7C", "[9:4S+5H@1]", "KD", "2S"]
    h = v._repr_html_()
    assert _attr(_group(h, "[9:4S+5H@1]"), "aria-label") == "Bygge 9 (build of 9): 4♠ + 5♥, Bo&#x27;s"
    assert h.count('class="kt-card"') == 3
    with pytest.raises(ValueError, match="not a card code"):
        CardsView("[9:4S+5H@1]")  # a hand holds no builds


def test_giv_html_of_a_kasino_giv_shows_the_builds():
    g = Giv.from_position([["5H", "9D"], ["9C", "2C"]], parse_table("4S 7D"), rules=K)
    g.play("5H>9:4S")
    h = giv_html(g, show="all")
    assert "Kasino · 2 players" in h and "Krypkasino" not in h
    tag = _group(h, "[9:4S+5H@0]")
    assert _attr(tag, "aria-label") == "Bygge 9 (build of 9): 4♠ + 5♥, yours"
    assert 'aria-label="Table (bordet): 1 card, 1 build"' in h
    # a Kasino board counts tabbar, and names no dukningar: Kasino has none (issue 21)
    assert "tabbar: –" in h and "dukning" not in h.lower()
    assert "dukningar: 0" in giv_html(Giv.from_position([["5H", "9D"], ["9C", "2C"]], parse_cards("4S 7D")),
                                      show="all")  # Krypkasino's do
    h = giv_html(g, show="all", names=["Ann", "Bo"])  # named players: Ann's build
    assert _attr(_group(h, "[9:4S+5H@0]"), "aria-label").endswith("Ann&#x27;s")


def test_the_replay_draws_a_kasino_giv_with_its_builds():
    g = Giv(K, seed=1)
    rng = random.Random(2)
    while not g.is_over and not any(isinstance(x, Build) for x in g.table):
        moves = g.legal_moves()
        builds = [m for m in moves if m.value is not None]
        g.play(builds[0] if builds else rng.choice(moves))
    n = len(g.turns)
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
    viewer = ReplayViewer(upload=False)
    assert viewer.open_giv(g, names=["You", "Bea"])
    for _ in range(n):
        viewer.forward()
    board = viewer.board.value
    ref = Giv(g.rules, dealer=g.dealer, deals=g.deals)
    for t in g.turns[:n]:
        ref.play(t.move)
    for x in ref.table:
        if isinstance(x, Build):
            assert f'data-build="{x}"' in board
        else:
            assert f'data-card="{x}"' in board


# --------------------------------------------------------------------------- the table row widget
def test_table_row_widget_makes_a_build_one_clickable_item():
    row = TableRowWidget(kind="table", owner_names=["You", "Bea"])
    row.cards = ["7C", str(NINE), "KD"]
    assert row.cards == ["7C", "[9:4S+5H@1]", "KD"]
    assert row.row_label == "table: 2 cards, 1 build"  # what a screen reader calls the row
    tag = _group(row.svgs[1], "[9:4S+5H@1]")
    assert _attr(tag, "role") == "button" and _attr(tag, "data-index") == "1" and _attr(tag, "tabindex") == "0"
    assert "kt-card" in _attr(tag, "class") and _attr(tag, "aria-pressed") == "false"
    assert _attr(tag, "aria-label") == "Bygge 9 (build of 9): 4♠ + 5♥, Bea&#x27;s"
    row.toggle(1)
    assert row.selected_items == [NINE] and "kt-selected" in _attr(_group(row.svgs[1], "[9:4S+5H@1]"), "class")
    row.select(["KD", NINE])
    assert row.selected == [1, 2]
    with pytest.raises(ValueError, match="not on the table"):
        row.select(["[9:4S+5H@0]"])
    with pytest.raises(ValueError, match="is not a build"):
        row.cards = ["7C", "[9:4S]"]


# --------------------------------------------------------------------------- the game page
def test_the_rules_picker_of_the_game_page_offers_the_kasino_presets():
    table = GameTable(seed=1)
    offered = [v for _, v in table.picker.preset.options]
    for name in ("kasino", "avig-kasino", "dragkasino", "kasino-21", "kasino-pairs"):
        assert name in offered and name in OFFERED
    assert "krypkasino" in offered
    assert "kasino" not in [v for _, v in RulesPicker().preset.options]  # the variant lab's picker: Krypkasino's
    table.picker.choose_preset("kasino")
    assert table.picker.rules == K
    table.picker.controls["players"].value = 3  # a control keeps the game
    assert table.picker.rules.game == "kasino" and table.picker.rules.players == 3
    table.new_giv()
    assert table.giv.rules == K.replace(players=3) and table.game.has_builds


def test_the_classroom_preset_may_be_a_kasino_one(monkeypatch):
    monkeypatch.setenv("KRYPTEACH_GAME_RULES", "avig-kasino")
    table = GameTable(seed=2)
    assert table.giv.rules == Rules.preset("avig-kasino")
    assert table.play_button.layout.display == "none" and table.build_button.layout.display == ""
    assert table.picker.preset.value == "avig-kasino"


def _kasino_table_where(pred, tries=80):
    """A Kasino game page (seed 0, 1, …) whose position, on your turn, satisfies ``pred(table)``."""
    for seed in range(tries):
        t = GameTable(K, seed=seed, bot="random")
        if t.giv.turn == 0 and pred(t):
            return t
    raise AssertionError("no seed gave such a position")


def test_a_build_by_its_cards_and_the_build_button():
    t = _kasino_table_where(lambda t: any(m.value is not None for m in t.giv.legal_moves()))
    g = t.giv
    move = next(m for m in g.legal_moves() if m.value is not None)
    assert t.table_row.cards == [str(x) for x in g.table]
    assert [b.description for b in t._build_controls if hasattr(b, "on_click")] == [
        "Ta in (take)", "Bygg (build)", "Lägg (trail)"]
    t.select_hand(move.card)
    assert t.build_values() == [] and t.build_value.disabled  # no table cards chosen: nothing to build on
    t.select_table(move.capture)
    values = t.build_values()
    assert move.value in values
    assert values == sorted({m.value for m in g.legal_moves() if m.value is not None and m.card == move.card
                             and sorted(m.capture) == sorted(move.capture)})
    assert [v for _, v in t.build_value.options] == values and not t.build_value.disabled
    assert "Bygg: " in t.status_text()
    t.build_value.value = move.value
    before = len(g.turns)
    t.build_selected()
    assert g.turns[before].move == move and g.turns[before].player == 0
    assert t.log[before] == f"You build {move.value} with {move.card.symbol} on " + \
        "+".join(c.symbol for c in sorted(move.capture)) + "."
    # the build is on the table (unless Bea took it): drawn as one item, yours
    built = [x for x in g.table if isinstance(x, Build) and x.owner == 0]
    for b in built:
        assert f'data-build="{b}"' in "".join(t.table_row.svgs) and ">yours<" in "".join(t.table_row.svgs)


def test_several_build_values_offer_only_the_legal_ones():
    def two_values(t):
        g = t.giv
        for m in g.legal_moves():
            same = {x.value for x in g.legal_moves() if x.value is not None and x.card == m.card
                    and sorted(x.capture) == sorted(m.capture or ())}
            if len(same) > 1:
                return True
        return False

    t = _kasino_table_where(two_values, tries=400)
    g = t.giv
    m = next(m for m in g.legal_moves() if m.value is not None and len(
        {x.value for x in g.legal_moves() if x.value is not None and x.card == m.card
         and sorted(x.capture) == sorted(m.capture)}) > 1)
    t.select_hand(m.card)
    t.select_table(m.capture)
    values = t.build_values()
    assert len(values) > 1 and [v for _, v in t.build_value.options] == values
    highest = max(values)
    t.build_value.value = highest
    t.build_selected()
    mine = [tt for tt in g.turns if tt.player == 0]
    assert mine and mine[-1].move.card == m.card and mine[-1].move.value == highest


def test_an_illegal_build_or_take_shows_the_engine_explanation():
    t = _kasino_table_where(lambda t: len(t.giv.table) >= 2)
    g = t.giv
    # a selection that is no legal build: the engine says why
    for card in g.hands[0]:
        for x in g.table:
            if isinstance(x, Build):
                continue
            t.select_hand(card)
            t.select_table([x])
            if not t.build_values():
                before = len(g.turns)
                t.build_selected()
                assert len(g.turns) == before and "kt-error" in t.feedback.value
                value = card.rank + x.rank  # what the cards add up to
                assert t.message == g.explain(Move.build(card, [x], value), t.names).message
                if not any(m.value is None and m.card == card and list(m.capture or ()) == [x]
                           for m in g.legal_moves()):
                    t.take_selected()
                    assert t.message == g.explain(Move(card, [x]), t.names).message
                    assert len(g.turns) == before
                return
    raise AssertionError("every card could build on every table card")


def test_the_owner_of_a_build_must_take_it_or_raise_it():
    """You build; on your next turn a trail with another card is refused with the engine's words."""
    for seed in range(200):
        t = GameTable(K, seed=seed, bot="random")
        g = t.giv
        move = next((m for m in g.legal_moves() if m.value is not None), None)
        if g.turn != 0 or move is None:
            continue
        t.select_hand(move.card)
        t.select_table(move.capture)
        t.build_value.value = move.value
        t.build_selected()
        mine = [x for x in g.table if isinstance(x, Build) and x.owner == 0]
        if g.is_over or g.turn != 0 or not mine:
            continue
        refused = [c for c in g.hands[0] if Move(c) not in g.legal_moves()]
        if not refused:
            continue
        t.select_hand(refused[0])
        t.trail_selected()
        assert "kt-error" in t.feedback.value
        assert t.message == g.explain(Move(refused[0]), t.names).message
        assert t.message.startswith(f"You own a build of {mine[0].value}")
        # and taking it with the card of its value works
        take = next(m for m in g.legal_moves() if m.value is None and m.capture
                    and set(mine[0].cards) <= set(m.capture))
        t.select_hand(take.card)
        t.select_table(take.capture)
        t.take_selected()
        assert any(tt.player == 0 and tt.move == take for tt in g.turns)
        return
    raise AssertionError("no seed let you build and keep the build to your next turn")


def test_trail_and_the_buttons_ask_for_what_is_missing():
    t = _kasino_table_where(lambda t: any(m.capture is None for m in t.giv.legal_moves()))
    g = t.giv
    t.build_selected()
    assert "Select a card in your hand first" in t.message
    trail = next(m for m in g.legal_moves() if m.capture is None)
    t.select_hand(trail.card)
    t.take_selected()
    assert "Select the table cards and builds to take" in t.message
    t.build_selected()
    assert "Select the table cards to build on" in t.message
    if g.table:
        first = g.table[0]
        t.select_table([first])
        t.trail_selected()
        assert "unselect the table cards" in t.message
        t.select_table([])
    before = len(g.turns)
    t.trail_selected()
    assert g.turns[before].move == trail


def test_hint_in_kasino_selects_a_legal_move_and_names_its_button():
    t = GameTable(K, seed=3)
    t.hint()
    assert t.message.startswith("Hint: ")
    assert re.search(r"press (Ta in \(take\)|Bygg \(build\)|Lägg \(trail\)) to play it", t.message)
    t.play_selected()
    assert any(tt.player == 0 for tt in t.giv.turns) and "kt-error" not in t.feedback.value


def test_a_bot_level_that_cannot_play_kasino_gives_way_to_the_random_bot(monkeypatch):
    real = game_table_module.make_bot

    def refusing(level, seed=None, *, rules=None, **options):
        if level != "random" and rules is not None and rules.game == "kasino":
            raise BotError(f"bot {level!r} cannot play classic Kasino yet")
        return real(level, seed=seed, rules=rules, **options)

    monkeypatch.setattr(game_table_module, "make_bot", refusing)
    t = GameTable(K, seed=4, bot="careful")
    assert "cannot play these rules yet" in t.bot_note.value and "random" in t.bot_note.value
    assert all(b.name == "random" for b in t.bots.values())
    t.rules = Rules()  # Krypkasino: the careful bot plays, no note
    assert t.bot_note.value == "" and all(b.name == "careful" for b in t.bots.values())


def test_a_whole_kasino_giv_by_the_buttons_ends_with_kasinos_scoring():
    t = GameTable(K, seed=5)
    rng = random.Random(1)
    built = 0
    while not t.giv.is_over:
        g = t.giv
        moves = g.legal_moves()
        builds = [m for m in moves if m.value is not None]
        m = builds[0] if builds and rng.random() < 0.7 else rng.choice(moves)
        t.select_hand(m.card)
        t.select_table(m.capture or [])
        if m.value is not None:
            t.build_value.value = m.value
            t.build_selected()
            built += 1
        elif m.capture is None:
            t.trail_selected()
        else:
            t.take_selected()
        assert "kt-error" not in t.feedback.value, t.message
    g = t.giv
    assert built and len(t.log) == len(g.turns)
    final = t.final.value
    assert "Giv over — scoring" in final and "Highest score wins" in final and "klädda" not in t.side.value
    names = re.findall(r"<th scope='col'>(.*?)</th>", final)  # a column a player, the totals last
    totals = re.findall(r"<td><b>(.*?)</b></td>", final.split("<tr class='kt-total'>")[1].split("</tr>")[0])
    assert names == list(t.names) and totals == [str(score).replace("-", "−") for score in g.result.scores]
    assert "Scores (final)" in t.scores.value and t.build_button.disabled


def test_giv_html_of_a_finished_kasino_giv_says_the_highest_score_wins():
    g = Giv(K, seed=7)
    rng = random.Random(3)
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
    h = giv_html(g, names=["Ann", "Bo"])
    res = g.result
    for s, name in enumerate(["Ann", "Bo"]):
        assert f"<li>{name}: {res.scores[s]} ({res.card_points[s]} for cards and sistan, tabbar {res.marks[s]})</li>" in h
    best = max(res.scores)
    winners = " and ".join(n for s, n in enumerate(["Ann", "Bo"]) if res.scores[s] == best)
    assert f"Highest score wins: {winners} with {best}." in h and "misère" not in h
    avig = Giv(Rules.preset("avig-kasino"), seed=7)
    while not avig.is_over:
        avig.play(rng.choice(avig.legal_moves()))
    assert "Lowest score wins (avig kasino): " in giv_html(avig)


def test_a_build_past_14_is_answered_in_words_not_an_error(monkeypatch):
    """2♣ on K♠ adds up to 15: Bygg says no card is worth 15 (it used to raise in the callback)."""
    from krypteach.engine.cards import Card
    from krypteach.widgets import GameTable

    monkeypatch.setenv("KRYPTEACH_GAME_RULES", "kasino")
    for _try in range(50):
        gt = GameTable()
        pair = next(((h, t) for h, c in enumerate(gt.hand_row.cards) for t, x in enumerate(gt.table_row.cards)
                     if not x.startswith("[") and min(Card(c).rank, 13) + min(Card(x).rank, 13) > 14
                     and Card(c).rank != Card(x).rank), None)
        if pair is not None:
            break
    else:
        pytest.skip("no deal with a sum past 14 for the learner")
    gt.hand_row.selected, gt.table_row.selected = [pair[0]], [pair[1]]
    gt.build_selected()
    assert "kt-error" in gt.feedback.value and "no card is worth" in gt.feedback.value

"""The careful bot's use of the rules, with concrete cards: each test pins what a mutation of
``krypteach/bots/careful.py`` changed without another test noticing (docs/mutation/engine.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from krypteach import Giv, Rules, parse_cards
from krypteach.bots.careful import CarefulBot, _reach, assess_moves, clear_caches
from krypteach.engine.capture_cache import pack
from krypteach.engine.turn import team_relative


def _why(hands, table, rules=None):
    g = Giv.from_position(hands, table, rules=rules or Rules())
    move, why = CarefulBot(seed=1).explain(g.observation(g.turn))
    return str(move), why


def test_a_creep_that_takes_nothing_says_so():
    assert _why([["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["9S", "KC"]) == (
        "6C", "6♣ creeps. You take no points. Expected 0.0 points for you against 0.0 for 8♦ creeps.")


def test_on_an_empty_table_the_creep_is_said_first_then_what_it_gives_away():
    move, why = _why([["2S", "AH", "10D"], ["2C", "3H", "4D"]], [])
    assert move == "10D"
    assert why.startswith("10♦ creeps. The table is empty, so you creep. You get rid of 10♦ (3 points) without "
                          "taking it. Seat 1 gets tabbe på tio")


def test_without_tvangstabbe_a_creep_sets_up_no_tabbe_for_the_next_player():
    """The next player's forced tabbe is weighed only where the rules have tvångstabbe (and the
    deal goes on): with ``forced_tabbe=False`` the 6♣ creep on 3♠ leaves nothing to fear."""
    hands, table = [["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["3S"]
    assert "tabbe på nio" in _why(hands, table)[1]
    assert _why(hands, table, Rules(forced_tabbe=False)) == (
        "6C", "6♣ creeps. You take no points. Expected 0.0 points for you against 0.0 for 8♦ creeps.")


# --- the last move of the giv -------------------------------------------------------------------

_LAST_MOVE_RULES = [Rules(), Rules(players=3), Rules(last_capture_point=1), Rules(capture="free"),
                    Rules(players=4, teams="pairs")]


def _at_the_last_move(rules: Rules, seed: int) -> Giv:
    """A giv of these rules played by random legal moves up to its last move."""
    g = Giv(rules, seed=seed)
    rng = random.Random(seed)
    while not (g.stock_size == 0 and sum(map(len, g.hands)) == 1):
        g.play(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("rules", _LAST_MOVE_RULES, ids=["default", "3 players", "sistan", "free capture", "pairs"])
def test_on_the_last_move_the_terms_add_up_to_what_the_engine_scores(rules):
    """On the giv's last move nothing is left to guess: the careful bot's exact terms (its card
    points, its tabbe, and the sweep of the table and klädda högen to the last capturer, with
    sistan) add up to the change in the engine's score of the giv, for the mover's side, for every
    legal move. Over 80 random givar of each rule set: captures, creeps and tabbar on the last
    card, with and without klädda kort."""
    seen = Counter()
    for seed in range(80):
        g = _at_the_last_move(rules, seed)
        before, me = g.returns(), g.turn
        obs = g.observation()
        for a in assess_moves(obs):
            h = g.clone()
            turn = h.play(a.move)
            change = [x - y for x, y in zip(h.result.scores, before)]
            assert a.terms["points"] + a.terms.get("tabbe", 0) + a.terms.get("sweep", 0) == pytest.approx(
                team_relative(rules, me, change)), (seed, str(a.move))
            assert set(a.terms) <= {"points", "tabbe", "sweep", "dump"}  # nothing is set up for a next turn
            seen["tabbe" if turn.tabbe else "capture" if a.move.capture else "creep"] += 1
            seen["kladda"] += bool(obs.kladda)
            seen["sweep by another"] += a.move.capture is None and obs.last_capturer not in (None, me)
    assert min(seen.values()) > 0, seen


def test_the_last_capture_takes_the_rest_in_words():
    """The last card takes 5♠ (1 point) and leaves 3♦ 10♦ with the klädda A♠: as the last to take
    in, the mover takes the rest (10♦ 3 points, A♠ 2)."""
    g = Giv.from_position([["5H"], []], ["5S", "3D", "10D"], kladda=["AS"])
    (a,) = assess_moves(g.observation())
    assert str(a.move) == "5H:5S"
    assert a.terms == {"points": 1.0, "sweep": 5.0}
    assert a.notes == ["You take 1 point.", "As the last to take in, you take the rest (5 points)."]


# --- a tabbe left to the next player that costs, or is worth nothing --------------------------

def test_a_tabbe_left_to_the_next_player_that_would_cost_you_is_said_so():
    """With ``tabbe_points=-5`` and ``dukning_points=5`` a tabbe is good for its taker: the 6♣ creep
    on 3♠ leaves tabbe på nio to seat 1, which costs the mover (the next seat is an opponent, never
    a partner)."""
    rules = Rules(tabbe_points=-5, dukning_points=5)
    g = Giv.from_position([["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["3S"], rules=rules)
    (a,) = [a for a in assess_moves(g.observation()) if str(a.move) == "6C"]
    assert a.terms["setup"] > 0
    assert a.notes[1] == ("Seat 1 gets tabbe på nio if seat 1 holds such a card (22%), and under these rules "
                          "that costs you.")


def test_a_tabbe_left_to_the_next_player_that_is_worth_nothing_is_not_mentioned():
    """With no points for a tabbe or a dukning, a creep of 6♣ on 3♦ (a table of no points) leaves
    tabbe på nio to seat 1 at no cost either way: no term and no words about it."""
    rules = Rules(tabbe_points=0, dukning_points=0)
    g = Giv.from_position([["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["3D"], rules=rules)
    (a,) = [a for a in assess_moves(g.observation()) if str(a.move) == "6C"]
    assert a.terms.get("setup", 0) == 0
    assert not any("tabbe" in n for n in a.notes), a.notes


# --- _reach: the tables an opponent's card can leave -------------------------------------------

def _alone(card: str, table: list[str], rules: Rules) -> Giv:
    """``card`` to play on ``table``, the other seat holding a heart of another rank (a double deck
    has each card twice: the table may hold a crept heart)."""
    other = next(c for c in ("2H", "3H", "4H") if c != card and c not in table)
    return Giv.from_position([[card], [other]], table, rules=rules)


def _takes_whole(card: str, table: list[str], rules: Rules) -> bool:
    g = _alone(card, table, rules)
    return any(m.capture is not None and len(m.capture) == len(table) for m in g.legal_moves())


_TABLE_CARDS = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "CDS"]
_RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(table=st.lists(st.sampled_from(_TABLE_CARDS), min_size=1, max_size=5, unique=True),
       rank=st.integers(1, 13),
       rules=st.sampled_from([Rules(), Rules(capture="free"), Rules(capture="maximum"), Rules(ace="1"),
                              Rules(ace="14hand", capture="free")]))
def test_reach_is_every_rank_that_could_take_a_table_the_card_leaves_whole(table, rank, rules):
    """``_reach`` (the ranks that would take whole a table left by a card of ``rank``, cached)
    against the engine: play each of the card's legal moves that leave cards, and ask which ranks
    then take that table whole. Free capture may also creep beside a capture; every capture's
    table counts. The answer is cached under the key the exposure term reads."""
    card = _RANK_CODES[rank - 1] + "H"
    assume(not _takes_whole(card, table, rules))
    g = _alone(card, table, rules)
    want = 0
    for m in g.legal_moves():
        h = g.clone()
        h.play(m)
        left = [str(c) for c in h.table]
        if left:
            for r in range(1, 14):
                if _takes_whole(_RANK_CODES[r - 1] + "H", left, rules):
                    want |= 1 << (r - 1)
    clear_caches()
    reach: dict[int, int] = {}
    packed = pack(parse_cards(table))
    assert _reach(reach, {}, rules, packed, rank) == want
    assert reach[packed << 4 | rank] == want


def test_a_tabbe_left_to_the_next_player_that_costs_half_a_point_is_said_so():
    """Three players, ``tabbe_points=-1``: the next seat's tabbe of a pointless table is worth
    −1 to it, so +0.5 to the mover against the mean of the other two: a cost, said so."""
    rules = Rules(players=3, tabbe_points=-1, dukning_points=0)
    g = Giv.from_position([["5H", "6C", "8D"], ["2C", "3H", "4D"], ["5C", "6H", "7D"]], ["3D"], rules=rules)
    (a,) = [a for a in assess_moves(g.observation()) if str(a.move) == "6C"]
    assert 0 < a.terms["setup"] < 0.5
    assert "under these rules that costs you" in a.notes[1]


@settings(max_examples=120, deadline=None, derandomize=True)
@given(hand=st.lists(st.sampled_from([f"{r}H" for r in _RANK_CODES]), min_size=2, max_size=3, unique=True),
       table=st.lists(st.sampled_from(_TABLE_CARDS), min_size=1, max_size=4, unique=True))
def test_exposure_names_every_rank_whose_answer_leaves_a_table_we_must_take_whole(hand, table):
    """The ``exposed`` term's ranks against the engine (two players, tvångstabbe): for each move of
    ours that leaves cards, the ranks the opponent may hold (and that do not take that table whole)
    with a legal move leaving a table one of our remaining cards takes whole."""
    from krypteach.bots.careful import _View

    g = Giv.from_position([hand, ["2D", "3D", "4D"][:len(hand)]], table)
    obs = g.observation()
    view = _View(obs, words=False)
    moves = obs.legal_moves()
    view.assess(moves)
    for m, pending in zip(moves, view.pending):
        if pending is None:
            continue
        h = g.clone()
        h.play(m)
        left = [str(c) for c in h.table]
        rest = list(hand)
        rest.remove(str(m.card))
        want = []
        for r in range(1, 14):
            card = _RANK_CODES[r - 1] + "S" if _RANK_CODES[r - 1] + "S" not in left else _RANK_CODES[r - 1] + "C"
            if not view.ranks_next[r] or r in pending.whole_ranks or left.count(card) >= 2:
                continue
            answer = _alone(card, left, Rules())
            for reply in answer.legal_moves():
                k = answer.clone()
                k.play(reply)
                after = [str(c) for c in k.table]
                if after and any(_takes_whole(c, after, Rules()) for c in rest):
                    want.append(r)
                    break
        clear_caches()
        assert view.exposure(pending)[1] == want, (str(m), left)

"""The careful and expert bots in classic Kasino and avig kasino (issue 12), with concrete cards."""

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from krypteach import Giv, Move, Rules
from krypteach.bots import BotError, check_bot_rules, make_bot, suggest
from krypteach.bots.kasino import assess_kasino, kasino_world
from krypteach.bots.sim import piles_from_history
from krypteach.engine.builds import Build, parse_table
from krypteach.engine.game import Deal
from krypteach.engine.rules import PRESETS
from krypteach.play.tournament import tournament

K = Rules(game="kasino")
AVIG = Rules.preset("avig-kasino")
KASINO_PRESETS = [name for name in PRESETS if Rules.preset(name).game == "kasino"]


def pos(hands, table, rules=K, turn=0):
    return Giv.from_position(hands, parse_table(table), rules=rules, turn=turn)


def fast_expert(seed=0, rules=None):
    return make_bot("expert", seed=seed, rules=rules, kasino_samples=4, kasino_candidates=2)


# --- concrete positions -------------------------------------------------------------

@pytest.mark.parametrize("level", ["careful", "expert"])
def test_takes_storan_in_kasino_and_avoids_it_in_avig_kasino(level):
    hands, table = [["10H", "5C"], ["3H", "4H"]], "10D KS"
    kasino = pos(hands, table, K)
    assert make_bot(level, seed=1, rules=K).choose(kasino.observation()) == Move.parse("10H:10D")
    avig = pos(hands, table, AVIG)
    assert {str(m) for m in avig.legal_moves()} == {"10H:10D", "5C"}  # forced capture: 10♥ must take if played
    assert make_bot(level, seed=1, rules=AVIG).choose(avig.observation()) == Move.parse("5C")


def test_careful_counts_spades_and_does_not_trail_an_ace():
    # 8♠ takes the 8♦, 7♥ the 7♣: one card each, but the spade counts toward most spades
    g = pos([["8S", "7H", "KD"], ["3H", "4H", "6D"]], "8D 7C QC")
    terms = {str(a.move): a.terms["now"] for a in assess_kasino(g.observation())}
    assert terms["8S:8D"] > terms["7H:7C"]
    assert make_bot("careful", rules=K).choose(g.observation()) == Move.parse("8S:8D")
    # nothing to take: trail the 7, not the ace (a free point for the next player with an ace)
    g = pos([["AH", "7C"], ["3H", "4H"]], "KD QC")
    assert make_bot("careful", rules=K).choose(g.observation()) == Move.parse("7C")


def test_careful_builds_what_it_holds_the_card_to_take_and_says_so():
    g = pos([["5H", "9D", "2C"], ["3H", "4H", "JC"]], "4S KC")
    move, why = make_bot("careful", rules=K).explain(g.observation())
    assert move == Move.parse("5H>9:4S")
    assert "You hold 9♦ to take the build of 9 on your next turn" in why
    a = next(a for a in assess_kasino(g.observation()) if a.move == move)
    assert a.terms["build"] > 0
    move, why = suggest(g.observation())  # the hint button: the expert, with reasons for a build too
    assert move == Move.parse("5H>9:4S") and why.startswith("5♥ builds 9 with 4♠. You hold 9♦ to take the build")
    assert "Looking ahead over many ways the unseen cards may lie" in why


def test_careful_takes_its_build_and_raises_for_a_card_it_holds():
    g = pos([["9D", "7H", "2C"], ["3C", "4C", "5C"]], "7C [9:4S+5H@0]")
    # the owner's duty: take it or raise it; careful takes 9 with 4♠ (a spade) rather than build on
    assert make_bot("careful", rules=K).choose(g.observation()) == Move.parse("9D:4S+5H")


# --- honest play: legal moves only, the observation only --------------------------

def _scrambled(g: Giv, seat: int, rng: random.Random) -> Giv:
    """The same giv as ``seat`` sees it, with the cards it has not seen shuffled among
    the places they may be (other hands, cards still to be dealt); moves replayed."""
    deals = [list(map(list, d.hands)) for d in g.deals]
    played = {t.move.card for t in g.turns}
    spots = []
    for i, d in enumerate(deals):
        for s, h in enumerate(d):
            for j, c in enumerate(h):
                if (i >= g.deal_index or s != seat) and c not in played:
                    spots.append((i, s, j))
    cards = [deals[i][s][j] for i, s, j in spots]
    rng.shuffle(cards)
    for (i, s, j), c in zip(spots, cards):
        deals[i][s][j] = c
    new = [Deal(tuple(tuple(h) for h in hs), d.table, d.aside) for hs, d in zip(deals, g.deals)]
    twin = Giv(g.rules, dealer=g.dealer, deals=new)
    for t in g.turns:
        twin.push(t.move)
    return twin


def _play_to(rules: Rules, seed: int, moves: int) -> Giv:
    g = Giv(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    bot = make_bot("careful", seed=seed)
    for _ in range(moves):
        if g.is_over:
            break
        ms = g.legal_moves()
        g.push(rng.choice(ms) if rng.random() < 0.3 else bot.choose(g.observation()))
    return g


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["kasino", "avig-kasino", "dragkasino", "kasino-pairs", "kasino-face-own-rank"]),
       seed=st.integers(0, 10_000), moves=st.integers(0, 40))
def test_careful_plays_legal_moves_from_the_observation_only(preset, seed, moves):
    rules = Rules.preset(preset)
    g = _play_to(rules, seed, moves)
    if g.is_over:
        return
    obs = g.observation()
    bot = make_bot("careful", seed=seed, rules=rules)
    move = bot.choose(obs)
    legal = g.legal_moves()
    assert move in legal
    owns = any(isinstance(x, Build) and x.owner == g.turn for x in g.table)
    if owns and any(m.capture is not None for m in legal):
        assert move.capture is not None  # never trails while owning a build when it need not
    twin = _scrambled(g, g.turn, random.Random(seed))
    assert twin.hands[g.turn] == g.hands[g.turn] and twin.observation() == obs
    assert bot.choose(twin.observation()) == move
    assert bot.explain(twin.observation()) == bot.explain(obs)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["kasino", "avig-kasino", "dragkasino"]), seed=st.integers(0, 10_000),
       moves=st.integers(0, 30))
def test_expert_plays_legal_moves_from_the_observation_only(preset, seed, moves):
    rules = Rules.preset(preset)
    g = _play_to(rules, seed, moves)
    if g.is_over:
        return
    bot = fast_expert(seed, rules)
    move = bot.choose(g.observation())
    assert move in g.legal_moves()
    twin = _scrambled(g, g.turn, random.Random(seed + 1))
    assert twin.observation() == g.observation()
    assert bot.choose(twin.observation()) == move


def test_a_determinization_keeps_what_the_seat_knows():
    g = _play_to(K, 5, 13)
    obs = g.observation()
    hidden = [c for s, h in enumerate(g.hands) if s != g.turn for c in h] + g.stock
    random.Random(2).shuffle(hidden)
    hands = [list(h) if s == g.turn else [hidden.pop() for _ in h] for s, h in enumerate(g.hands)]
    w = kasino_world(obs, hands, hidden)
    assert w.table == g.table and w.piles == g.piles and w.legal_moves() == g.legal_moves()
    assert w.stock_size == g.stock_size and w.card_count() == 52
    while not w.is_over:  # and it plays to the end by the same rules
        w.push(w.legal_moves()[0])
    assert sum(map(len, w.piles)) == 52


@pytest.mark.parametrize("preset", KASINO_PRESETS)
def test_the_piles_a_seat_rebuilds_from_what_it_saw_are_the_real_piles(preset):
    """A build names table cards and takes none: the piles the bots rebuild from the moves seen
    (and value positions with) are the giv's own, builds made and taken, at every move."""
    rules = Rules.preset(preset)
    builds = 0
    for seed in range(4):
        g = Giv(rules, seed=seed)
        bot = make_bot("careful", seed=seed, rules=rules)
        rng = random.Random(seed)
        while not g.is_over:
            obs = g.observation()
            assert [sorted(p) for p in piles_from_history(obs)] == [sorted(p) for p in g.piles]
            assert kasino_world(obs, g.hands, g.stock).piles == piles_from_history(obs)
            move = bot.choose(obs) if g.turn else rng.choice(g.legal_moves())  # seat 0 at random: builds too
            builds += move.kind == "build"
            g.push(move)
        assert [sorted(p) for p in piles_from_history(g.observation())] == [sorted(p) for p in g.piles]
    assert builds >= 3  # the careful player builds: the case is met


# --- whole givar of every preset ------------------------------------------------------

@pytest.mark.parametrize("preset", KASINO_PRESETS)
def test_careful_and_expert_play_whole_givar_of_every_kasino_preset(preset):
    rules = Rules.preset(preset)
    bots = [fast_expert(s, rules) if s % 2 == 0 else make_bot("careful", seed=s, rules=rules)
            for s in range(rules.players)]
    g = Giv(rules, seed=3)
    while not g.is_over:
        move = bots[g.turn].choose(g.observation())
        g.play(move)  # checked: an illegal move raises
    assert g.card_count() == 52 and len(g.result.scores) == rules.players


def test_tournament_with_kasino_says_higher_is_better():
    t = tournament(K, givar=2, bots=["careful", "random"], seed=1, jobs=1)
    assert len(t.rows) == 4
    text = t.summary()
    assert "higher is better" in text and "Kasino" in text
    t = tournament(Rules(), givar=2, bots=["careful", "random"], seed=1, jobs=1)
    assert "lower is better" in t.summary()  # Krypkasino as before


def test_kasino_givar_come_back_whole_from_worker_processes():
    """With jobs > 1 the workers send moves and each giv is replayed here: builds keep their value."""
    seen = []
    t = tournament(K, givar=4, bots=["careful", "random"], seed=3, jobs=2, on_giv=lambda g, lineup: seen.append(g))
    assert any(tu.move.kind == "build" for g in seen for tu in g.turns)
    assert [s for g in seen for s in g.result.scores] == [r.score for r in t.rows]
    assert t.rows == tournament(K, givar=4, bots=["careful", "random"], seed=3, jobs=1).rows


# --- which bots and options play classic Kasino -------------------------------------

def test_every_level_plays_kasino_and_krypkasino_options_are_refused():
    for level in ("random", "careful", "expert"):
        check_bot_rules(level, K)
        check_bot_rules(level, AVIG)
        assert make_bot(level, rules=K) is not None
    with pytest.raises(BotError, match="'rollouts' tunes Krypkasino's search only"):
        make_bot("expert", rules=K, rollouts=60)
    with pytest.raises(BotError, match="'setup' tunes Krypkasino's terms only"):
        make_bot("careful", rules=AVIG, setup=0)
    with pytest.raises(BotError, match="unknown bot"):
        check_bot_rules("wizard", K)
    make_bot("expert", rules=Rules(), rollouts=60)  # Krypkasino as before
    make_bot("expert", rules=K, kasino_samples=8, exact=False)
    with pytest.raises(BotError, match="kasino_samples=0"):
        make_bot("expert", rules=K, kasino_samples=0)
    with pytest.raises(BotError):
        tournament(K, givar=2, bots=["expert:rollouts=60", "careful"], jobs=1)


# --- the command line ------------------------------------------------------------------

def run(*args):
    return subprocess.run([sys.executable, "-m", "krypteach", *args], capture_output=True, text=True, timeout=300,
                          check=False)


def test_cli_simulate_and_tournament_with_kasino_bots():
    out = run("simulate", "--rules", "kasino", "--bots", "careful,expert:kasino_samples=4", "--givar", "2",
              "--jobs", "1")
    assert out.returncode != 0 and "expert:kasino_samples=4" in out.stderr  # simulate takes levels only
    out = run("simulate", "--rules", "kasino", "--bots", "careful,expert", "--givar", "2", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "2 givar, Kasino, 2 players, bots: careful, expert" in out.stdout
    out = run("tournament", "--rules", "avig-kasino", "--bots", "expert:kasino_samples=4,careful", "--givar", "2",
              "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "Avig kasino" in out.stdout and "lower is better" in out.stdout and "expert:kasino_samples=4" in out.stdout
    out = run("tournament", "--rules", "kasino", "--bots", "expert:rollouts=60,careful", "--givar", "2", "--jobs", "1")
    assert out.returncode != 0 and "tunes Krypkasino's search only" in out.stderr

"""Bots: they see only their observation, play legal moves, are deterministic,
and the careful bot beats the random one. (Strength numbers live in
benchmarks/ and docs/bots.md; nothing here is timed.)"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from krypteach import Card, Giv, Move, Rules, parse_cards
from krypteach.bots import BOT_LEVELS, CarefulBot, ExpertBot, make_bot, suggest
from krypteach.bots.careful import WEIGHTS, assess_moves
from krypteach.bots.endgame import best_moves, endgame_line, solve_endgame
from krypteach.bots.knowledge import forbidden_ranks, p_holds_any, unseen_counts
from krypteach.bots.sim import piles_from_history, rollout, sample_world, utility, world
from krypteach.engine.game import Deal
from krypteach.engine.rules import deal_plan
from krypteach.engine.turn import team_relative
from krypteach.play.tournament import lineups, tournament

SMALL = {"expert": {"rollouts": 12, "min_samples": 3}}


def small_bot(name: str, seed: int):
    return make_bot(name, seed=seed, **SMALL.get(name, {}))


def deck_with(front: str) -> list[Card]:
    """A 104-card deck order that starts with ``front`` and goes on with the rest in order."""
    first = parse_cards(front)
    rest = [Card(i) for i in range(52)] * 2
    for c in first:
        rest.remove(c)
    return first + rest


# --- hidden cards do not matter --------------------------------------------------------

def reshuffle_hidden(g: Giv, rng: random.Random) -> Giv | None:
    """A giv whose visible state for the player to move is ``g``'s, but whose hidden
    cards (the other hands' unplayed cards and the stock) are dealt differently."""
    seat = g.turn
    cur = g.deal_index - 1
    start = max((i + 1 for i, t in enumerate(g.turns) if t.dealt), default=0)
    played = {q: [t.move.card for t in g.turns[start:] if t.player == q] for q in range(g.players)}
    pool = [c for q in range(g.players) if q != seat for c in g.hands[q]]
    for d in g.deals[cur + 1:]:
        pool += d.cards()
    rng.shuffle(pool)
    deals = list(g.deals[:cur])
    d = g.deals[cur]
    hands = []
    for q in range(g.players):
        if q == seat:
            hands.append(d.hands[q])
        else:
            need = len(d.hands[q]) - len(played[q])
            hands.append(tuple(played[q]) + tuple(pool[:need]))
            del pool[:need]
    deals.append(Deal(tuple(hands), d.table, d.aside))
    for k, t in deal_plan(g.rules)[cur + 1:]:
        hs = []
        for _ in range(g.players):
            hs.append(tuple(pool[:k]))
            del pool[:k]
        laid, pool = pool[:t], pool[t:]
        deals.append(Deal(tuple(hs), tuple(c for c in laid if not c.is_face), tuple(c for c in laid if c.is_face)))
    assert not pool
    b = Giv(g.rules, dealer=g.dealer, deals=deals)
    try:
        for t in g.turns:
            b.play(t.move)
    except ValueError:  # a hidden card would have forced a different move (tvångstabbe)
        return None
    return b


def twin_positions(rules: Rules, seed: int, plies: int) -> tuple[Giv, Giv]:
    g = Giv(rules, dealer=seed % rules.players, seed=seed)
    bots = [CarefulBot(seed=s) for s in range(rules.players)]
    for _ in range(plies):
        g.play(bots[g.turn].choose(g.observation()))
    rng = random.Random(seed)
    for _ in range(200):
        b = reshuffle_hidden(g, rng)
        if b is not None and (b.stock != g.stock or b.hands != g.hands):
            return g, b
    raise AssertionError("no reshuffle kept the history legal")


@pytest.mark.parametrize("rules,seed,plies", [
    (Rules(), 1, 0), (Rules(), 2, 5), (Rules(), 3, 30), (Rules(), 4, 61),
    (Rules(players=3), 5, 7), (Rules(players=4, teams="pairs"), 6, 10),
])
def test_choice_does_not_depend_on_hidden_cards(rules, seed, plies):
    a, b = twin_positions(rules, seed, plies)
    other = [q for q in range(rules.players) if q != a.turn]
    assert a.stock != b.stock or any(sorted(a.hands[q]) != sorted(b.hands[q]) for q in other)
    oa, ob = a.observation(), b.observation()
    assert oa == ob  # the seat to move sees exactly the same
    for name in ("random", "careful", "expert"):
        ma = small_bot(name, 11).choose(oa)
        mb = small_bot(name, 11).choose(ob)
        assert ma == mb, name
        assert ma in a.legal_moves() and mb in b.legal_moves()


# --- legal, deterministic -----------------------------------------------------------------

@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=4, teams="pairs"),
                                   Rules.preset("maximum-capture"), Rules.preset("ace-low"),
                                   Rules.preset("two-player-5-6")])
def test_careful_always_plays_legal_moves(rules):
    for seed in range(3):
        g = Giv(rules, dealer=seed % rules.players, seed=seed)
        bots = [CarefulBot(seed=s) for s in range(rules.players)]
        while not g.is_over:
            move = bots[g.turn].choose(g.observation())
            assert move in g.legal_moves()
            g.play(move)
        assert sum(g.result.card_points) == 42


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3)])
def test_expert_plays_legal_moves_to_the_end(rules):
    g = Giv(rules, seed=8)
    expert = small_bot("expert", 0)
    bots = [expert if s == 0 else CarefulBot(seed=s) for s in range(rules.players)]
    methods = set()
    while not g.is_over:
        move = bots[g.turn].choose(g.observation())
        assert move in g.legal_moves()
        if g.turn == 0:
            methods.add(expert.last.method)
            assert expert.last.chosen == move
        g.play(move)
    assert sum(g.result.card_points) == 42
    # it searched (not only forced moves), by the method its player count calls for
    searched = {"deal-search", "exact"} if rules.players == 2 else {"monte-carlo"}
    assert searched & methods, methods


def play_moves(names, seed):
    g = Giv(Rules(), seed=seed)
    bots = [small_bot(n, seed=5) for n in names]
    while not g.is_over:
        g.play(bots[g.turn].choose(g.observation()))
    return [t.move for t in g.turns]


@pytest.mark.parametrize("name", ["random", "careful", "expert"])
def test_deterministic_under_a_seed(name):
    names = [name, "careful"]
    assert play_moves(names, 3) == play_moves(names, 3)


def test_the_seed_matters():
    def moves(seed):
        g = Giv(Rules(), seed=3)
        bots = [make_bot("random", seed=seed), CarefulBot(seed=1)]
        while not g.is_over:
            g.play(bots[g.turn].choose(g.observation()))
        return [t.move for t in g.turns]

    assert moves(5) != moves(6)


def test_same_observation_same_answer_and_explain_agrees():
    g = Giv(seed=12)
    for _ in range(9):
        g.play(CarefulBot(seed=0).choose(g.observation()))
    obs = g.observation()
    for bot in (CarefulBot(seed=4), ExpertBot(seed=4, rollouts=12, min_samples=3)):
        first = bot.choose(obs)
        assert bot.choose(obs) == first
        move, why = bot.explain(obs)
        assert move == first and first.card.symbol in why


def test_careful_beats_random_smoke():
    t = tournament(Rules(), 40, ["careful", "random"], seed=3)
    diff, half = t.difference("careful", "random")
    assert diff + half < 0, t.summary()


def careful_positions(rules: Rules, givar: int, seed: int = 0):
    """Observations of the seat to move in careful-bot givar (with a real choice)."""
    for i in range(givar):
        g = Giv(rules, dealer=i % rules.players, seed=seed + i)
        bots = [CarefulBot(seed=s) for s in range(rules.players)]
        while not g.is_over:
            obs = g.observation()
            if len(g.legal_moves()) > 1:
                yield obs
            g.play(bots[g.turn].choose(obs))


def ranked_by(obs, weights, seed):
    """The careful bot's order by hand: every term of every move, weighted, ties by its seeded keys."""
    from krypteach.bots.careful import position_rng

    assessed = assess_moves(obs)
    rng = position_rng(seed, obs, "careful")
    keys = [rng.random() for _ in assessed]
    order = sorted(range(len(assessed)), key=lambda i: (round(assessed[i].score(weights), 9), keys[i]))
    return [assessed[i].move for i in order]


@pytest.mark.parametrize("weights", [{}, {"setup": 0}, {"exposed": 2.5}, {"points": 2, "dump": 1}])
def test_careful_chooses_the_lowest_weighted_total(weights):
    # choose() adds up the costly ``exposed`` term only where it can change the choice:
    # it must pick exactly what scoring every term of every move picks
    bot = CarefulBot(seed=7, **weights)
    full = {**WEIGHTS, **{k: float(v) for k, v in weights.items()}}
    for obs in careful_positions(Rules(), 4, seed=40):
        assert bot.choose(obs) == ranked_by(obs, full, 7)[0]


def test_careful_weights_change_the_choice():
    # the same positions, other weights: some choices change (a bot that ignored them would not)
    default, no_setup, no_exposure = CarefulBot(seed=0), CarefulBot(seed=0, setup=0), CarefulBot(seed=0, exposed=0)
    changed_setup = changed_exposure = 0
    for obs in careful_positions(Rules(), 6, seed=50):
        move = default.choose(obs)
        changed_setup += no_setup.choose(obs) != move
        changed_exposure += no_exposure.choose(obs) != move
    assert changed_setup and changed_exposure
    assert make_bot("careful", seed=0, setup=0).weights["setup"] == 0
    with pytest.raises(ValueError, match="unknown term"):
        CarefulBot(seed=0, luck=1)


def test_registered_levels_and_suggest():
    assert {"random", "careful", "expert"} <= set(BOT_LEVELS)
    assert isinstance(make_bot("careful", seed=1), CarefulBot)
    assert isinstance(make_bot("Expert", seed=1), ExpertBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    g = Giv(seed=2)
    move, why = suggest(g.observation(), "careful")
    assert move in g.legal_moves() and why


# --- the careful bot's terms ------------------------------------------------------------

def test_careful_sees_a_dukning_set_up():
    # seat 1 leads with 7H 8S 9C QH at table AH 2C (KD KC go to klädda högen):
    # creeping 7H leaves A+2+7 = 10 on the table: "tabbe på tio" for seat 0
    g = Giv(Rules(), dealer=0, deck=deck_with("7H 3C 8S 4C 9C 5C QH 6C AH 2C KD KC"))
    assert sorted(g.table) == parse_cards("AH 2C")
    obs = g.observation()
    terms = {str(a.move): a for a in assess_moves(obs)}
    creep7 = terms["7H"]
    assert creep7.terms["setup"] < 0
    assert any("tabbe på tio" in n and "you get the dukning" in n for n in creep7.notes)
    assert any("tabbe på knekt" in n for n in terms["8S"].notes)  # A+2+8 = 11
    assert any("tabbe på ess" in n for n in terms["QH"].notes)  # the lone ace, and 2+Q = 14
    # seen from seat 1 a ten is possible but not sure: the term is a fraction of the
    # dukning + mark (10) and the table's point (A♥)
    assert 0 < -creep7.terms["setup"] < 11


def test_careful_avoids_taking_points_and_prefers_a_creep():
    # seat 1 holds 10D (storan) and 4H; table 10S 7C 6D 8H: the ten must take 10S (1 p + storan 3),
    # the 4 creeps. Careful creeps.
    g = Giv(Rules(), dealer=0, deck=deck_with("10D 2C 4H 3C 9H 5C 9D 6C 10S 7C 6D 8H"))
    move = CarefulBot(seed=0).choose(g.observation())
    assert move.capture is None


@pytest.mark.parametrize("previous_mover,table,hand,value", [
    (1, "AH 7C 3D 9S", "10S 4H", 10),    # 5 for the mark, and seat 1's dukning (-5) counts for us too
    (None, "AH 7C 3D 9S", "10S 4H", 5),  # nobody moved before: the mark alone
    (1, "QH", "QH 4H", 20),              # a dubbeltabbe: two marks, two dukningar
    (None, "QH", "QH 4H", 10),
])
def test_careful_values_a_forced_tabbe_with_the_previous_mover(previous_mover, table, hand, value):
    g = Giv.from_position([hand.split(), ["5D"]], table.split(), previous_mover=previous_mover)
    (a,) = assess_moves(g.observation())
    assert a.move.capture is not None and len(a.move.capture) == len(g.table)
    assert a.terms["tabbe"] == value
    turn = g.play(a.move)  # the engine books what the bot counted
    deltas = {0: 5 * turn.tabbe}
    if turn.dukning is not None:
        deltas[turn.dukning] = -5 * turn.tabbe
    assert turn.dukning == previous_mover and team_relative(g.rules, 0, deltas) == value


def test_careful_counts_the_dukning_of_a_previous_mover_in_three_players():
    # seat 2 moved before seat 0; the tabbe gives seat 0 a mark and seat 2 a dukning:
    # 5 for us against the mean of the others' (-5 + 0) / 2: 7.5
    g = Giv.from_position([["10S", "4H"], ["5D"], ["6D"]], ["AH", "7C", "3D", "9S"], previous_mover=2)
    (a,) = assess_moves(g.observation())
    assert a.terms["tabbe"] == 7.5


# --- knowledge ----------------------------------------------------------------------

def test_forbidden_ranks_from_a_missed_tabbe_and_sampling_respects_them():
    # seat 1 leads at table 3C 4H (a seven takes it whole) and creeps 9D: by tvångstabbe
    # seat 0 now knows that seat 1 holds no seven
    g = Giv(Rules(), dealer=0, deck=deck_with("9D 2S KH 2H QH 5D JH 8D 3C 4H KD KC"))
    assert g.tabbe_pa() == [7]
    g.play("9D")
    obs = g.observation()
    assert obs.seat == 0
    forb = forbidden_ranks(obs)
    assert 7 in forb[1]
    rng = random.Random(0)
    for _ in range(50):
        s = sample_world(obs, rng, forbidden=forb)
        assert all(c.rank not in forb[1] for c in s.hands[1])
        assert sorted(s.hands[0]) == sorted(obs.hand)
        assert s.stock_size == obs.stock_left


def test_probability_and_unseen_cards():
    assert p_holds_any(4, 4, 4) == 1.0
    assert abs(p_holds_any(52, 4, 4) - (1 - (48 * 47 * 46 * 45) / (52 * 51 * 50 * 49))) < 1e-12
    g = Giv(seed=9)
    for _ in range(30):
        g.play(g.legal_moves()[-1])
        obs = g.observation()
        unseen = obs.unseen()
        assert unseen == sorted(unseen) and len(unseen) == 104 - len(obs.hand) - len(obs.dealt_to_table) - len(obs.history)
        assert [unseen.count(Card(i)) for i in range(52)] == unseen_counts(obs)
        # what the seat has not seen is exactly the other hands and the stock
        assert unseen == sorted([c for s, h in enumerate(g.hands) if s != obs.seat for c in h] + g.stock)


# --- the search's state is the game's state ------------------------------------------------

def hidden_of(g: Giv) -> tuple[list[list[Card]], list[Card]]:
    """The true hidden cards of a giv, as :func:`world` takes them: every hand, and the
    stock in the order ``future_deals`` cuts it (seat by seat, then the table)."""
    stock = [c for d in g.deals[g.deal_index:] for c in [*(c for h in d.hands for c in h), *d.table, *d.aside]]
    return [list(h) for h in g.hands], stock


def assert_same_state(w: Giv, g: Giv) -> None:
    assert (w.turn, w.table, w.kladda, w.hands, w.piles, w.marks, w.dukningar, w.last_capturer, w.last_mover) == (
        g.turn, g.table, g.kladda, g.hands, g.piles, g.marks, g.dukningar, g.last_capturer, g.last_mover)
    assert w.stock == g.stock and w.legal_moves() == g.legal_moves()


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=4, teams="pairs"),
                                   Rules(players=6, teams="threes"), Rules(players=5),
                                   Rules(last_capture_point=1, cancel_marks=False, dubbeltabbe=False),
                                   Rules(tabbe_points=3, dukning_points=-7),
                                   Rules.preset("free-capture"), Rules.preset("ace-low"),
                                   Rules.preset("two-player-5-6"), Rules.preset("table-grows-by-creeping")])
def test_world_of_an_observation_plays_as_the_giv(rules):
    # a determinization made with the true hidden cards, taken at a random point of a
    # random giv, is the giv itself from there on: move by move and in the final scores
    rng = random.Random(rules.players)
    for seed in range(4):
        g = Giv(rules, dealer=seed % rules.players, seed=seed)
        for _ in range(rng.randrange(60)):
            if g.is_over:
                break
            g.play(rng.choice(g.legal_moves()))
        if g.is_over:
            continue
        obs = g.observation()
        assert piles_from_history(obs) == g.piles
        w = world(obs, *hidden_of(g))
        assert_same_state(w, g)
        while not g.is_over:
            m = rng.choice(g.legal_moves())
            tg, tw = g.play(m), w.push(m)
            assert (tw.tabbe, tw.dukning, tw.cancelled, tw.dealt, tw.sweep) == (tg.tabbe, tg.dukning, tg.cancelled,
                                                                                tg.dealt, tg.sweep)
            assert_same_state(w, g)
            for s in range(rules.players):
                assert utility(w, s) == utility(g, s)
        assert w.result == g.result
        assert [utility(w, s) for s in range(rules.players)] == [
            team_relative(rules, s, g.result.scores) for s in range(rules.players)]


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(dubbeltabbe=False)])
def test_world_of_a_position_with_a_previous_mover_and_a_dubbeltabbe(rules):
    # seat 0 must take the lone QH with its twin: a dubbeltabbe, the dukningar to the previous mover
    n = rules.players
    hands = [["QH", "4H"]] + [["5D"]] * (n - 1)
    for prev in (n - 1, None):
        g = Giv.from_position(hands, ["QH"], rules=rules, previous_mover=prev)
        sampled = sample_world(g.observation(), random.Random(0))
        assert sampled.hands[0] == g.hands[0] and [len(h) for h in sampled.hands] == [len(h) for h in g.hands]
        assert sampled.stock == [] and sampled.last_mover == prev
        w = world(g.observation(), *hidden_of(g))
        assert_same_state(w, g)
        (m,) = g.legal_moves()
        tg, tw = g.play(m), w.push(m)
        made = 2 if rules.dubbeltabbe else 1
        assert tg.tabbe == tw.tabbe == made and tg.dukning == tw.dukning == prev
        assert w.marks == g.marks and w.dukningar == g.dukningar
        assert w.dukningar[n - 1] == (made if prev is not None else 0)
        w.pop()
        assert w.marks == [0] * n and w.dukningar == [0] * n


def test_rollouts_are_taken_back_exactly():
    g = Giv(Rules(players=3), seed=4)
    for _ in range(10):
        g.play(g.legal_moves()[0])
    w = sample_world(g.observation(), random.Random(2))
    before = w.state_key()
    for m in w.legal_moves():
        w.push(m)
        k = 1 + rollout(w, random.Random(5), to_deal_end=True)
        assert w.deal_index > g.deal_index or w.is_over
        for _ in range(k):
            w.pop()
        assert w.state_key() == before


# --- exact endgame --------------------------------------------------------------------

def minimax(g: Giv, me: int, leaf: Callable[[Giv, int], float],
            stop: Callable[[Giv], bool] = lambda g: g.is_over) -> float:
    """Plain minimax of ``me``'s value, no pruning, no table: the oracle the solvers are checked against.
    It searches the real giv with push and pop (its moves are its legal ones) until ``stop`` (by default
    the giv is over), where ``leaf(g, me)`` is the value; the player to move takes the best for its side,
    which is the lowest where the lowest score wins. (tests/test_kasino_exact.py and
    tests/test_endgame_mutants.py use it too, each with its own leaf.)"""
    if stop(g):
        return leaf(g, me)
    values = []
    for m in g.legal_moves():
        g.push(m)
        values.append(minimax(g, me, leaf, stop))
        g.pop()
    return (max if (g.turn == me) != g.rules.lowest_wins else min)(values)


def final_difference(g: Giv, me: int) -> int:
    """The finished giv's (my score − the opponent's): a leaf for :func:`minimax`."""
    r = g.result.scores
    return r[me] - r[1 - me]


def last_deal_position(seed: int, cards_each: int) -> Giv:
    g = Giv(Rules(), dealer=seed % 2, seed=seed)
    bots = [CarefulBot(seed=0), CarefulBot(seed=1)]
    while not (g.stock_size == 0 and len(g.hands[g.turn]) == cards_each):
        g.play(bots[g.turn].choose(g.observation()))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_endgame_solver_matches_search_on_the_real_engine(seed):
    g = last_deal_position(seed, 3)
    me = g.turn
    obs = g.observation()
    lc = None if g.last_capturer is None else int(g.last_capturer != me)
    vals = solve_endgame(g.rules, g.hands[me], g.hands[1 - me], g.table, kladda=g.kladda, last_capturer=lc)
    base_now = [obs.pile_points[s] + 5 * obs.marks[s] - 5 * obs.dukningar[s] for s in range(2)]
    for m, v in vals.items():
        g.play(m)
        exact = minimax(g, me, final_difference)
        g.pop()
        assert v == exact - (base_now[me] - base_now[1 - me]), str(m)
    line = endgame_line(g.rules, g.hands[me], g.hands[1 - me], g.table, kladda=g.kladda, last_capturer=lc)
    assert line[0][1] in best_moves(vals) and len(line) == len(g.hands[0]) + len(g.hands[1])


def random_endgame(rng: random.Random, previous_mover: int | None, rules: Rules | None = None) -> Giv:
    """A hand-made last deal: 2 or 3 cards each (the mover one more, or as many), a small
    table; often the lone table card's twin is in a hand (a dubbeltabbe to be had)."""
    deck = [Card(i) for i in range(52)] * 2
    rng.shuffle(deck)
    mine, other = rng.choice([(3, 3), (3, 2), (2, 2), (2, 1)])
    hands = [deck[:mine], deck[mine:mine + other]]
    table = deck[10:10 + rng.randrange(1, 4)]
    if rng.random() < 0.5:
        table = [rng.choice(hands[0] + hands[1])]
    return Giv.from_position(hands, table, previous_mover=previous_mover, kladda=[c for c in deck[20:23] if c.is_face],
                             rules=rules)


@pytest.mark.parametrize("previous_mover", [1, None])
def test_endgame_solver_knows_the_previous_mover(previous_mover):
    # the solver's values equal a search of the real engine from a hand-made position,
    # whose first tabbe gives the previous mover its dukningar (or nobody, with none)
    rng = random.Random(previous_mover or 7)
    side = previous_mover  # seat 1 is side 1: the player not to move
    tabbar = 0
    for _ in range(25):
        g = random_endgame(rng, previous_mover)
        vals = solve_endgame(g.rules, g.hands[0], g.hands[1], g.table, kladda=g.kladda, previous_mover=side)
        for m, v in vals.items():
            tabbar += g.play(m).tabbe
            assert v == minimax(g, 0, final_difference), (str(m), g.hands, g.table)
            g.pop()
        line = endgame_line(g.rules, g.hands[0], g.hands[1], g.table, kladda=g.kladda, previous_mover=side)
        assert line[0][2] == min(vals.values())
    assert tabbar >= 5  # first moves that were tabbar (and dubbeltabbar) were among those checked


def test_endgame_solver_counts_the_first_dukning_only_with_a_previous_mover():
    hand, other, table = parse_cards("QH 5C"), parse_cards("3D"), parse_cards("QH")
    with_prev = solve_endgame(Rules(), hand, other, table, previous_mover=1)
    without = solve_endgame(Rules(), hand, other, table, previous_mover=None)
    dubbel = Move.parse("QH:QH")
    assert with_prev[dubbel] - without[dubbel] == 10  # two dukningar of 5 for the opponent
    assert solve_endgame(Rules(dubbeltabbe=False), hand, other, table, previous_mover=1)[dubbel] == 10
    with pytest.raises(ValueError, match="previous_mover"):
        solve_endgame(Rules(), hand, other, table, previous_mover="other")  # type: ignore[arg-type]


def test_expert_plays_the_exact_endgame():
    g = next(g for g in (last_deal_position(seed, 4) for seed in range(7, 40)) if len(g.legal_moves()) > 2)
    bot = ExpertBot(seed=0)
    move = bot.choose(g.observation())
    assert bot.last.method == "exact"
    me = g.turn
    lc = None if g.last_capturer is None else int(g.last_capturer != me)
    vals = solve_endgame(g.rules, g.hands[me], g.hands[1 - me], g.table, kladda=g.kladda, last_capturer=lc)
    assert move in best_moves(vals)
    _, why = bot.explain(g.observation())
    assert "Every card is known" in why


def test_expert_deal_search_weighs_careful_s_best_moves_and_drops_clear_losers():
    from krypteach.bots.expert import _survivors

    g = Giv(seed=21)
    bots = [CarefulBot(seed=0), CarefulBot(seed=1)]
    searched = 0
    while not g.is_over and searched < 12:
        obs = g.observation()
        if obs.stock_left and len(g.legal_moves()) > 2:
            expert = ExpertBot(seed=3)
            move = expert.choose(obs)
            a = expert.last
            ranked = sorted(assess_moves(obs), key=lambda x: x.total)
            if a.method == "deal-search":
                searched += 1
                assert len(a.values) == 2 and move in a.values  # careful's two best (suits of pointless cards merged)
                assert a.values[move] == min(a.values.values())
                assert ranked[0].move in a.values
                assert 6 <= a.samples <= 20
        g.play(bots[g.turn].choose(obs))
    assert searched
    m1, m2, m3 = Move.parse("5H"), Move.parse("6H"), Move.parse("7H")
    values = {m1: [0, 1, 0, 2, 1, 0], m2: [9, 8, 10, 9, 9, 8], m3: [1, 0, 2, 0, 0, 3]}
    assert _survivors([m1, m2, m3], values, 6) == [m1, m3]  # m2 is worse in every sample


def test_dealing_only_the_cards_a_search_needs_keeps_what_the_seat_knows():
    from krypteach.bots.sim import deal_unseen

    g = Giv(Rules(), dealer=0, deck=deck_with("9D 2S KH 2H QH 5D JH 8D 3C 4H KD KC"))
    g.play("9D")  # seat 1 faced 3 + 4 and made no tabbe: it holds no seven
    obs = g.observation()
    forb = forbidden_ranks(obs)
    pool = obs.unseen()
    rng = random.Random(4)
    seen = set()
    for _ in range(200):
        hands, stock = deal_unseen(obs, rng, forbidden=forb, stock_cards=12)
        assert all(c.rank != 7 for c in hands[1]) and len(hands[1]) == 3 and len(stock) == 12
        drawn = hands[1] + stock
        assert sorted(drawn) == sorted(set(drawn)) or all(drawn.count(c) <= pool.count(c) for c in drawn)
        seen.update(hands[1])
    assert len(seen) > 40  # every allowed card can be drawn


# --- tournament seating ----------------------------------------------------------------

def test_tournament_rotates_seats_and_duplicates_deals(tmp_path):
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    decks = []
    t = tournament(Rules(), 6, ["careful", "random"], seed=2, on_giv=lambda g, lineup: decks.append((g.deals, g.dealer)))
    seats = {(r.bot, r.seat) for r in t.rows}
    assert seats == {("careful", 0), ("careful", 1), ("random", 0), ("random", 1)}
    assert decks[0] == decks[1] and decks[2] == decks[3] and decks[0] != decks[2]
    assert [d for _, d in decks] == [0, 0, 1, 1, 0, 0]
    with pytest.raises(ValueError, match="multiple of the number of bots"):
        tournament(Rules(), 5, ["careful", "random"])


def test_the_experts_hint_says_why_in_words_not_statistics():
    """The hint (issue 11): what the move does this turn, and how it compares, in words;
    two moves about equally good are said to be so."""
    g = Giv(seed=12)
    seen = set()
    while not g.is_over and len(seen) < 12:
        obs = g.observation()
        move, why = ExpertBot(seed=1).explain(obs)
        assert "samples" not in why and "expected score" not in why and "0 points" not in why, why
        assert move.describe() in why
        if len(obs.legal_moves()) > 1:
            kinds = [k for k in ("about as good as", "a little better than", "points better than",
                                 "The other legal moves play the same", "Every card is known") if k in why]
            assert kinds, why
            seen.add(kinds[0])
        g.play(CarefulBot(seed=0).choose(obs))
    assert {"about as good as", "points better than"} & seen

"""The review of a giv (issue 22): every legal move valued from the seat's own observation, a
verdict only where the loss is significant, exact in the last utdelning, and words that say why.

The planted blunder is the issue's, as Krypkasino counts: a dukning is −5 for the player who
set the tabbe up (good for them, the lowest score wins), so the costly creep is the one that
lets the *next* player set a tvångstabbe up for *you*: the mark is yours (+5), the dukning
theirs (−5), a swing of 10."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from krypteach import Rules
from krypteach.bots import make_bot
from krypteach.bots.expert import ExpertBot
from krypteach.bots.review import THRESHOLDS, decision_words, review_decision, review_giv, verdict_of
from krypteach.bots.words import seat_names
from krypteach.cli import main
from krypteach.engine.cards import Card
from krypteach.engine.game import Giv, Observation
from krypteach.engine.moves import Move
from krypteach.engine.records import giv_from_record, giv_to_record, write_records
from krypteach.i18n import use_language


def _all_seen_but_the_hands(g: Giv, seat: int = 0) -> Observation:
    """``g``'s observation for ``seat`` as in a last utdelning: every card not in a hand or on the
    table has been seen (played before), so the other hand is the only unseen cards."""
    obs = g.observation(seat)
    in_play = Counter(c for h in g.hands for c in h) + Counter(g.table)
    rest = tuple((Counter(Card(i) for i in range(52) for _ in range(g.rules.copies)) - in_play).elements())
    return dataclasses.replace(obs, dealt_to_table=obs.dealt_to_table + rest, stock_left=0)


def _planted() -> Observation:
    # you: 3♦ 7♥; Bea: 8♥ 9♥; the table 4♣ 8♣. 3♦ creeps, Bea's 8♥ takes 8♣, and your 7♥ must
    # take 3♦+4♣ (tvångstabbe): your mark, Bea's dukning. 7♥ creeps instead leaves nothing to take whole.
    g = Giv.from_position([["3D", "7H"], ["8H", "9H"]], ["4C", "8C"], previous_mover=1)
    return _all_seen_but_the_hands(g)


def _played_out(rules: Rules, seed: int, level: str = "careful") -> Giv:
    g = Giv(rules, seed=seed)
    bots = [make_bot(level, seed=s + 1) for s in range(rules.players)]
    g.play_out(lambda x: bots[x.turn].choose(x.observation()))
    return g


def test_the_planted_blunder_and_the_fine_move_in_the_last_utdelning_are_judged_exactly():
    obs = _planted()
    blunder = review_decision(obs, Move.parse("3D"))
    fine = review_decision(obs, Move.parse("7H"))
    assert blunder is not None and fine is not None
    assert (blunder.method, blunder.samples, str(blunder.best)) == ("exact", 1, "7H")
    assert blunder.loss.loss == 10.0 and blunder.loss.low == blunder.loss.high == 10.0  # exact: no interval
    assert blunder.verdict == "blunder" and not blunder.as_good_as_best and blunder.theme == "exposed"
    assert fine.verdict == "fine" and fine.loss.loss == 0.0 and fine.as_good_as_best
    with seat_names(["You", "Bea"]):
        why = decision_words(obs, blunder)
    assert why.startswith("3♦ creeps: blunder.")
    assert "you: 7♥ takes 3♦+4♣ (a tabbe); Bea: 9♥ creeps (the last cards go to you)." in why
    assert "From here you take 5 points and Bea −5." in why
    assert "7♥ creeps ends 10 points better for you" in why
    with use_language("sv"), seat_names(["Du", "Bea"]):
        sv = decision_words(obs, blunder)
    assert "−5" in sv and "creeps" not in sv and "tabbe" in sv, sv


def test_a_move_the_search_cannot_tell_from_the_best_is_never_a_mistake():
    assert verdict_of(20.0, 0.0, THRESHOLDS["cards"]) == "fine"  # not significant, however large
    assert verdict_of(20.0, -3.0, THRESHOLDS["cards"]) == "fine"
    assert [verdict_of(x, 0.01, THRESHOLDS["cards"]) for x in (0.5, 1.0, 3.0, 6.0)] == [
        "fine", "inaccuracy", "mistake", "blunder"]
    # over a whole giv: every flagged decision's interval lies above zero, and at least the first threshold
    r = review_giv(_played_out(Rules(), 7), 0, samples=16)
    assert r.decisions
    for d in r.decisions:
        v = d.loss
        assert v.low <= v.loss <= v.high
        if d.verdict != "fine":
            assert v.low > 0 and v.loss >= THRESHOLDS["cards"][0], d
        assert d.played in {m.move for m in d.values} and len(d.values) >= 2
        assert d.values[0].move == d.best and d.values[0].loss == 0.0


def test_every_legal_move_is_valued_not_only_the_candidates_the_bot_weighs():
    g = _played_out(Rules(), 3)
    replay = g.clone()
    while replay.turns:
        replay.pop()
    for _ in range(6):  # a few decisions of the first utdelning
        obs = replay.observation()
        d = review_decision(obs, obs.legal_moves()[0], samples=8)
        if d is not None:
            assert {v.move for v in d.values} == set(obs.legal_moves())
        replay.push(replay.legal_moves()[-1])


def _many_moves_decision(rules: Rules, least: int) -> Observation:
    """Seat 0's first decision of more than ``least`` legal moves, before the last utdelning, in a
    giv where seat 0 lays out a card whenever it may and the careful player is seat 1."""
    for seed in range(40):
        g = Giv(rules, seed=seed)
        bot = make_bot("careful", seed=seed, rules=rules)
        while not g.is_over:
            if g.turn:
                g.push(bot.choose(g.observation(1)))
                continue
            moves = g.legal_moves()
            if len(moves) > least and g.stock_size:
                return g.observation(0)
            trails = [m for m in moves if m.kind == "creep"]
            g.push(trails[0] if trails else moves[0])
    raise AssertionError("no such decision")


def test_a_kasino_decision_of_very_many_moves_values_the_careful_players_best_and_the_move_played():
    """A table of many loose cards makes dozens of builds: a sampled decision values the careful
    player's first REVIEW_CANDIDATES and the move played (which the careful player ranks last
    here), and says how many moves were legal."""
    from krypteach.bots.kasino import REVIEW_CANDIDATES, ranked_kasino

    obs = _many_moves_decision(Rules(game="kasino"), 2 * REVIEW_CANDIDATES)
    moves = obs.legal_moves()
    ranked = [a.move for a in ranked_kasino(obs, 0, moves)]
    played = ranked[-1]
    d = review_decision(obs, played, samples=6)
    assert d is not None and d.method == "sampled" and d.legal == len(moves) > 2 * REVIEW_CANDIDATES
    valued = {v.move for v in d.values}
    assert valued == {*ranked[:REVIEW_CANDIDATES - 1], played} and len(valued) == REVIEW_CANDIDATES
    assert d.best in valued and d.loss.move == played
    # the move the careful player likes best is kept when it is the one played
    top = review_decision(obs, ranked[0], samples=6)
    assert top is not None and {v.move for v in top.values} == set(ranked[:REVIEW_CANDIDATES])


def _other_hidden_cards(g: Giv, seat: int, rng: random.Random) -> Giv:
    """The same giv as far as ``seat`` knows (every move so far, its hand, the tables dealt), with the
    cards it has not seen dealt again at random: the other hands now and every hand of the
    utdelningar to come (the tables to come stay: a face card on one would go to klädda högen)."""
    rec = giv_to_record(g)
    now = g.deal_index
    slots: list[tuple[int, int, int]] = []
    for d, deal in enumerate(rec["deals"]):
        for s, hand in enumerate(deal["hands"]):
            if d > now or (d == now and s != seat):
                left = Counter(map(str, g.hands[s])) if d == now else None
                for i, c in enumerate(hand):
                    if left is None or left[c] > 0:
                        if left is not None:
                            left[c] -= 1
                        slots.append((d, s, i))
    cards = [rec["deals"][d]["hands"][s][i] for d, s, i in slots]
    rng.shuffle(cards)
    for (d, s, i), c in zip(slots, cards):
        rec["deals"][d]["hands"][s][i] = c
    return giv_from_record(rec)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_honest_the_review_of_a_decision_is_the_same_whatever_the_cards_it_has_not_seen(seed):
    """Deal the cards the seat has not seen differently (consistently with what it saw): the
    other hands and the stock change, the seat's observation does not, and neither does the review."""
    g = Giv(seed=seed)
    for _ in range(9):  # into the giv: a history, a previous mover
        g.push(make_bot("careful", seed=1).choose(g.observation()))
    obs = g.observation()
    other = _other_hidden_cards(g, obs.seat, random.Random(seed + 100))
    assert other.hands[1 - obs.seat] != g.hands[1 - obs.seat] or other.stock != g.stock
    assert other.hands[obs.seat] == g.hands[obs.seat] and other.observation(obs.seat) == obs
    a = review_decision(obs, obs.legal_moves()[0], samples=12)
    b = review_decision(other.observation(obs.seat), obs.legal_moves()[0], samples=12)
    assert a == b


def test_honest_verdicts_do_not_change_beyond_the_sampling_error_with_other_samples():
    """Two reviews of the same giv with different samples agree within their intervals."""
    g = _played_out(Rules(), 11)
    r1, r2 = review_giv(g, 0, samples=24, seed=0), review_giv(g, 0, samples=24, seed=1)
    assert [d.ply for d in r1.decisions] == [d.ply for d in r2.decisions]
    apart = 0
    for d1, d2 in zip(r1.decisions, r2.decisions):
        a, b = d1.loss, d2.loss
        if d1.method == "exact":
            assert (d1.verdict, a.loss) == (d2.verdict, b.loss)
        elif a.high < b.low or b.high < a.low:
            apart += 1
    assert apart <= max(1, len(r1.decisions) // 10), apart


def test_the_sampled_values_are_the_exact_solution_where_there_is_only_one_way_to_deal():
    """With the exact shortcut turned off, the last utdelning is sampled: every determinization is
    the one deal of the unseen cards, so each move's mean is the exact value and the interval is 0."""
    obs = _planted()
    exact = ExpertBot(seed=0).every_move(obs)
    sampled = ExpertBot(seed=0, exact=False).every_move(obs, 6)
    assert exact[0] == "exact" and sampled[0] == "sampled"
    assert {m: v[0] for m, v in exact[1].items()} == {m: sum(v) / len(v) for m, v in sampled[1].items()}
    assert all(len(set(v)) == 1 for v in sampled[1].values())


@pytest.mark.parametrize("preset", ["kasino", "avig-kasino"])
def test_kasino_and_avig_kasino_are_reviewed_in_their_own_sense(preset):
    rules = Rules.preset(preset)
    g = _played_out(rules, 5)
    r = review_giv(g, 1, samples=8)
    assert r.decisions and r.lowest_wins == rules.lowest_wins and r.game == g.game.title
    d = r.decisions[0]
    best, worst = d.values[0], d.values[-1]
    # shown in the game's sense: in Kasino the best move has the highest value, in avig kasino the lowest
    assert (best.shown >= worst.shown) if not rules.lowest_wins else (best.shown <= worst.shown)
    last = r.decisions[-1]
    assert last.method == "exact"  # two players, every card known in the last utdelning
    out = r.to_json()
    assert {"played", "best", "loss", "loss_interval", "verdict"} <= set(out["decisions"][0])
    # every legal move valued here (no decision of very many), and the JSON says how many were legal
    assert all(x["legal_moves"] == len(x["moves"]) >= 2 for x in out["decisions"])


def test_the_cli_reviews_a_record_file_as_json_and_in_words(tmp_path, capsys):
    path = tmp_path / "givar.jsonl"
    write_records([_played_out(Rules(), s) for s in (1, 2)], path)
    assert main(["review", str(path), "--seat", "1", "--samples", "6", "--json", "--jobs", "1"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["giv"] for r in lines] == [1, 2] and all(r["seat"] == 1 for r in lines)
    for d in lines[0]["decisions"]:
        assert {"played", "best", "loss", "loss_interval", "verdict", "why"} <= set(d)
        assert d["verdict"] in ("fine", "inaccuracy", "mistake", "blunder")
    assert main(["review", str(path), "--seat", "1", "--budget", "6", "--json", "--jobs", "1"]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == lines  # --budget is --samples
    assert main(["review", str(path), "--samples", "6", "--jobs", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Giv 1 (Krypkasino), seat 0: move quality ") and "Giv 2 (Krypkasino)" in text
    assert main(["review", str(path), "--seat", "2"]) == 1
    assert "--seat 2: seat 2 is not a seat of this giv (0 to 1)" in capsys.readouterr().err
    (tmp_path / "bad.jsonl").write_text('{"x": 1}\n')
    assert main(["review", str(tmp_path / "bad.jsonl")]) == 1
    assert "bad.jsonl: line 1:" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "none.jsonl")]) == 1
    assert "cannot read it" in capsys.readouterr().err


# --- the review worked out while the giv is played (the coach's background analysis) --------

def _played(preset: str, seed: int) -> Giv:
    g = Giv(Rules.preset(preset), seed=seed)
    bots = [make_bot("careful", seed=seed), make_bot("random", seed=seed + 1)]
    g.play_out(lambda x: bots[x.turn].choose(x.observation()))
    return g


@pytest.mark.parametrize("preset", ["krypkasino", "kasino", "avig-kasino"])
def test_the_review_made_move_by_move_is_the_review_of_the_whole_giv(preset):
    """Reviewer follows the giv after every move and works a little between moves; at the end
    its review is review_giv's, decision for decision."""
    from krypteach.bots.review import Reviewer
    done = _played(preset, 31)
    moves = [t.move for t in done.turns]
    g = Giv(done.rules, seed=31)
    r = Reviewer(0, samples=8)
    for m in moves:
        g.push(m)
        r.follow(g)
        r.step(0.0)  # one piece between moves
    assert r.pending > 0  # a piece each move is not all of it: the rest is done on asking
    assert r.review(g).to_json() == review_giv(g, 0, samples=8).to_json()
    assert r.pending == 0


def test_a_step_is_one_determinization_of_one_decision():
    """The pieces are small: a sampled decision takes one step for each of its samples (and one
    to finish), so a click waits for one determinization at most, never for a whole decision."""
    from krypteach.bots.review import Reviewer
    g = Giv(seed=5)
    bot = make_bot("careful", seed=2)
    while g.turn != 0 or len(g.legal_moves()) < 2:
        g.push(bot.choose(g.observation()))
    g.push(bot.choose(g.observation()))
    r = Reviewer(0, samples=7)
    r.follow(g)
    assert r.pending == 1
    steps = 1
    while r.step(0.0):
        steps += 1
    assert steps == 7 + 1
    d = r.review(g).decisions[0]
    assert (d.method, d.samples) == ("sampled", 7)


def test_a_move_taken_back_drops_its_decision_and_the_new_one_is_reviewed():
    from krypteach.bots.review import Reviewer
    g = Giv(seed=9)
    bot = make_bot("careful", seed=3)
    for _ in range(6):
        g.push(bot.choose(g.observation()))
    r = Reviewer(0, samples=6)
    r.follow(g)
    while r.step(0.0):
        pass
    before = r.review(g)
    g.pop()
    while g.turn != 0 or len(g.legal_moves()) < 2:
        g.pop()  # back to a decision of seat 0 with a choice
    ply = len(g.turns)
    was = next(d for d in before.decisions if d.ply == ply).played
    other = next(m for m in g.legal_moves() if m != was)
    g.push(other)
    r.follow(g)
    assert r.pending == 1  # only the new move's decision is new
    after = r.review(g)
    assert after.to_json() == review_giv(g, 0, samples=6).to_json()
    kept = [d for d in before.decisions if d.ply < ply]
    assert [d.ply for d in after.decisions] == [d.ply for d in kept] + [ply]
    assert after.decisions[-1].played == other


def test_try_again_offers_moves_that_differ_only_in_a_pointless_suit_once():
    """Krypkasino: 7♥ and 7♦ creeping play alike (a seven scores nothing), so Try again offers
    one of them, the one played; 2♠ (lillan, a point) and 2♥ stay apart. Kasino counts every
    spade: there each move is its own choice."""
    from krypteach.bots.review import Decision, MoveValue, distinct_choices
    vals = [MoveValue(Move.parse(t), 0.0, 0.0, 0.0, 0.0, 0.0) for t in ("7H", "7D", "2S", "2H")]
    d = Decision(0, 0, Move.parse("7D"), Move.parse("7H"), "sampled", 4, "fine", vals)
    assert [str(v.move) for v in distinct_choices(d, Rules())] == ["7D", "2S", "2H"]
    assert [str(v.move) for v in distinct_choices(d, Rules.preset("kasino"))] == ["7H", "7D", "2S", "2H"]


def test_a_search_that_fails_in_the_background_is_done_again_when_the_review_is_asked_for(monkeypatch):
    """A failure mid-search is not taken as a decision without a choice: the work is dropped,
    the error goes to the caller (the background logs it), and the review runs it anew."""
    import krypteach.bots.review as R
    g = _played("krypkasino", 12)
    real, failed = R.review_decision_steps, []

    def once_broken(*args, **kwargs):
        if not failed:
            failed.append(1)
            yield
            raise RuntimeError("the machine was busy")
        return (yield from real(*args, **kwargs))

    monkeypatch.setattr(R, "review_decision_steps", once_broken)
    r = R.Reviewer(0, samples=6)
    r.follow(g)
    with pytest.raises(RuntimeError):
        while r.step(0.0):
            pass
    assert r.review(g).to_json() == review_giv(g, 0, samples=6).to_json()

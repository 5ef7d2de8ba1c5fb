"""Simulations and tournaments on several processes give exactly what one process gives."""

from __future__ import annotations

import io
import time

import pytest

from krypteach import Giv, Rules
from krypteach.bots import CarefulBot
from krypteach.cli import main
from krypteach.engine.records import write_records
from krypteach.play.simulate import check_jobs, giv_bots, in_order, play_giv, simulate
from krypteach.play.tournament import tournament


def records(givar: list[Giv]) -> str:
    out = io.StringIO()
    write_records(givar, out)
    return out.getvalue()


@pytest.mark.parametrize("rules,bots", [
    (Rules(), ["careful"]),
    (Rules(players=3), ["careful", "random", "careful"]),
    (Rules(players=4, teams="pairs"), ["random", "careful", "random", "careful"]),
])
def test_simulate_on_two_processes_is_the_same_as_on_one(rules, bots):
    seen: dict[int, list[Giv]] = {1: [], 2: []}
    runs = {}
    for jobs in (1, 2):
        runs[jobs] = simulate(rules, 10, seed=5, bots=bots, keep=True, on_giv=seen[jobs].append, jobs=jobs)
    one, two = runs[1], runs[2]
    assert one.results == two.results and one.dealers == two.dealers
    assert one.summary() == two.summary()
    assert records(one.givar) == records(two.givar) == records(seen[1]) == records(seen[2])
    # on_giv sees the givar in giv order: the dealer moves one seat each giv
    assert [g.dealer for g in seen[2]] == [i % rules.players for i in range(10)]
    # the givar are different deals, and finished
    assert len({g.deals for g in seen[2]}) == 10 and all(g.is_over for g in seen[2])


def test_a_random_only_run_is_one_stream_in_one_process():
    # random bots only: the records of older versions replay byte for byte; jobs changes nothing
    one = simulate(Rules(), 30, seed=8, keep=True, jobs=1)
    two = simulate(Rules(), 30, seed=8, keep=True, jobs=2)
    assert records(one.givar) == records(two.givar)


def test_a_random_bot_among_others_gets_a_seed_per_giv():
    first, second = giv_bots(["random", "careful"], [11, 12], 0), giv_bots(["random", "careful"], [11, 12], 1)
    assert first[0].rng.getstate() != second[0].rng.getstate()  # type: ignore[attr-defined]
    assert first[1].seed == second[1].seed == 12  # a stateless bot keeps the run's seed


def test_tournament_on_two_processes_is_the_same_as_on_one():
    seen: dict[int, list] = {1: [], 2: []}
    runs = {jobs: tournament(Rules(), 8, ["careful", "random"], seed=4, jobs=jobs,
                             on_giv=lambda g, lineup, jobs=jobs: seen[jobs].append((g, lineup)))
            for jobs in (1, 2)}
    assert runs[1].rows == runs[2].rows and runs[1].summary() == runs[2].summary()
    assert records([g for g, _ in seen[1]]) == records([g for g, _ in seen[2]])
    assert [lineup for _, lineup in seen[2]] == [("careful", "random"), ("random", "careful")] * 4
    assert [r.giv for r in runs[2].rows] == sorted(r.giv for r in runs[2].rows)


def test_tournament_is_duplicate_play():
    # every deck is played once with each seating: same deals, same dealer, seats swapped
    seen = []
    t = tournament(Rules(), 6, ["careful", "random"], seed=9, jobs=2, on_giv=lambda g, lineup: seen.append((g, lineup)))
    for (a, la), (b, lb) in zip(seen[::2], seen[1::2]):
        assert a.deals == b.deals and a.dealer == b.dealer and la == lb[::-1]
    assert seen[0][0].deals != seen[2][0].deals and seen[0][0].dealer != seen[2][0].dealer
    d, _ = t.difference("careful", "random")
    per_deck = {}  # paired: per deck, careful's mean minus random's
    for r in t.rows:
        per_deck.setdefault(r.giv // 2, []).append(r.score if r.bot == "careful" else -r.score)
    assert d == pytest.approx(sum(sum(v) / 2 for v in per_deck.values()) / len(per_deck))


def slow_first(chunk: list[int]) -> list[int]:
    time.sleep(0.5 if chunk[0] == 0 else 0.0)  # the first chunk finishes last
    return sorted(chunk)


def test_in_order_emits_in_chunk_order_from_processes():
    out: list[int] = []
    in_order(slow_first, [[0, 3], [2, 1], [9, 8, 7], [5]], 2, out.append)
    assert out == [0, 3, 1, 2, 7, 8, 9, 5]


def test_a_worker_error_reaches_the_caller():
    with pytest.raises(TypeError):
        in_order(sorted, [[1, 2], [3, "a"]], 2, lambda _: None)


def test_jobs_must_be_a_positive_whole_number():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="jobs="):
            check_jobs(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs="):
        simulate(Rules(), 2, jobs=0)


def test_play_giv_does_not_ask_a_stateless_bot_about_a_forced_move():
    class Counting(CarefulBot):
        asked = 0

        def choose(self, obs):
            Counting.asked += 1
            assert len(obs.legal_moves()) > 1
            return super().choose(obs)

    g = play_giv(Rules(), [Counting(seed=1), Counting(seed=2)], seed=6)
    forced = len(g.turns) - Counting.asked
    assert forced > 0 and g.turns == play_giv(Rules(), [CarefulBot(seed=1), CarefulBot(seed=2)], seed=6).turns


def test_cli_jobs(tmp_path, capsys):
    outs = []
    for jobs in ("1", "2"):
        rec = tmp_path / f"r{jobs}.jsonl"
        assert main(["simulate", "--givar", "6", "--bots", "careful", "--seed", "3", "--jobs", jobs,
                     "--record", str(rec)]) == 0
        outs.append((capsys.readouterr().out.split("records written")[0], rec.read_text()))
        assert main(["tournament", "--givar", "4", "--bots", "careful,random", "--jobs", jobs]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[2] and outs[1] == outs[3]
    with pytest.raises(SystemExit):
        main(["simulate", "--jobs", "0"])

"""The variant lab compares the three games: Krypkasino, classic Kasino and avig kasino."""

import re

from krypteach import Rules
from krypteach.bots import BotError, check_bot_rules
from krypteach.play.limits import JobCaps
from krypteach.play.simulate import simulate
from krypteach.widgets import VariantLab
from krypteach.widgets.variant_lab import GAMES, score_spread


def games_lab(givar=4, bot="random", **kw):
    lab = VariantLab(givar=givar, bot=bot, **kw)
    lab.mode.value = "games"
    return lab


def table_rows(html):
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", html)]


def test_the_three_games_are_played_on_the_same_seed_with_their_own_rules():
    lab = games_lab(givar=4)
    assert lab.pickers.layout.display == "none" and lab.games_note.layout.display != "none"
    lab.run()
    assert [s.rules for s in lab.simulations] == [Rules(), Rules.preset("kasino"), Rules.preset("avig-kasino")]
    assert lab.progress.value == lab.progress.max == 12
    for sim, (_, preset) in zip(lab.simulations, GAMES):
        again = simulate(Rules() if preset is None else Rules.preset(preset), 4, seed=1, bots=["random"] * 2)
        assert [r.scores for r in sim.results] == [r.scores for r in again.results]
    assert "Done: 4 givar for each game" in lab.status.value and "classic Kasino the highest" in lab.status.value
    assert lab.png.startswith(b"\x89PNG") and 'alt="The three games compared' in lab.image.value


def test_the_table_says_what_differs():
    lab = games_lab(givar=6)
    lab.run()
    assert "Which score wins" in lab.table.value and "Spread per giv" in lab.table.value
    rows = table_rows(lab.table.value)
    assert [r[0] for r in rows] == ["<b>Krypkasino</b>", "<b>Classic Kasino</b>", "<b>Avig kasino</b>"]
    assert [r[2] for r in rows] == ["lowest", "highest", "lowest"]
    for row, sim in zip(rows, lab.simulations):
        spread = sum(max(r.team_scores) - min(r.team_scores) for r in sim.results) / 6
        assert row[3] == f"{spread:.1f}" == f"{score_spread(sim):.1f}"
        assert row[5] == f"{sim.tabbar_per_giv():.2f}" and row[6] == f"{100 * sim.dealer_win_share():.1f}%"


def test_the_dealers_side_wins_by_each_games_own_direction():
    sim = simulate(Rules.preset("kasino"), 10, seed=4)
    wins = sum(r.scores[d] == max(r.scores) for d, r in zip(sim.dealers, sim.results))
    assert sim.dealer_win_share() == wins / 10


def test_bots_that_cannot_play_kasino_are_replaced_by_random_ones_and_the_page_says_so():
    lab = games_lab(givar=2, bot="careful", caps=JobCaps(max_seconds=600))
    lab.run()
    try:
        check_bot_rules("careful", Rules.preset("kasino"))
        plays_kasino = True
    except BotError:
        plays_kasino = False
    assert len(lab.simulations) == 3
    assert all(set(s.bots) == {"careful" if plays_kasino else "random"} for s in lab.simulations)
    assert ("cannot play classic Kasino yet" in lab.status.value) is not plays_kasino


def test_the_caps_count_three_rule_sets():
    caps = JobCaps(max_givar=100_000, max_seconds=5)
    n = int(5 / caps.estimate(1, "random", 2))  # fits for two rule sets, not for three
    assert caps.estimate(n, "random", 2) <= 5 < caps.estimate(n, "random", 3)
    lab = games_lab(givar=n, caps=caps)
    lab.run()
    assert lab.simulations == [] and "Too much for one run" in lab.status.value and "3 rule sets" in lab.status.value


def test_back_to_rule_sets_a_and_b():
    lab = games_lab(givar=3)
    lab.mode.value = "rule-sets"
    assert lab.pickers.layout.display != "none" and lab.games_note.layout.display == "none"
    lab.run()
    assert [s.rules for s in lab.simulations] == [Rules(), Rules()]
    assert "Which score wins" not in lab.table.value and "Lower scores are better" in lab.status.value


def test_the_fallback_to_random_players(monkeypatch):
    from krypteach.widgets import variant_lab

    def refuse_kasino(level, rules):
        if rules.game == "kasino" and level != "random":
            raise BotError(f"bot {level!r} cannot play classic Kasino yet")

    monkeypatch.setattr(variant_lab, "check_bot_rules", refuse_kasino)
    lab = games_lab(givar=2, bot="careful")
    lab.run()
    assert [set(s.bots) for s in lab.simulations] == [{"random"}] * 3
    assert "The careful computer players cannot play classic Kasino yet, so random ones played all three games." \
        in lab.status.value

"""Invariants over random givar, 2–6 players and random variants (hypothesis)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from krypteach import Card, Giv, Rules, can_take_whole_table, giv_from_record, giv_to_record, legal_moves
from krypteach.engine.cards import double_deck


@st.composite
def rule_sets(draw):
    players = draw(st.integers(2, 6))
    teams = "none"
    if players in (4, 6):
        teams = draw(st.sampled_from(["none", "pairs"] + (["threes"] if players == 6 else [])))
    hand_size = draw(st.integers(1, 6))
    table_first = draw(st.integers(0, 8))
    return Rules(
        players=players, teams=teams, hand_size=hand_size, table_first=table_first,
        table_next=draw(st.sampled_from([0, table_first, 4])),
        capture=draw(st.sampled_from(["maximal", "maximum", "free"])),
        forced_tabbe=draw(st.booleans()), ace=draw(st.sampled_from(["1or14", "1", "14hand"])),
        dubbeltabbe=draw(st.booleans()), cancel_marks=draw(st.booleans()),
        last_capture_point=draw(st.sampled_from([0, 1])),
    )


SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5))
def test_random_givar_keep_every_invariant(rules, seed, dealer):
    dealer %= rules.players
    rng = random.Random(seed)
    g = Giv(rules, dealer=dealer, seed=seed)
    assert sorted(c for d in g.deals for c in d.cards()) == sorted(double_deck())
    undo_checks = 0
    while not g.is_over:
        assert g.card_count() == 104                      # 104 cards conserved
        moves = g.legal_moves()
        assert moves                                       # never empty before the end
        assert moves == legal_moves(g.hand, g.table, rules)  # what the game keeps of the table is up to date
        takers = {c for c in g.hand if can_take_whole_table(c, g.table, rules)}  # (found by another search)
        if rules.forced_tabbe and takers:                  # tvångstabbe: only they, and they take everything
            assert {m.card for m in moves} == takers
            assert all(sorted(m.capture) == sorted(g.table) for m in moves)
        if g.turns:                                        # "tabbe på …" names the ranks that take this table
            assert list(g.turns[-1].tabbe_pa) == [r for r in range(1, 14) if can_take_whole_table(Card(4 * (r - 1)), g.table, rules)]
        assert len(set(moves)) == len(moves)
        if rng.random() < 0.05 and undo_checks < 4:        # undo restores the exact state
            before = g.state_key()
            g.play(rng.choice(moves))
            g.pop()
            assert g.state_key() == before
            undo_checks += 1
        g.play(rng.choice(moves))
    assert g.card_count() == 104
    r = g.result
    if r.last_capturer is not None:
        assert sum(r.card_points) == 42 + rules.last_capture_point   # 42 card points per giv
        assert not g.table and not g.kladda
    assert all(m >= 0 for m in r.marks)
    if rules.cancel_marks:
        teams = [sum(r.marks[s] for s in rules.team_members(t)) for t in range(rules.team_count)]
        assert min(teams) == 0                             # marks were turned down
    assert r.scores == tuple(r.card_points[s] + 5 * r.marks[s] - 5 * r.dukningar[s] for s in range(rules.players))
    # records round-trip
    again = giv_from_record(giv_to_record(g))
    assert again.state_key() == g.state_key() and again.result == r


@SETTINGS
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_undo_everything_returns_to_the_deal(rules, seed):
    g = Giv(rules, seed=seed)
    start = g.state_key()
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 60)):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_moves()))
    while g.turns:
        g.pop()
    assert g.state_key() == start

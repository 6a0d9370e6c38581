"""Domino Cross: end of round (C-8), scoring (C-9) and the match to the target (C-10).

The blocked deals share one layout: the spinner [6|6] and four arms that all end on 5, while the
two 5s not on the board, [5|6] and [3|5], are the boneyard's last two tiles — so nobody can play
or draw once the fifteenth tile is down. The tiles left in hand (43 pips, none with a 5) are split
as each test needs; the fifteen plays go round the table in turn order.
"""

import pytest

from app.games.base import RoundResult
from app.games.cross import deal_round
from app.games.errors import GameOver
from app.games.registry import get_ruleset

from .test_cross_rules import play, put, start

RS = get_ruleset("cross")

BLOCKING_PLAYS = [
    ([6, 6], None),
    ([6, 1], "n"),
    ([6, 4], "e"),
    ([6, 3], "s"),
    ([6, 2], "w"),
    ([1, 1], "n"),
    ([1, 5], "n"),
    ([4, 4], "e"),
    ([4, 5], "e"),
    ([3, 3], "s"),
    ([0, 3], "s"),
    ([0, 5], "s"),
    ([2, 2], "w"),
    ([2, 5], "w"),
    ([5, 5], "w"),
]
LAST_TWO = [[5, 6], [3, 5]]


def blocked_deal(finals, plays=BLOCKING_PLAYS):
    """Hands where seat (k mod n) makes play k, plus each seat's final tiles."""
    n = len(finals)
    hands = [list(f) for f in finals]
    for k, (tile, _) in enumerate(plays):
        hands[k % n].append(tile)
    moves = [(k % n, put(tile, arm)) for k, (tile, arm) in enumerate(plays)]
    return hands, moves


def blocked_round(finals, **options):
    hands, moves = blocked_deal(finals)
    state = start(hands, stock=LAST_TWO, **options)
    assert sum(map(len, hands)) == 26
    return play(state, *moves)


def round_over(events):
    (event,) = [e for e in events if e["type"] == "round_over"]
    return event


# --- C-8 end of round ---------------------------------------------------------------------------


def test_c8_domino_ends_the_round_at_once():
    hands = [[[6, 6], [6, 1]], [[6, 2], [3, 4], [5, 5]]]
    state, events = play(
        start(hands), (0, put([6, 6])), (1, put([6, 2], "n")), (0, put([6, 1], "e"))
    )
    assert [e["type"] for e in events][-3:] == ["played", "round_over", "round_started"]
    over = round_over(events)
    assert over["ending"] == "domino" and over["winner"] == 0
    assert over["hands"] == [[], [[3, 4], [5, 5]]]


def test_c8_c9_the_step_that_ends_a_round_carries_its_round_result():
    hands = [[[6, 6], [6, 1]], [[6, 2], [3, 4], [5, 5]]]
    state, _ = play(start(hands), (0, put([6, 6])), (1, put([6, 2], "n")))
    step = RS.apply(state, 0, RS.parse_action(put([6, 1], "e")))
    over = round_over(step.events)
    detail = {k: v for k, v in over.items() if k not in ("type", "board")}  # the board: O-6
    assert step.rounds == (RoundResult(1, 0, "domino", None, detail),)
    assert detail["points"] == 17 and step.payments == ()  # C-9: 7 + 10 pips left


def test_c8_blocked_round_ends_at_once_without_passes():
    finals = [
        [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]],
        [[0, 0], [0, 1], [0, 2], [0, 4], [0, 6]],
    ]
    state, events = blocked_round(finals)
    assert [e["type"] for e in events][-3:] == ["played", "round_over", "round_started"]
    assert "passed" not in [e["type"] for e in events]
    assert round_over(events)["ending"] == "blocked"
    assert state.round_no == 2 and state.spinner is None


def test_c8_not_blocked_while_someone_can_still_draw():
    hands, moves = blocked_deal(
        [[[1, 2], [1, 3], [1, 4], [2, 3], [2, 4]], [[0, 0], [0, 1], [0, 2], [0, 4], [0, 6]]]
    )
    state, events = play(start(hands, stock=[[5, 6], [3, 5], [3, 4]]), *moves)
    assert "round_over" not in [e["type"] for e in events]
    assert RS.legal_actions(state, 1) == (RS.parse_action({"kind": "draw"}),)


def test_c8_going_out_on_a_blocking_tile_is_a_domino():
    # seat 0's last tile blocks the board, but seat 0 has no tile left: domino, not blocked
    finals = [
        [],
        [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4], [0, 0], [0, 1], [0, 2], [0, 4], [0, 6]],
    ]
    state, events = blocked_round(finals)
    over = round_over(events)
    assert (over["ending"], over["winner"], over["points"]) == ("domino", 0, 43)
    assert state.scores == (43, 0)


# --- C-9 scoring --------------------------------------------------------------------------------


def test_c9_domino_scores_all_opponents_pips():
    hands = [[[6, 6], [6, 1]], [[6, 2], [3, 4], [5, 5]]]
    state, events = play(
        start(hands), (0, put([6, 6])), (1, put([6, 2], "n")), (0, put([6, 1], "e"))
    )
    over = round_over(events)
    assert (over["points"], over["pips"], over["scores"]) == (17, [0, 17], [17, 0])
    assert state.scores == (17, 0)


def test_c9_domino_with_three_players_counts_every_opponent():
    hands = [[[6, 6], [6, 5]], [[6, 1], [4, 4]], [[6, 2], [0, 0], [1, 2]]]
    state, events = play(
        start(hands),
        (0, put([6, 6])),
        (1, put([6, 1], "n")),
        (2, put([6, 2], "e")),
        (0, put([5, 6], "s")),
    )
    over = round_over(events)
    assert (over["winner"], over["pips"], over["points"]) == (0, [0, 8, 3], 11)
    assert state.scores == (11, 0, 0)


def test_c9_blocked_two_players_the_seed_example_30_minus_13():
    finals = [
        [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]],
        [[0, 0], [0, 1], [0, 2], [0, 4], [0, 6]],
    ]
    state, events = blocked_round(finals)
    over = round_over(events)
    assert over["pips"] == [30, 13]
    assert (over["winner"], over["points"]) == (1, 17)
    assert state.scores == (0, 17)
    assert RS.view(state, 0)["last_round"]["points"] == 17


def test_c9_blocked_three_players_opponents_combined_minus_own():
    finals = [
        [[0, 0], [0, 1], [0, 2], [0, 4], [0, 6]],
        [[3, 4], [2, 4], [1, 2]],
        [[1, 3], [1, 4], [2, 3]],
    ]
    state, events = blocked_round(finals)
    over = round_over(events)
    assert over["pips"] == [13, 16, 14]
    assert (over["winner"], over["points"]) == (0, 17)  # (16 + 14) - 13
    assert state.scores == (17, 0, 0)


def test_c9_blocked_four_players_opponents_combined_minus_own():
    finals = [
        [[0, 4], [0, 6]],
        [[1, 2], [1, 3], [1, 4]],
        [[2, 3], [2, 4], [3, 4]],
        [[0, 0], [0, 1], [0, 2]],
    ]
    state, events = blocked_round(finals)
    over = round_over(events)
    assert over["pips"] == [10, 12, 18, 3]
    assert (over["winner"], over["points"]) == (3, 37)  # (10 + 12 + 18) - 3
    assert state.scores == (0, 0, 0, 37)


def test_c9_tie_for_lowest_scores_nothing():
    finals = [
        [[0, 0], [0, 1], [0, 2], [0, 4], [0, 6]],
        [[1, 2], [1, 3], [2, 4]],
        [[1, 4], [2, 3], [3, 4]],
    ]
    state, events = blocked_round(finals)
    over = round_over(events)
    assert over["pips"] == [13, 13, 17]
    assert (over["winner"], over["points"]) == (None, 0)
    assert state.scores == (0, 0, 0) and state.round_no == 2 and RS.to_act(state) is not None


# --- C-10 end of match --------------------------------------------------------------------------


def domino_17(target):
    hands = [[[6, 6], [6, 1]], [[6, 2], [3, 4], [5, 5]]]
    return play(
        start(hands, target=target), (0, put([6, 6])), (1, put([6, 2], "n")), (0, put([6, 1], "e"))
    )


def test_c10_reaching_the_target_ends_the_match():
    state, events = domino_17(target=17)
    assert events[-1] == {"type": "match_over", "winner": 0, "scores": [17, 0]}
    assert RS.to_act(state) is None
    outcome = RS.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == (17, 0)
    assert outcome.detail["rounds"][0]["ending"] == "domino"
    view = RS.view(state, 1)
    assert view["over"] and view["legal"] == [] and view["result"]["winner"] == 0
    with pytest.raises(GameOver):
        RS.apply(state, 1, RS.parse_action({"kind": "pass"}))


def test_c10_below_the_target_the_next_round_is_dealt_from_the_seed():
    state, events = domino_17(target=18)
    assert RS.outcome(state) is None and state.round_no == 2
    dealt, rest, redeal_no, opener = deal_round(2, 7, 2)
    assert (state.hands, state.boneyard, state.opener) == (dealt, rest, opener)
    assert [len(h) for h in state.hands] == [7, 7]  # C-1 again, whatever round 1's hands were
    assert events[-1] == {
        "type": "round_started",
        "round": 2,
        "opener": opener,
        "redeals": redeal_no,
    }
    assert RS.to_act(state) == opener and state.scores == (17, 0)
    # views of the new round keep the result but not the old hands (those tiles are back in play)
    view = RS.view(state, 0)
    assert view["round"] == 2 and view["scores"] == [17, 0]
    assert "hands" not in view["last_round"] and "last_events" not in view
    assert view["last_round"]["winner"] == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c10_default_target_100_first_to_reach_it_wins(n):
    for seed in range(10):
        state = RS.new_state({}, n, seed=seed)
        while (seat := RS.to_act(state)) is not None:
            state = RS.apply(state, seat, RS.legal_actions(state, seat)[-1]).state
        outcome = RS.outcome(state)
        (winner,) = outcome.winners
        totals = [0] * n
        for r in state.rounds:
            assert max(totals) < 100, "the match went on after someone reached 100"
            if r["winner"] is not None:
                totals[r["winner"]] += r["points"]
        assert tuple(totals) == outcome.scores
        assert outcome.scores[winner] >= 100
        assert sorted(outcome.scores)[-2] < 100

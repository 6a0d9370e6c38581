"""Moon's scoring table (M-10) and end of match (M-11) as pure functions, then the same through
the engine on exact deals (made bid, failed bid, made 21, failed 21, the end of a match)."""

import dataclasses

import pytest

from app.games.moon import scoring as S
from app.games.registry import get_ruleset

RS = get_ruleset("moon")

# Seat 0 holds every 6: with trump 6 (or none) it takes all seven tricks whatever anyone plays.
SIXES = [
    [[6, 6], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6], [0, 6]],
    [[5, 5], [4, 5], [3, 5], [2, 5], [1, 5], [0, 5], [4, 4]],
    [[3, 4], [2, 4], [1, 4], [0, 4], [3, 3], [2, 3], [1, 3]],
    [[0, 3], [2, 2], [1, 2], [0, 2], [1, 1], [0, 1], [0, 0]],
]


# --- pure scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scores, side, bid, tricks, new, made",
    [
        ((0, 0), 0, 4, (5, 2), (5, 2), True),  # made: the tricks won, not the bid
        ((3, 8), 1, 5, (2, 5), (5, 13), True),
        ((0, 0), 0, 7, (7, 0), (7, 0), True),
        ((0, 0), 0, 5, (4, 3), (-5, 3), False),  # failed: minus the bid, may go negative
        ((-5, 3), 1, 6, (2, 5), (-3, -3), False),
        ((10, 10), 0, 21, (6, 1), (-11, 11), False),  # failed 21 loses 21
        ((2, 4, 6), 1, 4, (2, 3, 2), (4, 0, 8), False),  # three players: each alone
        ((2, 4, 6), 2, 4, (1, 2, 4), (3, 6, 10), True),
    ],
)
def test_m10_scoring_table(scores, side, bid, tricks, new, made):
    result = S.score_round(scores, side, bid, tricks)
    assert result.scores == new and result.made is made and not result.moon
    assert result.deltas == tuple(b - a for a, b in zip(scores, new, strict=True))


def test_m10_made_21_wins_the_match_at_once_scores_unchanged():
    result = S.score_round((-30, 18), 0, 21, (7, 0))
    assert result.moon and result.made and result.scores == (-30, 18)


def test_m10_a_round_has_seven_tricks():
    with pytest.raises(ValueError):
        S.score_round((0, 0), 0, 4, (4, 2))


@pytest.mark.parametrize(
    "scores, winner",
    [
        ((20, 5), None),
        ((21, 5), 0),  # exactly one at 21 or more wins
        ((-4, 23), 1),
        ((25, 22), 0),  # both over: the higher
        ((22, 24), 1),
        ((21, 21), None),  # tied over 21: play on
        ((30, 30), None),
        ((22, 22, 5), None),  # three players: tied leaders play on
        ((22, 23, 5), 1),
        ((20, 20, 20), None),
    ],
)
def test_m11_end_of_match(scores, winner):
    assert S.match_winner(scores) == winner


# --- through the engine -------------------------------------------------------------------------


def bid_round(hands, bids, trump, scores=None):
    """Bidding from seat 0 (seed 0) with the given bid per seat (None: pass), then trump."""
    state = RS.new_state({}, 4, 0, hands=hands)
    if scores is not None:
        state = dataclasses.replace(state, scores=scores)
    for seat, value in enumerate(bids):
        action = {"kind": "pass"} if value is None else {"kind": "bid", "value": value}
        state = RS.apply(state, seat, RS.parse_action(action)).state
    return RS.apply(state, state.bidder, RS.parse_action({"kind": "trump", "suit": trump})).state


def play_out(state):
    """Play the round with each seat's lowest legal tile; returns (state, events)."""
    events = []
    rnd = state.round_no
    while RS.to_act(state) is not None and state.round_no == rnd and state.phase.value == "play":
        seat = RS.to_act(state)
        step = RS.apply(state, seat, min(RS.legal_actions(state, seat), key=lambda a: a.tile))
        state = step.state
        events.extend(step.events)
    return state, events


def round_over(events):
    return next(e for e in events if e["type"] == "round_over")


def test_m10_engine_made_bid_scores_tricks_and_deals_the_next_round():
    state, events = play_out(bid_round(SIXES, [4, None, None, None], 6))
    over = round_over(events)
    assert over["made"] and over["tricks"] == [7, 0] and over["deltas"] == [7, 0]
    assert [e["type"] for e in events[-4:]] == ["played", "trick_won", "round_over", "dealt"]
    assert sum(e["type"] == "played" for e in events) == 28
    assert state.scores == (7, 0) and state.round_no == 2 and state.phase.value == "bidding"
    assert RS.to_act(state) == 1  # M-4: the first bidder moves one seat on
    assert sorted(len(h) for h in state.hands) == [7] * 4
    assert RS.view(state, 0)["last_round"]["scores"] == [7, 0]


def test_m10_engine_failed_bid_loses_the_bid_opponents_score_their_tricks():
    state, events = play_out(bid_round(SIXES, [None, 7, None, None], "none"))
    over = round_over(events)
    assert not over["made"] and over["side"] == 1
    assert over["tricks"][1] < 7
    assert over["deltas"] == [over["tricks"][0], -7]
    assert state.scores == (over["tricks"][0], -7)


def test_m10_engine_made_21_wins_the_match_at_once():
    state, events = play_out(bid_round(SIXES, [21], 6, scores=(-10, 20)))
    assert [e["type"] for e in events][-2:] == ["round_over", "match_over"]
    outcome = RS.outcome(state)
    assert outcome.winners == (0, 2) and outcome.detail["ending"] == "moon"
    assert outcome.scores == (-10, 20, -10, 20)
    assert RS.to_act(state) is None


def test_m10_engine_failed_21_loses_21():
    # doubles trump: seat 0's sixes lead suit 6 and seat 3 ruffs the first trick with [0|0]
    state, events = play_out(bid_round(SIXES, [21], "doubles"))
    over = round_over(events)
    assert not over["made"] and over["deltas"][0] == -21
    assert state.scores == (-21, over["tricks"][1]) and RS.to_act(state) is not None


def test_m11_engine_one_side_reaches_21():
    state, events = play_out(bid_round(SIXES, [4, None, None, None], 6, scores=(14, 20)))
    assert state.scores == (21, 20)
    assert RS.outcome(state).winners == (0, 2)
    assert RS.outcome(state).detail["ending"] == "points"
    assert events[-1]["type"] == "match_over"


def test_m11_engine_both_over_21_higher_wins():
    state, _ = play_out(bid_round(SIXES, [4, None, None, None], 6, scores=(16, 22)))
    assert state.scores == (23, 22) and RS.outcome(state).winners == (0, 2)


def test_m11_engine_both_over_21_and_tied_play_on():
    state, events = play_out(bid_round(SIXES, [4, None, None, None], 6, scores=(15, 22)))
    assert state.scores == (22, 22)
    assert RS.outcome(state) is None and RS.to_act(state) is not None
    assert events[-1]["type"] == "dealt" and state.round_no == 2


def test_m11_engine_checked_after_every_round_whoever_bid():
    # side 1 already has 25; side 0 makes its bid but stays below 21: side 1 wins
    state, _ = play_out(bid_round(SIXES, [4, None, None, None], 6, scores=(10, 25)))
    assert state.scores == (17, 25) and RS.outcome(state).winners == (1, 3)

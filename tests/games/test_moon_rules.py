"""Moon rules on exact deals: players and deal (M-1, M-2), bidding (M-4, M-5), leading (M-7),
hidden information (M-12, O-2), three-handed Moon (M-13), options and the wire format.

Seed 0 makes seat 0 the first bidder with three and with four players (asserted below)."""

import dataclasses
from collections import Counter

import pytest

from app.games import tiles as T
from app.games.errors import BadOptions, IllegalAction, NotYourTurn
from app.games.registry import get_ruleset

from .playout import tiles_in

RS = get_ruleset("moon")

SIXES = [
    [[6, 6], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6], [0, 6]],
    [[5, 5], [4, 5], [3, 5], [2, 5], [1, 5], [0, 5], [4, 4]],
    [[3, 4], [2, 4], [1, 4], [0, 4], [3, 3], [2, 3], [1, 3]],
    [[0, 3], [2, 2], [1, 2], [0, 2], [1, 1], [0, 1], [0, 0]],
]
THREE = [  # the widow is the one tile left: [0|0]
    [[6, 6], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6], [5, 5]],
    [[4, 5], [3, 5], [2, 5], [1, 5], [4, 4], [3, 4], [2, 4]],
    [[1, 4], [3, 3], [2, 3], [1, 3], [2, 2], [1, 2], [1, 1]],
]
PASS = {"kind": "pass"}


def bid(value):
    return {"kind": "bid", "value": value}


def put(tile):
    return {"kind": "play", "tile": tile}


def trump(suit):
    return {"kind": "trump", "suit": suit}


def start(hands=SIXES, **options):
    state = RS.new_state(options, len(hands), 0, hands=hands)
    assert RS.to_act(state) == 0
    return state


def act(state, *moves):
    events = []
    for seat, action in moves:
        step = RS.apply(state, seat, RS.parse_action(action))
        state = step.state
        events.extend(step.events)
    return state, events


def legal(state, seat):
    return RS.view(state, seat)["legal"]


def play_lowest(state):
    """Finish the round with every seat playing its lowest legal tile."""
    events, rnd = [], state.round_no
    while RS.to_act(state) is not None and state.round_no == rnd:
        seat = RS.to_act(state)
        step = RS.apply(state, seat, min(RS.legal_actions(state, seat), key=lambda a: a.tile))
        state = step.state
        events.extend(step.events)
    return state, events


# --- M-1, M-2 players and deal ------------------------------------------------------------------


def test_m2_four_players_get_seven_tiles_each_all_28_dealt():
    for seed in range(20):
        state = RS.new_state({}, 4, seed)
        assert [len(h) for h in state.hands] == [7] * 4
        assert Counter(RS.all_tiles(state)) == Counter(T.DOUBLE_SIX)
        assert state.widow == ()
    state, _ = act(start(), (0, bid(4)), (1, PASS), (2, PASS), (3, PASS), (0, trump(6)))
    assert RS.view(state, 0)["phase"] == "play"  # no widow, no discard with four players


def test_m2_deals_differ_by_seed_and_repeat_for_the_same_seed():
    assert RS.new_state({}, 4, 5) == RS.new_state({}, 4, 5)
    assert RS.new_state({}, 4, 5).hands != RS.new_state({}, 4, 6).hands


def test_m2_exact_hands_need_seven_distinct_tiles_each():
    with pytest.raises(ValueError):
        RS.new_state({}, 4, 0, hands=[h[:6] for h in SIXES])
    with pytest.raises(ValueError):
        RS.new_state({}, 4, 0, hands=[SIXES[0], SIXES[0], SIXES[2], SIXES[3]])


def test_m1_partners_sit_opposite_and_share_tricks_and_score():
    state, _ = act(start(), (0, bid(4)), (1, PASS), (2, PASS), (3, PASS), (0, trump(6)))
    view = RS.view(state, 2)
    assert view["side_of"] == [0, 1, 0, 1]
    state, events = play_lowest(state)
    over = next(e for e in events if e["type"] == "round_over")
    assert over["tricks"] == [7, 0] and state.scores == (7, 0)
    assert RS.view(state, 2)["scores"] == [7, 0]


# --- M-4 bidding --------------------------------------------------------------------------------


def test_m4_first_bidder_is_random_over_seeds():
    firsts = Counter(RS.to_act(RS.new_state({}, 4, s)) for s in range(2000))
    assert set(firsts) == {0, 1, 2, 3} and all(400 < c < 600 for c in firsts.values())


def test_m4_only_higher_bids():
    state, _ = act(start(), (0, bid(5)))
    assert legal(state, 1) == [PASS, bid(6), bid(7), bid(21)]
    with pytest.raises(IllegalAction, match="higher than 5"):
        act(state, (1, bid(5)))
    with pytest.raises(IllegalAction, match="higher than 5"):
        act(state, (1, bid(4)))
    assert legal(start(), 0) == [PASS, bid(4), bid(5), bid(6), bid(7), bid(21)]


def test_m4_21_may_follow_7():
    state, _ = act(start(), (0, bid(7)))
    assert legal(state, 1) == [PASS, bid(21)]
    state, events = act(state, (1, bid(21)))
    assert RS.to_act(state) == 1 and state.contract == 21
    assert events[-1] == {"type": "contract", "seat": 1, "value": 21}


def test_m4_21_ends_the_bidding_at_once():
    state, _ = act(start(), (0, bid(21)))
    assert state.phase.value == "trump" and RS.to_act(state) == 0
    with pytest.raises(NotYourTurn):
        act(state, (1, PASS))
    assert legal(state, 0)[0] == trump(0)


def test_m4_one_turn_each_and_the_highest_bidder_wins():
    state, _ = act(start(), (0, bid(4)), (1, bid(5)), (2, PASS))
    assert RS.to_act(state) == 3
    state, events = act(state, (3, bid(6)))
    assert events[-1] == {"type": "contract", "seat": 3, "value": 6}
    assert RS.to_act(state) == 3 and state.phase.value == "trump"  # nobody bids twice
    assert [a["kind"] for a in legal(state, 3)] == ["trump"] * 9
    view = RS.view(state, 0)
    assert view["bids"] == [
        {"seat": 0, "value": 4},
        {"seat": 1, "value": 5},
        {"seat": 2, "value": None},
        {"seat": 3, "value": 6},
    ]
    assert view["high_bid"] == {"seat": 3, "value": 6} and view["contract"] == 6


def test_m4_last_seat_may_win_with_the_only_bid():
    state, _ = act(start(), (0, PASS), (1, PASS), (2, PASS), (3, bid(4)))
    assert state.bidder == 3 and state.contract == 4


# --- M-5 all pass -------------------------------------------------------------------------------


def test_m5_all_pass_redeals_moves_the_first_bidder_and_scores_nothing():
    state, events = act(start(), (0, PASS), (1, PASS), (2, PASS), (3, PASS))
    assert [e["type"] for e in events][-2:] == ["all_passed", "dealt"]
    assert state.scores == (0, 0) and state.round_no == 1 and state.redeal_no == 1
    assert RS.to_act(state) == 1 and state.bids == ()
    assert state.hands != start().hands
    assert Counter(RS.all_tiles(state)) == Counter(T.DOUBLE_SIX)
    again, _ = act(state, (1, PASS), (2, PASS), (3, PASS), (0, PASS))
    assert RS.to_act(again) == 2 and again.hands != state.hands and again.redeal_no == 2


# --- M-6, M-7 trump and leading -----------------------------------------------------------------


def test_m6_bid_winner_names_any_of_nine_trumps():
    state, _ = act(start(), (0, bid(4)), (1, PASS), (2, PASS), (3, PASS))
    assert [a["suit"] for a in legal(state, 0)] == [0, 1, 2, 3, 4, 5, 6, "doubles", "none"]
    state, events = act(state, (0, trump("doubles")))
    assert events == [{"type": "trump", "seat": 0, "suit": "doubles"}]
    assert RS.view(state, 3)["trump"] == "doubles"


def test_m7_bid_winner_leads_with_any_tile():
    state, _ = act(start(), (0, PASS), (1, PASS), (2, bid(5)), (3, PASS), (2, trump(1)))
    assert RS.to_act(state) == 2 and len(legal(state, 2)) == 7


def test_m7_option_first_lead_trump():
    def lead(trump_suit, **options):
        state = start(**options)
        state, _ = act(state, (0, PASS), (1, PASS), (2, bid(4)), (3, PASS), (2, trump(trump_suit)))
        return sorted(T.tile(*a["tile"]) for a in legal(state, 2))

    assert lead(4, first_lead_trump=True) == [(0, 4), (1, 4), (2, 4), (3, 4)]
    assert len(lead(4)) == 7  # the default: any tile
    assert len(lead(6, first_lead_trump=True)) == 7  # no trump in hand: any tile
    assert len(lead("none", first_lead_trump=True)) == 7
    state = start(first_lead_trump=True)
    state, _ = act(state, (0, bid(4)), (1, PASS), (2, PASS), (3, PASS), (0, trump(5)))
    with pytest.raises(IllegalAction, match="first lead"):
        act(state, (0, {"kind": "play", "tile": [6, 6]}))
    state, _ = act(state, (0, put([5, 6])), (1, put([5, 5])), (2, put([1, 3])), (3, put([0, 0])))
    assert RS.to_act(state) == 1 and len(legal(state, 1)) == 6  # later leads are free


# --- M-12, O-2 hidden information ---------------------------------------------------------------


def test_m12_each_seat_sees_only_its_own_hand_and_the_played_tiles():
    state, _ = act(
        start(),
        (0, bid(4)),
        (1, PASS),
        (2, PASS),
        (3, PASS),
        (0, trump(6)),
        (0, {"kind": "play", "tile": [0, 6]}),
    )
    for seat in range(4):
        view = RS.view(state, seat)
        seen = set(tiles_in(view))
        assert seen == set(state.hands[seat]) | {(0, 6)}
        assert view["hand_counts"] == [6, 7, 7, 7]
        assert "seed" not in view and "hands" not in view
    spectator = RS.view(state, None)
    assert spectator["hand"] is None and set(tiles_in(spectator)) == {(0, 6)}
    assert spectator["trick"] == [{"seat": 0, "tile": [0, 6]}] and spectator["legal"] == []


def test_m12_completed_tricks_stay_public_for_the_round():
    state, _ = act(start(), (0, bid(4)), (1, PASS), (2, PASS), (3, PASS), (0, trump(6)))
    state, _ = act(
        state,
        (0, {"kind": "play", "tile": [6, 6]}),
        (1, {"kind": "play", "tile": [0, 5]}),
        (2, {"kind": "play", "tile": [1, 3]}),
        (3, {"kind": "play", "tile": [0, 0]}),
    )
    view = RS.view(state, 1)
    assert view["tricks"] == [{"leader": 0, "tiles": [[6, 6], [0, 5], [1, 3], [0, 0]], "winner": 0}]
    assert view["last_trick"] == view["tricks"][-1]
    assert view["tricks_won"] == [1, 0] and view["tricks_by_seat"] == [1, 0, 0, 0]
    assert view["trick"] == [] and view["leader"] == 0


# --- M-13 three-handed --------------------------------------------------------------------------


def test_m13_22_tiles_no_blanks_but_0_0_and_a_one_tile_widow():
    state = RS.new_state({"players": 3}, 3, 4)
    tiles = RS.all_tiles(state)
    assert len(tiles) == 22 and len(set(tiles)) == 22
    assert {t for t in tiles if 0 in t} == {(0, 0)}
    assert [len(h) for h in state.hands] == [7, 7, 7] and len(state.widow) == 1
    for viewer in (None, 0, 1, 2):
        assert state.widow[0] not in set(tiles_in(RS.view(state, viewer)))
        assert RS.view(state, viewer)["widow_count"] == 1


def test_m13_bid_winner_takes_the_widow_after_trump_and_discards_face_down():
    state, events = act(start(THREE), (0, bid(4)), (1, PASS), (2, PASS), (0, trump(6)))
    assert events[-1] == {"type": "widow_taken", "seat": 0}
    assert (0, 0) in state.hands[0] and len(state.hands[0]) == 8
    assert [a["kind"] for a in legal(state, 0)] == ["discard"] * 8
    assert (0, 0) not in set(tiles_in(RS.view(state, 1)))
    state, events = act(state, (0, {"kind": "discard", "tile": [5, 5]}))
    assert events == [{"type": "discarded", "seat": 0}]
    assert RS.view(state, 0)["my_discard"] == {"tile": [5, 5]}
    for viewer in (None, 1, 2):
        view = RS.view(state, viewer)
        assert view["my_discard"] is None and view["discarded"]
        assert (5, 5) not in set(tiles_in(view))
        assert (5, 5) in RS.hidden_tiles(state, viewer)
    assert (5, 5) not in RS.hidden_tiles(state, 0)
    assert RS.to_act(state) == 0 and len(legal(state, 0)) == 7  # the bid winner leads
    assert sorted(RS.all_tiles(state)) == sorted([T.tile(*t) for h in THREE for t in h] + [(0, 0)])


def test_m13_individual_scores_each_player_alone():
    state, _ = act(
        start(THREE),
        (0, PASS),
        (1, bid(5)),
        (2, PASS),
        (1, trump(4)),
        (1, {"kind": "discard", "tile": [0, 0]}),
    )
    state, events = play_lowest(state)
    over = next(e for e in events if e["type"] == "round_over")
    assert len(over["tricks"]) == 3 and sum(over["tricks"]) == 7 and over["side"] == 1
    expected = [over["tricks"][0], over["tricks"][1] if over["made"] else -5, over["tricks"][2]]
    assert over["deltas"] == expected and list(state.scores) == expected
    assert RS.view(state, 0)["side_of"] == [0, 1, 2]
    assert len(RS.all_tiles(state)) == 22 and RS.to_act(state) == 1  # next round, next bidder


@pytest.mark.parametrize(
    "before, after, winners",
    [
        ((20, 15, 20), (27, 15, 20), (0,)),  # seat 0 takes all seven tricks (trump 6)
        ((14, 22, 5), (21, 22, 5), (1,)),  # two over 21: the higher wins
        ((15, 22, 5), (22, 22, 5), None),  # tied leaders over 21: another round
    ],
)
def test_m13_m11_three_player_match_end_each_player_alone(before, after, winners):
    state = dataclasses.replace(start(THREE), scores=before)
    state, _ = act(
        state,
        (0, bid(4)),
        (1, PASS),
        (2, PASS),
        (0, trump(6)),
        (0, {"kind": "discard", "tile": [0, 0]}),
    )
    state, _ = play_lowest(state)
    assert state.scores == after
    outcome = RS.outcome(state)
    if winners is None:
        assert outcome is None and state.round_no == 2
    else:
        assert outcome.winners == winners and outcome.scores == after


# --- options and the wire format ----------------------------------------------------------------


def test_options_players_must_match_the_seats():
    assert RS.parse_options({}, 4)["players"] == 4
    assert RS.parse_options({}, 3)["players"] == 3
    assert RS.parse_options({}, 4)["first_lead_trump"] is False
    for options, seats in [
        ({"players": 3}, 4),
        ({"players": 4}, 3),
        ({}, 2),
        ({}, 5),
        ({"players": "4"}, 4),
        ({"first_lead_trump": 1}, 4),
        ({"target": 31}, 4),
    ]:
        with pytest.raises(BadOptions):
            RS.new_state(options, seats, 1)


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "bid", "value": 3},
        {"kind": "bid", "value": 8},
        {"kind": "bid", "value": "5"},
        {"kind": "bid"},
        {"kind": "pass", "value": 4},
        {"kind": "trump", "suit": 7},
        {"kind": "trump", "suit": True},
        {"kind": "trump", "suit": "sixes"},
        {"kind": "trump", "suit": 3.0},
        {"kind": "trump", "suit": [3]},
        {"kind": "bid", "value": 5.0},
        {"kind": "play", "tile": [3, 7]},
        {"kind": "play", "tile": [3]},
        {"kind": "discard", "tile": "3-5"},
        {"kind": "draw"},
        ["play"],
    ],
)
def test_malformed_actions_are_refused(raw):
    with pytest.raises(IllegalAction):
        RS.parse_action(raw)


def test_actions_in_the_wrong_phase_are_refused_with_the_phase():
    state = start()
    with pytest.raises(IllegalAction, match="bidding phase"):
        act(state, (0, trump(3)))
    with pytest.raises(IllegalAction, match="bidding phase"):
        act(state, (0, {"kind": "play", "tile": [6, 6]}))
    state, _ = act(state, (0, bid(21)))
    with pytest.raises(IllegalAction, match="trump phase"):
        act(state, (0, PASS))
    state, _ = act(state, (0, trump(6)))
    with pytest.raises(IllegalAction, match="play phase"):
        act(state, (0, {"kind": "discard", "tile": [6, 6]}))


def test_actions_round_trip_through_json():
    for raw in [
        PASS,
        bid(21),
        trump(0),
        trump("none"),
        {"kind": "play", "tile": [2, 5]},
        {"kind": "discard", "tile": [0, 0]},
    ]:
        assert RS.parse_action(raw).to_json() == raw
    assert RS.parse_action({"kind": "play", "tile": [5, 2]}).to_json()["tile"] == [2, 5]

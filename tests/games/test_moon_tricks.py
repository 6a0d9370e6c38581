"""Moon suits, following and trick winners (M-3, M-6, M-8, M-9) under every trump kind: a
number, doubles and none (follow-me). First the pure functions of ``moon.tricks`` on chosen
tiles, then the same rules enforced by the engine on exact deals."""

import random

import pytest

from app.games import tiles as T
from app.games.errors import IllegalAction
from app.games.moon import tricks as K
from app.games.registry import get_ruleset

RS = get_ruleset("moon")

# Seat 0 holds the seven doubles; [6|x] tiles are spread so that number trump 6 bites.
DOUBLES_HAND = [
    [[4, 4], [0, 0], [1, 1], [2, 2], [3, 3], [5, 5], [6, 6]],
    [[4, 5], [0, 4], [4, 6], [0, 6], [0, 1], [0, 2], [0, 3]],
    [[3, 4], [0, 5], [1, 5], [2, 5], [3, 5], [1, 6], [1, 2]],
    [[1, 4], [2, 4], [5, 6], [3, 6], [2, 6], [1, 3], [2, 3]],
]
# Seat 1 holds [5|5] as its only 5; seat 3 holds the 4-4 and 4-6 and no 1.
MIXED = [
    [[4, 5], [0, 1], [1, 2], [2, 3], [3, 4], [5, 6], [6, 6]],
    [[5, 5], [0, 0], [1, 1], [0, 2], [0, 3], [1, 3], [2, 4]],
    [[2, 5], [0, 4], [1, 4], [0, 5], [1, 5], [0, 6], [1, 6]],
    [[2, 2], [3, 3], [4, 4], [3, 5], [2, 6], [3, 6], [4, 6]],
]


def contract(hands, trump, **options):
    """Seat 0 (the first bidder with seed 0) bids 4, the others pass, seat 0 names trump."""
    state = RS.new_state(options, 4, 0, hands=hands)
    assert RS.to_act(state) == 0
    for seat, action in [
        (0, {"kind": "bid", "value": 4}),
        (1, {"kind": "pass"}),
        (2, {"kind": "pass"}),
        (3, {"kind": "pass"}),
        (0, {"kind": "trump", "suit": trump}),
    ]:
        state = RS.apply(state, seat, RS.parse_action(action)).state
    return state


def legal(state, seat):
    return sorted(T.tile(*a["tile"]) for a in RS.view(state, seat)["legal"])


def play(state, *moves):
    events = []
    for seat, t in moves:
        step = RS.apply(state, seat, RS.parse_action({"kind": "play", "tile": t}))
        state = step.state
        events.extend(step.events)
    return state, events


def trick_winner(events):
    return next(e["seat"] for e in events if e["type"] == "trick_won")


# --- pure functions: suits (M-3, M-6) -----------------------------------------------------------


def test_m3_no_trump_a_double_has_one_suit_a_non_double_two():
    assert K.suits_of((4, 4), "none") == {4}
    assert K.suits_of((2, 5), "none") == {2, 5}


def test_m3_suit_order_double_first_then_by_other_number():
    suit6 = [(6, 6), (5, 6), (4, 6), (3, 6), (2, 6), (1, 6), (0, 6)]
    assert sorted(suit6, key=lambda t: K.rank(t, 6, "none"), reverse=True) == suit6
    suit3 = [(3, 3), (3, 6), (3, 5), (3, 4), (2, 3), (1, 3), (0, 3)]
    assert not K.follows((2, 3), 3, 2)  # with trump 2, [2|3] is a trump, not a 3
    assert sorted(suit3, key=lambda t: K.rank(t, 3, "none"), reverse=True) == suit3


def test_m6_number_trump_tiles_belong_only_to_the_trump_suit():
    assert K.suits_of((2, 5), 5) == {K.TRUMP}
    assert K.suits_of((5, 5), 5) == {K.TRUMP}
    assert K.suits_of((2, 4), 5) == {2, 4}
    assert K.suits_of((4, 4), 5) == {4}
    trumps5 = [(5, 5), (5, 6), (4, 5), (3, 5), (2, 5), (1, 5), (0, 5)]
    assert [t for t in T.DOUBLE_SIX if K.is_trump(t, 5)] == sorted(trumps5)
    assert sorted(trumps5, key=lambda t: K.rank(t, K.TRUMP, 5), reverse=True) == trumps5


def test_m6_doubles_trump_doubles_belong_to_no_number_suit():
    assert K.suits_of((3, 3), "doubles") == {K.TRUMP}
    assert K.suits_of((3, 4), "doubles") == {3, 4}
    doubles = [(v, v) for v in range(6, -1, -1)]
    assert sorted(doubles, key=lambda t: K.rank(t, K.TRUMP, "doubles"), reverse=True) == doubles
    assert not K.follows((4, 4), 4, "doubles")


def test_m6_none_means_no_trump_at_all():
    assert not any(K.is_trump(t, "none") for t in T.DOUBLE_SIX)


@pytest.mark.parametrize("trump", K.TRUMPS)
def test_m6_every_tile_belongs_to_one_or_two_suits_and_trumps_to_one(trump):
    for t in T.DOUBLE_SIX:
        suits = K.suits_of(t, trump)
        if K.is_trump(t, trump) or t[0] == t[1]:
            assert len(suits) == 1
        else:
            assert suits == {t[0], t[1]}


# --- pure functions: the suit led and who may follow (M-8) --------------------------------------


def test_m8_non_trump_lead_asks_for_its_higher_number():
    assert K.led_suit((2, 5), "none") == 5
    assert K.led_suit((2, 5), 3) == 5
    assert K.led_suit((2, 5), "doubles") == 5
    assert K.led_suit((4, 4), 6) == 4
    assert K.led_suit((2, 5), 2) == K.TRUMP
    assert K.led_suit((4, 4), "doubles") == K.TRUMP


def test_m8_follow_me_any_tile_with_the_number_follows_even_a_higher_one():
    hand = [(4, 6), (0, 3), (1, 2)]
    assert K.may_follow(hand, (3, 4), "none") == ((4, 6),)


def test_m8_number_trump_tiles_never_follow_another_suit():
    hand = [(4, 6), (0, 1)]
    assert K.may_follow(hand, (4, 4), 6) == tuple(hand)  # void in 4: anything
    assert K.may_follow([(4, 6), (0, 4)], (4, 4), 6) == ((0, 4),)


def test_m8_doubles_trump_double_cannot_follow_its_number_nor_non_double_a_double():
    assert K.may_follow([(5, 5), (0, 1)], (4, 5), "doubles") == ((5, 5), (0, 1))
    assert K.may_follow([(4, 5), (0, 0)], (6, 6), "doubles") == ((0, 0),)
    assert K.may_follow([(4, 5), (0, 1)], (6, 6), "doubles") == ((4, 5), (0, 1))


def test_m8_trump_led_must_be_followed_with_a_trump():
    assert K.may_follow([(2, 3), (0, 1), (1, 3)], (3, 5), 3) == ((2, 3), (1, 3))


# --- pure functions: trick winners (M-9) --------------------------------------------------------


@pytest.mark.parametrize(
    "trump, played, winner",
    [
        (6, [(4, 4), (4, 5), (3, 4), (2, 4)], 0),  # a double led is the top of its suit
        (6, [(4, 5), (5, 5), (0, 6), (5, 6)], 3),  # highest trump wins
        (6, [(4, 5), (5, 5), (0, 6), (1, 2)], 2),  # a low trump beats the suit
        (6, [(0, 5), (2, 5), (4, 4), (1, 5)], 1),  # a tile off suit never wins, however high
        (3, [(3, 3), (0, 3), (3, 6), (5, 5)], 0),  # [v|v] is the highest trump
        (3, [(1, 3), (0, 3), (3, 6), (5, 5)], 2),
        ("doubles", [(4, 5), (5, 5), (2, 5), (0, 0)], 1),  # [5|5] trumps; beats [0|0]
        ("doubles", [(4, 5), (1, 5), (5, 6), (3, 4)], 2),  # no trump: highest of suit 5
        ("doubles", [(2, 2), (6, 6), (1, 1), (3, 4)], 1),
        ("none", [(2, 5), (5, 5), (5, 6), (0, 0)], 1),  # the double tops suit 5
        ("none", [(2, 5), (1, 5), (5, 6), (2, 6)], 2),  # [2|6] has no 5: it does not follow
        ("none", [(3, 4), (4, 6), (0, 4), (3, 3)], 1),  # suit 4, not 3
    ],
)
def test_m9_highest_trump_else_highest_of_the_suit_led(trump, played, winner):
    assert K.winning_index(played, trump) == winner


def test_m9_trick_winner_is_exactly_the_strongest_tile_for_every_trump():
    """Brute force over many tricks: the winner follows or trumps, and no other tile in the
    trick is a trump of higher rank or (with no trump played) of the led suit ranked higher."""
    rng = random.Random(9)
    for _ in range(3000):
        trump = rng.choice(K.TRUMPS)
        played = rng.sample(T.DOUBLE_SIX, 4)
        w = played[K.winning_index(played, trump)]
        suit = K.led_suit(played[0], trump)
        trumps = [t for t in played if K.is_trump(t, trump)]
        if trumps:
            assert w == max(trumps, key=lambda t: K.rank(t, K.TRUMP, trump))
        else:
            same = [t for t in played if K.follows(t, suit, trump)]
            assert w == max(same, key=lambda t: K.rank(t, suit, trump))


# --- the engine enforces them on exact deals ----------------------------------------------------


def test_m8_engine_number_trump_double_led_leads_its_own_suit_and_wins():
    state = contract(DOUBLES_HAND, 6)
    state, _ = play(state, (0, [4, 4]))
    assert legal(state, 1) == [(0, 4), (4, 5)]  # [4|6] is a trump, not a 4
    state, _ = play(state, (1, [4, 5]))
    assert legal(state, 2) == [(3, 4)]
    state, _ = play(state, (2, [3, 4]))
    assert legal(state, 3) == [(1, 4), (2, 4)]
    state, events = play(state, (3, [2, 4]))
    assert trick_winner(events) == 0
    assert RS.to_act(state) == 0  # M-7: the trick winner leads


def test_m8_engine_number_trump_void_player_may_trump_or_not():
    state = contract(DOUBLES_HAND, 6)
    state, _ = play(state, (0, [5, 5]), (1, [4, 5]), (2, [0, 5]))
    # seat 3's only 5 is [5|6], a trump: it is void in 5 and may play anything
    assert len(legal(state, 3)) == 7
    _, trumped = play(state, (3, [5, 6]))
    assert trick_winner(trumped) == 3
    _, sloughed = play(state, (3, [1, 3]))
    assert trick_winner(sloughed) == 0


def test_m8_engine_number_trump_led_must_be_followed_by_trumps():
    state = contract(DOUBLES_HAND, 6)
    state, _ = play(state, (0, [0, 0]))  # lead suit 0
    assert legal(state, 1) == [(0, 1), (0, 2), (0, 3), (0, 4)]  # not [0|6]
    state = contract(DOUBLES_HAND, 6)
    state, _ = play(state, (0, [6, 6]))
    assert legal(state, 1) == [(0, 6), (4, 6)]
    assert legal(play(state, (1, [0, 6]))[0], 2) == [(1, 6)]


def test_m8_engine_doubles_trump_double_cannot_follow_its_number():
    state = contract(MIXED, "doubles")
    state, _ = play(state, (0, [4, 5]))
    assert len(legal(state, 1)) == 7  # [5|5] is a trump: seat 1 is void in 5
    state, _ = play(state, (1, [0, 0]))
    assert legal(state, 2) == [(0, 5), (1, 5), (2, 5)]
    state, _ = play(state, (2, [2, 5]))
    assert legal(state, 3) == [(3, 5)]
    state, events = play(state, (3, [3, 5]))
    assert trick_winner(events) == 1  # the lowest trump beats the suit


def test_m8_engine_doubles_trump_non_double_cannot_follow_a_double():
    state = contract(MIXED, "doubles")
    state, _ = play(state, (0, [6, 6]))
    assert legal(state, 1) == [(0, 0), (1, 1), (5, 5)]
    state, _ = play(state, (1, [5, 5]))
    assert len(legal(state, 2)) == 7  # no double: any tile
    state, _ = play(state, (2, [0, 6]))
    assert legal(state, 3) == [(2, 2), (3, 3), (4, 4)]
    state, events = play(state, (3, [4, 4]))
    assert trick_winner(events) == 0  # [6|6] the highest trump


def test_m8_engine_follow_me_higher_end_sets_the_suit():
    state = contract(MIXED, "none")
    state, _ = play(state, (0, [3, 4]))
    assert legal(state, 1) == [(2, 4)]  # the 4s, not the 3s
    state, _ = play(state, (1, [2, 4]))
    assert legal(state, 2) == [(0, 4), (1, 4)]
    state, _ = play(state, (2, [1, 4]))
    assert legal(state, 3) == [(4, 4), (4, 6)]  # any 4, even [4|6]
    _, with_46 = play(state, (3, [4, 6]))
    assert trick_winner(with_46) == 3


def test_m8_engine_follow_me_double_follows_its_number():
    state = contract(MIXED, "none")
    state, _ = play(state, (0, [4, 5]))
    assert legal(state, 1) == [(5, 5)]
    state, events = play(state, (1, [5, 5]), (2, [1, 5]), (3, [3, 5]))
    assert trick_winner(events) == 1


def test_m9_engine_highest_trump_wins_over_a_lower_trump_led():
    state = contract(MIXED, 5)
    state, _ = play(state, (0, [4, 5]))
    assert legal(state, 1) == [(5, 5)]
    state, events = play(state, (1, [5, 5]), (2, [2, 5]), (3, [3, 5]))
    assert trick_winner(events) == 1


def test_m8_engine_refuses_a_tile_that_does_not_follow_with_a_reason():
    state = contract(MIXED, "none")
    state, _ = play(state, (0, [3, 4]))
    with pytest.raises(IllegalAction, match="follow suit 4"):
        play(state, (1, [0, 3]))
    with pytest.raises(IllegalAction, match="do not hold"):
        play(state, (1, [6, 6]))
    state = contract(MIXED, 5)
    state, _ = play(state, (0, [4, 5]))
    with pytest.raises(IllegalAction, match="trump"):
        play(state, (1, [0, 0]))


def test_m8_engine_trumping_is_never_compulsory():
    state = contract(MIXED, 6)
    state, _ = play(state, (0, [0, 1]), (1, [1, 3]), (2, [1, 5]))
    options = legal(state, 3)  # no 1: every tile, trumps and others
    assert (2, 6) in options and (3, 5) in options
    _, events = play(state, (3, [3, 5]))
    assert trick_winner(events) == 2

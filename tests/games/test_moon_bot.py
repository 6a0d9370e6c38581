"""The Moon bot on exact deals: it bids from the strength of its hand, names its best trump,
wins tricks when it can and plays low when its partner is winning. (Its strength against random
players is measured in test_moon_playouts.py and bench/bots_moon.py.)"""

import random
import subprocess
import sys

import pytest

from app.games import bots
from app.games import tiles as T
from app.games.bots import choose
from app.games.registry import GAMES, get_ruleset

RS = get_ruleset("moon")
SIXES = [
    [[6, 6], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6], [0, 6]],
    [[5, 5], [4, 5], [3, 5], [2, 5], [1, 5], [0, 5], [4, 4]],
    [[3, 4], [2, 4], [1, 4], [0, 4], [3, 3], [2, 3], [1, 3]],
    [[0, 3], [2, 2], [1, 2], [0, 2], [1, 1], [0, 1], [0, 0]],
]
PASS = {"kind": "pass"}


def act(state, *moves):
    for seat, action in moves:
        state = RS.apply(state, seat, RS.parse_action(action)).state
    return state


def bot(state):
    seat = RS.to_act(state)
    pick = choose("moon", RS.view(state, seat), random.Random(1))
    assert pick in RS.view(state, seat)["legal"]
    return pick


def test_bot_shoots_the_moon_holding_every_trump():
    state = RS.new_state({}, 4, 0, hands=SIXES)
    assert bot(state) == {"kind": "bid", "value": 21}
    assert bot(act(state, (0, {"kind": "bid", "value": 21}))) == {"kind": "trump", "suit": 6}


def test_bot_bids_a_long_suit_and_names_it_trump():
    state = act(RS.new_state({}, 4, 0, hands=SIXES), (0, PASS))
    pick = bot(state)
    assert pick["kind"] == "bid" and pick["value"] >= 4
    state = act(state, (1, pick), (2, PASS), (3, PASS))
    assert bot(state) == {"kind": "trump", "suit": 5}


def test_bot_passes_a_weak_hand_and_does_not_outbid_its_partner_lightly():
    weak = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 4), (1, 5)]  # no double, no long suit
    rest = [list(t) for t in T.DOUBLE_SIX if t not in weak]
    state = RS.new_state({}, 4, 0, hands=[weak, rest[:7], rest[7:14], rest[14:]])
    assert bot(state) == PASS
    # seat 2 holds both the 2-2 and 3-3 and five more 2s and 3s: it bids on its own...
    assert bot(act(state, (0, PASS), (1, PASS)))["kind"] == "bid"
    # ...but not over its partner's 6
    assert bot(act(state, (0, {"kind": "bid", "value": 6}), (1, PASS))) == PASS


def test_bot_plays_low_when_its_partner_is_winning():
    state = act(
        RS.new_state({}, 4, 0, hands=SIXES),
        (0, {"kind": "bid", "value": 4}),
        (1, PASS),
        (2, PASS),
        (3, PASS),
        (0, {"kind": "trump", "suit": 6}),
        (0, {"kind": "play", "tile": [6, 6]}),
        (1, {"kind": "play", "tile": [0, 5]}),
    )
    assert bot(state) == {"kind": "play", "tile": [0, 4]}  # the partner's [6|6] cannot lose


def test_bot_wins_the_trick_when_it_can():
    state = act(
        RS.new_state({}, 4, 0, hands=SIXES),
        (0, {"kind": "bid", "value": 4}),
        (1, PASS),
        (2, PASS),
        (3, PASS),
        (0, {"kind": "trump", "suit": 5}),
        (0, {"kind": "play", "tile": [1, 6]}),
    )
    pick = bot(state)  # seat 1 has no 6: it trumps, and with the top trump, a sure winner
    assert pick == {"kind": "play", "tile": [5, 5]}
    state = act(state, (1, pick), (2, {"kind": "play", "tile": [3, 4]}))
    assert bot(state)["tile"] in ([0, 3], [0, 2], [0, 1], [0, 0])  # seat 3: partner wins: low


def test_bot_discards_its_weakest_tile_three_handed():
    three = [
        [[6, 6], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6], [5, 5]],
        [[4, 5], [3, 5], [2, 5], [1, 5], [4, 4], [3, 4], [2, 4]],
        [[1, 4], [3, 3], [2, 3], [1, 3], [2, 2], [1, 2], [1, 1]],
    ]
    state = act(
        RS.new_state({"players": 3}, 3, 0, hands=three),
        (0, {"kind": "bid", "value": 4}),
        (1, PASS),
        (2, PASS),
        (0, {"kind": "trump", "suit": 6}),
    )
    assert bot(state) == {"kind": "discard", "tile": [0, 0]}


# --- a missing bot fails loudly (O-3: the server plays for a timed-out seat with its bot) --------


def test_every_game_has_its_bot():
    assert set(bots.BOTS) == set(GAMES)


def test_a_game_without_a_bot_raises_instead_of_playing_randomly():
    view = RS.view(RS.new_state({}, 4, seed=1), None) | {"legal": [PASS]}
    with pytest.raises(LookupError, match="no bot plays 'domino_poker'"):
        choose("domino_poker", view, random.Random(1))


def test_a_missing_bot_module_fails_the_import_of_the_bots():
    # a fresh interpreter where app/games/bots/moon.py cannot be imported
    code = (
        "import sys; sys.modules['app.games.bots.moon'] = None\n"
        "try:\n    import app.games.bots\n"
        "except ImportError as err:\n    print('raised', err.name)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "raised app.games.bots.moon", run.stderr

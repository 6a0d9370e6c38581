"""Moon: four players in two partnerships (or three alone), bids, trumps and tricks to 21.

docs/rules.md section 2 (M-1 .. M-13) and O-2. The phases of a round are bidding → trump →
(three players: discard, after taking the widow) → play → scored; then the next round is dealt in
the same step, or the match is over (M-11). All passed: the round is dealt again (M-5).
Suits and trick winners live in ``tricks``, the bidding in ``bidding``, the points in ``scoring``.

Decisions where docs/rules.md leaves room:
- ``players`` defaults to the number of seats (3 or 4) and must agree with it.
- ``first_lead_trump: true`` makes the bid winner lead a trump to the first trick when they hold
  one (with ``none`` trump, or holding no trump, any tile).
- The next round is dealt in the same step as the play that ends a round: that step's events
  are ``played``, ``trick_won``, ``round_over`` and ``dealt`` (or ``match_over``). The
  ``round_over`` names no tile but in its ``board``: the finished round's public board (its last
  trick, played face up), shown in the pause before the next round (O-6). The view shows only
  the current round; the previous one survives as its tile-free summary.
- With three players the bid winner may discard any of their eight tiles, the widow included;
  they alone see the discard afterwards, and it is never revealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import tiles as T
from ..base import (
    JSON,
    Deal,
    GameDescriptor,
    Option,
    Outcome,
    RawTile,
    RoundResult,
    Ruleset,
    Step,
    action_fields,
    action_kind,
    evolve,
)
from ..errors import BadOptions, IllegalAction
from ..rng import rng_for
from . import bidding as B
from . import scoring as S
from . import tricks as K
from .state import (
    PASS,
    BidAction,
    Discard,
    NameTrump,
    Pass,
    Phase,
    Play,
    State,
    Trick,
    deal,
    tile_set,
)

KINDS = ("bid", "pass", "trump", "discard", "play")
# What a finished round's board shows: the view's public parts (the tricks were played face up)
BOARD = (
    *("phase", "bids", "bidder", "contract", "trump", "leader", "trick", "last_trick"),
    *("tricks_won", "tricks_by_seat", "widow_count"),
)


MoonAction = BidAction | Pass | NameTrump | Discard | Play
_PLAYS = {t: Play(t) for t in T.DOUBLE_SIX}  # built once: legal_actions runs on every move


class Moon(Ruleset[State, MoonAction]):
    # ``players`` follows from the seat count (M-13), so the creator never sets it; it is still
    # accepted (and checked) from callers that name it.
    descriptor = GameDescriptor(
        "moon", 3, 4, options=(Option("first_lead_trump", False, help=True),)
    )
    state_type = State

    def parse_options(self, options: Mapping[str, Any], n_seats: int) -> JSON:
        self.check_seats(n_seats)
        players = options.get("players", n_seats)
        if players not in (3, 4) or type(players) is not int:
            raise BadOptions("players", "must be 4 (partnerships) or 3 (three-handed, M-13)")
        if players != n_seats:
            raise BadOptions("players", f"{players} players need {players} seats, not {n_seats}")
        rest = {k: v for k, v in options.items() if k != "players"}
        return {"players": players, **self.descriptor.parse(rest)}

    def new_state(
        self,
        options: Mapping[str, Any],
        n_seats: int,
        seed: int,
        *,
        hands: Deal | None = None,
        stock: Sequence[RawTile] | None = None,
    ) -> State:
        opts = self.parse_options(options, n_seats)
        dealt, widow = deal(seed, n_seats, 1, 0, hands, stock)
        return State(
            options=opts,
            seed=seed,
            phase=Phase.BIDDING,
            round_no=1,
            redeal_no=0,
            first_bidder=rng_for(seed, "first_bidder").randrange(n_seats),  # M-4
            **_fresh_deal(dealt, widow),
            scores=(0,) * S.n_sides(n_seats),
            tally={
                "rounds": 0,
                "redeals": 0,
                "made": 0,
                "failed": 0,
                **{f"contract_{v}": 0 for v in B.BID_VALUES},
            },
            last_round=None,
            result=None,
        )

    # --- whose turn, and what they may do ----------------------------------------------------
    def to_act(self, state: State) -> int | None:
        phase = state.phase
        if phase is Phase.BIDDING:
            return B.bidder_to_act(state.first_bidder, state.bids, state.n)
        if phase is Phase.PLAY:
            trick = state.trick  # not current_trick: this runs several times a move
            assert trick is not None, "no trick in the play phase"
            return (trick.leader + len(trick.tiles)) % len(state.hands)
        if phase is Phase.OVER:
            return None
        return state.bidder

    def playable(self, state: State, seat: int) -> tuple[T.Tile, ...]:
        """M-7, M-8: the tiles ``seat`` may play to the current trick."""
        hand, trick, trump = state.hands[seat], state.current_trick, state.named_trump
        if trick.tiles:
            return K.may_follow(hand, trick.tiles[0], trump)
        if not state.tricks and state.options["first_lead_trump"]:
            return tuple(t for t in hand if K.is_trump(t, trump)) or hand
        return hand

    def legal_actions(self, state: State, seat: int) -> tuple[MoonAction, ...]:
        if self.to_act(state) != seat:
            return ()
        phase = state.phase
        if phase is Phase.BIDDING:
            return (PASS, *(BidAction(v) for v in B.legal_values(state.bids)))
        if phase is Phase.TRUMP:
            return tuple(NameTrump(s) for s in K.TRUMPS)
        if phase is Phase.DISCARD:
            return tuple(Discard(t) for t in state.hands[seat])
        return tuple(map(_PLAYS.__getitem__, self.playable(state, seat)))

    def parse_action(self, raw: Any) -> MoonAction:
        kind = action_kind(raw, KINDS)
        if kind == "pass":
            action_fields(raw)
            return PASS
        if kind == "bid":
            (value,) = action_fields(raw, "value")
            if type(value) is not int or value not in B.BID_VALUES:
                raise IllegalAction("a bid is 4, 5, 6, 7 or 21")
            return BidAction(value)
        if kind == "trump":
            (suit,) = action_fields(raw, "suit")
            if not ((type(suit) is int and 0 <= suit <= 6) or suit in ("doubles", "none")):
                raise IllegalAction("trump is a number 0..6, 'doubles' or 'none'")
            return NameTrump(suit)
        (raw_tile,) = action_fields(raw, "tile")
        t = T.parse_tile(raw_tile, 6)
        return Discard(t) if kind == "discard" else Play(t)

    def refusal(self, state: State, seat: int, action: MoonAction) -> str:
        phase = state.phase
        wanted = {
            BidAction: Phase.BIDDING,
            Pass: Phase.BIDDING,
            NameTrump: Phase.TRUMP,
            Discard: Phase.DISCARD,
            Play: Phase.PLAY,
        }[type(action)]
        if phase is not wanted:
            return f"it is the {phase.value} phase: you cannot {action.kind} now"
        if isinstance(action, BidAction):
            return f"a bid must be higher than {B.high_value(state.bids)} (M-4)"
        if not isinstance(action, (Discard, Play)):  # a pass or any trump is always legal
            return super().refusal(state, seat, action)
        if action.tile not in state.hands[seat]:
            return f"you do not hold {list(action.tile)}"
        trick = state.current_trick
        if not trick.tiles:
            return "your first lead must be a trump (first_lead_trump, M-7)"
        suit = K.led_suit(trick.tiles[0], state.named_trump)
        if suit == K.TRUMP:
            return "a trump was led: you must play a trump (M-8)"
        return f"you must follow suit {suit} (M-8)"

    # --- applying a legal action -------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: MoonAction) -> Step[State]:
        if isinstance(action, (BidAction, Pass)):
            return self._bid(state, seat, action)
        if isinstance(action, NameTrump):
            return self._name_trump(state, seat, action.suit)
        if isinstance(action, Discard):
            hands = _without(state.hands, seat, action.tile)
            new = evolve(
                state,
                hands=hands,
                discard=(action.tile,),
                phase=Phase.PLAY,
                trick=Trick(seat, (), None),
            )
            return Step(new, ({"type": "discarded", "seat": seat},))
        return self._play(state, seat, action.tile)

    def _bid(self, state: State, seat: int, action: BidAction | Pass) -> Step[State]:
        value = action.value if isinstance(action, BidAction) else None
        bids = state.bids + (B.Bid(seat, value),)
        event = (
            {"type": "bid", "seat": seat, "value": value}
            if value is not None
            else {"type": "passed", "seat": seat}
        )
        if not B.is_over(bids, state.n):
            return Step(evolve(state, bids=bids), (event,))
        won = B.contract(bids, state.n)
        if won is None:  # M-5: everybody passed
            tally = {**state.tally, "redeals": state.tally["redeals"] + 1}
            new = _new_deal(evolve(state, tally=tally), state.round_no, state.redeal_no + 1)
            return Step(new, (event, {"type": "all_passed"}, _dealt_event(new)))
        new = evolve(state, bids=bids, bidder=won.seat, contract=won.value, phase=Phase.TRUMP)
        return Step(new, (event, {"type": "contract", "seat": won.seat, "value": won.value}))

    def _name_trump(self, state: State, seat: int, trump: K.Trump) -> Step[State]:
        events: tuple[JSON, ...] = ({"type": "trump", "seat": seat, "suit": trump},)
        if state.widow:  # M-13: the bid winner takes the widow, then discards one
            hands = list(state.hands)
            hands[seat] = T.sort_hand(hands[seat] + state.widow)
            new = evolve(state, trump=trump, hands=tuple(hands), widow=(), phase=Phase.DISCARD)
            return Step(new, (*events, {"type": "widow_taken", "seat": seat}))
        new = evolve(state, trump=trump, phase=Phase.PLAY, trick=Trick(seat, (), None))  # M-7
        return Step(new, events)

    def _play(self, state: State, seat: int, t: T.Tile) -> Step[State]:
        trick = state.current_trick
        played = trick.tiles + (t,)
        hands = _without(state.hands, seat, t)
        play = {"type": "played", "seat": seat, "tile": T.to_json(t)}
        if len(played) < state.n:
            new = evolve(state, hands=hands, trick=Trick(trick.leader, played, None))
            return Step(new, (play,))
        winner = (trick.leader + K.winning_index(played, state.named_trump)) % state.n  # M-9
        done = Trick(trick.leader, played, winner)
        tricks = state.tricks + (done,)
        new = evolve(state, hands=hands, tricks=tricks, trick=Trick(winner, (), None))
        won = {"type": "trick_won", "seat": winner, "number": len(tricks)}
        if len(tricks) < S.TRICKS:
            return Step(new, (play, won))
        return self._score(new, (play, won))

    def _score(self, state: State, events: tuple[JSON, ...]) -> Step[State]:
        """M-10, M-11: score the round, then end the match or deal the next round."""
        n, (bidder, contract) = state.n, state.declarer
        side = S.side_of(bidder, n)
        tricks = [0] * S.n_sides(n)
        for trick in state.tricks:
            tricks[S.side_of(trick.taker, n)] += 1
        score = S.score_round(state.scores, side, contract, tricks)
        summary = {
            "round": state.round_no,
            "bidder": bidder,
            "side": side,
            "contract": state.contract,
            "trump": state.trump,
            "tricks": tricks,
            "made": score.made,
            "moon": score.moon,
            "deltas": list(score.deltas),
            "scores": list(score.scores),
        }
        # the finished round's public board (M-12: played tiles only) for the pause (O-6)
        seen = self.view(state, None)
        over = {"type": "round_over", **summary, "board": {k: seen[k] for k in BOARD}}
        rounds = (RoundResult(state.round_no, None, None, None, summary),)
        tally = dict(state.tally)
        for key in ("rounds", "made" if score.made else "failed", f"contract_{state.contract}"):
            tally[key] += 1
        state = evolve(state, scores=score.scores, tally=tally, last_round=summary)
        winner = side if score.moon else S.match_winner(score.scores)
        if winner is None:
            new = _new_deal(state, state.round_no + 1, 0)
            return Step(new, (*events, over, _dealt_event(new)), (), rounds)
        result = {
            "winner_side": winner,
            "winners": [s for s in range(n) if S.side_of(s, n) == winner],
            "scores": list(score.scores),
            "ending": "moon" if score.moon else "points",
            "rounds": state.round_no,
        }
        new = evolve(state, phase=Phase.OVER, result=result)
        return Step(new, (*events, over, {"type": "match_over", **result}), (), rounds)

    # --- results, views, audits --------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        n = state.n
        return Outcome(
            winners=tuple(state.result["winners"]),
            scores=tuple(state.scores[S.side_of(s, n)] for s in range(n)),
            detail={**state.result, "side_of": [S.side_of(s, n) for s in range(n)]},
        )

    def view(self, state: State, seat: int | None) -> JSON:
        """O-2, M-12: own hand, bids, contract, trump, the trick being played and this round's
        completed tricks (``tricks``: leader, tiles in play order, winner; the latest also as
        ``last_trick``, which clients keep on the table between tricks), tricks won, scores.
        The widow and the discard are hidden, except the discard from the bid winner who chose
        it. Nothing of a finished round but its tile-free ``last_round`` summary is shown."""
        n, trick = state.n, state.trick
        by_seat = [0] * n
        for done in state.tricks:
            by_seat[done.taker] += 1
        by_side = [0] * S.n_sides(n)
        for s in range(n):
            by_side[S.side_of(s, n)] += by_seat[s]
        high = B.high_bid(state.bids)
        tricks = [
            {"leader": done.leader, "tiles": T.hand_json(done.tiles), "winner": done.winner}
            for done in state.tricks
        ]
        own_discard = seat is not None and seat == state.bidder and state.discard
        return {
            **self.view_header(state, seat),
            "players": n,
            "phase": state.phase.value,
            "round": state.round_no,
            "side_of": [S.side_of(s, n) for s in range(n)],
            "hand": T.hand_json(state.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state.hands],
            "first_bidder": state.first_bidder,
            "bids": [{"seat": b.seat, "value": b.value} for b in state.bids],
            "high_bid": {"seat": high.seat, "value": high.value} if high else None,
            "bidder": state.bidder,
            "contract": state.contract,
            "trump": state.trump,
            "widow_count": len(state.widow),
            "discarded": bool(state.discard),
            "my_discard": {"tile": T.to_json(state.discard[0])} if own_discard else None,
            "leader": trick.leader if trick else None,
            "trick": (
                [
                    {"seat": (trick.leader + i) % n, "tile": T.to_json(t)}
                    for i, t in enumerate(trick.tiles)
                ]
                if trick
                else []
            ),
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "tricks_won": by_side,
            "tricks_by_seat": by_seat,
            "scores": list(state.scores),
            "target": S.TARGET,
            "last_round": state.last_round,
            "result": state.result,
        }

    def all_tiles(self, state: State) -> list[T.Tile]:
        out = [t for h in state.hands for t in h] + list(state.widow) + list(state.discard)
        out += [t for done in state.tricks for t in done.tiles]
        if state.trick:
            out += state.trick.tiles
        return out

    def hidden_tiles(self, state: State, seat: int | None) -> set[T.Tile]:
        seen = {t for done in state.tricks for t in done.tiles}
        if state.trick:
            seen.update(state.trick.tiles)
        if seat is not None:
            seen.update(state.hands[seat])
            if seat == state.bidder:
                seen.update(state.discard)
        return set(tile_set(state.n)) - seen

    def match_stats(self, state: State) -> JSON:
        """Per-match figures for ``python -m app simulate``: rounds, redeals, contracts of each
        value, made and failed (and the match's made rate); how the match ended and the last
        round's contract and trump."""
        tally, last, result = state.tally, state.last_round, state.result
        assert last is not None and result is not None, "the match is not over"
        return {
            **tally,
            "made_pct": round(100 * tally["made"] / max(1, tally["rounds"])),
            "ending": result["ending"],
            "last_contract": str(last["contract"]),
            "last_trump": str(last["trump"]),
        }


def _without(hands: tuple[T.Hand, ...], seat: int, t: T.Tile) -> tuple[T.Hand, ...]:
    out = list(hands)
    out[seat] = T.remove(out[seat], t)
    return tuple(out)


def _new_deal(state: State, round_no: int, redeal_no: int) -> State:
    """A fresh deal; the first bidder moves one seat on with every deal (M-4, M-5)."""
    hands, widow = deal(state.seed, state.n, round_no, redeal_no)
    return evolve(
        state,
        phase=Phase.BIDDING,
        round_no=round_no,
        redeal_no=redeal_no,
        first_bidder=(state.first_bidder + 1) % state.n,
        **_fresh_deal(hands, widow),
    )


def _fresh_deal(hands: tuple[T.Hand, ...], widow: T.Hand) -> dict[str, Any]:
    """The fields a deal sets afresh, the match's first and every later one (M-4, M-5)."""
    return {
        "hands": hands,
        "widow": widow,
        "discard": (),
        "bids": (),
        "bidder": None,
        "contract": None,
        "trump": None,
        "trick": None,
        "tricks": (),
    }


def _dealt_event(state: State) -> JSON:
    return {
        "type": "dealt",
        "round": state.round_no,
        "redeal": state.redeal_no,
        "first_bidder": state.first_bidder,
    }


RULESET = Moon()

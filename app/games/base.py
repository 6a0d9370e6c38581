"""The ruleset contract every game follows (docs/design.md "The rules contract").

A ruleset is a pure state machine over frozen dataclass states:

    rs.new_state(options, n_seats, seed, *, hands=None, stock=None) -> State
    rs.to_act(state) -> int | None        the seat that must decide; None once over
    rs.legal_actions(state, seat) -> tuple[Action, ...]
    rs.apply(state, seat, action) -> Step  raises GameError subclasses, never mutates
    rs.outcome(state) -> Outcome | None
    rs.view(state, seat | None) -> dict   what that seat (None: a spectator) may see
    rs.dump(state) -> dict ; rs.load(dict) -> State
    rs.parse_action(json) -> Action       the wire form; IllegalAction when malformed
    rs.descriptor -> GameDescriptor       what the shell and the client need to know of the game

``hands`` deals exact tiles (tests, replays); ``stock`` additionally fixes the front of the
boneyard, top first, for games that draw. Every view carries the common keys ``game``, ``seat``,
``to_act``, ``legal`` (the JSON of exactly the actions that seat may send now) and ``over``, so
clients and bots can treat all games alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from . import codec
from .errors import BadOptions, GameOver, IllegalAction, NotYourTurn
from .tiles import Tile

JSON = dict[str, Any]
RawTile = Sequence[int]  # a tile as given from outside: [a, b]
Deal = Sequence[Sequence[RawTile]]  # exact hands, one per seat (tests, replays)
# State fields that older dumps may still carry and no state has any more: ``last_events``
# (display history; the shell sends recent events from the table's event stream).
RETIRED = ("last_events",)


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action: a frozen dataclass whose JSON form is ``{"kind": ..., fields}``."""

    kind: ClassVar[str] = ""

    def to_json(self) -> JSON:
        return {"kind": self.kind, **codec.dump(self)}


A = TypeVar("A", bound=Action)  # a game's actions

PaymentKind = Literal["lewat", "settlement"]


class Payment(NamedTuple):
    """Chips that move between two seats' stacks (Gaple): a Lewat (G-6) in the round, or a
    settlement (G-10) when it ends. ``amount`` is what moved, ``shortfall`` what the payer could
    not cover (G-11); ``pips``: the pips left in the payer's hand, for a settlement. (Named
    tuples, as ``Step``: they are built on the move path, at a third of a dataclass's cost.)"""

    kind: PaymentKind
    payer: int
    payee: int
    amount: int
    shortfall: int
    pips: int | None = None

    def to_json(self) -> JSON:
        """The form the game's events and results carry (no ``pips`` for a Lewat)."""
        out: JSON = {
            "kind": self.kind,
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "shortfall": self.shortfall,
        }
        if self.pips is not None:
            out["pips"] = self.pips
        return out


class RoundResult(NamedTuple):
    """A round that ended, for the records (docs/design.md "Persistence"), so the shell never reads
    a game's own events.

    ``number``: the round of the match (None when one state is one round and the table counts
    them: Gaple, G-12); ``winner``: the seat, when the game names one; ``ending``: how it ended,
    in the game's words; ``multiplier``: Gaple's x value (G-9); ``settlements``: the payments of
    the round's end (G-10); ``detail``: the round's figures, JSON-ready (its ``round_over``
    event without the type)."""

    number: int | None
    winner: int | None
    ending: str | None
    multiplier: int | None
    detail: JSON
    settlements: tuple[Payment, ...] = ()


S = TypeVar("S")  # a game's state
D = TypeVar("D")  # any frozen dataclass


class Step(NamedTuple, Generic[S]):
    """What ``apply`` returns (a named tuple: one is built per move): the new state, the
    public events of the move (they animate the clients), and as typed data the payments made
    in the round (``payments``: Lewat, G-6) and the rounds that ended in it (``rounds``)."""

    state: S
    events: tuple[JSON, ...]
    payments: tuple[Payment, ...] = ()
    rounds: tuple[RoundResult, ...] = ()


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    ``winners``: seats that won (ties share); ``scores``: one number per seat (Gaple: the chip
    delta of the round; other games: final points); ``detail``: game specific, JSON-ready.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    detail: JSON

    def to_json(self) -> JSON:
        out: JSON = codec.dump(self)
        return out


@dataclasses.dataclass(frozen=True)
class Option:
    """One table option a creator may set (docs/rules.md names them), as data: the ruleset
    parses with it and the client builds its create form from its JSON (``GET /api/games``).

    The type follows from the fields: a bool default is a switch, ``choices`` a choice, else a
    whole number from ``lo`` to ``hi``. ``help``: whether the dictionaries explain it
    (``opt.<key>.help``)."""

    key: str
    default: Any
    lo: int | None = None
    hi: int | None = None
    choices: tuple[Any, ...] = ()
    help: bool = False

    @property
    def type(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        return "choice" if self.choices else "int"

    def parse(self, options: Mapping[str, Any]) -> Any:
        """The option's value in ``options`` (its default when absent); BadOptions otherwise."""
        if self.type == "bool":
            return opt_bool(options, self.key, self.default)
        if self.type == "choice":
            return opt_choice(options, self.key, self.default, self.choices)
        assert self.lo is not None and self.hi is not None
        return opt_int(options, self.key, self.default, self.lo, self.hi)

    def to_json(self) -> JSON:
        out: JSON = {
            "key": self.key,
            "type": self.type,
            "default": self.default,
            "label": f"opt.{self.key}",
            "help": f"opt.{self.key}.help" if self.help else None,
        }
        if self.type == "int":
            out.update(min=self.lo, max=self.hi)
        if self.type == "choice":
            out["choices"] = list(self.choices)
        return out


@dataclasses.dataclass(frozen=True)
class GameDescriptor:
    """What the shell and the client know of a game besides the rules contract.

    ``chips``: played for chips (Gaple, G-12): the table deals one state per round, fills in
    the ``managed`` options (each round's stacks, previous winner) from its seats, and its
    ``stake`` option is the table's stake. Other games play one state per match for points."""

    name: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...]
    default_seats: int = 4
    chips: bool = False
    managed: tuple[str, ...] = ()

    def parse(self, options: Mapping[str, Any]) -> JSON:
        """The creator's options, each checked against its declaration, defaults filled in."""
        check_known(options, [o.key for o in self.options] + list(self.managed))
        return {o.key: o.parse(options) for o in self.options}

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "seats": {"min": self.min_seats, "max": self.max_seats, "default": self.default_seats},
            "chips": self.chips,
            "managed": list(self.managed),
            "options": [o.to_json() for o in self.options],
        }


class Ruleset(Generic[S, A]):
    """Shared machinery; a game subclasses it, naming its state and action types
    (``Ruleset[State, Play | Pass]``), and fills in the game-specific hooks."""

    descriptor: ClassVar[GameDescriptor]
    state_type: ClassVar[type[Any]]  # S (a class variable cannot name a type variable)

    @property
    def name(self) -> str:
        return self.descriptor.name

    @property
    def min_seats(self) -> int:
        return self.descriptor.min_seats

    @property
    def max_seats(self) -> int:
        return self.descriptor.max_seats

    @property
    def default_seats(self) -> int:
        return self.descriptor.default_seats

    # --- hooks a game implements -------------------------------------------------------------
    def parse_options(self, options: Mapping[str, Any], n_seats: int) -> JSON:
        """Validated options with defaults filled in; BadOptions naming the field otherwise.
        The descriptor's declarations are the whole check unless a game adds its own."""
        self.check_seats(n_seats)
        return self.descriptor.parse(options)

    def new_state(
        self,
        options: Mapping[str, Any],
        n_seats: int,
        seed: int,
        *,
        hands: Deal | None = None,
        stock: Sequence[RawTile] | None = None,
    ) -> S:
        raise NotImplementedError

    def to_act(self, state: S) -> int | None:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> tuple[A, ...]:
        raise NotImplementedError

    def parse_action(self, raw: Any) -> A:
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> JSON:
        raise NotImplementedError

    def _apply(self, state: S, seat: int, action: A) -> Step[S]:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def all_tiles(self, state: S) -> list[Tile]:
        """Every tile of the current round wherever it lies (tests check it is the whole set)."""
        raise NotImplementedError

    def stacks(self, state: S) -> tuple[int, ...]:
        """A chips game's (``descriptor.chips``) chips of each seat now, the payments of the
        round in play included (Gaple G-6); only chips games answer."""
        raise NotImplementedError

    def hidden_tiles(self, state: S, seat: int | None) -> set[Tile]:
        """The tiles that viewer must not see now (tests scan every view and event for them)."""
        raise NotImplementedError

    def match_stats(self, state: S) -> JSON:
        """Figures of a finished match for ``python -m app simulate``: ints are averaged,
        strings shown as a distribution."""
        raise NotImplementedError

    def is_legal(self, state: S, seat: int, action: A) -> bool:
        """Whether ``action`` is among ``legal_actions``; games may answer faster directly."""
        return action in self.legal_actions(state, seat)

    def refusal(self, state: S, seat: int, action: A) -> str:
        """Why a well-formed action is not legal now; games override for precise messages."""
        return "that move is not legal now"

    # --- shared behaviour --------------------------------------------------------------------
    def check_seats(self, n_seats: int) -> None:
        if type(n_seats) is not int or not self.min_seats <= n_seats <= self.max_seats:
            raise BadOptions(
                "seats", f"{self.name} is played by {self.min_seats} to {self.max_seats} players"
            )

    def apply(self, state: S, seat: int, action: A) -> Step[S]:
        to_act = self.to_act(state)
        if to_act is None:
            raise GameOver("the match is over")
        if seat != to_act:
            raise NotYourTurn(f"it is seat {to_act}'s turn, not seat {seat}'s")
        if not self.is_legal(state, seat, action):
            raise IllegalAction(self.refusal(state, seat, action))
        return self._apply(state, seat, action)

    def forced_action(self, state: S) -> A | None:
        """docs/rules.md O-4: the action to apply at once when a pass or draw is the only choice."""
        seat = self.to_act(state)
        if seat is None:
            return None
        legal = self.legal_actions(state, seat)
        if len(legal) == 1 and legal[0].kind in ("pass", "draw"):
            return legal[0]
        return None

    def dump(self, state: S) -> JSON:
        dumped: JSON = codec.dump(state)
        return dumped

    def load(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from ``dump``; ValueError when the data is not a valid state. The
        ``RETIRED`` fields of older dumps (tables live in Redis before a release) are ignored."""
        fields = dict(data)
        for name in RETIRED:
            fields.pop(name, None)
        state: S = codec.load(self.state_type, fields)
        return state

    def view_header(self, state: S, seat: int | None) -> JSON:
        """The keys every view starts with (``game``, ``seat``, ``to_act``, ``legal``, ``over``),
        so clients and bots can treat all games alike."""
        to_act = self.to_act(state)
        return {
            "game": self.name,
            "seat": seat,
            "to_act": to_act,
            "legal": self.legal_json(state, seat),
            "over": to_act is None,
        }

    def legal_json(self, state: S, seat: int | None) -> list[JSON]:
        if seat is None or self.to_act(state) != seat:
            return []
        return [a.to_json() for a in self.legal_actions(state, seat)]


def hidden_from(
    seat: int | None,
    hands: Sequence[Iterable[Tile]],
    pile: Iterable[Tile],
    *,
    hands_shown: bool = False,
) -> set[Tile]:
    """The usual ``hidden_tiles``: the face-down pile (boneyard, undealt tiles) always, and every
    hand but the viewer's own until the game shows the hands."""
    hidden = set(pile)
    if not hands_shown:
        for other, hand in enumerate(hands):
            if other != seat:
                hidden.update(hand)
    return hidden


def evolve(state: D, **changes: Any) -> D:
    """``dataclasses.replace`` for the hot path: a copy of a frozen state with some fields
    changed, without re-running ``__init__`` (a quarter of a move's cost otherwise)."""
    new: D = object.__new__(type(state))
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    if len(fields) != len(state.__dict__):
        unknown = sorted(fields.keys() - state.__dict__.keys())
        raise TypeError(f"{type(state).__name__} has no fields {unknown}")
    return new


# --- option and action parsing helpers -----------------------------------------------------


def check_known(options: Mapping[str, Any], known: Sequence[str]) -> None:
    if not isinstance(options, Mapping):
        raise BadOptions("options", "must be an object")
    for key in options:
        if key not in known:
            raise BadOptions(str(key), f"unknown option (known: {', '.join(known)})")


def opt_int(options: Mapping[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = options.get(name, default)
    if type(value) is not int or not lo <= value <= hi:
        raise BadOptions(name, f"must be a whole number from {lo} to {hi}")
    return value


def opt_bool(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if not isinstance(value, bool):
        raise BadOptions(name, "must be true or false")
    return value


def opt_choice(options: Mapping[str, Any], name: str, default: Any, choices: Sequence[Any]) -> Any:
    value = options.get(name, default)
    if value not in choices or isinstance(value, bool) != isinstance(default, bool):
        raise BadOptions(name, f"must be one of {', '.join(map(str, choices))}")
    return value


def action_kind(raw: Any, kinds: Sequence[str]) -> str:
    """The ``kind`` of a raw JSON action; IllegalAction when it is not an object of a known kind."""
    if not isinstance(raw, Mapping):
        raise IllegalAction("an action is a JSON object with a 'kind'")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise IllegalAction(f"unknown action kind {kind!r} (expected one of {', '.join(kinds)})")
    return kind


def action_fields(raw: Mapping[str, Any], *names: str) -> list[Any]:
    """The named fields of a raw action, refusing missing or extra ones."""
    extra = set(raw) - {"kind", *names}
    missing = [n for n in names if n not in raw]
    if extra or missing:
        raise IllegalAction(f"'{raw['kind']}' takes the fields {', '.join(names) or 'none'}")
    return [raw[n] for n in names]

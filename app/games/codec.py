"""JSON round trip for rule states: ``dump`` any state, ``load`` it back with type checks.

States are frozen dataclasses of tuples, ints, strs, enums and JSON-ready dicts. ``dump`` turns
them into plain JSON values; ``load(cls, data)`` rebuilds them from the class's type hints and
raises ValueError on anything that does not fit, so a corrupt or hand-edited snapshot is refused
instead of being played on. Both run on every live move, so each type's loader is built once.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

Loader = Callable[[Any, str], Any]


def dump(obj: Any) -> Any:
    """Any state, action or JSON-ready value as plain JSON values (tuples become lists)."""
    cls: Any = type(obj)
    if cls in (int, str, bool, float) or obj is None:
        return obj
    if cls is tuple or cls is list:
        return [dump(x) for x in obj]
    if cls is dict:
        return {k: dump(v) for k, v in obj.items()}
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj):
        return _dumper(cls)(obj)
    raise TypeError(f"codec cannot dump {cls.__name__}")


_PLAIN = (int, str, bool, float, type(None))


def _plain(tp: Any) -> bool:
    """Values of this type dump as themselves."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return all(_plain(a) for a in typing.get_args(tp))
    return tp in _PLAIN or typing.get_origin(tp) is typing.Literal


@cache
def _dumper(tp: Any) -> Callable[[Any], Any]:
    """A dump specialised by the type hints (built once per type): a state is dumped on every
    live move, and walking it generically cost several times more (bench/README.md)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if _plain(tp):
        return _same
    if origin is tuple:
        items = args[:1] if len(args) == 2 and args[1] is Ellipsis else args
        if all(_plain(a) for a in items):
            return list
        if len(items) == 1:
            item = _dumper(items[0])
            return lambda o: [item(x) for x in o]
        fixed = [_dumper(a) for a in items]
        return lambda o: [f(x) for f, x in zip(fixed, o)]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        names = field_names(tp)
        fields: list[tuple[str, Callable[[Any], Any]]] = []

        def dump_dataclass(o: Any) -> Any:
            if type(o) is not tp:  # a subclass where the hint names its base: its own fields
                return dump(o)
            if not fields:  # built lazily: a dataclass may refer to itself
                fields.extend((n, _dumper(hints[n])) for n in names)
            return {n: f(getattr(o, n)) for n, f in fields}

        return dump_dataclass
    return dump  # Any, dicts, enums, unions of containers: by the value's own type


def _same(o: Any) -> Any:
    return o


@cache
def field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


def load(tp: Any, data: Any, where: str = "state") -> Any:
    return _loader(tp)(data, where)


def _fail(where: str, what: str) -> typing.NoReturn:
    raise ValueError(f"{where}: {what}")


_SCALARS = (int, str, float)  # loaded as they are, each exactly its type


@cache
def _loader(tp: Any) -> Loader:  # noqa: C901 - one branch per kind of type, on purpose
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return lambda d, w: d
    if origin in (typing.Union, types.UnionType):
        options = [_loader(a) for a in args]

        def union(d: Any, w: str) -> Any:
            for option in options:
                try:
                    return option(d, w)
                except ValueError:
                    pass
            _fail(w, f"{d!r} fits none of {tp}")

        return union
    if origin is typing.Literal:
        return lambda d, w: d if d in args else _fail(w, f"{d!r} is not one of {args}")
    if tp is type(None):
        return lambda d, w: None if d is None else _fail(w, "expected null")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _loader(args[0])
            return lambda d, w: (
                tuple([item(x, w) for x in d]) if type(d) is list else _fail(w, "expected a list")
            )
        if all(a in _SCALARS for a in args):  # a tile: the most loaded value, checked inline
            return _scalar_tuple_loader(args)
        items = [_loader(a) for a in args]

        def fixed(d: Any, w: str) -> Any:
            if type(d) is not list or len(d) != len(items):
                _fail(w, f"expected a list of {len(items)}")
            return tuple(f(x, w) for f, x in zip(items, d))

        return fixed
    if origin is dict or tp is dict:
        value = _loader(args[1] if args else Any)
        return lambda d, w: (
            {k: value(v, w) for k, v in d.items()}
            if type(d) is dict
            else _fail(w, "expected an object")
        )
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        members = {m.value: m for m in tp}
        return lambda d, w: members[d] if d in members else _fail(w, f"{d!r}: not {tp.__name__}")
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_loader(tp)
    if tp is bool:
        return lambda d, w: d if type(d) is bool else _fail(w, "expected true or false")
    if tp in _SCALARS:
        return lambda d, w: d if type(d) is tp else _fail(w, f"expected {tp.__name__}")
    raise TypeError(f"codec cannot load {tp!r}")


def _scalar_tuple_loader(types_: tuple[type, ...]) -> Loader:
    """``tuple[int, int]`` and the like: the same checks as the general fixed tuple (a list of
    that length, each item exactly its type), in one loop instead of a loader per item."""
    size = len(types_)

    def scalars(d: Any, w: str) -> Any:
        if type(d) is not list or len(d) != size:
            _fail(w, f"expected a list of {size}")
        for x, tp in zip(d, types_):
            if type(x) is not tp:
                _fail(w, f"expected {tp.__name__}")
        return tuple(d)

    return scalars


def _dataclass_loader(cls: type) -> Loader:
    hints = typing.get_type_hints(cls)
    names = field_names(cls)
    expected = set(names)
    fields: list[tuple[str, Loader]] = []

    def load_dataclass(d: Any, w: str) -> Any:
        if not fields:  # built lazily: a dataclass may refer to itself
            fields.extend((n, _loader(hints[n])) for n in names)
        if type(d) is not dict or d.keys() != expected:
            _fail(w, f"expected an object with the fields {sorted(expected)}")
        return cls(**{n: f(d[n], f"{w}.{n}") for n, f in fields})

    return load_dataclass

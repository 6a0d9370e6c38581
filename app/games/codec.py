"""JSON round trip for rule states: ``dump`` any state, ``load`` it back with type checks.

States are frozen dataclasses of tuples, ints, strs, enums and JSON-ready dicts. ``dump`` turns
them into plain JSON values; ``load(cls, data)`` rebuilds them from the class's type hints and
raises ValueError on anything that does not fit, so a corrupt or hand-edited snapshot is refused
instead of being played on.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any


def dump(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return {f.name: dump(getattr(obj, f.name)) for f in _fields(type(obj))}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (tuple, list)):
        return [dump(x) for x in obj]
    if isinstance(obj, dict):
        return {k: dump(v) for k, v in obj.items()}
    return obj


@cache
def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def load(tp: Any, data: Any, where: str = "state") -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            try:
                return load(arg, data, where)
            except ValueError:
                continue
        raise ValueError(f"{where}: {data!r} fits none of {tp}")
    if origin is typing.Literal:
        if data in args:
            return data
        raise ValueError(f"{where}: {data!r} is not one of {args}")
    if tp is type(None):
        if data is None:
            return None
        raise ValueError(f"{where}: expected null")
    if origin is tuple:
        if not isinstance(data, list):
            raise ValueError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], x, f"{where}[{i}]") for i, x in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{where}: expected {len(args)} items")
        return tuple(load(a, x, f"{where}[{i}]") for i, (a, x) in enumerate(zip(args, data)))
    if origin is dict or tp is dict:
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object")
        vt = args[1] if args else Any
        return {k: load(vt, v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise ValueError(f"{where}: {data!r} is not a {tp.__name__}") from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object")
        hints = _hints(tp)
        names = {f.name for f in _fields(tp)}
        if set(data) != names:
            raise ValueError(f"{where}: fields {sorted(set(data) ^ names)} missing or unknown")
        return tp(**{n: load(hints[n], data[n], f"{where}.{n}") for n in names})
    if tp is bool:
        if isinstance(data, bool):
            return data
        raise ValueError(f"{where}: expected true or false")
    if tp is int:
        if type(data) is int:
            return data
        raise ValueError(f"{where}: expected an integer")
    if tp in (str, float):
        if isinstance(data, tp):
            return data
        raise ValueError(f"{where}: expected {tp.__name__}")
    raise TypeError(f"codec cannot load {tp!r}")

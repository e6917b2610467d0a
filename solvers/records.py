"""One typed reader of a stored record's fields: each dataclass field read by its annotated type, named in the error.

`read_fields(Utility, data, "utility record")` reads every field of the frozen dataclass from `data`: `str`,
`int`, `float`, `bool`, an `Enum` or `tuple[X, ...]` of those by its annotation, a field with a default may be
absent, and `given` supplies the fields that need more than a conversion (a nested record, a checked key).
A missing field or a value that does not convert raises `SpecError` naming the field.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from core.errors import SpecError

T = TypeVar("T")

_SCALARS: tuple[type, ...] = (str, int, float)


def read_fields(cls: type[T], data: Mapping[str, Any], what: str, **given: Any) -> T:
    """`cls(**fields)` with each field not in `given` read from `data` by its annotated type."""
    hints = _hints(cls)
    values = dict(given)
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name in values:
            continue
        if f.name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise SpecError(f.name, f"is missing from the {what}")
            continue
        values[f.name] = _convert(hints[f.name], data[f.name], f.name)
    return cls(**values)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(kind: Any, value: Any, name: str) -> Any:
    """`value` as `kind` (see the module docstring), or `SpecError(name, ...)`."""
    item = _tuple_item(kind)
    if not (kind is bool or kind in _SCALARS or _is_enum(kind) or item is not None):
        raise TypeError(f"a record field of type {kind} is read by the caller (pass it in `given`)")
    try:
        if item is not None:
            return tuple(_convert(item, v, name) for v in value)
        if kind is bool and not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return kind(value)
    except SpecError:
        raise
    except (ValueError, TypeError) as err:
        raise SpecError(name, f"cannot be read as {getattr(kind, '__name__', kind)}: {err}") from None


def _is_enum(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Enum)


def _tuple_item(kind: Any) -> Any:
    """X of `tuple[X, ...]`, else None."""
    if typing.get_origin(kind) is not tuple:
        return None
    args = typing.get_args(kind)
    return args[0] if len(args) == 2 and args[1] is Ellipsis else None

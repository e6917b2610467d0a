"""The shipped decision-agent utility set (data/schedule_utilities.json): load, regenerate, check."""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.errors import SpecError
from solvers.schedule.utility import GeneratorSpec, Utility, generate_utilities, sfusd_space

UTILITIES_PATH = Path(__file__).resolve().parents[3] / "data" / "schedule_utilities.json"


def generate(spec: GeneratorSpec | None = None) -> dict[str, Any]:
    """A fresh utility set for SFUSD as the JSON document that is shipped."""
    spec = spec or GeneratorSpec()
    utilities = generate_utilities(sfusd_space(), spec)
    return {
        "generator": asdict(spec),
        "district": "SFUSD (data/schools_sfusd.csv)",
        "count": len(utilities),
        "utilities": [u.to_json() for u in utilities],
    }


def parse(document: dict[str, Any]) -> tuple[Utility, ...]:
    """Utilities from a JSON document; a malformed record names its index."""
    records = document.get("utilities")
    if not isinstance(records, list):
        raise SpecError("utilities", "expected a list of utility records")
    out = []
    for i, record in enumerate(records):
        try:
            out.append(Utility.from_json(record))
        except SpecError as err:
            raise SpecError(f"utilities[{i}]", str(err)) from err
    return tuple(out)


@lru_cache(maxsize=4)
def load_utilities(path: str | None = None) -> tuple[Utility, ...]:
    """The shipped set (or one at `path`)."""
    source = Path(path) if path else UTILITIES_PATH
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise SpecError("utilities", f"no utility set at {source}") from err
    except json.JSONDecodeError as err:
        raise SpecError("utilities", f"{source} is not JSON: {err.msg}") from err
    return parse(document)


def utility_by_key(key: str) -> Utility:
    for utility in load_utilities():
        if utility.key == key:
            return utility
    raise SpecError("utility", f"unknown utility {key!r}")

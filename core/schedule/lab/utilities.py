"""The shipped decision-agent utility set (data/schedule_utilities.json): load, regenerate, check."""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.errors import SpecError
from solvers.schedule.data import format_time
from solvers.schedule.utility import (
    GeneratorSpec,
    Utility,
    conditional_frontiers,
    generate_utilities,
    generate_utility,
    sfusd_space,
)

UTILITIES_PATH = Path(__file__).resolve().parents[3] / "data" / "schedule_utilities.json"
# The paper's strict tie rule (App. 10.2 "uniquely utility-maximizing"): the generator at the same seed with
# GeneratorSpec(unique=True); every target is the only maximiser over all of S. Keys p001, …
UNIQUE_UTILITIES_PATH = UTILITIES_PATH.with_name("schedule_utilities_unique.json")


def generate(spec: GeneratorSpec | None = None) -> dict[str, Any]:
    """A fresh utility set for SFUSD as the JSON document that is shipped."""
    spec = spec or GeneratorSpec()
    utilities = generate_utilities(sfusd_space(), spec)
    generator = asdict(spec)
    if not spec.unique:
        del generator["unique"]  # the default rule: the shipped document predates the switch
    return {
        "generator": generator,
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


def utility_set(unique: bool = False) -> tuple[Utility, ...]:
    """The shipped set: the default tie rule (u001, …) or the paper's strict one (`unique`: p001, …)."""
    return load_utilities(str(UNIQUE_UTILITIES_PATH)) if unique else load_utilities()


def utility_by_key(key: str) -> Utility:
    """A shipped utility of either set (their keys differ: u… default, p… strict)."""
    for utility in utility_set(unique=key.startswith("p")):
        if utility.key == key:
            return utility
    raise SpecError("utility", f"unknown utility {key!r}")


def frontier_targets(school: str) -> list[tuple[tuple[int, ...], str]]:
    """The school's generator candidates (its conditional Pareto frontiers), each with a readable label."""
    space = sfusd_space()
    q = space.district.school_index(school)
    out = []
    for row in conditional_frontiers(space, q):
        assignment = tuple(int(a) for a in space.assignments[row])
        label = (
            f"{space.district.schools[q].name} at {format_time(space.district.start_times[assignment[q]])} · "
            f"peak {space.load[row] * 100:,.0f} students · change {space.deviation[row]:.1f} min"
        )
        out.append((assignment, label))
    return out


def new_utility(school: str, seed: int, target: tuple[int, ...] | None = None) -> Utility:
    """A freshly generated decision-agent utility for `school` (Appendix 10.2), checked to have its target as
    the unique maximiser among the school's candidates; deterministic under `seed`."""
    if not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise SpecError("seed", "use a whole number between 0 and 4294967295")
    return generate_utility(sfusd_space(), school=school, seed=seed, target=target)

"""Where the generated OptiRepair-SC-like data set lives, and loading it (generating it on first use)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from core.errors import SpecError
from solvers.lp.dataset import DEFAULT_SEED, Problem, generate, load, save
from solvers.lp.errortypes import ErrorType, parse_error_type

DATA_DIR = Path("artifacts") / "lp_repair"


def dataset_path(seed: int = DEFAULT_SEED) -> Path:
    """`$ORCA_LP_DATA/optirepair_sc_seed<seed>.json` (default folder: artifacts/lp_repair)."""
    folder = Path(os.environ.get("ORCA_LP_DATA", DATA_DIR))
    return folder / f"optirepair_sc_seed{seed}.json"


def load_or_generate(
    seed: int = DEFAULT_SEED,
    path: str | Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[Problem]:
    """The 976-problem set for `seed`: read from `path` (default `dataset_path(seed)`) or generated and saved."""
    target = Path(path) if path else dataset_path(seed)
    if target.exists():
        return load(target)
    problems, stats = generate(seed=seed, progress=progress)
    save(problems, target, stats)
    return problems


def select(
    problems: list[Problem],
    *,
    split: str | None = None,
    types: list[str] | None = None,
    limit: int | None = None,
    size: str | None = None,
) -> list[Problem]:
    """Filter by split, error types (ME-1 … ME-10), size ("3x16") and keep at most `limit` (per type)."""
    if split not in (None, "train", "test", "all"):
        raise SpecError("split", "use train, test or all")
    wanted: set[ErrorType] | None = {parse_error_type(t) for t in types} if types else None
    out = [
        p
        for p in problems
        if (split in (None, "all") or p.split == split)
        and (wanted is None or p.error_type in wanted)
        and (size is None or p.size == size)
    ]
    if limit is not None:
        if limit < 1:
            raise SpecError("limit", "must be at least 1")
        kept: dict[ErrorType, int] = {}
        limited = []
        for p in out:
            if kept.get(p.error_type, 0) < limit:
                kept[p.error_type] = kept.get(p.error_type, 0) + 1
                limited.append(p)
        out = limited
    if not out:
        raise SpecError("problems", "no problem matches the filters")
    return out


def find(problems: list[Problem], problem_id: str) -> Problem:
    for p in problems:
        if p.id == problem_id:
            return p
    raise SpecError("problem", f"no problem with id {problem_id!r} in the data set")

"""Where the generated OptiRepair-SC-like data set lives, and loading it (generating it on first use)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from core.errors import SpecError
from solvers.lp.dataset import DEFAULT_SEED, MAX_SOURCES, PROBLEM_ID, Mix, Problem, generate, load, save
from solvers.lp.errortypes import ErrorType, parse_error_type

DATA_DIR = Path("artifacts") / "lp_repair"
BUILD_SECONDS = 60  # docs/BENCHMARKS.md: 50-76 s for the 976 problems of seed 2


def dataset_path(seed: int = DEFAULT_SEED, mix: Mix = Mix.SINGLE) -> Path:
    """`$ORCA_LP_DATA/optirepair_sc2_seed<seed>.json` (`..._multi.json` for `Mix.MULTI`; default folder:
    artifacts/lp_repair). The `2` marks the generator of issue 28 (ME-3 as a balance target, one type per
    source, HiGHS IIS): a set written by the earlier generator (`optirepair_sc_seed<seed>.json`) is not reused.
    """
    folder = Path(os.environ.get("ORCA_LP_DATA", DATA_DIR))
    tail = "" if mix is Mix.SINGLE else f"_{mix.value}"
    return folder / f"optirepair_sc2_seed{seed}{tail}.json"


def check_problem_id(problem_id: str) -> None:
    """Refuse at once an id the generator cannot produce (`sc-<split>-me-<type>-<source>`), before any build."""
    match = PROBLEM_ID.fullmatch(problem_id)
    if match is None or int(match.group(3)) >= MAX_SOURCES:
        raise SpecError(
            "problem",
            f"no problem with id {problem_id!r}: data-set ids look like sc-test-me-3-00042 "
            f"(split train or test, error type me-1 to me-10, source below {MAX_SOURCES})",
        )


def load_or_generate(
    seed: int = DEFAULT_SEED,
    path: str | Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    problem: str | None = None,
    notify: Callable[[str], None] | None = None,
    mix: Mix = Mix.SINGLE,
) -> list[Problem]:
    """The 976-problem set for `seed` and `mix`: read from `path`, or from `dataset_path(seed, mix)` (generated
    and saved there when it does not exist yet).

    An explicit `path` that does not exist is refused (a typo must not start a minute-long build). Before a
    build, `problem` (the id the caller will look up) is checked with `check_problem_id`, and `notify` gets
    one line saying what is being built and how long it takes, then a line every 10 %.
    """
    if path:
        return load(path)
    target = dataset_path(seed, mix)
    if target.exists():
        return load(target)
    if problem is not None:
        check_problem_id(problem)
    report = progress
    if notify is not None:
        notify(
            f"building the 976-problem data set for seed {seed} (~{BUILD_SECONDS} s, once; saved to {target})…"
        )
        step = {"next": 0.1}

        def report(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if total and done / total >= step["next"]:
                step["next"] += 0.1
                notify(f"  {done}/{total} problems")

    problems, stats = generate(seed=seed, progress=report, mix=mix)
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

"""`cli_args.add_engine_flags`: the flags every experiment-running command shares match the engines."""

import argparse

import pytest

from core import cli_args
from core.experiments.engines import ENGINES, MAX_WORKERS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    cli_args.add_engine_flags(parser)
    return parser


def test_defaults_are_a_local_pool_of_two_with_progress() -> None:
    args = _parser().parse_args([])
    assert (args.engine, args.workers, args.quiet) == ("local", 2, False)


def test_engine_choices_are_the_engines() -> None:
    (engine,) = (a for a in _parser()._actions if a.dest == "engine")
    assert tuple(engine.choices) == ENGINES


def test_workers_are_bounded_by_the_engines_limit() -> None:
    assert _parser().parse_args(["--workers", str(MAX_WORKERS)]).workers == MAX_WORKERS
    with pytest.raises(SystemExit):
        _parser().parse_args(["--workers", str(MAX_WORKERS + 1)])

"""The classifier fit cache: a new process loads the fit instead of training, and a damaged, stale or
unwritable cache only costs a fit, never a wrong model or a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.text import intents
from core.text.intents import Bank, IntentClassifier

EXAMPLES = {
    "greet": ("hello", "hi there", "good morning", "hey"),
    "leave": ("they go elsewhere", "customers walk out", "they buy it somewhere else", "the sale is lost"),
}


def _bank(**extra: tuple[str, ...]) -> Bank:
    examples = {k: (*v, *extra.get(k, ())) for k, v in EXAMPLES.items()}
    return Bank(examples, {k: k for k in examples})


def _pickles(folder: Path) -> list[Path]:
    return sorted(folder.glob("intents-*.pkl"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(intents.CACHE_DIR_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _no_fitting(monkeypatch: pytest.MonkeyPatch) -> None:
    from sklearn.pipeline import Pipeline

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("fitted although a cached fit exists")

    monkeypatch.setattr(Pipeline, "fit", refuse)


def test_a_second_classifier_loads_the_fit_and_predicts_the_same(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = IntentClassifier(_bank())
    assert len(_pickles(cache)) == 1
    _no_fitting(monkeypatch)
    second = IntentClassifier(_bank())
    for text in ("hey you", "folks nip over to the corner shop", "they walk out"):
        a, b = first.predict(text), second.predict(text)
        assert a.intent == b.intent and a.confidence == pytest.approx(b.confidence)


def test_a_changed_bank_or_option_is_fitted_afresh(cache: Path) -> None:
    IntentClassifier(_bank())
    IntentClassifier(_bank(leave=("they nip over to the shop on the corner",)))
    IntentClassifier(_bank(), balanced=False)
    assert len(_pickles(cache)) == 3


def test_a_damaged_cache_file_is_fitted_again(cache: Path) -> None:
    IntentClassifier(_bank())
    (path,) = _pickles(cache)
    path.write_bytes(b"not a pickle")
    model = IntentClassifier(_bank())
    assert model.predict("good morning to you").intent == "greet"
    assert path.read_bytes() != b"not a pickle"  # replaced by the new fit


def test_uncached_fits_leave_nothing_on_disk(cache: Path) -> None:
    IntentClassifier(_bank(), cached=False)
    assert not cache.exists() or not _pickles(cache)


def test_an_unwritable_cache_only_costs_a_fit(cache: Path) -> None:
    cache.write_text("a file where the cache folder should be")  # mkdir fails, as on a read-only checkout
    assert IntentClassifier(_bank()).predict("hi there").intent == "greet"
    assert cache.read_text() == "a file where the cache folder should be"


def test_a_fit_runs_under_the_banks_lock(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one process fits a bank, another cannot take the bank's lock: it waits, then loads that fit."""
    import fcntl
    import os

    from sklearn.pipeline import Pipeline

    held: list[bool] = []
    fit = Pipeline.fit

    def probing_fit(self: Pipeline, *args: object, **kwargs: object) -> Pipeline:
        (lock,) = cache.glob("intents-*.lock")
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(fd)
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "fit", probing_fit)
    IntentClassifier(_bank())
    assert held == [True]


def test_a_fit_stored_while_waiting_for_the_lock_is_loaded_not_refitted(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache is read again once the lock is held: the process that held it may have stored the fit."""
    from contextlib import contextmanager

    first = IntentClassifier(_bank())
    (path,) = _pickles(cache)
    stored = path.read_bytes()
    path.unlink()  # as if the other process were still fitting when this one looked
    lock = intents._key_lock

    @contextmanager
    def other_process_finishes(key: str):
        with lock(key):
            path.write_bytes(stored)  # ... and stored its fit while this one waited
            yield

    monkeypatch.setattr(intents, "_key_lock", other_process_finishes)
    _no_fitting(monkeypatch)
    second = IntentClassifier(_bank())
    assert second.predict("hey you").intent == first.predict("hey you").intent == "greet"

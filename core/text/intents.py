"""Intents learned from example banks: a small deterministic classifier (TF-IDF over words and character
n-grams, logistic regression) trained at first use from a TOML bank of labelled utterances, cached in the
process and on disk (`data/cache/`, keyed by a digest of the bank, the options and the feature code), so a
new process loads the fit in milliseconds instead of training again.

A bank is a TOML file with one table per intent::

    [reduce_load]
    description = "fewer students arriving at the same time"
    examples = ["spread the students out more", "too many kids arrive at once"]

Teaching the agent a new phrasing means adding an example to its bank (see docs/offline_language.md).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pickle
import re
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.errors import SpecError
from core.text.negation import negation_scopes, scope_end

_NUMBER_RE = re.compile(r"[$€£]?\d+(?:[.,:]\d+)*")
_CONTRAST_RE = re.compile(r"\b(?:than|over|before|instead of)\b")
_SUFFIX_RE = re.compile(r"(?<=\w{3})(?:ings?|ed|es|s|ly|ers?|ies)\b")


def words_of(text: str) -> str:
    """Lower-case text with every number as one token ('150 tubs' and '40 tubs' read alike)."""
    return _NUMBER_RE.sub(" num ", text.lower().replace("\u2019", "'"))


def stemmed(text: str) -> str:
    """`words_of` with common English endings cut from words of four letters or more ('deliveries',
    'delivered', 'delivering' -> 'deliveri', 'deliver', 'deliver'): a crude stemmer, but the same cut on
    training and test words lets 'orders' count as 'order' without a lemma dictionary."""
    return _SUFFIX_RE.sub("", words_of(text))


def _scoped(text: str, spans: list[tuple[int, int]], mark: str) -> str:
    """The words of each (begin, end) span of `text`, each suffixed with `mark`."""
    return " ".join(f"{w}{mark}" for begin, end in spans for w in re.findall(r"\w+", text[begin:end]))


def negated_words(text: str) -> str:
    """The words inside a negation's scope (`core.text.negation`: after 'not', 'don't', 'never' ... up to the
    clause end), each marked '_neg': 'I don't like taking chances' -> 'like_neg taking_neg chances_neg'."""
    text = words_of(text)
    return _scoped(text, [(s.begin, s.end) for s in negation_scopes(text)], "_neg")


def contrasted_words(text: str) -> str:
    """The words on the losing side of a comparison (after 'than', 'over', 'before', 'instead of' up to the
    clause end), each marked '_than': 'buses matter more than keeping times' -> 'keeping_than times_than', so
    'times over buses' and 'buses over times' read differently."""
    text = words_of(text)
    return _scoped(text, [(m.end(), scope_end(text, m.end())) for m in _CONTRAST_RE.finditer(text)], "_than")


@dataclass(frozen=True)
class Prediction:
    """The most likely intent, its probability, and the full ranking (intent, probability), best first."""

    intent: str
    confidence: float
    ranking: tuple[tuple[str, float], ...]

    def confident(self, threshold: float) -> bool:
        return self.confidence >= threshold

    @property
    def runner_up(self) -> str | None:
        return self.ranking[1][0] if len(self.ranking) > 1 else None


@dataclass(frozen=True)
class Bank:
    """Labelled utterances by intent, with a one-line description of each intent (used in clarifications)."""

    examples: dict[str, tuple[str, ...]]
    descriptions: dict[str, str]

    @classmethod
    def load(cls, path: Path) -> Bank:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise SpecError("intents", f"cannot read the intent bank {path}: {err}") from err
        examples, descriptions = {}, {}
        for name, table in data.items():
            found = table.get("examples") if isinstance(table, dict) else None
            if not isinstance(found, list) or not found or not all(isinstance(e, str) for e in found):
                raise SpecError(
                    "intents", f"{path}: intent '{name}' needs a non-empty list of example strings"
                )
            examples[name] = tuple(found)
            descriptions[name] = str(table.get("description", name.replace("_", " ")))
        if len(examples) < 2:
            raise SpecError("intents", f"{path}: a bank needs at least two intents")
        return cls(examples, descriptions)

    def pairs(self) -> tuple[list[str], list[str]]:
        texts = [t for ts in self.examples.values() for t in ts]
        labels = [name for name, ts in self.examples.items() for _ in ts]
        return texts, labels


class IntentClassifier:
    """TF-IDF over stemmed words (1-2 grams, single letters kept so 'A' and 'B' count, numbers as one token,
    common endings cut: `stemmed`), over negation-marked words ('don't like chances' -> 'like_NEG
    chances_NEG'), over the words a comparison ranks lower ('buses over times' -> 'times_than';
    `contrastive`) and over character 2-4 grams within words, and a logistic regression; deterministic.
    `cached=False` always fits (timing, cross-validation folds) and keeps nothing on disk.
    `balanced` (the default) weighs each intent equally however many examples it has, so a well-stocked
    intent does not swallow a small one's unseen phrasings; `bench/intent_cv.py` measured it better on both
    chats' banks."""

    def __init__(
        self, bank: Bank, *, balanced: bool = True, contrastive: bool = True, cached: bool = True
    ) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline, make_union

        self.bank = bank
        words = r"(?u)\b\w+\b"
        texts, labels = bank.pairs()
        negation = (  # only when some example negates: an empty vocabulary cannot be fitted
            [TfidfVectorizer(sublinear_tf=True, preprocessor=negated_words, token_pattern=r"\S+_neg\b")]
            if any(negated_words(t) for t in texts)
            else []
        )
        contrast = (  # the words a comparison ranks lower, when some example compares
            [TfidfVectorizer(sublinear_tf=True, preprocessor=contrasted_words, token_pattern=r"\S+_than\b")]
            if contrastive and any(contrasted_words(t) for t in texts)
            else []
        )
        features = make_union(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, preprocessor=stemmed, token_pattern=words),
            *negation,
            *contrast,
            TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, lowercase=True),
        )
        self._model = make_pipeline(
            features,
            LogisticRegression(  # newton-cg: the same optimum as lbfgs in a third of the time here
                C=20.0, solver="newton-cg", max_iter=2000, class_weight="balanced" if balanced else None
            ),
        )
        model = self._model

        def fit() -> object:
            from threadpoolctl import threadpool_limits

            with threadpool_limits(1):  # one thread: many BLAS threads on a busy machine fit 20x slower
                return model.fit(texts, labels)

        key = _cache_key(texts, labels, balanced=balanced, contrastive=contrastive) if cached else None
        self._model = _cached_fit(key, fit) if key else fit()
        self.labels: tuple[str, ...] = tuple(self._model.classes_)

    def predict(self, text: str) -> Prediction:
        """The intent of one utterance, with probabilities for every intent."""
        return self.predict_many([text])[0]

    def predict_many(self, texts: list[str]) -> list[Prediction]:
        """The intents of several utterances in one pass (a model call has a fixed cost of a few
        milliseconds, so the clauses of one message are classified together)."""
        if not texts:
            return []
        out = []
        for probs in self._model.predict_proba([t[:2000] for t in texts]):
            ranking = tuple(
                sorted(zip(self.labels, (float(p) for p in probs), strict=False), key=lambda lp: -lp[1])
            )
            out.append(Prediction(ranking[0][0], ranking[0][1], ranking))
        return out


CACHE_DIR_ENV = "ORCA_CACHE_DIR"
"""Where fitted classifiers are kept between processes: `$ORCA_CACHE_DIR`, else `data/cache/` in the repo."""
_SOURCES = (Path(__file__), Path(__file__).with_name("negation.py"))
"""The feature code: a change to it makes every cached model stale."""


def _cache_dir() -> Path:
    env = os.environ.get(CACHE_DIR_ENV)
    return Path(env).expanduser() if env else Path(__file__).resolve().parents[2] / "data" / "cache"


def _cache_key(texts: list[str], labels: list[str], *, balanced: bool, contrastive: bool) -> str:
    """A digest of everything a fit depends on: the examples, the options, the feature code and the
    scikit-learn version."""
    import sklearn

    digest = hashlib.sha256(json.dumps([texts, labels, balanced, contrastive, sklearn.__version__]).encode())
    for source in _SOURCES:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:32]


def _cached_fit(key: str, fit: Callable[[], object]) -> object:
    """The fit cached for `key`, else `fit()` once: processes sharing the cache folder (test workers, the CLI
    processes they start, app sessions) wait on the key's lock for one fit instead of each fitting the bank."""
    fitted = _load_cached(key)
    if fitted is not None:
        return fitted
    with _key_lock(key):
        fitted = _load_cached(key)  # fitted by the process that held the lock
        if fitted is None:
            fitted = fit()
            _store_cached(key, fitted)
    return fitted


@contextmanager
def _key_lock(key: str) -> Iterator[None]:
    """An exclusive `flock` on `intents-<key>.lock` in the cache folder (released when the process ends, however
    it ends); no lock when the folder cannot be written, where each process only fits for itself."""
    folder = _cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / f"intents-{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        fd = None
    if fd is None:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _load_cached(key: str) -> object | None:
    """The model fitted earlier for this key (by this process's own code: the file is ours), or None when
    there is none or it cannot be read (then the caller fits again)."""
    path = _cache_dir() / f"intents-{key}.pkl"
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except Exception:  # noqa: BLE001 - missing, truncated or from another version: fit again
        return None


def _store_cached(key: str, model: object) -> None:
    """Keep a fitted model for the next process (atomically: a reader never sees half a file); a cache that
    cannot be written (read-only checkout) only costs the next process a fit."""
    folder = _cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as handle:
            pickle.dump(model, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, folder / f"intents-{key}.pkl")
    except OSError:
        return


@lru_cache(maxsize=8)
def classifier(path: str) -> IntentClassifier:
    """The classifier for a bank file, trained once per process (or loaded from the fit cache)."""
    return IntentClassifier(Bank.load(Path(path)))

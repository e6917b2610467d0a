"""Cross-validation of the intent classifiers on their own example banks, and the time to train each on the
whole bank. Reads only the banks (never tests/data/heldout/): use it to check that a change to the features
or a bank edit helps the classifier generalise within the bank.

Plain k-fold over a bank overestimates: a bank holds near-paraphrases ("what if demand doubles", "what if
demand doubles one weekend"), and one in the training part gives its twin away. So by default the folds keep
each group of near-duplicates together (StratifiedGroupKFold; a group joins examples whose character-trigram
TF-IDF cosine reaches --similar, transitively), which is closer to phrasings nobody has written yet.

    python bench/intent_cv.py [--folds 5] [--plain] [--misses] [--labels]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.sparse.csgraph import connected_components
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.text.intents import Bank, IntentClassifier  # noqa: E402

BANKS = {
    "inventory": ROOT / "core/inventory/intents.toml",
    "schedule": ROOT / "core/schedule/intents.toml",
    "inventory rows": ROOT / "core/inventory/rows.toml",
}


def paraphrase_groups(texts: list[str], similar: float) -> np.ndarray:
    """A group id per text: texts whose character-trigram TF-IDF cosine reaches `similar` share a group
    (connected components, so chains of near-copies stay together)."""
    grams = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 3)).fit_transform(t.lower() for t in texts)
    return connected_components((grams @ grams.T) >= similar, directed=False)[1]


def cross_validate(
    bank: Bank, folds: int, *, similar: float | None = 0.5
) -> tuple[float, list[tuple[str, str, str]], int]:
    """Accuracy over the folds, the misread examples (text, label, prediction) and the number of groups
    (`similar` None: plain stratified k-fold, every example its own group)."""
    texts, labels = bank.pairs()
    if similar is None:
        groups = np.arange(len(texts))
        splits = StratifiedKFold(folds, shuffle=True, random_state=0).split(texts, labels)
    else:
        groups = paraphrase_groups(texts, similar)
        splits = StratifiedGroupKFold(folds, shuffle=True, random_state=0).split(texts, labels, groups)
    right, misses = 0, []
    for train, test in splits:
        part: dict[str, list[str]] = {}
        for i in train:
            part.setdefault(labels[i], []).append(texts[i])
        model = IntentClassifier(
            Bank({k: tuple(v) for k, v in part.items()}, bank.descriptions), cached=False
        )
        for i, p in zip(test, model.predict_many([texts[i] for i in test]), strict=True):
            if p.intent == labels[i]:
                right += 1
            else:
                misses.append((texts[i], labels[i], p.intent))
    return right / len(texts), misses, len(set(groups.tolist()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--plain", action="store_true", help="plain stratified k-fold (near-copies split up)")
    parser.add_argument("--similar", type=float, default=0.5, help="cosine that puts two examples in a group")
    parser.add_argument("--misses", action="store_true", help="list the misread examples")
    parser.add_argument(
        "--labels", action="store_true", help="the share of each intent's examples read right"
    )
    args = parser.parse_args()
    import sklearn.linear_model  # noqa: F401 - imported before timing, so training time excludes the import

    for name, path in BANKS.items():
        bank = Bank.load(path)
        fits, cpu = [], []
        for _ in range(3):  # wall and CPU time: on a shared machine the wall time mostly measures the load
            start, start_cpu = time.perf_counter(), time.process_time()
            IntentClassifier(bank, cached=False)
            fits.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        acc, misses, groups = cross_validate(bank, args.folds, similar=None if args.plain else args.similar)
        n = len(bank.pairs()[0])
        how = "plain" if args.plain else f"grouped ({groups} paraphrase groups)"
        print(
            f"{name}: {n} examples, {len(bank.examples)} intents, {args.folds}-fold {how} CV {acc:.1%}, "
            f"train {min(fits):.2f}s wall, {min(cpu):.2f}s CPU (best of 3)"
        )
        if args.labels:
            texts, labels = bank.pairs()
            for label in bank.examples:
                total = labels.count(label)
                wrong = sum(1 for _, truth, _ in misses if truth == label)
                print(f"   {label:>20} {1 - wrong / total:6.1%} of {total}")
        if args.misses:
            for text, label, got in misses:
                print(f"   {label:>20} -> {got:<20} {text}")


if __name__ == "__main__":
    main()

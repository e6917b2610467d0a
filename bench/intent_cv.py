"""Stratified k-fold cross-validation of the intent classifiers on their own example banks, and the time to
train each on the whole bank. Reads only the banks (never tests/data/heldout/): use it to check that a
change to the features or a bank edit helps the classifier generalise within the bank.

    python bench/intent_cv.py [--folds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.text.intents import Bank, IntentClassifier  # noqa: E402

BANKS = {
    "inventory": ROOT / "core/inventory/intents.toml",
    "schedule": ROOT / "core/schedule/intents.toml",
}


def cross_validate(bank: Bank, folds: int) -> tuple[float, list[tuple[str, str, str]]]:
    """Accuracy over the folds and the misread examples (text, label, prediction)."""
    texts, labels = bank.pairs()
    right, misses = 0, []
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=0).split(texts, labels):
        part: dict[str, list[str]] = {}
        for i in train:
            part.setdefault(labels[i], []).append(texts[i])
        model = IntentClassifier(Bank({k: tuple(v) for k, v in part.items()}, bank.descriptions))
        for i, p in zip(test, model.predict_many([texts[i] for i in test]), strict=True):
            if p.intent == labels[i]:
                right += 1
            else:
                misses.append((texts[i], labels[i], p.intent))
    return right / len(texts), misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="list the misread examples")
    args = parser.parse_args()
    for name, path in BANKS.items():
        bank = Bank.load(path)
        start = time.perf_counter()
        IntentClassifier(bank)
        fit = time.perf_counter() - start
        acc, misses = cross_validate(bank, args.folds)
        n = len(bank.pairs()[0])
        print(
            f"{name}: {n} examples, {len(bank.examples)} intents, {args.folds}-fold CV {acc:.1%}, "
            f"train {fit:.2f}s"
        )
        if args.misses:
            for text, label, got in misses:
                print(f"   {label:>20} -> {got:<20} {text}")


if __name__ == "__main__":
    main()

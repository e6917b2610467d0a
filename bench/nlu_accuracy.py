"""Offline language understanding, measured on held-out phrasings (issue 13): intent accuracy of both learned
classifiers, slot exact-match of both chats, dialogue success over the scripted dialogue suites, classifier
training time and the per-turn latency of the offline agents (no solver time).

The held-out sets in tests/data/heldout/ are written separately from the training banks
(core/inventory/intents.toml, core/schedule/intents.toml) and never used for training.

Run: .venv/bin/python bench/nlu_accuracy.py [--no-dialogues]   (prints a report, then one JSON line)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sklearn.linear_model  # noqa: E402, F401 - imported before timing, so training time excludes the import

from core.inventory.copilot.extraction import ExtractionAgent  # noqa: E402
from core.inventory.nlu.intents import BANK as INVENTORY_BANK  # noqa: E402
from core.schedule.agent import ScheduleAgent  # noqa: E402
from core.schedule.language import BANK as SCHEDULE_BANK  # noqa: E402
from core.text.intents import Bank, IntentClassifier  # noqa: E402
from tests.support.slots import planned  # noqa: E402

HELDOUT = ROOT / "tests" / "data" / "heldout"
ACTING_CONFIDENCE = 0.5
"""Below this the agents ask rather than act (0.5-0.55 in both chats), so a miss under it costs a question, not a
wrong value; misses at or above it are reported as 'confidently wrong'."""


def intent_accuracy(bank_path: Path, heldout_path: Path) -> dict[str, object]:
    """Train on the bank (timed), predict every held-out phrasing; accuracy and the misses."""
    bank = Bank.load(bank_path)
    start = time.perf_counter()
    model = IntentClassifier(bank, cached=False)
    train_s = time.perf_counter() - start
    held = Bank.load(heldout_path)
    overlap = {t.lower() for ts in bank.examples.values() for t in ts} & {
        t.lower() for ts in held.examples.values() for t in ts
    }
    misses, total = [], 0
    for label, texts in held.examples.items():
        for text in texts:
            total += 1
            got = model.predict(text)
            if got.intent != label:
                misses.append({"text": text, "want": label, "got": got.intent, "p": round(got.confidence, 2)})
    return {
        "examples_train": sum(len(t) for t in bank.examples.values()),
        "intents": len(bank.examples),
        "heldout": total,
        "accuracy": (total - len(misses)) / total,
        "train_seconds": train_s,
        "overlap_with_training": sorted(overlap),
        "misses": misses,
        "confidently_wrong": sum(m["p"] >= ACTING_CONFIDENCE for m in misses),  # type: ignore[operator]
    }


def inventory_slots(name: str = "inventory_slots.toml") -> tuple[dict[str, object], list[float]]:
    cases = tomllib.loads((HELDOUT / name).read_text())["case"]
    misses, latencies = [], []
    for case in cases:
        agent = ExtractionAgent()
        agent.greeting()
        agent.state.asked = case.get("asked")
        start = time.perf_counter()
        turn = agent.respond(case["text"])
        latencies.append(time.perf_counter() - start)  # the turn alone, not the agent's construction
        got = {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}
        if got != case["expect"]:  # a row the message did not set counts against it too
            misses.append({"text": case["text"], "want": case["expect"], "got": got})
    return {"cases": len(cases), "exact_match": 1 - len(misses) / len(cases), "misses": misses}, latencies


def schedule_slots(
    agent: ScheduleAgent, name: str = "schedule_slots.toml"
) -> tuple[dict[str, object], list[float]]:
    cases = tomllib.loads((HELDOUT / name).read_text())["case"]
    misses, latencies = [], []
    for case in cases:
        start = time.perf_counter()
        got, reply = planned(agent, case["text"])
        latencies.append(time.perf_counter() - start)
        want = sorted(tuple(x) for x in case["expect"])
        if got != want:
            misses.append({"text": case["text"], "want": want, "got": got, "reply": reply[:120]})
    return {"cases": len(cases), "exact_match": 1 - len(misses) / len(cases), "misses": misses}, latencies


def dialogue_success() -> dict[str, object]:
    """The scripted dialogue suites replayed outside pytest: a dialogue succeeds when every check holds."""
    from tests.core.inventory.copilot import test_dialogues, test_dialogues_managers, test_dialogues_phrasing
    from tests.core.schedule import test_schedule_offline_dialogues, test_schedule_offline_regressions
    from tests.support.extraction_dialogues import check_dialogue

    results = {}
    inventory = [
        *test_dialogues.DIALOGUES,
        *test_dialogues_managers.DIALOGUES,
        *test_dialogues_phrasing.DIALOGUES,
    ]
    ok = 0
    for _, turns, expected, action in inventory:
        try:
            check_dialogue(turns, expected, action)
            ok += 1
        except AssertionError:
            pass
    results["inventory"] = {"dialogues": len(inventory), "success": ok / len(inventory)}
    ok, scripts = 0, [*test_schedule_offline_dialogues.SCRIPTS, *test_schedule_offline_regressions.SCRIPTS]
    for _, turns in scripts:
        try:
            test_schedule_offline_regressions.play(ScheduleAgent(), turns)
            ok += 1
        except AssertionError:
            pass
    results["schedule"] = {"dialogues": len(scripts), "success": ok / len(scripts)}
    return results


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "p50_ms": 1000 * statistics.median(values),
        "p95_ms": 1000 * values[int(0.95 * (len(values) - 1))],
        "max_ms": 1000 * values[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-dialogues", action="store_true", help="skip replaying the dialogue suites")
    args = parser.parse_args()
    banks = {"inventory": INVENTORY_BANK, "schedule": SCHEDULE_BANK}
    report: dict[str, object] = {
        "intents": {  # every held-out intent batch, e.g. inventory_intents_fresh4.toml -> "inventory_fresh4"
            path.stem.replace("_intents", ""): intent_accuracy(banks[path.stem.split("_")[0]], path)
            for path in sorted(HELDOUT.glob("*_intents*.toml"))
        }
    }
    agent = ScheduleAgent()
    agent.opening()
    latency: dict[str, list[float]] = {"inventory": [], "schedule": []}
    report["slots"] = {}
    for path in sorted(HELDOUT.glob("*_slots*.toml")):  # e.g. schedule_slots_fresh2.toml -> "schedule_fresh2"
        chat = path.stem.split("_")[0]
        result, times = inventory_slots(path.name) if chat == "inventory" else schedule_slots(agent, path.name)
        report["slots"][path.stem.replace("_slots", "")] = result  # type: ignore[index]
        latency[chat] += times
    report["turn_latency"] = {
        "inventory": _ms(latency["inventory"]),
        "schedule_without_solver": _ms(latency["schedule"]),
    }
    if not args.no_dialogues:
        report["dialogues"] = dialogue_success()
    for chat, r in report["intents"].items():  # type: ignore[union-attr]
        print(
            f"intents {chat:15}: {r['accuracy']:.1%} of {r['heldout']} held-out ({r['intents']} intents, "
            f"{r['examples_train']} training examples, trained in {r['train_seconds'] * 1000:.0f} ms; "
            f"{r['confidently_wrong']} confidently wrong)"
        )
        for miss in r["misses"]:
            print(f"    miss: {miss}")
    for chat, r in report["slots"].items():  # type: ignore[union-attr]
        print(f"slots   {chat:15}: {r['exact_match']:.1%} exact match of {r['cases']}")
        for miss in r["misses"]:
            print(f"    miss: {miss}")
    for chat, r in report["turn_latency"].items():  # type: ignore[union-attr]
        print(
            f"turn    {chat:24}: p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms"
        )
    for chat, r in report.get("dialogues", {}).items():  # type: ignore[union-attr]
        print(f"dialogues {chat:9}: {r['success']:.1%} of {r['dialogues']}")
    print(json.dumps(report, default=str))


if __name__ == "__main__":
    main()

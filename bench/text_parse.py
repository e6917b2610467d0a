"""The one parse of a chat message (issue 27 item 1: an 8,000-character line answers in <= 0.5 s): `parse` of
several 8,000-character lines at the chat line cap — everyday shop talk with every kind of mention, a school
request with district names, and adversarial repetitions ('1,1,1,...', '8:4 8:4 ...', corrections, containers)
— each parsed 5 times with the cache cleared, the median wall-clock and CPU time reported (CPU time tells a loaded
machine from a slow parse); exit status 1 when a wall-clock median is over 0.5 s.

Run: .venv/bin/python bench/text_parse.py   (prints a report, then one JSON line)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.cli_args import MAX_LINE_CHARS  # noqa: E402
from core.text.mentions import parse  # noqa: E402

LIMIT_S = 0.5
RUNS = 5
SCHOOLS = {
    "Everett Middle School": ["Everett", "Everett Middle"],
    "Lick-Wilmerding High": ["Lick"],
    "Roosevelt Elementary": ["Roosevelt"],
}
SHOP = (
    "I got six crates of 24 this morning, a dozen and a half went by noon. A tube costs me 4 dollars and I sell "
    "it for 11, so I lose about 7 per missed sale. Rent is 2000 a month, 20, wait no, 25 a day, the catalogue "
    "says 5 days but really 8. My partner thinks 10; if it were 12 I'd be happy. What's a 5 on that scale? "
)
SCHOOL = "Can Everett start at 8:40? Put Lick at half past eight, not Roosevelt High. Good, thanks. "
LINES = {
    "shop talk": SHOP,
    "school requests": SCHOOL,
    "1,1,1,...": "1,",
    "8:4 8:4 ...": "8:4 ",
    "corrections": "20, wait no, 25, sorry, ",
    "containers": "six crates of a dozen and a half ",
    "words": "lorem ipsum dolor ",
}


def line(unit: str) -> str:
    return (unit * (MAX_LINE_CHARS // len(unit) + 1))[:MAX_LINE_CHARS]


def main() -> int:
    parse("warm up: six crates of 24 at 8:40", names=SCHOOLS)
    results = {}
    for name, unit in LINES.items():
        text, times, cpu = line(unit), [], []
        for _ in range(RUNS):
            parse.cache_clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            message = parse(text, names=SCHOOLS)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        results[name] = {
            "median_s": round(statistics.median(times), 4),
            "cpu_median_s": round(statistics.median(cpu), 4),
            "mentions": len(message.mentions),
        }
        print(
            f"{name:18} median {results[name]['median_s']:.3f} s wall, {results[name]['cpu_median_s']:.3f} s CPU"
            f"  ({len(message.mentions)} mentions)"
        )
    worst = max(r["median_s"] for r in results.values())
    worst_cpu = max(r["cpu_median_s"] for r in results.values())
    print(json.dumps({"bench": "text_parse", "chars": MAX_LINE_CHARS, "runs": RUNS, "worst_median_s": worst,
                      "worst_cpu_median_s": worst_cpu, "limit_s": LIMIT_S, "lines": results}))  # fmt: skip
    return 0 if worst <= LIMIT_S else 1


if __name__ == "__main__":
    sys.exit(main())

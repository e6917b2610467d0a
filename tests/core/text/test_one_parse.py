"""The one-parse ratchet (issue 27 items 1 and 5): readers of chat messages in `core/inventory` and
`core/schedule` consume `core.text.mentions.parse` instead of re-scanning the raw text with their own regexes.

Every regex call (`<pattern>.search/.match/.fullmatch/.finditer/.findall/.sub/.subn(...)` and `re.<same>(...)`,
`re.split(...)`; found with `ast`) is counted per file and checked against `one_parse_allowlist.toml`. A count
may only go down, and a file whose count went down must have its allowance lowered in the same commit, so the
list always says where hand-written reading is left. Files that read no user's chat message (the labs' parsers of
model-written policies and schedules, the lab's simulated manager and judge, an LLM reply parser) are outside
the rule (`EXEMPT`, each with its reason)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCOPES = ("core/inventory", "core/schedule")
ALLOWLIST = Path(__file__).with_name("one_parse_allowlist.toml")
EXEMPT = {
    "core/inventory/lab/policy_parser.py": "reads the policies a model writes in the inventory lab",
    "core/inventory/copilot/extraction_llm.py": "reads an LLM's JSON reply (its keys, a code fence), no user text",
    "core/inventory/lab/imitator.py": "the lab's simulated manager reads the agent's questions, not a user's",
    "core/inventory/lab/judge.py": "reads the yes/no an LLM judge answers",
    "core/inventory/lab/report.py": "renders our own report notes' markdown as HTML",
    "core/inventory/nlu/row_units.py": "reads a table cell's unit column ('USD/unit/day'), not a chat message",
    "core/schedule/lab/decision_agents.py": "reads the schedules a model writes in the School Scheduling lab",
}
REGEX_METHODS = frozenset(["search", "match", "fullmatch", "finditer", "findall", "sub", "subn"])
"""No `str` method has these names, so every call of one is a regex call (a compiled pattern or `re`)."""


def regex_calls(source: str) -> int:
    """The regex calls in a module's source: `x.search(...)`, `re.sub(...)`, `re.split(...)` ..."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, owner = node.func.attr, node.func.value
            is_re = isinstance(owner, ast.Name) and owner.id == "re"
            if name in REGEX_METHODS or (is_re and name == "split"):
                count += 1
    return count


def current_counts() -> dict[str, int]:
    """Regex calls per file of the scopes (exempt files left out), files without any left out."""
    counts = {}
    for scope in SCOPES:
        for path in sorted((ROOT / scope).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in EXEMPT:
                continue
            calls = regex_calls(path.read_text(encoding="utf-8"))
            if calls:
                counts[rel] = calls
    return counts


def allowed() -> dict[str, int]:
    return dict(tomllib.loads(ALLOWLIST.read_text(encoding="utf-8"))["regex_calls"])


def test_the_counter_sees_pattern_and_re_calls_but_not_string_methods() -> None:
    source = (
        "import re\n_X_RE = re.compile('a')\n"
        "def f(text):\n"
        "    a = _X_RE.search(text); b = re.findall('b', text); c = re.split(',', text)\n"
        "    d = text.split(','); e = text.replace('a', 'b'); g = _X_RE.sub('', text)\n"
        "    return [m for m in _X_RE.finditer(text)], re.compile('c').fullmatch(text)\n"
    )
    assert regex_calls(source) == 6


def test_no_file_has_more_regex_calls_than_its_allowance() -> None:
    allowance = allowed()
    over = {
        path: f"{calls} regex calls, {allowance.get(path, 0)} allowed"
        for path, calls in current_counts().items()
        if calls > allowance.get(path, 0)
    }
    assert not over, f"read the message through core.text.mentions.parse instead of new regexes: {over}"


def test_the_allowlist_is_lowered_when_a_count_goes_down() -> None:
    counts = current_counts()
    stale = {
        path: f"allowed {allowance}, now {counts.get(path, 0)}: lower it in {ALLOWLIST.name}"
        for path, allowance in allowed().items()
        if counts.get(path, 0) < allowance
    }
    assert not stale, stale


def test_exempt_files_exist_and_are_not_listed() -> None:
    for path in EXEMPT:
        assert (ROOT / path).is_file(), path
        assert path not in allowed(), path

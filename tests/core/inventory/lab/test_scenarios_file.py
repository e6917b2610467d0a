"""`inventory lab run --scenarios FILE`: hostile scenario files are clean errors naming the file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.inventory.lab.generator as generator
from core.cli import main
from core.errors import OrcaError, SpecError
from core.inventory.lab.generator import generate, load_scenarios, to_jsonl

VALID = to_jsonl(generate(3, seed=4, protocol="mixed"))
RECORD = json.loads(VALID.splitlines()[0])


def _file(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "my scenarios.jsonl"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def _line(**changes) -> str:
    return json.dumps({**RECORD, **changes}) + "\n"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (bytes(range(128, 256)), "line 1 is not UTF-8 text"),
        ("[]\n", "line 1: each line must be a JSON object"),
        (VALID + "{oops\n", "line 4: not valid JSON"),
        (_line(item_cost=float("nan")), "NaN is not a number"),
        (_line(item_cost=-3), "item_cost: must be a positive number"),
        (_line(table=[1, 2]), "line 1: table: must be an object"),
        (_line(table={**RECORD["table"], "lead_time": {}}), "line 1: lead_time"),
        (_line(seed=-1), "seed: must be a whole number"),
        (_line(knowledge_base={"lead_time": 3}), "the knowledge base must map names to text"),
        (_line(key="a\u0000b"), "line 1: control character"),
        (VALID + VALID.splitlines()[0] + "\n", "line 4: scenario key"),
        ("\n\n", "holds no scenarios"),
    ],
)
def test_bad_scenario_files_name_the_file_and_line(tmp_path: Path, content, expected: str) -> None:
    path = _file(tmp_path, content)
    with pytest.raises(SpecError) as err:
        load_scenarios(path, "my scenarios.jsonl")
    assert err.value.field == "scenarios" and "my scenarios.jsonl" in str(err.value)
    assert expected in str(err.value)


def test_valid_file_round_trips(tmp_path: Path) -> None:
    loaded = load_scenarios(_file(tmp_path, VALID))
    assert to_jsonl(loaded) == VALID


def test_line_cap_stops_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generator, "MAX_SCENARIOS", 2)
    with pytest.raises(SpecError, match="more than 2 lines"):
        load_scenarios(_file(tmp_path, VALID))


def test_cli_binary_scenarios_is_exit_2(tmp_path: Path, capsys) -> None:
    path = _file(tmp_path, b"\x00\x01\x02\xff" * 100)
    code = main(
        ["inventory", "lab", "run", "--scenarios", str(path), "--no-store", "--out", str(tmp_path / "o")]
    )
    error = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert code == 2 and error["field"] == "scenarios" and "my scenarios.jsonl" in error["error"]


@settings(derandomize=True, deadline=None, max_examples=80, suppress_health_check=list(HealthCheck))
@given(
    noise=st.binary(max_size=200),
    key=st.sampled_from(
        sorted(RECORD) + ["table.time_horizon", "table.demand_distribution", "table.lead_time"]
    ),
    value=st.one_of(
        st.none(),
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
    ),  # fmt: skip
    raw=st.booleans(),
)
def test_fuzz_scenarios_only_project_errors(tmp_path_factory, noise, key, value, raw) -> None:
    if raw:
        content = noise
    else:
        record = json.loads(json.dumps(RECORD))
        if key.startswith("table."):
            record["table"][key.split(".", 1)[1]] = value
        else:
            record[key] = value
        content = (json.dumps(record) + "\n").encode()
    path = tmp_path_factory.mktemp("fuzz") / "s.jsonl"
    path.write_bytes(content)
    try:
        loaded = load_scenarios(path)
    except OrcaError:
        return
    assert [s.key for s in loaded] == [
        json.loads(line)["key"] for line in content.decode().splitlines() if line.strip()
    ]

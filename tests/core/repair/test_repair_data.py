"""Loading the LP repair data set: damaged files are refused naming the file; nothing is built silently."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.repair.data as data
from core.cli import main
from core.errors import OrcaError, SpecError
from solvers.lp.dataset import load, save


@pytest.fixture(scope="module")
def saved(repair_problems, tmp_path_factory) -> Path:
    return save(repair_problems, tmp_path_factory.mktemp("ds") / "small.json")


def _cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not UTF-8 text"),
        (b"[]", 'expected {"problems": [...]}'),
        (b'{"problems": []}', "holds no problems"),
        (b'{"problems": [1]}', "problem 1: a problem must be a JSON object"),
        (b'{"problems": [{"id": NaN}]}', "NaN is not a number"),
        (b'{"problems": [{"id": 1e999}]}', "not a finite number"),
        (b"[" * 100_000 + b"]" * 100_000, "not a data set file"),
    ],
)
def test_damaged_data_set_files_are_refused_naming_the_file(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad set.json"
    path.write_bytes(content)
    with pytest.raises(SpecError) as err:
        load(path)
    assert err.value.field == "dataset" and str(path) in str(err.value) and expected in str(err.value)


def test_nan_inside_a_problem_and_repeated_ids_are_refused(saved: Path, tmp_path: Path) -> None:
    raw = json.loads(saved.read_text())
    raw["problems"][1]["tightening"]["backorder_caps"][0][0] = math.nan
    path = tmp_path / "nan.json"
    path.write_text(json.dumps(raw))  # json.dumps writes NaN, which Python's json.loads would accept
    with pytest.raises(SpecError, match="NaN is not a number"):
        load(path)
    raw = json.loads(saved.read_text())
    raw["problems"][2]["id"] = raw["problems"][0]["id"]
    path.write_text(json.dumps(raw))
    with pytest.raises(SpecError, match="problem 3: problem id .* appears twice"):
        load(path)


def test_cli_binary_dataset_is_a_clean_error(capsys, tmp_path: Path) -> None:
    path = tmp_path / "blob.json"
    path.write_bytes(bytes(range(256)))
    code, out, err = _cli(capsys, ["repair", "bench", "--dataset", str(path)])
    assert (code, out) == (2, "") and json.loads(err)["field"] == "dataset" and "blob.json" in err


def test_explicit_missing_dataset_is_refused_not_built(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(data, "generate", pytest.fail)
    missing = tmp_path / "typo.json"
    code, _out, err = _cli(capsys, ["repair", "run", "--dataset", str(missing), "--problem", "x", "--no-record"])
    assert code == 2 and json.loads(err)["field"] == "dataset" and "no data set at" in err
    assert not missing.exists()


def test_unknown_problem_is_refused_before_any_build(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ORCA_LP_DATA", str(tmp_path / "none"))
    monkeypatch.setattr(data, "generate", pytest.fail)
    for argv in (["run", "--no-record"], ["solve"]):
        code, _out, err = _cli(capsys, ["repair", argv[0], "--problem", "nope", *argv[1:]])
        assert code == 2 and json.loads(err)["field"] == "problem" and "sc-test-me-3-00042" in err
    code, _out, err = _cli(capsys, ["repair", "solve", "--problem", "sc-test-me-3-99999"])
    assert code == 2 and json.loads(err)["field"] == "problem"


def test_a_build_says_so_on_stderr(capsys, tmp_path: Path, monkeypatch, repair_problems) -> None:
    monkeypatch.setenv("ORCA_LP_DATA", str(tmp_path / "sets"))
    calls = []

    def fake_generate(seed, progress=None, mix=None):
        calls.append(seed)
        for k in range(1, len(repair_problems) + 1):
            progress(k, len(repair_problems))
        return list(repair_problems), None

    monkeypatch.setattr(data, "generate", fake_generate)
    wanted = repair_problems[0].id
    code, out, err = _cli(capsys, ["repair", "solve", "--seed", "9", "--problem", wanted])
    assert code == 0 and json.loads(out)["problem"] == wanted and calls == [9]
    lines = err.splitlines()
    assert lines[0].startswith("building the 976-problem data set for seed 9 (~60 s, once; saved to ")
    assert lines[-1] == f"  {len(repair_problems)}/{len(repair_problems)} problems"
    assert (tmp_path / "sets" / "optirepair_sc2_seed9.json").is_file()


def _mutate(raw: dict, path: list, value) -> dict:
    node = raw
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return raw


def _paths(node, prefix=()) -> list[tuple]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _paths(v, (*prefix, k))] + [prefix]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _paths(v, (*prefix, i))] + [prefix]
    return [prefix]


@settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=list(HealthCheck))
@given(
    choice=st.integers(0, 10**9),
    value=st.sampled_from([None, -1, 0, 1e308, "x", "", [], {}, [1, 2], True, 10**20, "ME-99", -0.5]),
    noise=st.binary(max_size=200),
    kind=st.sampled_from(["field", "bytes", "cut"]),
)
def test_fuzz_loader_only_project_errors(saved: Path, tmp_path_factory, choice, value, noise, kind) -> None:
    """Random bytes and mutated valid files: a SpecError or problems that were in the file, never a crash."""
    text = saved.read_text()
    if kind == "field":
        raw = json.loads(text)
        paths = [p for p in _paths(raw) if p]
        content = json.dumps(_mutate(raw, list(paths[choice % len(paths)]), value)).encode()
    elif kind == "cut":
        content = text.encode()[: choice % len(text)]
    else:
        content = noise
    path = tmp_path_factory.mktemp("fuzz") / "set.json"
    path.write_bytes(content)
    try:
        problems = load(path)
        for p in problems[:3]:
            p.build()
    except OrcaError:
        return
    assert {p.id for p in problems} <= {p["id"] for p in json.loads(text)["problems"]} | {
        str(value)
    }

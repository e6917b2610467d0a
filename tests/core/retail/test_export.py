"""Export of stored RetailBench runs to the original run-directory layout, and the round trip export → import."""

from __future__ import annotations

import json

import pytest

from core.errors import SpecError
from core.retail.export import export_original
from core.retail.importer import import_run_dir
from core.retail.run import run_agent
from core.sandbox import run_code
from core.store import Store
from solvers.retail.env import RetailBenchEnv
from tests.core.retail.test_importer import GOOD, write_run


def metrics_of(store: Store, run_id: str) -> dict:
    m = store.get_run(run_id)["metrics"]
    return m if isinstance(m, dict) else json.loads(m)


def lines_of(root) -> list[dict]:
    return [json.loads(x) for x in (root / "tool_calls.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("agent", ["oracle", "hybrid"])
def test_an_orca_run_exports_and_imports_back_with_identical_metrics(tmp_path, agent):
    store = Store(tmp_path / "s.duckdb")
    run = run_agent(agent, days=12, seed=1, store=store)
    out = export_original(store, run["run_id"], tmp_path / "out")
    assert out["days"] == 12 and out["tool_calls"] == run["steps"]
    assert {"tool_calls.jsonl", "config.json", "args.json", f"run_{agent}.json"} <= set(out["files"])
    back = metrics_of(store, import_run_dir(store, tmp_path / "out"))
    assert back["total_sales"] > 0 and back["run_days"] == 12
    assert {k: v for k, v in run["metrics"].items() if k in back} == back  # every metric the import computes
    first = lines_of(tmp_path / "out")[0]
    assert list(first)[:9] == ["ts", "tool", "call_source", "args", "result", "funds", "net_worth",
                               "current_date", "elapsed_time"]  # fmt: skip
    assert set(first["result"]) == {"result", "formatted"}
    config = store.get_run(import_run_dir(store, tmp_path / "out"))["config"]
    config = config if isinstance(config, dict) else json.loads(config)
    assert config["agent"] == agent


def test_an_import_exports_and_imports_back_identically_with_its_token_files(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    first = import_run_dir(store, write_run(tmp_path / "run_reflection_qwen_run1", GOOD))
    out = export_original(store, first, tmp_path / "again")
    assert "run_reflection.json" in out["files"] and "day_2_token_usage.json" in out["files"]
    second = import_run_dir(store, tmp_path / "again")
    assert metrics_of(store, second) == metrics_of(store, first)
    assert metrics_of(store, second)["total_tokens"] == 3300
    original = [json.loads(x) for x in (tmp_path / "run_reflection_qwen_run1" / "tool_calls.jsonl").read_text().splitlines()]
    exported = lines_of(tmp_path / "again")
    assert [(x["tool"], x["call_source"], x["args"]) for x in exported] == [
        (x["tool"], x["call_source"], x["args"]) for x in original
    ]
    assert exported[1]["parent_tool"] == "execute_code" and "parent_tool" not in exported[0]
    ends = [x for x in exported if x["tool"] == "end_today"]
    assert ends[0]["result"]["result"]["insufficient_skus"][0].startswith("SKU Info:\n  SKU ID: A")
    assert ends[0]["current_date"] == "1991-09-08"  # the original's end_today line carries the next date


class CodeActor:
    """Each day: one execute_code with two bridged reads, then end_today (inner calls are in its result)."""

    turn = -1

    def reset(self, *args, **kwargs):
        self.turn = -1

    def act(self, observation):
        self.turn += 1
        if self.turn % 2 == 0:
            code = "a = view_funds_and_date()\nb = view_inventory()\nresult = a"
            return {"name": "execute_code", "arguments": {"code": code}}
        return {"name": "end_today", "arguments": {}}


def test_inner_calls_of_execute_code_come_before_it_as_in_the_original(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    env = RetailBenchEnv("hard_v2", max_days=3, code_runner=run_code)
    run = run_agent("code_actor", days=3, seed=0, store=store, env=env, actor=CodeActor())
    assert run["metrics"]["code_tool_calls"] == 6
    export_original(store, run["run_id"], tmp_path / "out")
    day1 = [(x["tool"], x["call_source"]) for x in lines_of(tmp_path / "out")[:4]]
    assert day1 == [("view_funds_and_date", "execute_code"), ("view_inventory", "execute_code"),
                    ("execute_code", "direct"), ("end_today", "direct")]  # fmt: skip
    back = metrics_of(store, import_run_dir(store, tmp_path / "out"))
    assert {k: v for k, v in run["metrics"].items() if k in back} == back


def test_export_refuses_a_folder_holding_a_run_and_other_workbenches(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    run = run_agent("do_nothing", days=2, seed=0, store=store)
    export_original(store, run["run_id"], tmp_path / "out")
    with pytest.raises(SpecError, match="already holds a run"):
        export_original(store, run["run_id"], tmp_path / "out")


def test_cli_export_then_import(tmp_path, capsys):
    from core.cli import main

    db = str(tmp_path / "c.duckdb")
    store = Store(db)
    run = run_agent("hybrid", days=3, seed=0, store=store)
    del store
    assert main(["--db", db, "retail", "export", run["run_id"], "--format", "original", str(tmp_path / "x")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["days"] == 3 and (tmp_path / "x" / "tool_calls.jsonl").is_file()
    assert main(["--db", db, "retail", "import", str(tmp_path / "x")]) == 0
    imported = json.loads(capsys.readouterr().out)["metrics"]
    assert imported["final_networth"] == run["metrics"]["final_networth"]
    with pytest.raises(SystemExit):
        main(["--db", db, "retail", "export", run["run_id"], "--format", "csv", str(tmp_path / "y")])
    assert main(["--db", db, "retail", "export", "nosuchrun", str(tmp_path / "z")]) == 2
    assert not (tmp_path / "z").exists()


def test_an_agent_name_from_a_user_file_never_becomes_a_path(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    root = write_run(tmp_path / "run1", GOOD, log=False)
    (root / "args.json").write_text(json.dumps({"agent": "../../evil", "model": "m"}))
    run_id = import_run_dir(store, root)
    out = export_original(store, run_id, tmp_path / "out")
    assert "run_unknown.json" in out["files"] and not (tmp_path / "evil.json").exists()
    assert not any("evil" in p.name for p in tmp_path.rglob("*"))

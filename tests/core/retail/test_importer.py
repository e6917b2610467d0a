"""Import of original RetailBench run directories: round trip, and malformed or partial directories."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import OrcaError, SpecError
from core.retail import replay
from core.retail.diagnostics import four_stage, trace_from_transitions
from core.retail.importer import import_run_dir, parse_run_dir
from core.store import Store
from core.store.retail import retail_records


def line(tool, args, result, date="1991-09-07", source="direct", funds=30000.0, net_worth=30000.0):
    return {"ts": "2026-01-01T00:00:00Z", "tool": tool, "call_source": source, "args": args,
            "result": {"result": result, "formatted": f"{tool} done"}, "funds": funds, "net_worth": net_worth,
            "current_date": date, "elapsed_time": 0.01}  # fmt: skip


def end(date, funds, sales, insufficient=(), returns=None):
    reprs = [f"SKU Info:\n  SKU ID: {s}\n  Attributes: {{}}\n" for s in insufficient]
    return line("end_today", {}, {"funds": funds, "net_worth": funds + 100, "current_date": date, "sales_by_sku": sales,
                                   "insufficient_skus": reprs, "returns_by_sku": returns or {},
                                   "expired_discount_by_sku": {}, "money_earned": 50.0}, date=date, funds=funds)  # fmt: skip


def write_run(root, lines, *, tokens=True, log=True):
    root.mkdir(parents=True, exist_ok=True)
    (root / "tool_calls.jsonl").write_text(
        "\n".join(json.dumps(x) if isinstance(x, dict) else x for x in lines) + "\n"
    )
    if tokens:
        for d in (1, 2):
            (root / f"day_{d}_token_usage.json").write_text(json.dumps(
                {"day": d, "prompt_tokens": 1000 * d, "completion_tokens": 100 * d, "total_tokens": 1100 * d}))  # fmt: skip
    if log:
        (root / "run_reflection.json").write_text(json.dumps([{"ts": "x", "role": "system", "day": 1}]))
    (root / "args.json").write_text(json.dumps({"model": "qwen-test", "api_key": "***"}))
    (root / "config.json").write_text(json.dumps({"config_name": "hard_v2", "initial_funds": 30000}))
    return root


GOOD = [
    line("view_inventory", {}, {"inventory": {}}),
    line(
        "view_sales_profit_history",
        {"sku_ids": ["A"], "start_date": "1991-08-01", "end_date": "1991-09-06"},
        {"A": {}},
        source="execute_code",
    ),  # fmt: skip
    line("execute_code", {"code": "result = 1"}, {"result": 1}),
    line(
        "place_order",
        {"items": [{"sku_id": "A", "quantity": 10}], "supplier_id": "supplier_1"},
        {"lines": []},
    ),
    line("modify_sku_price", {"sku_id": "B", "new_price": 1.5}, {"error": "Unknown SKU: B"}),
    end("1991-09-08", 29000.0, {"A": 4, "C": 0}, insufficient=["A"], returns={"A": 1}),
    line("add_note", {"content": "A sells"}, {"id": "n1"}, date="1991-09-08"),
    end("1991-09-09", 28500.0, {"A": 6}),
]


def test_round_trip(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    run_id = import_run_dir(store, write_run(tmp_path / "run_reflection_qwen_run1", GOOD))
    run = store.get_run(run_id)
    assert run["workbench"] == "retailbench"
    cfg = run["config"] if isinstance(run["config"], dict) else json.loads(run["config"])
    assert cfg["agent"] == "reflection" and cfg["model"] == "qwen-test" and "imported" in cfg["agent_kind"]
    m = run["metrics"] if isinstance(run["metrics"], dict) else json.loads(run["metrics"])
    assert m["run_days"] == 2 and m["total_sales"] == 10 and m["final_networth"] == 28600.0
    assert m["stockout_days"] == 1 and m["return_ratio"] == pytest.approx(0.1)
    assert m["direct_tool_calls"] == 7 and m["code_tool_calls"] == 1 and m["memory_tool_calls"] == 1
    assert m["total_tokens"] == 3300 and m["avg_tokens_per_day"] == pytest.approx(1650)
    daily = retail_records(store, run_id, "daily")
    assert list(daily["funds"]) == [29000.0, 28500.0] and list(daily["sales_units"]) == [4, 6]
    rows = store.transitions(run_id)
    assert len(rows) == len(GOOD)
    trace = trace_from_transitions(rows.to_dict("records"))
    assert [r.day for r in trace] == [1, 1, 1, 1, 1, 1, 2, 2]
    diag = four_stage(trace)
    assert diag["action_events"] == 1 and diag["s3_invalid_or_blocked_action_rate"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda ls: ls[:3] + ["{not json"] + ls[3:], "tool_calls.jsonl line 4"),
        (lambda ls: ls[:2] + [{"args": {}, "result": {}}] + ls[2:], "tool_calls.jsonl line 3"),
        (lambda ls: ls[:5], "tool_calls.jsonl"),  # partial: no day was ever closed
        (
            lambda ls: ls[:5] + [{**ls[5], "result": {"result": {"sales_by_sku": {}}}, "funds": None}],
            "tool_calls.jsonl line 6",
        ),
    ],
)
def test_malformed_directories_name_file_and_line_and_import_nothing(tmp_path, mutate, where):
    store = Store(tmp_path / "s.duckdb")
    root = write_run(tmp_path / "bad", mutate(list(GOOD)))
    with pytest.raises(SpecError) as err:
        import_run_dir(store, root)
    assert err.value.field == where
    assert store.list_runs().empty


def test_bad_token_file_and_missing_calls(tmp_path):
    root = write_run(tmp_path / "r", GOOD)
    (root / "day_2_token_usage.json").write_text('{"day": 2,\n "prompt_tokens": }')
    with pytest.raises(SpecError, match="day_2_token_usage.json line 2"):
        parse_run_dir(root)
    (root / "tool_calls.jsonl").unlink()
    with pytest.raises(SpecError, match="tool_calls.jsonl: missing"):
        parse_run_dir(root)


def test_cli_import_and_diagnostics(tmp_path, capsys):
    from core.cli import main

    db = str(tmp_path / "c.duckdb")
    root = write_run(tmp_path / "run_react_m_run1", GOOD)
    assert main(["--db", db, "retail", "import", str(root)]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    assert main(["--db", db, "retail", "diagnostics", run_id]) == 0
    assert json.loads(capsys.readouterr().out)["four_stage"]["action_events"] == 1
    bad = write_run(tmp_path / "bad", GOOD[:2] + ["{oops"])
    assert main(["--db", db, "retail", "import", str(bad)]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == "tool_calls.jsonl line 3"


def test_import_is_one_transaction_nothing_half_way(tmp_path, monkeypatch):
    """A failure while the daily series is written leaves no run, no calls, no artifacts, and needs no cleanup
    (the run, its transitions, artifacts and records are one transaction)."""
    import core.store.rollouts as rollouts

    store = Store(tmp_path / "s.duckdb")

    def broken(con, run_id, tables):
        assert con.execute("SELECT count(*) FROM transitions WHERE run_id = ?", [run_id]).fetchone()[0] > 0
        raise RuntimeError("disk full while writing the daily series")

    def no_cleanup(*args, **kwargs):
        raise AssertionError("an import must not need to delete a half-written run")

    monkeypatch.setattr(rollouts, "insert_record_tables", broken)
    monkeypatch.setattr(Store, "delete_run", no_cleanup)
    with pytest.raises(RuntimeError, match="disk full"):
        import_run_dir(store, write_run(tmp_path / "run_react_m_run1", GOOD))
    assert store.list_runs().empty
    with store.batch():
        counts = [store._tx(lambda con, t=t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
                  for t in ("transitions", "artifacts", "retail_daily")]  # fmt: skip
    assert counts == [0, 0, 0]


@pytest.mark.parametrize(
    ("mutate", "field", "message"),
    [
        (lambda ls: ls[:5] + [{**ls[5], "funds": float("nan")}] + ls[6:], "tool_calls.jsonl line 6", "NaN"),
        (lambda ls: ls[:5] + ["[" * 100_000 + "]" * 100_000] + ls[5:], "tool_calls.jsonl line 6", "nested"),
        (lambda ls: ls[:5] + [end("1991-13-45", 1.0, {"A": 1})] + ls[6:], "tool_calls.jsonl line 6", "YYYY-MM-DD"),
        (lambda ls: ls[:5] + [end("1991-09-08", 1.0, {"A": "four"})] + ls[6:], "tool_calls.jsonl line 6",
         "'sales_by_sku' must be an object of whole numbers"),
        (lambda ls: ls[:5] + [end("1991-09-08", 1.0, {"A": 1}, returns=[1])] + ls[6:], "tool_calls.jsonl line 6",
         "'returns_by_sku'"),
        (lambda ls: ls[:5] + ['{"tool": "x", "result": 1, "n": 1' + "0" * 40 + "}"] + ls[5:],
         "tool_calls.jsonl line 6", "too large a whole number"),
    ],
)  # fmt: skip
def test_hostile_lines_are_clean_errors(tmp_path, mutate, field, message):
    store = Store(tmp_path / "s.duckdb")
    with pytest.raises(SpecError) as err:
        import_run_dir(store, write_run(tmp_path / "bad", mutate(list(GOOD))))
    assert err.value.field == field and message in str(err.value)
    assert store.list_runs().empty


def test_binary_files_are_clean_errors_naming_the_file(tmp_path):
    root = write_run(tmp_path / "r", GOOD)
    (root / "day_1_token_usage.json").write_bytes(b"\x00\xff\xfe binary")
    with pytest.raises(SpecError, match="day_1_token_usage.json is not UTF-8"):
        parse_run_dir(root)
    (root / "day_1_token_usage.json").write_text('{"day": 1, "prompt_tokens": 5, "total_tokens": "many"}')
    with pytest.raises(SpecError, match="'total_tokens' must be a whole number"):
        parse_run_dir(root)
    (root / "tool_calls.jsonl").write_bytes(json.dumps(GOOD[0]).encode() + b"\n" + bytes(range(128, 256)))
    with pytest.raises(SpecError) as err:
        parse_run_dir(root)
    assert err.value.field == "tool_calls.jsonl" and "line 2 is not UTF-8 text" in str(err.value)


def test_cli_binary_tool_calls_is_exit_2(tmp_path, capsys):
    from core.cli import main

    root = write_run(tmp_path / "r", GOOD)
    (root / "tool_calls.jsonl").write_bytes(bytes(range(256)) * 4)
    assert main(["--db", str(tmp_path / "c.duckdb"), "retail", "import", str(root)]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == "tool_calls.jsonl"


def test_line_cap_stops_reading(tmp_path, monkeypatch):
    import core.retail.importer as importer

    monkeypatch.setattr(importer, "MAX_CALLS", 4)
    root = write_run(tmp_path / "r", GOOD)
    with pytest.raises(SpecError, match="more than 4 lines"):
        parse_run_dir(root)


def _fuzz_lines() -> st.SearchStrategy[list]:
    values = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
                       st.text(max_size=5), st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))  # fmt: skip

    def mutate(index: int, key: str, value, raw: bytes, how: str) -> list:
        lines = [dict(x) for x in GOOD]
        target = lines[index % len(lines)]
        if how == "field":
            target[key] = value
        elif how == "payload":  # an end_today, whose payload becomes the day's row
            target = lines[5 + 2 * (index % 2)]
            target["result"] = {**target["result"], "result": {**target["result"]["result"], key: value}}
        else:
            lines[index % len(lines)] = raw.decode("latin-1")
        return lines

    keys = st.sampled_from(["tool", "args", "result", "funds", "net_worth", "current_date", "sales_by_sku",
                            "returns_by_sku", "insufficient_skus", "money_earned", "error", "formatted"])  # fmt: skip
    return st.builds(mutate, st.integers(0, 100), keys, values, st.binary(max_size=40),
                     st.sampled_from(["field", "payload", "raw"]))  # fmt: skip


class _Sink:
    """Stands in for the store: keeps the record an import would write (a DuckDB file per example is slow)."""

    record = None

    def write_record(self, record):
        self.record = record
        return "run"


@settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=list(HealthCheck))
@given(lines=_fuzz_lines())
def test_fuzz_import_only_project_errors(tmp_path_factory, lines):
    """Mutated run directories: a SpecError naming the file, or a run whose calls are the file's lines."""
    root = write_run(tmp_path_factory.mktemp("fuzz") / "run", lines)
    sink = _Sink()
    try:
        import_run_dir(sink, root)
    except OrcaError as err:
        assert sink.record is None and str(err)
        return
    text = (root / "tool_calls.jsonl").read_text(encoding="utf-8")
    assert len(sink.record.transitions) == sum(1 for x in text.splitlines() if x.strip())


def test_imported_days_carry_the_dates_they_played(tmp_path):
    """The original's end_today reports the date it advanced to; day 1 is the run's first date, 1991-09-07."""
    store = Store(tmp_path / "s.duckdb")
    run_id = import_run_dir(store, write_run(tmp_path / "run_react_m_run1", GOOD))
    daily = retail_records(store, run_id, "daily")
    assert [str(d)[:10] for d in daily["date"]] == ["1991-09-07", "1991-09-08"]
    assert [str(d["date"]) for d in parse_run_dir(tmp_path / "run_react_m_run1").daily] == ["1991-09-07", "1991-09-08"]


def test_stage_3_of_an_import_comes_from_the_ordered_lots_quality_score(tmp_path):
    order = line("place_order", {"items": [{"sku_id": "A", "quantity": 10}, {"sku_id": "C", "quantity": 5}],
                                 "supplier_id": "supplier_1"},
                 {"order_id": "o1", "supplier_id": "supplier_1", "total_cost": 20.0,
                  "lines": [{"sku_id": "A", "quantity": 10, "unit_price": 1.5, "quality_score": 4.0},
                            {"sku_id": "C", "quantity": 5, "unit_price": 1.0, "quality_score": 2.0}]})  # fmt: skip
    refused = line("place_order", {"items": [{"sku_id": "A", "quantity": 1}], "supplier_id": "supplier_2"},
                   {"error": "Insufficient funds", "lines": [{"sku_id": "A", "quality_score": 1.0}]})
    lines = [*GOOD[:3], order, refused, *GOOD[4:]]
    store = Store(tmp_path / "s.duckdb")
    run_id = import_run_dir(store, write_run(tmp_path / "run_react_m_run1", lines))
    diag = replay.diagnostics(store, run_id)
    assert diag["s3_ordered_lot_quality_mean"] == pytest.approx(3.0), "the refused order's line is not counted"
    assert diag["s3_ordered_lot_quality_score"] == pytest.approx(0.5)
    assert diag["s3_ordered_lot_quality_eval_count"] == 2
    assert "quality_score of the ordered lots" in diag["stage3_note"]
    plain = import_run_dir(store, write_run(tmp_path / "run_react_m_run2", GOOD))
    diag = replay.diagnostics(store, plain)
    assert diag["s3_ordered_lot_quality_mean"] is None and "not computed" in diag["stage3_note"]

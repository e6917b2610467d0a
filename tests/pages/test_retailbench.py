"""The RetailBench run page and the replay page through AppTest."""

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.retail.run import run_agent
from core.store import Store

ROOT = Path(__file__).resolve().parents[2] / "pages"
RUN_PAGE = str(ROOT / "retailbench.py")
REPLAY_PAGE = str(ROOT / "retailbench_replay.py")


def test_run_page_runs_an_offline_agent_and_hands_it_to_the_replay(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    at = AppTest.from_file(RUN_PAGE, default_timeout=60).run()
    assert not at.exception
    at.selectbox(key="orca_retail_agent").set_value("hybrid")
    at.number_input(key="orca_retail_days").set_value(3)
    at.button(key="orca_retail_start").click().run()
    assert not at.exception
    live = at.session_state["orca_retail_live"]
    end = time.time() + 120
    while not live.done and time.time() < end:
        time.sleep(0.1)
    at.run()
    assert not at.exception
    assert live.state()["status"] == "done"
    assert any("Stored as run" in s.value for s in at.success)
    chart = json.loads(at.get("vega_lite_chart")[0].proto.spec)  # axis titles and dollars
    assert chart["encoding"]["y"]["title"] == "Amount (US dollars)" and chart["encoding"]["y"]["axis"]["format"] == "$,.0f"
    assert at.get("metric")[0].proto.body.startswith("$")
    run_id = at.session_state["orca_retail_replay_run"]
    assert Store(tmp_path / "runs.duckdb").get_run(run_id)["status"] == "done"


def test_llm_framework_without_a_key_is_refused_not_faked(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(RUN_PAGE, default_timeout=60).run()
    at.selectbox(key="orca_retail_agent").set_value("reflection").run()
    assert any("LLM framework" in i.value for i in at.info)
    at.button(key="orca_retail_start").click().run()
    assert not at.exception and "orca_retail_live" not in at.session_state
    assert any("needs an LLM provider" in e.value for e in at.error)


def test_without_a_key_nothing_llm_only_is_preselected(monkeypatch, tmp_path):
    from core.retail.run import OFFLINE_AGENTS

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ORCA_PROVIDER"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(RUN_PAGE, default_timeout=60).run()
    assert at.selectbox(key="orca_retail_agent").value in OFFLINE_AGENTS
    assert not [r for r in at.radio if r.key == "orca_retail_harness"] and not at.info
    labels = at.selectbox(key="orca_retail_agent").options
    assert all(label.endswith("(needs a key)") for label in labels if label.split(" — ")[0] not in OFFLINE_AGENTS)


def test_run_page_runs_a_framework_under_the_paper_harness(monkeypatch, tmp_path, fake_llm):
    """The harness choice appears for LLM frameworks only, reaches the agent and is stored with the run."""
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ORCA_PROVIDER", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": '<tool_call>{"name": "end_today", "arguments": {}}</tool_call>'}])
    at = AppTest.from_file(RUN_PAGE, default_timeout=60).run()
    assert not [r for r in at.radio if r.key == "orca_retail_harness"]  # an offline agent: no harness
    at.selectbox(key="orca_retail_agent").set_value("react").run()
    at.radio(key="orca_retail_harness").set_value("paper")
    at.selectbox(key="orca_retail_preset").set_value("easy")
    at.number_input(key="orca_retail_days").set_value(1)
    at.button(key="orca_retail_start").click().run()
    assert not at.exception
    live = at.session_state["orca_retail_live"]
    end = time.time() + 60
    while not live.done and time.time() < end:
        time.sleep(0.1)
    assert live.state()["status"] == "done", live.state()["error"]
    run = Store(tmp_path / "runs.duckdb").get_run(live.state()["run_id"])
    assert run["config"]["harness"] == "paper" and "(paper harness)" in run["title"]


def test_replay_empty_store(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    at = AppTest.from_file(REPLAY_PAGE, default_timeout=60).run()
    assert not at.exception
    assert "No RetailBench runs yet" in at.info[0].value


def open_tab(at: AppTest, name: str) -> AppTest:
    """Select a replay tab (the tabs are lazy: only the open one runs)."""
    at.session_state["orca_retail_tab"] = name
    return at.run()


def test_replay_shows_days_products_table1_and_diagnostics(monkeypatch, tmp_path):
    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    first = run_agent("hybrid", days=3, seed=0, store=store)["run_id"]
    second = run_agent("oracle", days=3, seed=0, store=store)["run_id"]
    at = AppTest.from_file(REPLAY_PAGE, default_timeout=60)
    at.session_state["orca_retail_replay_run"] = first
    at.run()
    assert not at.exception
    assert at.multiselect(key="orca_retail_runs").value == [first]
    # first paint: the timeline only (the daily series); the day's calls are not read yet
    assert list(at.dataframe[0].value["day"]) == [1, 2, 3]
    axes = json.loads(at.get("vega_lite_chart")[0].proto.spec)["encoding"]  # funds and net worth: dollars
    assert (axes["x"]["title"], axes["y"]["title"], axes["y"]["axis"]["format"]) == ("Day of the run", "Amount (US dollars)", "$,.0f")
    assert not [s for s in at.slider if s.key == "orca_retail_day"]
    open_tab(at, "Day")
    calls = at.dataframe[0].value
    assert calls["tool"].iloc[-1] == "end_today"
    at.slider(key="orca_retail_day").set_value(2).run()
    assert not at.exception
    at.multiselect(key="orca_retail_runs").set_value([first, second]).run()
    open_tab(at, "Compare · Table 1")
    table1 = next(d.value for d in at.dataframe if "measure" in d.value.columns).set_index("measure")
    assert list(table1.columns) == [f"hybrid · {first}", f"oracle · {second}"]  # one column per run
    assert all("offline" in k for k in table1.loc["kind"])
    money = r"^-?\$\d{1,3}(,\d{3})*\.\d{2}$"  # $213,505.97, never 213505.9679
    assert table1.loc["Net worth"].str.match(money).all(), list(table1.loc["Net worth"])
    assert table1.loc["Returns"].str.match(r"^\d+\.\d %$").all() and "Tokens/day" not in table1.index  # no LLM
    open_tab(at, "Diagnostics")
    at.button(key="orca_retail_diag_go").click().run()
    assert not at.exception
    assert set(at.session_state["orca_retail_diag"]) == {first, second}
    diag = next(d.value for d in at.dataframe if "QualityFirst" in d.value.columns)
    assert diag.loc[second, "QualityFirst"] == 1.0 and diag.loc[second, "SupplierQual"] == 1.0  # the oracle
    assert diag["PriceClose"].notna().all()
    open_tab(at, "Downloads")
    assert len(at.get("download_button")) == 2  # the run JSON is prepared on demand
    at.button(key="orca_retail_prepare_json").click().run()
    assert len(at.get("download_button")) == 3
    open_tab(at, "Product")
    sku = at.selectbox(key="orca_retail_sku").options[0]
    at.selectbox(key="orca_retail_sku").set_value(sku).run()
    assert not at.exception
    orders = next((d.value for d in at.dataframe if "cheapest_supplier" in d.value.columns), None)
    if orders is None:  # the first product was never ordered: take one that was
        ordered = [o for o in at.selectbox(key="orca_retail_sku").options
                   if not replay_product_orders(store, first, o).empty]  # fmt: skip
        at.selectbox(key="orca_retail_sku").set_value(ordered[0]).run()
        orders = next(d.value for d in at.dataframe if "cheapest_supplier" in d.value.columns)
    assert {"quality_best_supplier", "quality_score"} <= set(orders.columns)


def replay_product_orders(store, run_id, sku):
    from core.retail import replay

    return replay.product_view(store, run_id, sku)["orders"]


def test_replay_says_the_macro_judge_needs_a_key(monkeypatch, tmp_path):
    import json

    from core.recorder import Recorder

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy", "agent_kind": "LLM"}, seed=0)
    log = [{"day": d, "macro_strategy": [m], "execute_strategy": {"focus_skus": [m]}} for d, m in
           enumerate(["stock", "stock", "price"], start=1)]  # fmt: skip
    rec.artifact("strategy_log.json", json.dumps(log).encode())
    Store(db).write_record(rec.record)
    at = open_tab(AppTest.from_file(REPLAY_PAGE, default_timeout=60), "Diagnostics")
    assert not at.exception
    assert any("needs an LLM key" in i.value for i in at.info)
    assert not [b for b in at.button if b.key and b.key.startswith("orca_retail_judge_")]


def test_replay_strategy_instability_chart_grows_in_presentation_mode(monkeypatch, tmp_path):
    import json

    from core.recorder import Recorder
    from core.ui import PRESENT_FONT_PX

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy", "agent_kind": "LLM"}, seed=0)
    log = [{"day": d, "macro_strategy": [m], "execute_strategy": {"focus_skus": [m]}} for d, m in
           enumerate(["stock", "stock", "price"], start=1)]  # fmt: skip
    rec.artifact("strategy_log.json", json.dumps(log).encode())
    Store(db).write_record(rec.record)
    at = AppTest.from_file(REPLAY_PAGE, default_timeout=60)
    at.query_params["present"] = "1"
    at = open_tab(at, "Diagnostics")
    assert not at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    (spec,) = [s for s in specs if s["encoding"]["y"]["title"] == "Similarity (0 to 1)"]
    assert spec["encoding"]["x"]["title"] == "Pair of adjacent days"
    assert spec["height"] == 250 and spec["config"]["axis"]["titleFontSize"] == PRESENT_FONT_PX


def test_replay_judges_macro_strategies_with_a_key(monkeypatch, tmp_path, fake_llm):
    import json

    from core.recorder import Recorder

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": '{"similarity": 0.3, "reason": "stock versus price"}'}])
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy", "agent_kind": "LLM"}, seed=0)
    log = [{"day": d, "macro_strategy": [m], "execute_strategy": {"focus_skus": [m]}} for d, m in
           enumerate(["stock", "stock", "price"], start=1)]  # fmt: skip
    rec.artifact("strategy_log.json", json.dumps(log).encode())
    run_id = Store(db).write_record(rec.record)
    at = open_tab(AppTest.from_file(REPLAY_PAGE, default_timeout=60), "Diagnostics")
    assert not any("needs an LLM key" in i.value for i in at.info)
    at.button(key=f"orca_retail_judge_{run_id}").click().run()
    assert not at.exception
    judged = at.session_state["orca_retail_judged"][run_id]
    assert judged["macro_similarity"] == [1.0, 0.3] and judged["macro"]["tv"] == pytest.approx(0.7)
    assert len(fake_llm.requests) == 1


def test_replay_imports_an_uploaded_zip_and_names_a_bad_upload(monkeypatch, tmp_path):
    """The upload path: a zipped original run directory is imported and selected; a hostile archive is an
    error naming the user's file, and the page goes on."""
    import io
    import zipfile

    from tests.core.retail.test_importer import GOOD, write_run

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    root = write_run(tmp_path / "run_react_m_run1", GOOD)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for p in root.iterdir():
            archive.write(p, f"{root.name}/{p.name}")
    at = AppTest.from_file(REPLAY_PAGE, default_timeout=60).run()
    at.file_uploader(key="orca_retail_import_zip").upload("my run.zip", buffer.getvalue(), "application/zip").run()
    at.button(key="orca_retail_import_upload").click().run()
    assert not at.exception
    run_id = at.session_state["orca_retail_replay_run"]
    assert any("my run.zip" in s.value and run_id in s.value for s in at.success)
    assert Store(tmp_path / "runs.duckdb").get_run(run_id)["status"] == "done"
    evil = io.BytesIO()
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("../tool_calls.jsonl", "{}")
    at.file_uploader(key="orca_retail_import_zip").upload("evil.zip", evil.getvalue(), "application/zip").run()
    at.button(key="orca_retail_import_upload").click().run()
    assert not at.exception
    assert any("evil.zip" in e.value and "outside the folder" in e.value for e in at.error)
    assert at.multiselect(key="orca_retail_runs").value == [run_id]  # the page went on


def test_replay_downloads_a_run_in_the_original_layout(monkeypatch, tmp_path):
    import io
    import zipfile

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    run_id = run_agent("hybrid", days=2, seed=0, store=Store(tmp_path / "runs.duckdb"))["run_id"]
    at = AppTest.from_file(REPLAY_PAGE, default_timeout=60).run()
    at = open_tab(at, "Downloads")
    at.button(key="orca_retail_prepare_original").click().run()
    assert not at.exception
    data = at.session_state["orca_retail_original"][1]
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert f"orca_{run_id}/tool_calls.jsonl" in names and f"orca_{run_id}/run_hybrid.json" in names


def _play_mode(at: AppTest) -> AppTest:
    return at.radio(key="orca_retail_mode").set_value("Play it yourself").run()


def test_a_student_plays_two_days_through_a_reload_and_the_game_is_a_stored_run(monkeypatch, tmp_path):
    """Order, price, shelf, end day; a reload (a new session, the game id in the URL) picks the game up from the
    store; the second End day ends it; the replay lists it as human (student), replayable like any run."""
    from core.retail.replay import retail_runs
    from core.rollout import replay_run
    from solvers.retail.env import RetailBenchEnv

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = _play_mode(AppTest.from_file(RUN_PAGE, default_timeout=60).run())
    at.number_input(key="orca_retail_h_days").set_value(2)
    at.button(key="orca_retail_h_start").click().run()
    assert not at.exception
    run_id = at.query_params["game"]
    sku = at.selectbox(key="orca_retail_h_order_sku").value
    at.number_input(key="orca_retail_h_order_qty").set_value(40)
    at.button(key="FormSubmitter:orca_retail_h_order_form-Place order").click().run()
    assert any("place_order: Order" in s.value for s in at.success), [e.value for e in at.error]
    at.selectbox(key="orca_retail_h_price_sku").set_value(sku)
    at.number_input(key="orca_retail_h_price").set_value(3.75)
    at.button(key="FormSubmitter:orca_retail_h_price_form-Set price").click().run()
    at.multiselect(key="orca_retail_h_shelf").set_value([sku])
    at.button(key="FormSubmitter:orca_retail_h_shelf_form-Set shelf").click().run()
    at.button(key="orca_retail_h_end").click().run()
    assert not at.exception and any("Day closed" in s.value for s in at.success)
    assert "day 1 of 2" in at.get("progress")[0].proto.text

    again = AppTest.from_file(RUN_PAGE, default_timeout=60)  # a reload: fresh session state, the same URL
    again.query_params["game"] = run_id
    again = again.run()  # the game in the URL opens the play mode
    assert not again.exception and "day 1 of 2" in again.get("progress")[0].proto.text
    game = again.session_state["orca_retail_game"]
    assert game.episode.steps == 4 and float(game.env.sim.price[game.env.sim.index[sku]]) == 3.75
    again.button(key="orca_retail_h_end").click().run()
    assert not again.exception and any("Game over" in s.value for s in again.success)

    store = Store(db)
    row = retail_runs(store).set_index("id").loc[run_id]
    assert (row["agent"], row["kind"], row["status"], row["days"]) == ("human", "human (student)", "done", 2)
    assert replay_run(store, run_id, RetailBenchEnv("hard_v2", max_days=2)).matches


def test_a_bad_order_line_is_refused_before_it_reaches_the_store(monkeypatch, tmp_path):
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    at = _play_mode(AppTest.from_file(RUN_PAGE, default_timeout=60).run())
    at.button(key="orca_retail_h_start").click().run()
    at.text_input(key="orca_retail_h_order_more").set_value("1001 twenty")
    at.button(key="FormSubmitter:orca_retail_h_order_form-Place order").click().run()
    assert not at.exception and any("SKU:QUANTITY" in e.value for e in at.error)
    assert at.session_state["orca_retail_game"].episode.steps == 0


def test_an_llm_provider_without_its_key_preselects_nothing_llm_only(monkeypatch, tmp_path):
    """OpenAI chosen but no key: the frameworks still read "(needs a key)" (an LLM cannot answer yet)."""
    from core.retail.run import OFFLINE_AGENTS

    monkeypatch.setenv("ORCA_DB", str(tmp_path / "runs.duckdb"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    at = AppTest.from_file(RUN_PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.selectbox(key="orca_retail_agent").value in OFFLINE_AGENTS
    labels = at.selectbox(key="orca_retail_agent").options
    assert all(label.endswith("(needs a key)") for label in labels if label.split(" — ")[0] not in OFFLINE_AGENTS)

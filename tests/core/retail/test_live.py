"""The live run's progress text and chart (`core.retail.live`): an ETA, axis titles and dollars."""

import time

from core.retail.live import LiveRun, eta_text, money_chart


def test_a_running_run_reports_time_left_from_its_pace():
    live = LiveRun("do_nothing", days=10)
    live.status, live._started = "running", time.perf_counter() - 10.0
    live.series = [{"funds": 1.0, "net_worth": 1.0}] * 2  # 2 days in 10 s: 8 more take about 40 s
    state = live.state()
    assert 40.0 <= state["eta_s"] < 41.0 and state["elapsed_s"] >= 10.0
    live.series = []
    assert live.state()["eta_s"] is None  # no day closed yet: no estimate


def test_eta_text_reads_in_seconds_minutes_and_hours():
    assert eta_text(None) == ""
    assert eta_text(40.4) == "about 40 s left"
    assert eta_text(185) == "about 3 min left"
    assert eta_text(3900) == "about 1 h 5 min left"


def test_the_live_chart_has_axis_titles_and_dollar_ticks():
    data, spec = money_chart([{"funds": 30000.0, "net_worth": 30000.0}, {"funds": 29400.5, "net_worth": 29800.0}])
    assert list(data["day"]) == [1, 1, 2, 2] and set(data["series"]) == {"Funds", "Net worth"}
    assert spec["encoding"]["x"]["title"] == "Day of the run"
    assert spec["encoding"]["y"]["title"] == "Amount (US dollars)" and spec["encoding"]["y"]["axis"]["format"] == "$,.0f"

"""The opening job: one base solve and one frontier per district and settings for the whole process."""

import pytest

import core.schedule.frontier as frontier_module
import core.schedule.opening as opening
from core.schedule.opening import OpeningKey, Stage, frontier_in_background, opening_for, seed_opening
from core.schedule.session import ScheduleSession
from solvers.schedule.data import sfusd_district


@pytest.fixture(autouse=True)
def fresh_caches(monkeypatch):
    monkeypatch.setattr(opening, "_JOBS", {})
    monkeypatch.setattr(opening, "_FRONTIER_THREADS", {})
    monkeypatch.setattr(frontier_module, "_SHARED", {})
    yield
    for job in list(opening._JOBS.values()):
        job.thread.join(60)
    for thread, _ in list(opening._FRONTIER_THREADS.values()):
        thread.join(60)


def test_two_sessions_share_one_solve_and_one_frontier(monkeypatch):
    solves, frontiers = [], []
    real_solve, real_frontier = opening.solve_schedule, frontier_module.bounded_frontier
    monkeypatch.setattr(opening, "solve_schedule", lambda spec: solves.append(1) or real_solve(spec))
    monkeypatch.setattr(frontier_module, "bounded_frontier", lambda *a: frontiers.append(1) or real_frontier(*a))
    first, second = ScheduleSession(), ScheduleSession()
    job = opening_for(first)
    assert opening_for(second) is job
    seed_opening(first)
    job.thread.join(60)
    assert job.stage is Stage.DONE and job.progress().fraction == 1.0
    seed_opening(second)
    assert first.current.result.load == second.current.result.load == pytest.approx(25.65)
    assert first.current.number == 1 and len(first.history) == 1
    assert first.frontier_ready and second.frontier_ready
    assert first.frontier() == second.frontier()
    assert (len(solves), len(frontiers)) == (1, 1)


def test_the_opening_matches_a_solve_in_the_session(monkeypatch):
    seeded, direct = ScheduleSession(), ScheduleSession()
    seed_opening(seeded)
    direct.call_solver()
    assert seeded.current.result.assignment == direct.current.result.assignment
    assert seeded.summary() == direct.summary()


def test_a_session_with_edits_is_not_seeded():
    session = ScheduleSession()
    session.change_objective_weight("schedule_deviation", 2.0)
    seed_opening(session)
    assert session.current is None


def test_a_frontier_for_new_constraints_runs_in_the_background_once():
    session = ScheduleSession()
    seed_opening(session)
    session.fix_start_time("Everett MS", "9:30 AM")
    assert not session.frontier_ready
    progress = frontier_in_background(session)
    assert progress.stage is Stage.FRONTIER and 0 < progress.fraction < 1
    frontier_in_background(session)
    assert len(opening._FRONTIER_THREADS) == 1
    thread, _ = next(iter(opening._FRONTIER_THREADS.values()))
    thread.join(60)
    assert session.frontier_ready
    assert frontier_in_background(session).stage is Stage.DONE


def test_opening_keys_tell_districts_and_settings_apart():
    district = sfusd_district()
    assert OpeningKey(district, 10.0, 10, 5.0) == OpeningKey.of(ScheduleSession(district, frontier_budget=5.0))
    assert OpeningKey(district, 10.0, 10, 5.0) != OpeningKey(district, 10.0, 8, 5.0)


def test_the_pages_job_prepares_the_agent_and_the_clis_does_not(monkeypatch):
    warmed = []
    monkeypatch.setattr(opening, "warm_agent", lambda: warmed.append(1))
    seed_opening(ScheduleSession())  # the CLI's and tests' way: the solve only
    assert warmed == []
    other = OpeningKey(sfusd_district(), 10.0, 6, 5.0)  # another key: a new job, as the page starts it
    job = opening.opening_job(other)
    job.thread.join(60)
    assert warmed == [1] and job.stage is Stage.DONE

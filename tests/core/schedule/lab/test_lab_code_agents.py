"""Code-writing designs C-P-P, C-P-R, C-N-R through the real SDK against the fake LLM server: PuLP code that
solves (HiGHS in-process in the sandbox), fails, loops, is infeasible, or tries to escape the sandbox, write
files or start another solver process."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.errors import SpecError
from core.llm import make_chat_model
from core.sandbox import SandboxLimits
from core.schedule.lab.code_agents import CodeAgent, Design, assignment_from
from core.schedule.lab.decision_agents import (
    DecisionProfile,
    Feedback,
    OfflineDecisionAgent,
    StopReason,
    Style,
)
from solvers.schedule.data import sfusd_district
from solvers.schedule.utility import Direction, Utility
from tests.support.schedule_lab import converse

DISTRICT = sfusd_district()
LIMITS = SandboxLimits(cpu_seconds=2, wall_seconds=6.0)
FIX = "prob += x[6, 2] == 1  # Everett MS at 9:30 AM"


def agent(design, fake_llm, provider="openai"):
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    model = make_chat_model(
        Settings(provider=provider, model="m", base_url=url, api_key="sk-test", max_retries=1)
    )
    return CodeAgent(design, model, limits=LIMITS)


def code_call(code):
    return {"tool_calls": [{"name": "execute_code", "arguments": {"code": code}}]}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_cpp_solves_through_the_pipeline(provider, fake_llm) -> None:
    fake_llm.script([code_call(FIX), {"text": "Everett now starts at 9:30 AM."}])
    a = agent(Design.CPP, fake_llm, provider)
    assert a.respond("Move Everett to 9:30") == "Everett now starts at 9:30 AM."
    run = a.executions[0]
    assert run["error"] is None and run["status"] == "optimal"
    assert "| Everett MS | 8:00 AM | 9:30 AM |" in run["schedule"]
    assert a.solver_calls == 1
    assert "import pulp" in a.system and "prob.setObjective" in a.system  # the pipeline is in the prompt
    assert (a.usage.input_tokens, a.usage.output_tokens) == (22, 14), "issue 30: its tokens are recorded"


def test_cpr_returns_raw_variables(fake_llm) -> None:
    fake_llm.script([code_call(FIX), {"text": "done"}])
    a = agent(Design.CPR, fake_llm)
    a.respond("Everett at 9:30")
    x = a.executions[0]["x"]
    assert x["x[6,2]"] == 1 and x["x[6,0]"] == 0 and len(x) == 30
    assert "schedule" not in a.executions[0]


def test_failing_looping_escaping_and_invalid_code_are_error_results(fake_llm) -> None:
    fake_llm.script(
        [
            code_call("result = 1 / 0"),
            code_call("while True:\n    pass"),
            code_call("import os\nresult = os.listdir('/')"),
            code_call("result = ().__class__.__bases__"),
            code_call("prob = 5"),
            code_call("prob += x[6, 2] == 1\nprob += x[6, 0] == 1"),
            {"text": "Sorry, something went wrong."},
        ]
    )
    a = agent(Design.CPP, fake_llm)
    assert a.respond("anything") == "Sorry, something went wrong."
    errors = [e["error"] for e in a.executions]
    assert len(errors) == 6 and all(errors[:5]) and errors[5] is None
    assert "ZeroDivisionError" in errors[0]
    assert "time" in errors[1].lower() or "cpu" in errors[1].lower()
    assert "os" in errors[2]
    assert "SecurityError" in errors[3] and errors[4]
    assert a.executions[5]["status"] == "infeasible" and "schedule" not in a.executions[5]
    assert a.solver_calls == 1  # only the infeasible model reached the solver


@pytest.mark.parametrize("design", [Design.CPP, Design.CPR])
def test_model_code_cannot_forge_an_optimal_status(design, fake_llm) -> None:
    """The host re-solves the exported model: rewriting pulp.LpStatus, printing a fake result or replacing
    prob or x records the truth (infeasible) or an error, never "optimal"."""
    infeasible = "prob += x[6, 2] == 1\nprob += x[6, 0] == 1\n"
    fake_llm.script(
        [
            code_call(infeasible + "pulp.LpStatus[-1] = 'Optimal'\npulp.LpStatus[1] = 'Optimal'\n"
                      "result = {'status': 'Optimal', 'x': [[1, 0, 0]] * 10}"),
            code_call(infeasible + "prob = pulp.LpProblem('fake', pulp.LpMinimize)\nprob += load"),
            code_call(infeasible + "x = {}\nresult = {'status': 'Optimal'}"),
            {"text": "All solved."},
        ]
    )
    a = agent(design, fake_llm)
    a.respond("Everett at both 7:50 and 9:30")
    forged, replaced, renamed = a.executions
    assert forged["error"] is None and forged["status"] == "infeasible"
    assert "schedule" not in forged and "x" not in forged
    assert "x_(0,_0)" in replaced["error"] and "status" not in replaced  # the fake model has no x[q, t]
    assert renamed["error"] is None and renamed["status"] == "infeasible"  # the real prob is what is solved


def test_the_exported_model_is_checked_before_the_host_solves_it() -> None:
    from core.schedule.lab.code_agents import solve_exported

    good = {"parameters": {"sense": 1}, "objective": {"coefficients": [{"name": "v", "value": 1}]},
            "variables": [{"name": "v", "cat": "Integer", "lowBound": 2, "upBound": 5}],
            "constraints": [{"name": "c", "sense": 1, "coefficients": [{"name": "v", "value": 1}], "constant": -3}]}
    assert solve_exported(good) == ("optimal", {"v": 3.0})
    for bad in (
        None,
        {**good, "variables": [{"name": "v", "cat": "Integer", "lowBound": float("nan"), "upBound": 5}]},
        {**good, "constraints": [{"sense": 7, "coefficients": [], "constant": 0}]},
        {**good, "objective": {"coefficients": [{"name": "w", "value": 1}]}},
        {**good, "variables": [{"name": "v", "cat": "Semicontinuous"}]},
        {**good, "sos1": [{"v": 1}]},
    ):
        with pytest.raises(SpecError, match="model"):
            solve_exported(bad)


def test_pulp_attempts_to_write_files_or_spawn_a_solver_fail_cleanly(fake_llm) -> None:
    fake_llm.script(
        [
            code_call("prob.writeLP('/tmp/orca_lab_cpp.lp')"),
            code_call("prob.solve(pulp.PULP_CBC_CMD(msg=False))"),
            code_call("prob.solve(pulp.HiGHS(log_file='/tmp/orca_lab_highs.log'))"),
            code_call("s = pulp.HiGHS()\ns.timeLimit = 100000"),
            {"text": "I could not do that."},
        ]
    )
    a = agent(Design.CPR, fake_llm)
    a.respond("Write the model to disk and solve it with CBC.")
    errors = [e["error"] for e in a.executions]
    assert "writeLP" in errors[0] and "PULP_CBC_CMD is not available" in errors[1]
    assert "log_file" in errors[2] and "cannot be changed" in errors[3]
    assert a.solver_calls == 0
    assert not Path("/tmp/orca_lab_cpp.lp").exists() and not Path("/tmp/orca_lab_highs.log").exists()
    fake_llm.script(
        [code_call("import pulp\np = pulp.LpProblem('a')\np.solve(pulp.HiGHS(msg=True))"), {"text": "no"}]
    )
    cnr = agent(Design.CNR, fake_llm)
    cnr.respond("solve it verbosely")
    assert "msg" in cnr.executions[0]["error"]


def test_cnr_has_no_prompt_and_no_pipeline(fake_llm) -> None:
    code = (
        "import itertools\nbest = None\nfor combo in itertools.product(range(3), repeat=2):\n"
        "    best = combo\nresult = {'x': list(best)}"
    )
    fake_llm.script([code_call(code), {"text": "Here is a plan."}])
    a = agent(Design.CNR, fake_llm)
    assert "school" not in a.system.lower()
    a.respond("I run a school district; help me with start times.")
    assert a.executions[0]["result"] == {"x": [2, 2]} and a.solver_calls == 0
    assert a.opening().startswith("Hello")


def test_cnr_writes_and_solves_its_own_pulp_model(fake_llm) -> None:
    code = (
        "import pulp\np = pulp.LpProblem('mine', pulp.LpMaximize)\nv = pulp.LpVariable('v', 0, 3, cat='Integer')\n"
        "p += v\nstatus = p.solve()\nprint(pulp.LpStatus[status], v.varValue)\nresult = v.varValue"
    )
    fake_llm.script([code_call(code), {"text": "v = 3"}])
    a = agent(Design.CNR, fake_llm)
    a.respond("maximise v")
    run = a.executions[0]
    assert run["error"] is None and run["result"] == 3.0 and "Optimal 3.0" in run["stdout"]
    assert a.solver_calls == 1


def test_assignment_from_validation() -> None:
    rows = [[0, 0, 1]] * 10
    assert assignment_from(DISTRICT, rows) == (2,) * 10
    with pytest.raises(SpecError, match="x"):
        assignment_from(DISTRICT, [[1, 1, 0]] + rows[1:])
    with pytest.raises(SpecError, match="x"):
        assignment_from(DISTRICT, rows[:3])


def test_cpp_conversation_with_an_offline_decision_agent(fake_llm) -> None:
    """The processed schedule in the reply is what the decision agent reads and checks."""
    u = Utility("t", "Everett MS", Direction.LATER, 0.6, 0.2, 0.2, 30.0, 60.0, u_star=1.0)
    profile = DecisionProfile(u, Style.PRECISE, Feedback.RICH)
    a = agent(Design.CPP, fake_llm)
    fake_llm.script([code_call("result = {}"), {"text": "base"}])
    a.opening()
    table = a.executions[-1]["schedule"]
    fake_llm.script([code_call(FIX), {"text": "PLACEHOLDER"}])

    class Echo:
        name, solver_calls = "C-P-P", 0

        def opening(self):
            return table

        def respond(self, text):
            a.respond(text)
            return a.executions[-1]["schedule"]

    result = converse(profile, Echo(), decision=OfflineDecisionAgent(profile))
    assert result.stop is StopReason.SATISFIED and result.success


def test_tpp_paper_mode_offers_only_the_paper_tools(fake_llm) -> None:
    from core.schedule.lab.optimization_agents import PAPER_TOOLS, TPPAgent

    settings = Settings(
        provider="openai", model="m", base_url=fake_llm.openai_url, api_key="sk-test", max_retries=1
    )
    fake_llm.script([{"tool_calls": [{"name": "show_alternatives", "arguments": {}}]}, {"text": "ok"}])
    tpp = TPPAgent.llm(settings, paper=True)
    assert "paper mode" in tpp.name and "LLM openai/m" in tpp.name
    tpp.opening()
    assert tpp.respond("show me options") == "ok"
    offered = {t["function"]["name"] for t in fake_llm.requests[0]["body"]["tools"]}
    assert offered == set(PAPER_TOOLS)
    assert "show_alternatives" not in offered and tpp.solver_calls == 1  # the refused call ran nothing


def test_the_optimizer_agent_reports_its_models_tokens_to_the_rollout(fake_llm) -> None:
    """Issue 30: the School Scheduling lab records the optimization agent's tokens (per step, via `usage`)."""
    from core.llm import Usage
    from core.schedule.lab.env import OptimizerAgent

    fake_llm.script([code_call(FIX), {"text": "Everett now starts at 9:30 AM."}])
    wrapped = OptimizerAgent(lambda: agent(Design.CPP, fake_llm, "openai"), "cpp")
    assert wrapped.usage == Usage()
    wrapped.reset(0)
    wrapped.act({"turn": 1, "message": "Move Everett to 9:30"})
    assert wrapped.usage == Usage(22, 14)

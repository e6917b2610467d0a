"""The sandbox's opt-in PuLP extension: a MILP solves in-process with HiGHS; writing model/solution files,
reaching another solver (a subprocess), changing solver options, or reading unlisted attributes all fail as
error results; the default sandbox still refuses `import pulp`; the other layers still hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import SpecError
from core.sandbox import SandboxLimits, run_code

MODEL = """
import pulp
prob = pulp.LpProblem("toy", pulp.LpMinimize)
x = pulp.LpVariable.dicts("x", [(q, t) for q in range(4) for t in range(2)], cat=pulp.LpBinary)
peak = pulp.LpVariable("peak", lowBound=0)
prob += peak
for q in range(4):
    prob += pulp.lpSum(x[q, t] for t in range(2)) == 1
for t in range(2):
    prob += pulp.lpSum(size[q] * x[q, t] for q in range(4)) <= peak
status = prob.solve(pulp.HiGHS(timeLimit=2))
result = {"status": pulp.LpStatus[status], "peak": pulp.value(peak)}
"""


TARGETS = [
    "/tmp/orca_sandbox_model.lp",
    "/tmp/orca_sandbox_model.mps",
    "/tmp/orca_sandbox_model.json",
    "/tmp/orca_sandbox_highs.log",
    "/tmp/x",
    "/Highs.log",
]


def pulp_run(code: str, **kwargs):
    return run_code(code, extensions=("pulp",), **kwargs)


def test_a_milp_solves_in_process_with_highs() -> None:
    out = pulp_run(MODEL, variables={"size": [5, 4, 3, 2]})
    assert out["error"] is None, out["error"]
    assert out["result"] == {"status": "Optimal", "peak": 7.0}
    default = pulp_run(
        "import pulp\np = pulp.LpProblem('a')\nv = pulp.LpVariable('v', 1, 3)\np += v\nresult = p.solve()"
    )
    assert default["error"] is None and default["result"] == 1  # no solver given: still HiGHS in-process


@pytest.mark.parametrize(
    "code, message",
    [
        ("prob.writeLP('/tmp/orca_sandbox_model.lp')", "writeLP"),
        ("prob.writeMPS('/tmp/orca_sandbox_model.mps')", "writeMPS"),
        ("prob.toJson('/tmp/orca_sandbox_model.json')", "toJson"),
        ("result = pulp.LpProblem.fromMPS('/etc/passwd')", "fromMPS"),
        ("prob.solve(pulp.PULP_CBC_CMD(msg=False))", "PULP_CBC_CMD is not available"),
        ("prob.solve(pulp.COIN_CMD(path='/bin/sh'))", "COIN_CMD is not available"),
        ("result = pulp.getSolver('PULP_CBC_CMD')", "getSolver"),
        ("prob.solve('PULP_CBC_CMD')", "only pulp.HiGHS"),
        ("prob.solve(pulp.HiGHS(log_file='/tmp/orca_sandbox_highs.log'))", "log_file"),
        ("s = pulp.HiGHS()\ns.timeLimit = 10000", "cannot be changed"),
        ("s = pulp.HiGHS()\ns.optionsDict = {'log_file': '/tmp/x'}", "optionsDict"),
        ("prob.solve()\nresult = prob.solverModel", "solverModel"),
        ("result = prob.copy", "not available on PuLP objects"),
        ("result = pulp.apis", "not available in the sandbox"),
        ("import os\nresult = os.system('true')", "import of 'os'"),
    ],
)
def test_files_processes_and_solver_options_fail_cleanly(code, message) -> None:
    setup = "import pulp\nprob = pulp.LpProblem('m', pulp.LpMinimize)\nv = pulp.LpVariable('v', 0, 1)\nprob += v\n"
    out = pulp_run(setup + code)
    assert out["error"] and message in out["error"], out
    assert not [p for p in TARGETS if Path(p).exists()]  # nothing was created (not even an empty file)


def test_the_other_layers_still_hold_with_pulp() -> None:
    limits = SandboxLimits(cpu_seconds=1, wall_seconds=6.0)
    looping = pulp_run("import pulp\nwhile True:\n    pass", limits=limits)
    assert looping["error"].startswith("TimeoutError")
    escape = pulp_run("import pulp\nresult = pulp.LpProblem.__init__.__globals__", limits=limits)
    assert "SecurityError" in escape["error"]
    assert Path("/tmp/orca_sandbox_model.lp").exists() is False


def test_default_sandbox_is_unchanged() -> None:
    assert "import of 'pulp' is not allowed" in run_code("import pulp")["error"]
    assert run_code("prob = 1\nresult = prob")["result"] == 1
    with pytest.raises(SpecError, match="extensions"):
        run_code("result = 1", extensions=("numpy",))


def test_export_returns_the_final_problem_as_data_from_the_child() -> None:
    setup = "import pulp\nprob = pulp.LpProblem('m', pulp.LpMaximize)\nv = pulp.LpVariable('v', 0, 4)\nprob += v\n"
    out = pulp_run(setup + "prob += v <= 3, 'cap'\nresult = 'solved'", export="prob")
    assert out["error"] is None and out["result"] == "solved"
    model = out["model"]
    assert model["parameters"]["sense"] == -1 and [v["name"] for v in model["variables"]] == ["v"]
    assert model["constraints"][0]["name"] == "cap" and model["constraints"][0]["constant"] == -3
    assert pulp_run(setup + "prob = 5", export="prob")["model"] is None  # not an LpProblem: nothing exported
    with pytest.raises(SpecError, match="export"):
        run_code("result = 1", export="prob")  # needs the pulp extension

"""Experiment specs: TOML parsing, validation naming the field, stable cells and the spec hash."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.experiments.driver import agent_settings
from core.experiments.engines import Scheduler
from core.experiments.spec import expand, load_adapter, parse_spec
from core.experiments.worker import CellTask
from tests.core.experiments.conftest import TOY, toy_spec

SPEC = f"""
name = "policies"
workbench = "policy_simulator"
adapter = "{TOY}"
seeds = 2
repetitions = 2
max_steps = 5
metric = "total_cost"
goal = "min"
baseline = "b"

[env]
horizons = [5, 7]

[concurrency]
anthropic = 1

[[agents]]
name = "a"
S = 12

[[agents]]
name = "b"
kind = "offline"
params = {{ S = 20 }}
"""


def test_a_toml_spec_becomes_cells_with_stable_keys() -> None:
    spec = parse_spec(SPEC)
    assert spec.seeds == (0, 1) and spec.repetitions == 2 and spec.baseline_agent == "b"
    assert spec.agent("a").as_dict()["S"] == 12 and spec.agent("b").as_dict()["S"] == 20
    assert spec.agent("a").label == "offline (built-in)"
    instances, cells = expand(spec, load_adapter(spec.adapter_module))
    assert list(instances) == ["T5", "T7"]
    assert len(cells) == 2 * 2 * 2 * 2
    assert cells[0].key == "T5|a|s0|r0" and len({c.key for c in cells}) == len(cells)
    again = parse_spec(SPEC)
    assert [c.key for c in expand(again, load_adapter(TOY))[1]] == [c.key for c in cells]
    assert again.spec_hash == spec.spec_hash and spec.experiment_id == spec.spec_hash[:12]


def test_the_hash_ignores_concurrency_but_not_what_changes_results() -> None:
    base = parse_spec(SPEC)
    assert parse_spec(SPEC.replace("anthropic = 1", "anthropic = 3")).spec_hash == base.spec_hash
    assert parse_spec(SPEC.replace("S = 12", "S = 13")).spec_hash != base.spec_hash
    assert parse_spec(SPEC.replace("seeds = 2", "seeds = 3")).spec_hash != base.spec_hash


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (('workbench = "policy_simulator"', 'workbench = "nope"'), "workbench"),
        (("seeds = 2", "seeds = [1, 1]"), "seeds"),
        (("repetitions = 2", "repetitions = 0"), "repetitions"),
        (("max_steps = 5", "max_steps = -1"), "max_steps"),
        (('goal = "min"', 'goal = "least"'), "goal"),
        (('baseline = "b"', 'baseline = "zz"'), "baseline"),
        (("anthropic = 1", "anthropic = 0"), "concurrency.anthropic"),
        (("anthropic = 1", "mistral = 1"), "concurrency.mistral"),
        (('name = "b"\nkind = "offline"', 'name = "b"\nkind = "robot"'), "agents.b.kind"),
        (('name = "b"\nkind = "offline"', 'name = "b"\nkind = "llm"'), "agents.b.provider"),
        (('name = "b"\nkind = "offline"', 'name = "b"\nkind = "llm"\nprovider = "openai"'), "agents.b.model"),
        (('name = "b"', 'name = "a"'), "agents"),
        (("max_steps = 5", "colour = 5"), "colour"),
        (("[env]", "[env"), "spec"),
    ],
)
def test_bad_specs_name_the_field(change: tuple[str, str], field: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_spec(SPEC.replace(*change))
    assert err.value.field == field


def test_an_llm_agent_without_a_key_is_refused_not_replaced() -> None:
    spec = toy_spec(agents=[{"name": "claude", "kind": "llm", "provider": "anthropic", "model": "m"}])
    with pytest.raises(SpecError) as err:
        agent_settings(spec, env={})
    assert err.value.field == "agents.claude.provider" and "ANTHROPIC_API_KEY" in str(err.value)
    settings = agent_settings(spec, env={"ANTHROPIC_API_KEY": "k"})
    assert settings["claude"].provider == "anthropic" and settings["claude"].model == "m"


def _task(key: str, provider: str | None) -> CellTask:
    agent = {"kind": "llm", "provider": provider} if provider else {"kind": "offline"}
    return CellTask("e", key, "w", TOY, "i", {}, agent, 0, 0)


def test_the_scheduler_caps_llm_cells_per_provider() -> None:
    tasks = [_task("a1", "anthropic"), _task("a2", "anthropic"), _task("o1", None), _task("p1", "openai")]
    queue = Scheduler(tasks, {"anthropic": 1})
    taken = [queue.take() for _ in range(4)]
    assert [t.key if t else None for t in taken] == ["a1", "o1", "p1", None]
    queue.release(taken[0])
    assert queue.take().key == "a2" and not queue


def test_the_shipped_inventory_spec_is_valid() -> None:
    from core.experiments.background import shipped_specs
    from core.experiments.spec import load_spec

    spec = load_spec(shipped_specs()["inventory_policies.toml"])
    assert spec.workbench == "policy_simulator" and spec.adapter_module == "core.inventory.simulator.experiment"
    assert len(spec.agents) >= 3 and len(spec.seeds) >= 3 and len(spec.env["instances"]) >= 2
    assert spec.metric == "total_cost" and spec.goal == "min" and spec.paired

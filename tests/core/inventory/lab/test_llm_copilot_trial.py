"""Treatment A with an LLM Copilot (not the offline one), end to end through the real OpenAI and Anthropic SDKs
against the fake LLM server: the Table 8 extraction converses with the offline imitator, the engine computes the
policy, the Policy Interpretation Agent answers Fig. 4's order question through the one tool loop
(`run_tools`: a tool call, the tool's result sent back, the answer), and the policy is assessed on the truth."""

from __future__ import annotations

import csv
import io
import json

import pytest

from core.config import Settings
from core.inventory.lab import protocol
from core.inventory.lab.env import fig4_question
from core.inventory.lab.generator import generate
from core.inventory.lab.lab import LabConfig, run_lab
from core.inventory.lab.report import render_markdown, results_csv, summary
from core.llm import Usage
from core.store import Store


def _settings(fake_llm, provider: str) -> Settings:
    url = fake_llm.openai_url if provider == "openai" else fake_llm.anthropic_url
    return Settings(
        provider=provider,
        model=f"{provider}-test",
        api_key="sk-test",
        base_url=url,
        timeout_s=10,
        max_retries=0,
    )


@pytest.mark.parametrize(("provider", "numbering"), [("openai", "from_one"), ("anthropic", "fig4")])
def test_llm_copilot_trial_runs_end_to_end(fake_llm, tmp_path, provider: str, numbering: str) -> None:
    config = LabConfig(
        protocol="mixed",
        n=1,
        seed=4,
        treatments=("A",),
        noise=0.0,
        copilot_paths=30,
        critic_paths=10,
        assessment_paths=200,
        day_numbering=numbering,
    )
    scenario = generate(1, seed=4, protocol="mixed")[0]
    question, step, on_hand = fig4_question(scenario, numbering)
    ask = {
        "reasoning": "nothing known yet",
        "updated_table": {},
        "action": "ASK NEXT QUESTION",
        "next_question": "What is your storage capacity, in units?",
    }
    table = {k: {"value": v, "unit": "", "status": "defined"} for k, v in scenario.table.items()}
    done = {"reasoning": "all known", "updated_table": table, "action": "TERMINATE", "next_question": ""}
    call = {"current_inventory": on_hand, "current_time_step": step, "pipeline_orders": "0"}
    replies = [
        {"text": json.dumps(ask)},
        {"text": json.dumps(done)},
        {"text": "Here is your policy. Assumptions: as listed. Do you have any other questions?"},
        {"tool_calls": [{"name": "calculate_policy_order", "arguments": call}]},
        {"text": "Place the order the tool computed. Do you have any other questions?"},
        {"text": "You are welcome. Do you have any other questions?"},
    ]
    # every reply reports its own token counts: the extraction's (2) and the interpretation's (4) are the
    # Copilot's, recorded as the role `copilot` (the offline imitator makes no request)
    fake_llm.script([r | {"usage": (1000 + 100 * k, 10 + k)} for k, r in enumerate(replies)])
    store = Store(tmp_path / "lab.duckdb")
    result = run_lab(config, _settings(fake_llm, provider), store=store)
    (record,) = result.records
    out = record.outcomes["A"]
    assert out.status == "policy", out.error
    assert all(out.table_matches(scenario.table).values())
    # the imitator answered the LLM's question (it only reveals what it is asked)
    manager = [t for r, t in out.transcript if r == "manager"]
    assert str(scenario.problem.max_inventory) in manager[1]
    # Fig. 4's question went through the tool loop: the real tool ran and its result went back to the model
    assert question in manager and f"day {step if numbering == 'fig4' else step + 1}," in question
    oq = out.order_query
    assert oq["tool"] == "calculate_policy_order" and oq["step_ok"] and oq["order_ok"], oq
    sent = json.dumps(fake_llm.requests[4]["body"])
    assert f'\\"recommended_order\\": {oq["order"]}' in sent or f'"recommended_order": {oq["order"]}' in sent
    # the policy was assessed on the ground truth with the rest
    a = record.assessment
    assert "A" in a.costs and a.gaps["A"] == pytest.approx(
        (a.costs["A"] - a.costs["reference"]) / a.costs["reference"]
    )
    assert result.settings["provider"] == provider
    md = render_markdown(result)
    assert "Fig. 4 order query" in md and "**1 of 1** trials" in md
    assert summary(result)["order_query"]["order_ok"] == 1
    assert len(fake_llm.requests) == 6 and not fake_llm.queue
    # Treatment A's tokens (issue 30): exactly what the fake server reported, in the outcome, the cell's metrics
    # and run tokens, results.csv and the report
    reported = Usage(sum(1000 + 100 * k for k in range(6)), sum(10 + k for k in range(6)))
    assert out.usage == reported and out.tokens("copilot") == reported and out.tokens("imitator") == Usage()
    (cell,) = store.cells(result.experiment_id).itertuples()
    assert cell.metrics["copilot_input_tokens"] == 7500 and cell.metrics["copilot_output_tokens"] == 75
    assert cell.metrics["judge_input_tokens"] == 0 and cell.metrics["imitator_input_tokens"] == 0
    run = store.run_tokens([cell.run_id]).iloc[0]
    assert (run["input_tokens"], run["output_tokens"]) == (7500, 75)  # the run's tokens: priced in `experiment report`
    (row,) = csv.DictReader(io.StringIO(results_csv(result)))
    assert (row["tokens:A:copilot:in"], row["tokens:A:copilot:out"], row["tokens:A:imitator:in"]) == (
        "7500",
        "75",
        "0",
    )
    assert "| A | copilot | Copilot with LLM" in md and "| 1 | 7,500 | 75 |" in md
    assert {"treatment": "A", "role": "copilot", "trials": 1, "input_tokens": 7500, "output_tokens": 75} in (
        summary(result)["tokens"]
    )
    assert protocol.AGENT_ROLES == ("copilot", "judge")

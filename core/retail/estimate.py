"""RetailBench's dry-run estimate: the requests an LLM framework agent (ReAct, Reflection, Plan-and-Act,
Evolving Strategy; `orca` or `paper` harness) and the macro-strategy judge would send in one cell.

The agent part is built by the real parts: the cell's environment (`RetailBenchEnv`, the real simulator) and the
real framework agent over a `DryRunModel`, stepped by the shared rollout loop. Assumed behaviour: every reply
ends the day at once (`end_today`, as a native tool call and as a `<tool_call>` block in its text: the `orca`
harness reads the one, `paper` the other), so the calls are what each framework's protocol adds around that
(Reflection's reflection and Plan-and-Act's plan each day, Evolving Strategy's strategy phase), exact for that
behaviour. It is a floor, not a forecast: a real agent acts before it ends a day (up to its `day_cap`), and a
store that never restocks may go bankrupt early (hard_v2: day 55 of 180), which ends the cell. The upper bound
(`day_bound` for every day of the horizon) is every loop at its limit: far above any real run.

The judge (the role `judge`, Evolving Strategy only) is asked once per adjacent pair of the run's days whose
macro strategies differ: the estimate assumes they differ every day (the most calls the run's days allow),
each request the real judge prompt over two assumed strategies (`STRATEGIES`) built by the real `MacroJudge`.
"""

from __future__ import annotations

from typing import Any

from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, CallEstimate, DryRunModel
from core.llm.types import ToolCall
from core.retail.paper import harness_of

END_TODAY = ToolCall("dry", "end_today", {})
PAPER_REPLY = '<tool_call>{"name": "end_today", "arguments": {}}</tool_call>'
JUDGE_REPLY = "0.5"
STRATEGIES = (
    [
        "Keep the best-selling products in stock and reorder before they run out.",
        "Price close to the competition and protect the margin on staples.",
        "Drop slow movers and spend the shelf space on what sells.",
    ],
    [
        "Stock up on the products the news says will be in demand.",
        "Match the competitors' prices on the products shoppers compare.",
        "Hold enough cash for rent and the next deliveries.",
    ],
)
"""Two assumed macro strategies of adjacent days (three principles each), for the judge's requests."""
ASSUMPTION = (
    "every reply ends the day at once (end_today), so a day is one request plus what the framework adds; a floor, "
    "not a forecast (a real agent acts first, up to its day_cap; the idle store may go bankrupt early); upper bound: "
    "every day of the horizon with every loop at its limit"
)
JUDGE_ASSUMPTION = "the judge is asked for every adjacent pair of days (a macro strategy that changes daily)"


def judge_request_tokens() -> int:
    """Input tokens of one judge request over `STRATEGIES`, built by the real `MacroJudge`."""
    from core.retail.judge import MacroJudge

    model = DryRunModel(JUDGE_REPLY)
    MacroJudge(model)(*STRATEGIES)
    return model.input_tokens


def day_bound(agent: Any) -> int:
    """The most model calls one day of `agent` can make, by its loops' limits. `orca` harness: at most `day_cap`
    actions that ask the model, each one tool loop of `max_steps_per_act` calls (Evolving Strategy: up to 4 loops
    an action, the strategy phase's refusals and its hand-over to execution included); `paper` harness: at most
    `day_cap` model turns. Plus Reflection's reflection, and Plan-and-Act's plan and re-plans (`orca`: at most
    `max_rounds` a day; `paper`: one a `round_cap` turns)."""
    from core.retail.paper import Harness

    framework = agent.framework
    if agent.harness is Harness.PAPER:
        calls = agent.day_cap
        if framework == "plan_and_act":
            calls += 1 + agent.day_cap // agent.round_cap
    else:
        loops = 4 if framework == "evolving_strategy" else 1
        calls = agent.day_cap * loops * agent.max_steps_per_act
        if framework == "plan_and_act":
            calls += agent.max_rounds
    return calls + (1 if framework == "reflection" else 0)


def agent_requests(
    agent_spec: dict[str, Any], config: dict[str, Any], max_steps: int | None
) -> tuple[int, int, int, int]:
    """(calls, input tokens, days run, upper bound on calls) of the cell's framework agent (`framework`) under
    the assumed behaviour; the bound is `day_bound` for each day of the horizon (or of `max_steps` actions)."""
    from core.retail.run import make_retail_agent
    from core.rollout import rollout
    from core.sandbox import run_code
    from solvers.retail.env import RetailBenchEnv

    harness = harness_of(agent_spec.get("harness"))
    model = DryRunModel(PAPER_REPLY, tool_calls=(END_TODAY,))  # read as text (paper) or as a native call (orca)
    env = RetailBenchEnv(config["preset"], max_days=int(config["days"]), code_runner=run_code,
                         catalog=config.get("catalog"))  # fmt: skip  (as make_env, without its worker state)
    options: dict[str, Any] = {
        k: int(agent_spec[k])
        for k in ("round_cap", "fail_limit", "max_rounds")
        if agent_spec["framework"] == "plan_and_act" and k in agent_spec
    }
    agent = make_retail_agent(
        str(agent_spec["framework"]), env, model=model, day_cap=int(agent_spec.get("day_cap", 50)), harness=harness,
        **options,
    )  # fmt: skip
    result = rollout(env, agent, seed=0, max_steps=max_steps)
    days = int((result.metrics or {}).get("run_days", 0) or 0)
    horizon = int(config["days"]) if max_steps is None else min(int(config["days"]), max_steps)
    return model.calls, model.input_tokens, days, horizon * day_bound(agent)


def estimate_cell(
    agent_spec: dict[str, Any], config: dict[str, Any], max_steps: int | None, judge_llm: bool
) -> CallEstimate:
    """The estimate of one cell of an LLM framework agent (`agent_spec["framework"]`: the adapter resolves it;
    see the module docstring). Each role's part is its own (`CallEstimate.roles`, priced at that role's model):
    the framework agent's requests the role `agent`, the judge's the role `judge` (environment-side)."""
    calls, sent, days, bound = agent_requests(agent_spec, config, max_steps)
    roles: dict[str, tuple[int, int]] = {"agent": (calls, sent)}
    assumption = ASSUMPTION
    if judge_llm and agent_spec["framework"] == "evolving_strategy":
        bound += max(0, int(config["days"]) - 1)  # a pair of adjacent days of the horizon each
        if days > 1:
            pairs = days - 1
            judged = pairs * judge_request_tokens()
            roles["judge"] = (pairs, judged)
            calls, sent = calls + pairs, sent + judged
            assumption = f"{ASSUMPTION}; {JUDGE_ASSUMPTION}"
    return CallEstimate(calls, sent, DEFAULT_OUTPUT_TOKENS, roles, max(bound, calls), assumption)

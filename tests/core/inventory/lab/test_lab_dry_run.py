"""`experiment run --dry-run` of an inventory lab spec: the protocol adapter's `llm_calls` gives the exact number
of model calls a scripted fake-server run makes (B to its turn limit with an LLM imitator, C) and their input
tokens within 10 %, per role (`copilot`, `judge`, `imitator`: the metrics' names), each role's calls priced at its
own model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core.config import Settings
from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, CallEstimate, estimate_tokens, role_models
from core.experiments.driver import estimate
from core.experiments.spec import ExperimentSpec
from core.inventory.lab import protocol
from core.inventory.lab.lab import LabConfig, lab_spec, run_lab
from core.llm.prices import parse_prices
from core.llm.roles import RoleModel
from core.store import Store
from tests.support.fake_llm import FakeLLMServer

PRICES = parse_prices('[openai]\n"lab-m" = { input = 1, output = 2 }\n"imit-m" = { input = 10, output = 20 }\n')


def _text(content: Any) -> str:
    """The text of one message's content: a string (OpenAI) or a list of blocks (Anthropic)."""
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return str(content or "")


def _sent(requests: list[dict]) -> int:
    """Input tokens of what was sent (system prompt included), by the estimate's characters-per-token rule."""
    return sum(
        estimate_tokens(_text(r["body"].get("system"))) + sum(estimate_tokens(_text(m["content"])) for m in r["body"]["messages"])
        for r in requests
    )


def _cells(spec: ExperimentSpec) -> dict[str, CallEstimate]:
    """Each agent's `llm_calls` estimate of the spec's one scenario, with the roles it plays."""
    models = role_models(spec, protocol)
    (_, config), *_ = protocol.instances(dict(spec.env))
    out = {}
    for agent in spec.agents:
        played = {**agent.as_dict(), "roles": {r: m.as_dict() for r, m in models[agent.name].items()}}
        guess = protocol.llm_calls(played, config, spec.max_steps)
        assert guess is not None
        out[agent.name] = guess
    return out


@pytest.fixture
def second_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


def test_the_lab_dry_run_counts_the_calls_exactly_and_the_input_tokens_within_10_percent(
    fake_llm, monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    settings = Settings(provider="openai", model="lab-m", api_key="k", base_url=fake_llm.openai_url)
    config = LabConfig(
        protocol="mixed", n=1, seed=4, treatments=("B", "C"), noise=0.0, copilot_paths=30, critic_paths=10,
        assessment_paths=200, max_turns=3,
    )  # fmt: skip
    roles = {"imitator": RoleModel("openai", "imit-m")}
    spec = lab_spec(config, settings, roles=roles)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    assert guess["calls"] == 3 * 3 - 1 + 2 and guess["cost"].startswith("$")
    by_agent = {a["agent"]: a for a in guess["agents"]}
    assert by_agent["B"]["calls"] == 8 and by_agent["C"]["calls"] == 2
    # every reply as long as the estimate assumes; the judge never says Yes, so B runs to its turn limit
    reply = "No, " + "x" * (4 * DEFAULT_OUTPUT_TOKENS - 4)
    fake_llm.script([{"text": reply} for _ in range(10)])
    result = run_lab(config, settings, store=store, roles=roles)
    assert [o.status for r in result.records for o in r.outcomes.values()] == ["turn_limit", "no_policy"]
    assert len(fake_llm.requests) == guess["calls"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    imitated = [r for r in fake_llm.requests if r["body"]["model"] == "imit-m"]
    assert len(imitated) == 2  # not asked again after the last turn
    # the imitator's share is priced at imit-m (10/20 per million), the rest at lab-m (1/2)
    role_in = _sent(imitated)
    rest_in = sent - role_in
    expected = (rest_in * 1 + 8 * DEFAULT_OUTPUT_TOKENS * 2 + role_in * 10 + 2 * DEFAULT_OUTPUT_TOKENS * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, rel=0.1)


@pytest.mark.parametrize("manager", ["llm", "offline"])
def test_treatment_a_dry_run_counts_the_copilots_calls_exactly(fake_llm, monkeypatch, tmp_path, manager) -> None:
    """Issue 30: Treatment A (the Copilot as an LLM) — the estimate builds the Copilot's real Table 8 extraction
    requests (and an LLM manager's) and gives the exact calls of a scripted run in which every reply is the
    assumed one (a valid reply asking the next question: the trial runs to its turn limit), input tokens within
    10 %, and an upper bound the run stays under."""
    from core.inventory.lab.estimate import EXTRACTION_REPLY

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    settings = Settings(provider="openai", model="lab-m", api_key="k", base_url=fake_llm.openai_url)
    config = LabConfig(
        protocol="mixed", n=1, seed=4, treatments=("A",), noise=0.0, copilot_paths=30, critic_paths=10,
        assessment_paths=200, max_turns=4,
    )  # fmt: skip
    roles = {"imitator": RoleModel("openai", "imit-m") if manager == "llm" else RoleModel("offline", "rules")}
    spec = lab_spec(config, settings, roles=roles)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    llm_manager = manager == "llm"
    assert guess["calls"] == 4 + (3 if llm_manager else 0) and guess["cost"].startswith("$")
    assert guess["calls_upper_bound"] >= guess["calls"] and "calls assumed" in guess["agents"][0]["note"]
    fake_llm.script([{"text": EXTRACTION_REPLY} for _ in range(guess["calls"] + 3)])
    result = run_lab(config, settings, store=store, roles=roles)
    assert [o.status for r in result.records for o in r.outcomes.values()] == ["turn_limit"]
    assert len(fake_llm.requests) == guess["calls"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    imitated = [r for r in fake_llm.requests if r["body"]["model"] == "imit-m"]
    assert len(imitated) == (3 if llm_manager else 0)
    # per role: the Copilot's calls (`copilot`) and the manager's (`imitator`), exactly, tokens within 10 %
    copilot = [r for r in fake_llm.requests if r["body"]["model"] == "lab-m"]
    cell = _cells(spec)["A"]
    assert set(cell.roles) == ({"copilot", "imitator"} if llm_manager else {"copilot"})
    for role, requests in (("copilot", copilot), ("imitator", imitated)):
        calls, tokens = cell.roles.get(role, (0, 0))
        assert calls == len(requests) and abs(tokens - _sent(requests)) <= 0.1 * _sent(requests), role
    role_in = _sent(imitated)
    rest_in = sent - role_in
    out = DEFAULT_OUTPUT_TOKENS
    expected = (rest_in * 1 + 4 * out * 2 + role_in * 10 + len(imitated) * out * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, rel=0.1)


def test_the_dry_run_lists_the_consultants_and_the_judges_calls_apart_each_at_its_model(
    fake_llm, second_server: FakeLLMServer, monkeypatch, tmp_path
) -> None:
    """Issue 30: B and C's agent-side roles, the consultant (`copilot`) on one fake server and the judge on the
    other (an LLM manager, `imitator`, on the first under its own model, so every reply is as long as assumed):
    the estimate's calls per role are exactly those each role's model receives, its input tokens per role within
    10 %, and each role's calls are priced at its own model (not all at the dearest)."""
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    settings = Settings(provider="openai", model="lab-m", api_key="k", base_url=fake_llm.openai_url)
    config = LabConfig(
        protocol="mixed", n=1, seed=4, treatments=("B", "C"), noise=0.0, copilot_paths=30, critic_paths=10,
        assessment_paths=200, max_turns=3,
    )  # fmt: skip
    roles = {
        "copilot": RoleModel("openai", "lab-m"),
        "judge": RoleModel("anthropic", "judge-m"),
        "imitator": RoleModel("openai", "imit-m"),
    }
    spec = lab_spec(config, settings, roles=roles)
    prices = parse_prices(
        '[openai]\n"lab-m" = { input = 1, output = 2 }\n"imit-m" = { input = 3, output = 5 }\n'
        '[anthropic]\n"judge-m" = { input = 10, output = 20 }\n'
    )
    guess = estimate(spec, Store(tmp_path / "lab.duckdb"), prices)
    cells = _cells(spec)
    assert set(cells) == {"B", "C"} and set(cells["C"].roles) == {"copilot", "judge"}
    assert set(cells["B"].roles) == {"copilot", "judge", "imitator"}
    for cell in cells.values():
        assert sum(c for c, _ in cell.roles.values()) == cell.calls
        assert sum(i for _, i in cell.roles.values()) == cell.input_tokens
    names = ("copilot", "judge", "imitator")
    calls = {r: sum(c.roles.get(r, (0, 0))[0] for c in cells.values()) for r in names}
    tokens = {r: sum(c.roles.get(r, (0, 0))[1] for c in cells.values()) for r in names}
    assert calls == {"copilot": 3 + 1, "judge": 3 + 1, "imitator": 2} and guess["calls"] == 10
    reply = "No, " + "x" * (4 * DEFAULT_OUTPUT_TOKENS - 4)  # as long as assumed; the judge never says Yes
    fake_llm.script([{"text": reply} for _ in range(8)])
    second_server.script([{"text": reply} for _ in range(6)])
    result = run_lab(config, settings, store=Store(tmp_path / "lab.duckdb"), roles=roles)
    assert [o.status for r in result.records for o in r.outcomes.values()] == ["turn_limit", "no_policy"]
    consultant = [r for r in fake_llm.requests if r["body"]["model"] == "lab-m"]
    imitator = [r for r in fake_llm.requests if r["body"]["model"] == "imit-m"]
    judge = second_server.requests
    assert len(consultant) + len(imitator) == len(fake_llm.requests)
    assert {r["body"]["model"] for r in judge} == {"judge-m"}
    assert (len(consultant), len(judge), len(imitator)) == (calls["copilot"], calls["judge"], calls["imitator"])
    for role, requests in (("copilot", consultant), ("judge", judge), ("imitator", imitator)):
        sent = _sent(requests)
        assert abs(tokens[role] - sent) <= 0.1 * sent, (role, tokens[role], sent)
    out = DEFAULT_OUTPUT_TOKENS
    price = {"copilot": (1, 2), "judge": (10, 20), "imitator": (3, 5)}
    expected = sum(tokens[r] * price[r][0] + calls[r] * out * price[r][1] for r in names) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, abs=1e-6)

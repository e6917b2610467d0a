"""The price table: the shipped file loads, costs are USD per million tokens, a missing model is "price
unknown" (never 0), and every malformed entry is refused with the file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import SpecError
from core.llm.prices import (
    DEFAULT_PRICES_PATH,
    PRICES_ENV,
    format_cost,
    load_prices,
    parse_prices,
    prices_path,
)
from core.llm.registry import PROVIDER_REGISTRY
from core.llm.types import Usage


def test_the_shipped_table_loads_and_prices_every_default_model() -> None:
    table = load_prices(DEFAULT_PRICES_PATH)
    for name, entry in PROVIDER_REGISTRY.items():
        if entry.adapter is not None:
            assert table.price(name, entry.default_model) is not None, name


def test_cost_is_per_million_tokens_and_unknown_is_not_zero() -> None:
    table = parse_prices('[openai]\n"m" = { input = 2.5, output = 10 }\n"local" = { input = 0, output = 0 }\n')
    assert table.cost("openai", "m", Usage(2_000_000, 500_000)) == pytest.approx(10.0)
    assert table.cost("openai", "local", Usage(10**6, 10**6)) == 0.0
    assert table.cost("openai", "other", Usage(1, 1)) is None
    assert table.cost("anthropic", "m", Usage(1, 1)) is None
    assert table.cost("offline", "rules", Usage(0, 0)) == 0.0
    assert format_cost(None) == "price unknown" and format_cost(0.0) == "$0.0000"
    assert format_cost(table.cost("openai", "m", Usage(1000, 0))) == "$0.0025"


@pytest.mark.parametrize(
    ("text", "where", "fragment"),
    [
        ('[openai]\n"m" = { input = -1, output = 2 }', "line 2: openai.m.input", "not negative"),
        ('[openai]\n"m" = { input = nan, output = 2 }', "line 2: openai.m.input", "finite"),
        ('[openai]\n"m" = { input = inf, output = 2 }', "line 2: openai.m.input", "finite"),
        ('[openai]\n"m" = { input = 1, output = "2" }', "line 2: openai.m.output", "a number"),
        ('[openai]\n"m" = { input = 1, output = true }', "line 2: openai.m.output", "a number"),
        ('[openai]\n"a" = { input = 1, output = 1 }\n"m" = { input = 1 }', "line 3: openai.m.output", "required"),
        ('[openai]\n"m" = { input = 1, output = 1, cached = 0.1 }', "line 2: openai.m.cached", "unknown field"),
        ('[openai]\n"m" = 3', "line 2: openai.m", "must be a table"),
        ('[offline]\n"m" = { input = 1, output = 1 }', "line 1: offline", "unknown provider"),
        ('[gemini]\n"m" = { input = 1, output = 1 }', "line 1: gemini", "unknown provider"),
        ("openai = 3", "line 1: openai", "table of models"),
        ('[openai]\n"" = { input = 1, output = 1 }', "openai.", "printable"),
        ('[openai]\n"a\\u0007b" = { input = 1, output = 1 }', "openai.a", "printable"),
        ('[openai]\n"m" = { input = 1 output = 1 }\n', "line 2", "not valid TOML"),
        ('[openai]\n"m" = { input = 1, output = 1 ', "prices.toml: ", "not valid TOML"),
    ],
)
def test_a_bad_entry_is_refused_naming_line_and_field(text: str, where: str, fragment: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_prices(text, "prices.toml")
    assert str(err.value).startswith("prices.toml"), str(err.value)
    assert where in str(err.value) and fragment in str(err.value), str(err.value)


def test_the_file_comes_from_the_environment_and_a_missing_file_is_an_error(tmp_path: Path) -> None:
    assert prices_path({}) == DEFAULT_PRICES_PATH
    mine = tmp_path / "p.toml"
    assert prices_path({PRICES_ENV: str(mine)}) == mine
    with pytest.raises(SpecError, match="cannot read the price table"):
        load_prices(mine)
    mine.write_text('[anthropic]\n"x" = { input = 1, output = 2 }\n')
    assert load_prices(mine).price("anthropic", "x") is not None


def test_the_shipped_table_prices_every_model_the_shipped_specs_name() -> None:
    """Issue 30: a `--budget` on a shipped paper spec is not refused for a missing price (gpt-5-mini for seed
    000's Treatment A, gpt-3.5-turbo and gpt-5 for seed 003's Table 5), and every model added for the papers
    names its source and date."""
    from core.experiments.costs import check_prices, role_models
    from core.experiments.spec import load_adapter, load_spec

    table = load_prices(DEFAULT_PRICES_PATH)
    specs = sorted((DEFAULT_PRICES_PATH.parent / "experiments").glob("*.toml"))
    assert len(specs) >= 10
    for path in specs:
        spec = load_spec(path)
        check_prices(spec, table, path.name, role_models(spec, load_adapter(spec.adapter_module)))
    for model in ("gpt-3.5-turbo", "gpt-5", "gpt-5-mini"):
        assert table.price("openai", model) is not None, model
    lines = DEFAULT_PRICES_PATH.read_text(encoding="utf-8").splitlines()
    for model in ("gpt-3.5-turbo", "gpt-5", "gpt-5-mini", "o4-mini", "claude-opus-4-5"):
        line = next(x for x in lines if x.startswith(f'"{model}"'))
        assert "#" in line and "pricing" in line and "20" in line.split("#")[1], line

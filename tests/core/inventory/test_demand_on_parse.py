"""The demand reader reads the one parse's tokens (issue 27 item 5): shape words, mean and spread words with
their number, written distributions, the period and the days a shop is open."""

from __future__ import annotations

import pytest

from core.inventory.nlu.demand import read_demand


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("mean of about 20, std. dev. 3", "normal(20,3)"),
        ("λ = 4, poisson", "poisson(4)"),
        ("sd=1,200 mean 3,000", "normal(3000,1200)"),  # separators are read (the old pattern raised)
        ("avg 10 a day, s.d. 2", "normal(10,2)"),
    ],
)
def test_demand_mean_and_spread_words(text: str, value: str) -> None:
    assert read_demand(text).value == value


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("about 20 a day, like clockwork", "deterministic"),
        ("about 20 a day, all over the place", "random"),
        ("it doesn't really vary, 20 a day", "deterministic"),
        ("20 a day but it's not constant", "random"),
        ("20 a day, same everyday", None),  # 'same every' is a whole-word run
    ],
)
def test_demand_shape_words(text: str, kind: str | None) -> None:
    assert read_demand(text).demand_type == kind


def test_open_days_are_no_demand_figure_and_weeks_set_the_period() -> None:
    reading = read_demand("we're open 6 days a week and sell 42 a week, random")
    assert reading.value == "poisson(6)"
    assert read_demand("30 a day, 6 days each week").value is None
    assert read_demand("30 a day, 6 days each week").mean_only == 30


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("N(12, 3)", "normal(12,3)"),
        ("poisson(λ=4)", "poisson(4)"),
        ("uniform(130,170)", "uniform(130,170)"),  # one number with a separator is two parameters in a call
        ("20 ± 5", "normal(20,5)"),
        ("20+/-5 a day", "normal(20,5)"),
        ("plus or minus 4 units about 30", "normal(30,4)"),
        ("about 20 a day, could be more, give or take 5", "normal(20,5)"),
        ("20 ± 5, uniformly", "uniform(15,25)"),
        ("between 1,000 and 2,000", "uniform(1000,2000)"),  # the old pattern raised on separators
        ("5–10 a day", "uniform(5,10)"),
        ("5 to 10 customers", None),  # no demand tail: no range
    ],
)
def test_written_distributions(text: str, value: str | None) -> None:
    assert read_demand(text).value == value

"""The one table of the inventory parameters (seed 000, Tables 1–2): key, plain label, default unit, the
Copilot's question and its asking order.

The spec (`spec.py`: `PARAMETER_KEYS`, `DEFAULT_UNITS`), the Copilot's dialogue (`QUESTIONS`,
`QUESTION_ORDER`), the message readers (`ROW_KEYS`: the number rows) and the plain labels shown on the pages
(`PARAMETER_LABELS`) are all read from `PARAMETERS`, so a parameter is added or renamed in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ParameterKind(StrEnum):
    """How a value is written: a choice between words, a demand distribution, or a number."""

    CHOICE = "choice"
    DISTRIBUTION = "distribution"
    NUMBER = "number"


@dataclass(frozen=True, kw_only=True)
class Parameter:
    """One parameter: `ask` is its place in the Copilot's asking order (None: optional, never asked)."""

    key: str
    label: str
    unit: str
    kind: ParameterKind
    question: str = ""
    ask: int | None = None


RISK_QUESTION = (
    "Last question, about risk preference, on a scale from -10 (very risk-averse) to 10 (very risk-seeking), "
    "how would you rate your business strategy?"
)

# In the order of the parameter table (the rows of `extracted_params.csv`); the optional rows come last.
PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        key="time_horizon",
        label="Planning horizon",
        unit="days",
        kind=ParameterKind.NUMBER,
        question="Over how many days should I plan (for example 30, 90 or 365 days)?",
        ask=5,
    ),
    Parameter(
        key="demand_type",
        label="Demand type",
        unit="N/A",
        kind=ParameterKind.CHOICE,
        question="How does daily demand behave: is it the same fixed amount every day, or does it vary "
        "from day to day?",
        ask=1,
    ),
    Parameter(
        key="demand_distribution",
        label="Daily demand",
        unit="N/A",
        kind=ParameterKind.DISTRIBUTION,
        question="What does daily demand look like? For example 'Poisson with mean 8', 'normal with mean 30 "
        "and standard deviation 10', or 'anywhere between 10 and 20 (uniform)'.",
        ask=2,
    ),
    Parameter(
        key="perishability",
        label="Perishable",
        unit="N/A",
        kind=ParameterKind.CHOICE,
        question="Do the items spoil, so that unsold stock must be thrown away at the end of each day?",
        ask=4,
    ),
    Parameter(
        key="state_transition_model",
        label="When stock runs out",
        unit="N/A",
        kind=ParameterKind.CHOICE,
        question="When an item is out of stock, do customers leave (a lost sale) or wait until you "
        "restock (a backlog)?",
        ask=3,
    ),
    Parameter(
        key="holding_cost",
        label="Holding cost per unit per day",
        unit="USD/unit/day",
        kind=ParameterKind.NUMBER,
        question="What does it cost to keep one unit in stock for one day "
        "(for example $0.50 per unit per day)?",
        ask=6,
    ),
    Parameter(
        key="penalty_cost",
        label="Cost of a unit short",
        unit="USD/unit",
        kind=ParameterKind.NUMBER,
        question="What does it cost you when you cannot serve a unit of demand "
        "(for example $5 per unit short)?",
        ask=7,
    ),
    Parameter(
        key="setup_cost",
        label="Fee per order",
        unit="USD/order",
        kind=ParameterKind.NUMBER,
        question="Is there a fixed cost per order, whatever the quantity (for example $3 per shipment)? "
        "Say 0 if not.",
        ask=8,
    ),
    Parameter(
        key="lead_time",
        label="Delivery time",
        unit="days",
        kind=ParameterKind.NUMBER,
        question="How many days pass between placing an order and receiving it?",
        ask=9,
    ),
    Parameter(
        key="max_inventory",
        label="Storage capacity",
        unit="N/A",
        kind=ParameterKind.NUMBER,
        question="How many units can you store at most (your storage capacity)?",
        ask=10,
    ),
    Parameter(
        key="max_order",
        label="Largest order",
        unit="N/A",
        kind=ParameterKind.NUMBER,
        question="What is the largest quantity you can order at once (in units)?",
        ask=11,
    ),
    Parameter(
        key="risk_tolerance",
        label="Risk tolerance",
        unit="N/A",
        kind=ParameterKind.NUMBER,
        question=RISK_QUESTION,
        ask=12,
    ),
    Parameter(key="initial_inventory", label="Stock at the start", unit="units", kind=ParameterKind.NUMBER),
)

BY_KEY: dict[str, Parameter] = {p.key: p for p in PARAMETERS}
# The 12 rows of the table, in table order; the optional rows are the others.
PARAMETER_KEYS: tuple[str, ...] = tuple(p.key for p in PARAMETERS if p.ask is not None)
OPTIONAL_KEYS: tuple[str, ...] = tuple(p.key for p in PARAMETERS if p.ask is None)
QUESTION_ORDER: tuple[str, ...] = tuple(
    p.key for p in sorted((p for p in PARAMETERS if p.ask is not None), key=lambda p: p.ask or 0)
)
QUESTIONS: dict[str, str] = {key: BY_KEY[key].question for key in QUESTION_ORDER}
DEFAULT_UNITS: dict[str, str] = {p.key: p.unit for p in PARAMETERS}
PARAMETER_LABELS: dict[str, str] = {p.key: p.label for p in PARAMETERS}
# The table rows written as numbers: the rows the message readers read a bare figure into.
ROW_KEYS: tuple[str, ...] = tuple(k for k in PARAMETER_KEYS if BY_KEY[k].kind is ParameterKind.NUMBER)

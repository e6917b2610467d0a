"""RetailBench presets: the code's easy/middle/hard/hard_v2 (notes §1.2) and the first paper's (seed 001 §A.3).

`RetailConfig` is a frozen, validated specification; `preset(name)` resolves the original aliases too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from core.errors import SpecError

ALL_CATEGORIES = (
    "Bathroom Tissues", "Beer", "Bottled Juices", "Canned Soup", "Canned Tuna", "Cereals", "Cheeses",
    "Cigarettes", "Cookies", "Crackers", "Dish Detergent", "Fabric Softeners", "Front end candies",
    "Frozen Entrees", "Frozen Juices", "Oatmeal", "Paper Towels", "Snack Crackers", "Soft Drinks",
    "Toothpastes",
)  # fmt: skip
MIDDLE_CATEGORIES = (
    "Bathroom Tissues", "Bottled Juices", "Canned Tuna", "Cheeses", "Crackers", "Dish Detergent",
    "Front end candies", "Oatmeal", "Snack Crackers", "Toothpastes",
)  # fmt: skip
NEWS_MODES = ("neutral", "single_category", "macro_all", "sku_level")
_EASY_RATIOS = {"neutral": 0.65, "single_category": 0.10, "macro_all": 0.05, "sku_level": 0.20}
_HARD_RATIOS = {"neutral": 0.90, "single_category": 0.02, "macro_all": 0.03, "sku_level": 0.05}
_MODE_WEIGHTS = {"neutral": 0.0, "macro_all": 1.0, "single_category": 1.0, "sku_level": 1.2}


def _frozen(mapping: dict[str, float]) -> MappingProxyType:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RetailConfig:
    """One store configuration. Money in dollars, capacity in units, days in calendar days."""

    name: str = "hard_v2"
    categories: tuple[str, ...] = ALL_CATEGORIES
    initial_funds: float = 30_000.0
    everyday_rent: float = 600.0
    inventory_capacity: int = 15_000
    enable_review: bool = True
    review_ratio: float = 0.05
    enable_news: bool = True
    news_impact_base_scale: float = 0.8
    news_impact_abs_cap: float | None = 0.5
    news_sample_ratios: MappingProxyType = field(default_factory=lambda: _frozen(_HARD_RATIOS))
    news_daily_count: int = 20
    news_impact_mode_weights: MappingProxyType = field(default_factory=lambda: _frozen(_MODE_WEIGHTS))
    category_effect: float = 0.0
    aggregation: str = "power"
    rho: float = 3.0
    enable_shelf_constraint: bool = True
    shelf_sku_capacity: int | None = 40
    max_order_units_per_order: int | None = None
    bankruptcy_days: int = 5
    quality_first_mode: str = "off"
    quality_first_review_window_days: int = 60
    quality_first_return_window_days: int = 30
    quality_first_review_weight: float = 0.5
    quality_first_return_weight: float = 0.5

    def __post_init__(self) -> None:
        if self.initial_funds < 0:
            raise SpecError("initial_funds", "must be >= 0")
        if self.everyday_rent < 0:
            raise SpecError("everyday_rent", "must be >= 0")
        if self.inventory_capacity < 1:
            raise SpecError("inventory_capacity", "must be at least 1 unit")
        if not 0 <= self.review_ratio <= 1:
            raise SpecError("review_ratio", "must be a probability in [0, 1]")
        if self.aggregation not in ("power", "legacy"):
            raise SpecError("aggregation", "must be 'power' or 'legacy'")
        if self.rho <= 0:
            raise SpecError("rho", "category_attraction_rho must be > 0")
        if self.shelf_sku_capacity is not None and self.shelf_sku_capacity < 0:
            raise SpecError("shelf_sku_capacity", "must be >= 0 or None")
        if self.news_daily_count < 0:
            raise SpecError("news_daily_count", "must be >= 0")
        if self.quality_first_mode not in ("off", "gate"):
            raise SpecError("quality_first_mode", "must be 'off' or 'gate'")
        if self.quality_first_review_weight + self.quality_first_return_weight <= 0:
            raise SpecError("quality_first_review_weight", "the two quality-first weights must not sum to 0")
        if self.bankruptcy_days < 1:
            raise SpecError("bankruptcy_days", "must be at least 1")
        unknown = [c for c in self.categories if c not in ALL_CATEGORIES]
        if unknown or not self.categories:
            raise SpecError("categories", f"unknown or empty categories: {unknown}")
        bad = [m for m in self.news_sample_ratios if m not in NEWS_MODES]
        if bad:
            raise SpecError("news_sample_ratios", f"unknown news modes {bad}")

    @property
    def order_limit(self) -> int:
        """Units allowed in one order: the configured cap, else max(capacity, 10,000)."""
        return self.max_order_units_per_order or max(self.inventory_capacity, 10_000)

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["categories"] = list(self.categories)
        out["news_sample_ratios"] = dict(self.news_sample_ratios)
        out["news_impact_mode_weights"] = dict(self.news_impact_mode_weights)
        return out


_LEGACY = {"aggregation": "legacy", "rho": 1.0, "enable_shelf_constraint": False, "shelf_sku_capacity": None}

PRESETS: dict[str, RetailConfig] = {
    "easy": RetailConfig(
        name="easy", categories=("Bathroom Tissues", "Soft Drinks", "Cigarettes"), initial_funds=5_000,
        everyday_rent=0, inventory_capacity=10_000, review_ratio=0.02, enable_news=False,
        news_sample_ratios=_frozen(_EASY_RATIOS), category_effect=-0.1, **_LEGACY,
    ),
    "middle": RetailConfig(
        name="middle", categories=MIDDLE_CATEGORIES, initial_funds=25_000, everyday_rent=200,
        inventory_capacity=10_000, review_ratio=0.02, enable_news=False,
        news_sample_ratios=_frozen(_EASY_RATIOS), category_effect=-0.1, **_LEGACY,
    ),
    "hard": RetailConfig(
        name="hard", initial_funds=30_000, everyday_rent=600, inventory_capacity=15_000, review_ratio=0.02,
        news_impact_base_scale=0.4, news_impact_abs_cap=None, category_effect=-0.1, **_LEGACY,
    ),
    "hard_v2": RetailConfig(),
    # The first paper's presets (seed 001, Appendix A.3): legacy aggregation, category effect -0.2.
    "v1_easy": RetailConfig(
        name="v1_easy",
        categories=("Bathroom Tissues", "Canned Soup", "Cigarettes", "Front end candies", "Soft Drinks"),
        initial_funds=10_000, everyday_rent=250, inventory_capacity=10_000, review_ratio=0.02,
        enable_news=False, category_effect=-0.2, **_LEGACY,
    ),
    "v1_middle": RetailConfig(
        name="v1_middle", initial_funds=50_000, everyday_rent=1_000, inventory_capacity=40_000,
        review_ratio=0.02, enable_news=False, category_effect=-0.2, **_LEGACY,
    ),
    "v1_hard": RetailConfig(
        name="v1_hard", initial_funds=50_000, everyday_rent=1_000, inventory_capacity=40_000,
        review_ratio=0.02, news_impact_base_scale=0.4, news_impact_abs_cap=None, category_effect=-0.2,
        **_LEGACY,
    ),
}  # fmt: skip

ALIASES = {
    "ultra_easy": "easy", "still_ultra_easy": "easy", "still_middle": "easy",
    "dynamic_middle": "middle", "still_hard": "middle", "dynamic_hard": "hard",
    "dynamic_hard_v2": "hard_v2", "stress_hard": "hard_v2",
}  # fmt: skip


def preset(name: str, **overrides: Any) -> RetailConfig:
    """The named preset (aliases as in the original registry, case-insensitive), with optional overrides."""
    key = (name or "").strip()
    key = ALIASES.get(key.lower(), key.lower()) if key.lower() not in PRESETS else key.lower()
    if key not in PRESETS:
        raise SpecError("preset", f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    base = PRESETS[key]
    for k in ("news_sample_ratios", "news_impact_mode_weights"):
        if k in overrides and isinstance(overrides[k], dict):
            overrides[k] = _frozen(overrides[k])
    if "categories" in overrides:
        overrides["categories"] = tuple(overrides["categories"])
    unknown = [k for k in overrides if k not in RetailConfig.__dataclass_fields__]
    if unknown:
        raise SpecError(unknown[0], "not a RetailBench configuration key")
    return replace(base, **overrides)

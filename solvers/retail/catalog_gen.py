"""Seeded generator of the shipped RetailBench catalog (`data/retail/`), replacing the Dominick's-based data.

`python -m solvers.retail.catalog_gen [--seed 20260524] [--out data/retail]` rewrites every file:

* `catalog.json` — 20 categories (shelf-life range, food flag, rating-gain polynomial) and 96 products
  (id, category, brand, description, price band and p30/p70, shelf life, demand utility alpha, beta<0,
  beta_s, beta_c, sigma, target rating, per-supplier tiers and transport ranges);
* `quotes.npz` — per calendar day (1991-06-06 .. 1995-12-31): base cost per product, five suppliers'
  price multipliers and hidden qualities (uint16, fixed point), and daily customer traffic;
* `reviews.jsonl.gz`, `news.jsonl.gz` — review-text pool and news pool written for these categories;
* `history.npz` + `history_reviews.csv.gz` — the 93-day pre-start history (06/06/91 .. 09/06/91).

Recipes follow notes §2.2 (history), §2.4 (parameters) and §4.2 (suppliers); docs/retailbench.md lists what
differs from the original.
"""

from __future__ import annotations

import argparse
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import norm

from solvers.retail.catalog import DEFAULT_OUT, N_SUPPLIERS, PRICE_SCALE, QUALITY_SCALE
from solvers.retail.demand import attractions, legacy_demand
from solvers.retail.models import (
    CALENDAR_DAYS,
    DATA_BEGIN,
    HISTORY_DAYS,
    day_iso,
    fit_rating_gain,
    season_terms,
    tilted_probs,
)

DEFAULT_SEED = 20260524


@dataclass(frozen=True)
class CatalogKnobs:
    """What a catalog variant may change besides its seed (the defaults make the shipped catalog): the mean
    daily traffic and the target band of each product's within-SKU price-quality correlation."""

    traffic_level: float = 2400.0
    food_corr: tuple[float, float] = (0.2, 0.3)
    nonfood_corr: tuple[float, float] = (0.4, 0.5)

PRICE_TIERS = [(1.00, 1.05), (0.90, 1.00), (0.80, 0.90), (0.70, 0.80), (0.60, 0.70)]
QUALITY_TIERS = [(0.2, 0.3), (0.1, 0.2), (0.0, 0.1), (-1.0, 0.0), (-2.0, -1.0), (-2.5, -2.0), (-3.0, -2.5)]
FOOD = {
    "Bottled Juices", "Cereals", "Cookies", "Crackers", "Cheeses", "Canned Soup", "Canned Tuna",
    "Front end candies", "Frozen Entrees", "Frozen Juices", "Snack Crackers", "Soft Drinks",
}  # fmt: skip


@dataclass(frozen=True)
class CategoryRecipe:
    """What the generator needs to invent one category's products."""

    name: str
    count: int
    cost: tuple[float, float]
    shelf_life: tuple[int, int]
    items: tuple[str, ...]
    sizes: tuple[str, ...]


CATEGORIES: tuple[CategoryRecipe, ...] = (
    CategoryRecipe("Bathroom Tissues", 5, (0.9, 2.4), (34, 42), ("Bath Tissue", "Toilet Paper", "Soft Tissue"), ("4 Roll", "6 Roll", "12 Roll")),
    CategoryRecipe("Beer", 6, (2.2, 4.8), (60, 120), ("Lager", "Pale Ale", "Light Beer", "Amber Ale"), ("6 Pack", "12 oz", "12 Pack")),
    CategoryRecipe("Bottled Juices", 5, (0.9, 2.2), (10, 18), ("Apple Juice", "Grape Juice", "Cranberry Cocktail", "Orange Juice"), ("32 oz", "48 oz", "64 oz")),
    CategoryRecipe("Canned Soup", 6, (0.4, 1.1), (120, 240), ("Chicken Noodle", "Tomato Soup", "Minestrone", "Clam Chowder"), ("10.5 oz", "19 oz")),
    CategoryRecipe("Canned Tuna", 4, (0.5, 1.3), (150, 300), ("Chunk Light Tuna", "Solid White Tuna"), ("6 oz", "12 oz")),
    CategoryRecipe("Cereals", 6, (1.4, 3.0), (60, 120), ("Corn Flakes", "Oat Rings", "Bran Flakes", "Honey Crunch"), ("12 oz", "18 oz")),
    CategoryRecipe("Cheeses", 5, (1.2, 3.2), (9, 16), ("Cheddar", "Swiss Slices", "Mozzarella", "American Singles"), ("8 oz", "12 oz", "16 oz")),
    CategoryRecipe("Cigarettes", 4, (1.4, 2.6), (180, 365), ("Filter Kings", "Menthol Lights", "Full Flavor"), ("Pack", "Carton Pack")),
    CategoryRecipe("Cookies", 6, (1.0, 2.4), (45, 90), ("Chocolate Chip", "Sandwich Cremes", "Oatmeal Raisin", "Shortbread"), ("12 oz", "16 oz")),
    CategoryRecipe("Crackers", 5, (0.9, 2.0), (60, 120), ("Saltines", "Wheat Crackers", "Butter Rounds"), ("8 oz", "16 oz")),
    CategoryRecipe("Dish Detergent", 4, (1.0, 2.6), (240, 365), ("Dish Liquid", "Lemon Dish Soap", "Automatic Powder"), ("22 oz", "32 oz", "50 oz")),
    CategoryRecipe("Fabric Softeners", 4, (1.3, 3.2), (240, 365), ("Fabric Softener", "Dryer Sheets"), ("40 ct", "64 oz", "80 ct")),
    CategoryRecipe("Front end candies", 5, (0.25, 0.6), (90, 180), ("Chocolate Bar", "Peanut Cups", "Fruit Chews", "Mint Roll"), ("1.5 oz", "2 oz")),
    CategoryRecipe("Frozen Entrees", 5, (1.2, 2.8), (60, 120), ("Lasagna", "Turkey Dinner", "Chicken Pot Pie", "Salisbury Steak"), ("10 oz", "16 oz")),
    CategoryRecipe("Frozen Juices", 4, (0.6, 1.4), (90, 180), ("Orange Concentrate", "Lemonade Concentrate", "Grape Concentrate"), ("12 oz", "16 oz")),
    CategoryRecipe("Oatmeal", 4, (0.9, 2.0), (120, 240), ("Old Fashioned Oats", "Quick Oats", "Instant Oatmeal"), ("18 oz", "42 oz", "10 ct")),
    CategoryRecipe("Paper Towels", 4, (0.6, 1.6), (240, 365), ("Paper Towels", "Jumbo Towels"), ("1 Roll", "3 Roll", "6 Roll")),
    CategoryRecipe("Snack Crackers", 4, (0.9, 2.0), (45, 90), ("Cheese Crackers", "Snack Sticks", "Peanut Butter Sandwiches"), ("6 oz", "10 oz")),
    CategoryRecipe("Soft Drinks", 6, (0.5, 2.0), (90, 180), ("Cola", "Lemon Lime Soda", "Root Beer", "Ginger Ale", "Orange Soda"), ("2 Liter", "6 Pack", "12 Pack")),
    CategoryRecipe("Toothpastes", 4, (0.9, 2.2), (240, 365), ("Fluoride Toothpaste", "Whitening Paste", "Tartar Control Gel"), ("4.6 oz", "6.4 oz")),
)  # fmt: skip

_BRAND_A = ("Sun", "Aqua", "Trail", "Maple", "River", "Golden", "North", "Blue", "Crest", "Silver", "Prairie",
            "Harbor", "Willow", "Summit", "Meadow", "Cedar", "Bright", "Oak", "Lake", "Ember")  # fmt: skip
_BRAND_B = ("Peak", "Zest", "Root", "Field", "Stone", "Gate", "Crown", "Leaf", "Brook", "Haven", "Point",
            "Ridge", "Farm", "Vale", "Spring", "Wood", "Star", "Bay", "Mill", "Glen")  # fmt: skip
_STYLES = ("Classic", "Premium", "Value", "Family Size", "Light", "Original", "Select", "Extra")


def _sku_id(cat_index: int, item: int, rng: np.random.Generator) -> str:
    return f"{3 + cat_index // 4}{cat_index % 4}{rng.integers(10_000_000, 99_999_999)}{item}"


def _products(rng: np.random.Generator) -> list[dict]:
    products: list[dict] = []
    used_brands: set[str] = set()
    for ci, cat in enumerate(CATEGORIES):
        for k in range(cat.count):
            while True:
                brand = str(rng.choice(_BRAND_A)) + str(rng.choice(_BRAND_B))
                if brand not in used_brands:
                    used_brands.add(brand)
                    break
            item = str(rng.choice(cat.items))
            size = str(rng.choice(cat.sizes))
            style = str(rng.choice(_STYLES))
            cost = float(np.exp(rng.uniform(np.log(cat.cost[0]), np.log(cat.cost[1]))))
            pmin = round(cost * rng.uniform(1.15, 1.35), 2)
            pmax = round(cost * rng.uniform(2.5, 3.1), 2)
            kappa = rng.uniform(1.5, 2.3)
            beta = -kappa / cost
            p_opt = cost * (1 + 1 / kappa)
            target = float(np.exp(rng.normal(np.log(0.014), 0.35)))
            alpha = float(np.log(target) - beta * p_opt)
            products.append(
                {
                    "sku_id": _sku_id(ci, k, rng),
                    "category": cat.name,
                    "brand": brand,
                    "description": f"{brand} {style} {item} {size}",
                    "price_min": pmin,
                    "price_max": pmax,
                    "price_p30": round(pmin + 0.3 * (pmax - pmin), 2),
                    "price_p70": round(pmin + 0.7 * (pmax - pmin), 2),
                    "shelf_life": int(rng.integers(cat.shelf_life[0], cat.shelf_life[1] + 1)),
                    "alpha": alpha,
                    "beta": float(beta),
                    "beta_s": float(rng.uniform(-0.1, 0.1) * abs(beta)),
                    "beta_c": float(rng.uniform(-0.1, 0.1) * abs(beta)),
                    "sigma": float(rng.uniform(0.3, 0.9)),
                    "base_cost": cost,
                }
            )
    return products


def _base_cost_paths(products: list[dict], rng: np.random.Generator) -> np.ndarray:
    """Weekly cost random walk -> EWMA (span 10, adjust=False) -> time-interpolated to days (notes §2.4)."""
    weeks = CALENDAR_DAYS // 7 + 3
    out = np.empty((CALENDAR_DAYS, len(products)))
    week_days = np.arange(weeks) * 7.0
    for j, p in enumerate(products):
        walk = p["base_cost"] * np.exp(np.cumsum(rng.normal(0.0005, 0.02, weeks)))
        smooth = pd.Series(walk).ewm(span=10, adjust=False).mean().to_numpy()
        out[:, j] = np.interp(np.arange(CALENDAR_DAYS), week_days, smooth)
    return out


def _supplier_tables(
    products: list[dict], base: np.ndarray, rng: np.random.Generator, knobs: CatalogKnobs = CatalogKnobs()
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Five suppliers per product per day (notes §4.2): copula tiers, enforced diversity, daily draws.

    Returns price multipliers and qualities (days, products, 5), tiers (products, 5, 2) and transport
    ranges (products, 5, 2). Tiers are fixed for the horizon, as the recovered generator's cycles are.
    """
    days, n = base.shape
    mult = np.empty((days, n, N_SUPPLIERS))
    quality = np.empty((days, n, N_SUPPLIERS))
    tiers = np.empty((n, N_SUPPLIERS, 2), dtype=np.int8)
    transport = np.empty((n, N_SUPPLIERS, 2), dtype=np.int8)
    pt_lo = np.array([t[0] for t in PRICE_TIERS])
    pt_hi = np.array([t[1] for t in PRICE_TIERS])
    qt_lo = np.array([t[0] for t in QUALITY_TIERS])
    qt_hi = np.array([t[1] for t in QUALITY_TIERS])
    for j, p in enumerate(products):
        food = p["category"] in FOOD
        band = knobs.food_corr if food else knobs.nonfood_corr
        best: tuple[float, tuple] | None = None
        for _attempt in range(50):
            rho = rng.uniform(*band)
            z1 = rng.standard_normal(N_SUPPLIERS)
            z2 = rho * z1 + np.sqrt(1 - rho**2) * rng.standard_normal(N_SUPPLIERS)
            qt = np.minimum((7 * norm.cdf(z1)).astype(int), 6)
            pt = np.minimum((5 * norm.cdf(z2)).astype(int), 4)
            if not np.any((qt == 6) & (pt == 4)):
                k = int(rng.integers(N_SUPPLIERS))
                qt[k], pt[k] = 6, 4
            else:
                k = int(np.flatnonzero((qt == 6) & (pt == 4))[0])
            if not np.any(qt == 0):
                others = [i for i in range(N_SUPPLIERS) if i != k]
                m = int(rng.choice(others))
                qt[m], pt[m] = 0, int(rng.integers(5))
            u_q = rng.random((days, N_SUPPLIERS))
            u_p = rng.random((days, N_SUPPLIERS))
            q = np.clip(p["target_rating"] + qt_lo[qt] + u_q * (qt_hi[qt] - qt_lo[qt]), 1.0, 5.0)
            mlt = pt_lo[pt] + u_p * (pt_hi[pt] - pt_lo[pt])
            corr = float(np.corrcoef((mlt * base[:, j : j + 1]).ravel(), q.ravel())[0, 1])
            gap = 0.0 if band[0] <= corr <= band[1] else min(abs(corr - band[0]), abs(corr - band[1]))
            if best is None or gap < best[0]:
                best = (gap, (q, mlt, qt.copy(), pt.copy(), corr))
            if gap == 0.0:
                break
        assert best is not None
        q, mlt, qt, pt, corr = best[1]
        quality[:, j], mult[:, j] = q, mlt
        tiers[j, :, 0], tiers[j, :, 1] = qt + 1, pt + 1
        p["price_quality_corr"] = corr
        for s in range(N_SUPPLIERS):
            lo, hi = sorted(int(x) for x in rng.integers(2, 8, size=2))
            if lo == hi:
                hi, lo = (hi + 1, lo) if hi < 7 else (hi, lo - 1)
            transport[j, s] = (lo, hi)
    return mult, quality, tiers, transport


def _traffic(rng: np.random.Generator, level: float = 2400.0) -> np.ndarray:
    """Daily customer counts: weekly and yearly cycles around `level` (2,400) with 6 % noise."""
    t = np.arange(CALENDAR_DAYS)
    weekday = np.array([(DATA_BEGIN.weekday() + i) % 7 for i in t])
    week = np.where(weekday >= 4, 1.12, 0.95)
    year = 1 + 0.06 * np.sin(2 * np.pi * (t - 150) / 365.25)
    return np.round(level * week * year * rng.lognormal(0, 0.06, CALENDAR_DAYS)).astype(np.int32)


_REVIEW_TEXT = {
    "price": {
        1: ["Way overpriced for {item}; never again at this price.", "Paid far too much for this {item}."],
        2: ["The {item} costs more than it is worth.", "Pricey for what you get in this {item}."],
        3: ["Fair price for an average {item}.", "The {item} is okay for the money."],
        4: ["Good value {item}, cheaper than elsewhere.", "Reasonable price for a decent {item}."],
        5: ["Great deal on this {item}!", "Best value {item} I have found in years."],
    },
    "quality": {
        1: ["The {item} was stale and I returned it.", "Poor quality {item}; the package was damaged."],
        2: ["The {item} tasted off and felt cheap.", "Quality of this {item} has gone down."],
        3: ["The {item} is average, nothing special.", "Decent {item} but not consistent."],
        4: ["Solid {item}, fresh and as described.", "Good quality {item}, would buy again."],
        5: ["Excellent {item}, top quality every time.", "Perfect {item}, fresh and well packed."],
    },
    "other": {
        1: ["Shelf was empty half the time and the {item} was wrong.", "Bad experience buying this {item}."],
        2: ["The {item} was hard to find in the aisle.", "Not happy with this {item} overall."],
        3: ["It's a {item}. Does the job.", "Okay {item}; the store could stock more."],
        4: ["My family likes this {item}.", "Nice {item}, always on the shelf."],
        5: ["Love this {item}, a weekly staple!", "Our favourite {item}, highly recommend."],
    },
}


def _review_pool() -> list[dict]:
    rows = []
    for cat in CATEGORIES:
        for item in cat.items:
            for dim, by_star in _REVIEW_TEXT.items():
                for star, texts in by_star.items():
                    for text in texts:
                        rows.append(
                            {
                                "category": cat.name,
                                "DIMENSION": dim,
                                "STAR": star,
                                "COMMENTS": text.format(item=item.lower()),
                            }
                        )
    return rows


_NEUTRAL = [
    "City council approves new bike lanes downtown", "Local library extends weekend hours",
    "High school team wins regional final", "Weather service expects a mild week",
    "New community garden opens on the east side", "Museum announces a summer exhibition",
    "Road works on Main Street to finish early", "Volunteer fair draws record crowd",
    "Parking rules change near the train station", "Annual street festival returns this weekend",
    "Park district adds evening yoga classes", "Local bakery celebrates 50 years",
    "Transit authority tests new bus schedule", "School board discusses new calendar",
    "Farmers market moves to a larger lot", "Art walk features forty local painters",
    "Hospital opens a new pediatric wing", "Marathon route announced for the fall",
    "Zoo welcomes two red panda cubs", "Historic theatre reopens after renovation",
]  # fmt: skip
_MACRO = [
    ("Consumer confidence jumps to a three-year high", "increase", "need"),
    ("Unemployment claims rise for a third month", "decrease", "need"),
    ("Fuel prices fall sharply, cutting freight costs", "increase", "supply"),
    ("Trucking strike disrupts deliveries across the region", "decrease", "supply"),
    ("Holiday bonuses boost household spending", "increase", "need"),
    ("Heat wave keeps shoppers at home", "decrease", "need"),
    ("Wholesale price index eases", "increase", "supply"),
    ("Port congestion delays grocery shipments", "decrease", "supply"),
]
_CATEGORY_NEWS = [
    ("Health report praises {cat}; shoppers stock up", "increase", "need"),
    ("Survey finds households cutting back on {cat}", "decrease", "need"),
    ("Bumper production lowers wholesale costs for {cat}", "increase", "supply"),
    ("Factory recall squeezes the supply of {cat}", "decrease", "supply"),
]
_SKU_NEWS = [
    ("{brand} {item} featured in a popular TV cooking show", "increase", "need"),
    ("Consumer group warns about {brand} {item} packaging", "decrease", "need"),
    ("{brand} expands its plant, {item} wholesale prices drop", "increase", "supply"),
    ("Ingredient shortage hits {brand} {item} production", "decrease", "supply"),
]


def _news_pool(products: list[dict], rng: np.random.Generator) -> list[dict]:
    rows: list[dict] = []

    def add(mode: str, title: str, direction: str = "", factor: str = "", **extra: object) -> None:
        strength = round(float(rng.uniform(0.1, 0.5)), 3) if direction else 0.0
        rows.append(
            {
                "id": f"N{len(rows):04d}",
                "mode": mode,
                "title": title,
                "content": f"{title}. Analysts say the effect on local stores should last several days.",
                "impact_direction": direction,
                "impact_strength": strength,
                "impact_factor": factor,
                "impact_duration_days": int(rng.integers(3, 8)) if direction else 0,
                "target_category": extra.get("target_category", ""),
                "target_sku_upc": extra.get("target_sku_upc", ""),
            }
        )

    for title in _NEUTRAL:
        for suffix in ("", " (update)", " — residents react"):
            add("neutral", title + suffix)
    for title, direction, factor in _MACRO:
        add("macro_all", title, direction, factor)
    for cat in CATEGORIES:
        for title, direction, factor in _CATEGORY_NEWS:
            add("single_category", title.format(cat=cat.name.lower()), direction, factor, target_category=cat.name)
    for p in products:
        item = p["description"].split(" ", 2)[-1]
        for title, direction, factor in _SKU_NEWS[:2] if rng.random() < 0.5 else _SKU_NEWS[2:]:
            add("sku_level", title.format(brand=p["brand"], item=item), direction, factor, target_sku_upc=p["sku_id"])
    return rows


def _history(
    products: list[dict],
    base: np.ndarray,
    mult: np.ndarray,
    quality: np.ndarray,
    transport: np.ndarray,
    traffic: np.ndarray,
    reviews: list[dict],
    rng: np.random.Generator,
) -> tuple[dict[str, np.ndarray], pd.DataFrame]:
    """The pre-start history recipe (notes §2.2): price spans, legacy demand, top-2 quality sourcing, reviews."""
    n = len(products)
    days = HISTORY_DAYS
    col = {k: np.array([p[k] for p in products]) for k in ("alpha", "beta", "beta_s", "beta_c", "sigma")}
    cats = np.array([p["category"] for p in products])
    pmin, pmax = (np.array([p[k] for p in products]) for k in ("price_min", "price_max"))
    p30, p70 = (np.array([p[k] for p in products]) for k in ("price_p30", "price_p70"))
    price = np.empty((days, n))
    for j in range(n):
        t = 0
        while t < days:
            span = int(rng.integers(3, 8))
            lo, hi = (pmin[j], p30[j]) if rng.random() < 0.5 else (p70[j], pmax[j])
            price[t : t + span, j] = round(float(rng.uniform(lo, hi)), 2)
            t += span
    move = np.zeros((days, n), dtype=np.int64)
    supplier = np.zeros((days, n), dtype=np.int8)
    returns = np.zeros((days, n), dtype=np.int64)
    ship = np.zeros((days, n), dtype=np.int8)
    pool: dict[tuple[str, str, int], list[str]] = {}
    for r in reviews:
        pool.setdefault((r["category"], r["DIMENSION"], r["STAR"]), []).append(r["COMMENTS"])
    review_rows = []
    effect = np.full(n, -0.1)
    for d in range(days):
        a = attractions(
            **col, price=price[d], season=season_terms(d), external=np.zeros(n), rng=rng
        )
        move[d] = legacy_demand(a, cats, effect, int(traffic[d]), rng)
        top2 = np.argsort(-quality[d], axis=1)[:, :2]
        pick = np.where(rng.random(n) < 0.6, top2[:, 0], top2[:, 1])
        supplier[d] = pick
        q_unit = quality[d, np.arange(n), pick]
        ship[d] = [rng.integers(transport[j, pick[j], 0], transport[j, pick[j], 1] + 1) for j in range(n)]
        target = np.array([p["target_rating"] for p in products])
        rate = np.where(
            target <= 2.5, rng.uniform(0.10, 0.20, n), np.where(target <= 3.5, rng.uniform(0.03, 0.08, n),
                                                                   rng.uniform(0.01, 0.03, n))
        )  # fmt: skip
        returns[d] = rng.binomial(move[d], rate)
        n_rev = rng.binomial(move[d], 0.03)
        for j in np.flatnonzero(n_rev):
            stars = rng.choice(5, size=int(n_rev[j]), p=tilted_probs(q_unit[j])) + 1
            buy = base[d, j] * mult[d, j, pick[j]]
            for star in stars:
                if star < 3 and q_unit[j] < 3:
                    dim = rng.choice(["price", "quality", "other"], p=[0.1, 0.8, 0.1])
                elif star < 3 and buy * 3 < price[d, j]:
                    dim = rng.choice(["price", "quality", "other"], p=[0.8, 0.1, 0.1])
                else:
                    dim = rng.choice(["price", "quality", "other"])
                texts = pool[(products[j]["category"], str(dim), int(star))]
                review_rows.append(
                    {
                        "date": day_iso(d),
                        "sku_id": products[j]["sku_id"],
                        "supplier": int(pick[j]),
                        "rating": int(star),
                        "dimension": str(dim),
                        "comment": texts[int(rng.integers(len(texts)))],
                    }
                )
    arrays = {
        "price": price.astype(np.float32),
        "move": move.astype(np.int32),
        "supplier": supplier,
        "returns": returns.astype(np.int32),
        "ship_days": ship,
    }
    return arrays, pd.DataFrame(review_rows)


def generate(seed: int = DEFAULT_SEED, out: Path = DEFAULT_OUT, knobs: CatalogKnobs = CatalogKnobs()) -> dict:
    """Write the whole catalog under `out`; returns a small summary (counts and sizes)."""
    rng = np.random.default_rng(seed)
    products = _products(rng)
    categories = {}
    for cat in CATEGORIES:
        begin = float(rng.uniform(3.3, 3.7))
        categories[cat.name] = {
            "food": cat.name in FOOD,
            "shelf_life_range": list(cat.shelf_life),
            **fit_rating_gain(begin, float(rng.uniform(35, 60))),
        }
        for p in products:
            if p["category"] == cat.name:
                p["target_rating"] = round(float(rng.uniform(max(begin + 0.2, 4.4), min(begin + 1.2, 4.8))), 4)
    base = _base_cost_paths(products, rng)
    mult, quality, tiers, transport = _supplier_tables(products, base, rng, knobs)
    traffic = _traffic(rng, knobs.traffic_level)
    for j, p in enumerate(products):
        p["suppliers"] = [
            {
                "supplier_id": f"supplier_{s + 1}",
                "quality_tier": int(tiers[j, s, 0]),
                "price_tier": int(tiers[j, s, 1]),
                "transport_days_min": int(transport[j, s, 0]),
                "transport_days_max": int(transport[j, s, 1]),
            }
            for s in range(N_SUPPLIERS)
        ]
        p.pop("base_cost")
    reviews = _review_pool()
    news = _news_pool(products, rng)
    history, history_reviews = _history(products, base, mult, quality, transport, traffic, reviews, rng)
    out.mkdir(parents=True, exist_ok=True)
    (out / "catalog.json").write_text(
        json.dumps({"seed": seed, "generator": "solvers.retail.catalog_gen", "categories": categories,
                    "products": products}, indent=1) + "\n"  # fmt: skip
    )
    np.savez_compressed(
        out / "quotes.npz",
        base_cost=base.astype(np.float32),
        price_mult=np.round(mult * PRICE_SCALE).astype(np.uint16),
        quality=np.round(quality * QUALITY_SCALE).astype(np.uint16),
        traffic=traffic,
    )
    np.savez_compressed(out / "history.npz", **history)
    history_reviews.to_csv(out / "history_reviews.csv.gz", index=False)
    for name, rows in (("reviews", reviews), ("news", news)):
        with gzip.open(out / f"{name}.jsonl.gz", "wt") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)
    sizes = {f.name: f.stat().st_size for f in sorted(out.iterdir()) if f.is_file()}
    return {
        "products": len(products),
        "categories": len(categories),
        "history_units": int(history["move"].sum()),
        "history_reviews": len(history_reviews),
        "news": len(news),
        "reviews_pool": len(reviews),
        "bytes": sizes,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    print(json.dumps(generate(args.seed, args.out)))


if __name__ == "__main__":
    main()

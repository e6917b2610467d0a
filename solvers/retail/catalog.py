"""The shipped RetailBench catalog (`data/retail/`, written by `solvers.retail.catalog_gen`) as numpy arrays.

Loaded once per process and shared read-only by every environment (`load_catalog()` is cached).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from core.errors import SpecError

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "data" / "retail"
PRICE_SCALE = 50_000  # price multiplier fixed point (max 1.05 -> 52,500 fits uint16)
QUALITY_SCALE = 10_000  # quality fixed point, 4 dp as the original generator rounds
N_SUPPLIERS = 5
SUPPLIER_IDS = tuple(f"supplier_{i + 1}" for i in range(N_SUPPLIERS))


@dataclass(frozen=True, eq=False)
class Catalog:
    """Products (index order = catalog order), their suppliers' daily quotes, traffic, pools and history."""

    products: tuple[dict, ...]
    categories: dict[str, dict]
    sku_ids: tuple[str, ...]
    category: np.ndarray  # (n,) category names
    alpha: np.ndarray
    beta: np.ndarray
    beta_s: np.ndarray
    beta_c: np.ndarray
    sigma: np.ndarray
    price_min: np.ndarray
    price_max: np.ndarray
    shelf_life: np.ndarray  # (n,) int days
    base_cost: np.ndarray  # (days, n)
    quote_price: np.ndarray  # (days, n, 5) raw supplier price (before news)
    quote_quality: np.ndarray  # (days, n, 5) hidden quality in [1, 5]
    transport: np.ndarray  # (n, 5, 2) min/max shipping days
    traffic: np.ndarray  # (days,)
    gain_coeffs: np.ndarray  # (n, 5) rating-gain polynomial of each product's category
    reviews: tuple[dict, ...]
    news: tuple[dict, ...]
    history: dict[str, np.ndarray]
    history_reviews: pd.DataFrame

    @property
    def n(self) -> int:
        return len(self.sku_ids)

    def index_of(self, sku_id: str) -> int:
        try:
            return self._index[sku_id]
        except KeyError:
            raise SpecError("sku_id", f"unknown SKU {sku_id!r}") from None

    @cached_property
    def _index(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.sku_ids)}


def _jsonl(path: Path) -> tuple[dict, ...]:
    with gzip.open(path, "rt") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


@lru_cache(maxsize=4)
def load_catalog(folder: str | None = None) -> Catalog:
    """Read the catalog files from `folder` (default: the repository's `data/retail/`)."""
    root = Path(folder) if folder else DEFAULT_OUT
    if not (root / "catalog.json").exists():
        raise SpecError("catalog", f"no RetailBench catalog in {root}; run python -m solvers.retail.catalog_gen")
    meta = json.loads((root / "catalog.json").read_text())
    products = tuple(meta["products"])
    quotes = np.load(root / "quotes.npz")
    base = quotes["base_cost"].astype(float)
    price = base[:, :, None] * (quotes["price_mult"].astype(float) / PRICE_SCALE)
    quality = quotes["quality"].astype(float) / QUALITY_SCALE
    hist = np.load(root / "history.npz")

    def col(key: str) -> np.ndarray:
        return np.array([p[key] for p in products], dtype=float)

    transport = np.array(
        [[(s["transport_days_min"], s["transport_days_max"]) for s in p["suppliers"]] for p in products]
    )
    gains = np.array([meta["categories"][p["category"]]["poly_coeffs"] for p in products])
    return Catalog(
        products=products,
        categories=meta["categories"],
        sku_ids=tuple(p["sku_id"] for p in products),
        category=np.array([p["category"] for p in products]),
        alpha=col("alpha"),
        beta=col("beta"),
        beta_s=col("beta_s"),
        beta_c=col("beta_c"),
        sigma=col("sigma"),
        price_min=col("price_min"),
        price_max=col("price_max"),
        shelf_life=col("shelf_life").astype(int),
        base_cost=base,
        quote_price=np.round(price, 6),
        quote_quality=quality,
        transport=transport,
        traffic=quotes["traffic"].astype(np.int64),
        gain_coeffs=gains,
        reviews=_jsonl(root / "reviews.jsonl.gz"),
        news=_jsonl(root / "news.jsonl.gz"),
        history={k: hist[k] for k in hist.files},
        history_reviews=pd.read_csv(root / "history_reviews.csv.gz", dtype={"sku_id": str}),
    )

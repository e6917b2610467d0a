"""The news manager (notes §3.8): a daily list of `news_daily_count` items, business items rolling 4-6 days.

Hidden fields (mode, direction, strength, factor, targets) drive demand ("need") and supplier prices
("supply"); agents only ever see ids, titles and contents.
"""

from __future__ import annotations

import numpy as np

from solvers.retail.config import NEWS_MODES, RetailConfig

_SIGN = {"increase": 1.0, "decrease": -1.0}


class NewsManager:
    """Samples each day's news from the pool with its own generator and evaluates their hidden effects."""

    def __init__(
        self,
        pool: tuple[dict, ...],
        config: RetailConfig,
        sku_ids: tuple[str, ...],
        categories: np.ndarray,
        rng: np.random.Generator,
    ) -> None:
        self.config = config
        self.rng = rng
        self.sku_ids = sku_ids
        self.categories = categories
        cats = set(categories.tolist())
        skus = set(sku_ids)
        self.pools: dict[str, list[dict]] = {m: [] for m in NEWS_MODES}
        for row in pool:
            mode = str(row.get("mode") or "neutral").lower()
            if mode not in self.pools:
                continue
            if mode != "macro_all":
                if row.get("target_sku_upc") and row["target_sku_upc"] not in skus:
                    continue
                if row.get("target_category") and row["target_category"] not in cats:
                    continue
            self.pools[mode].append(dict(row, mode=mode))
        ratios = {m: float(config.news_sample_ratios.get(m, 0.0)) for m in NEWS_MODES if self.pools[m]}
        total = sum(v for v in ratios.values() if v > 0)
        self.modes = list(ratios)
        weights = np.array([max(ratios[m], 0.0) for m in self.modes])
        self.weights = weights / total if total > 0 else np.full(len(self.modes), 1 / max(len(self.modes), 1))
        self.today: list[dict] = []
        self.rolling: list[list] = []  # [item, remaining days]
        self._effects: dict[str, np.ndarray] | None = None
        self._sample()

    def _sample(self) -> None:
        kept = [entry for entry in self.rolling if entry[1] >= 0]
        self.rolling = kept
        today = [entry[0] for entry in kept]
        count = max(self.config.news_daily_count - len(kept), 0) if self.modes else 0
        modes = self.rng.choice(len(self.modes), size=count, p=self.weights) if count else []
        picks = self.rng.random(count)
        for mi, u in zip(modes, picks, strict=True):
            pool = self.pools[self.modes[int(mi)]]
            item = dict(pool[int(u * len(pool))])
            if item.get("impact_direction") in _SIGN:
                self.rolling.append([item, int(self.rng.integers(3, 6))])
            today.append(item)
        self.today = today
        self._effects = None

    def advance(self) -> list[dict]:
        """End of day: return the list shown today (to record), then age rolling items and sample tomorrow's."""
        shown = self.today
        for entry in self.rolling:
            entry[1] -= 1
        self._sample()
        return shown

    def effects(self) -> dict[str, np.ndarray]:
        """Today's capped per-SKU effects: {"need": (n,), "supply": (n,)} = clamp(sum x base_scale, +-cap)."""
        if self._effects is None:
            totals = {"need": np.zeros(len(self.sku_ids)), "supply": np.zeros(len(self.sku_ids))}
            weights = self.config.news_impact_mode_weights
            sku_index = {s: i for i, s in enumerate(self.sku_ids)}
            for item in self.today:
                sign = _SIGN.get(str(item.get("impact_direction") or "").lower(), 0.0)
                factor = str(item.get("impact_factor") or "").lower()
                if sign == 0.0 or factor not in totals:
                    continue
                value = sign * float(item.get("impact_strength") or 0.0) * float(weights.get(item["mode"], 1.0))
                mask = np.zeros(len(self.sku_ids), dtype=bool)
                if item["mode"] == "macro_all":
                    mask[:] = True
                if item.get("target_category"):
                    mask |= self.categories == item["target_category"]
                if item.get("target_sku_upc") in sku_index:
                    mask[sku_index[item["target_sku_upc"]]] = True
                totals[factor][mask] += value
            cap = self.config.news_impact_abs_cap
            scale = self.config.news_impact_base_scale
            self._effects = {
                k: (np.clip(v * scale, -cap, cap) if cap is not None else v * scale) for k, v in totals.items()
            }
        return self._effects

"""Settings shared by every workbench: LLM provider, model, base URL, key, seed and store path.

Read from the environment once (`Settings.from_env`) and then edited in the sidebar. The API key lives only
in memory: it is excluded from `repr` and from `public_dict`, which is what runs record.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal

from core.errors import SpecError
from core.llm.registry import PROVIDER_ENTRIES, PROVIDER_REGISTRY

Provider = Literal["offline", "anthropic", "openai"]  # the names in `core.llm.registry`, for type checkers
PROVIDERS: tuple[Provider, ...] = tuple(PROVIDER_REGISTRY)  # type: ignore[assignment]
PROVIDER_LABELS: dict[str, str] = {e.name: e.label for e in PROVIDER_ENTRIES}
DEFAULT_MODELS: dict[str, str] = {e.name: e.default_model for e in PROVIDER_ENTRIES}
REPO_ROOT = Path(__file__).resolve().parents[1]
# What `Settings.from_env` reads, besides `ORCA_DB` (the store path).
ENV_VARS = (
    "ORCA_PROVIDER",
    "ORCA_MODEL",
    "ORCA_SEED",
    *(name for e in PROVIDER_ENTRIES for name in e.env_vars),
    "ORCA_LLM_TIMEOUT",
    "ORCA_LLM_RETRIES",
)
DEFAULT_LLM_TIMEOUT_S = 60.0
DEFAULT_LLM_RETRIES = 2
MAX_LLM_TIMEOUT_S = 600.0
MAX_LLM_RETRIES = 10
MAX_TEMPERATURE = 2.0  # the widest range providers accept (OpenAI 0-2, Anthropic 0-1)
# The longest one LLM request may block a turn: timeout × (retries + 1). 60 s × 3 attempts by default.
MAX_LLM_WAIT_S = 600.0
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s]+@")


def redact_url(text: str) -> str:
    """`text` with the `user:password@` part of any URL in it replaced by `***@`."""
    return _URL_USERINFO.sub(r"\1***@", text)


def _env_provider(env: Mapping[str, str]) -> str:
    """The provider the environment asks for: `ORCA_PROVIDER`, else the one whose key is set, else offline."""
    if env.get("ORCA_PROVIDER", "").strip():
        return env["ORCA_PROVIDER"].strip().lower()
    for entry in PROVIDER_ENTRIES:
        if entry.chosen_by(env):
            return entry.name
    return "offline"


def _env_number(env: Mapping[str, str], name: str, default: float, kind: type) -> float:
    """A numeric environment variable (`kind` int or float); a bad value is a `SpecError` naming it."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SpecError(name, f"must be {what}, got {text!r}") from None


DEFAULT_FRONTIER_BUDGET_S = 5.0


def frontier_budget(env: Mapping[str, str] | None = None) -> float:
    """Seconds School Scheduling spends on its trade-off frontier before showing a partial one:
    `$ORCA_FRONTIER_BUDGET`, else 5. A slow or busy machine (a classroom laptop, a loaded CI runner) may give it
    more so the frontier is complete; a bad value is a `SpecError` naming the variable."""
    value = _env_number(
        os.environ if env is None else env, "ORCA_FRONTIER_BUDGET", DEFAULT_FRONTIER_BUDGET_S, float
    )
    if not 0 < value <= 600:
        raise SpecError("ORCA_FRONTIER_BUDGET", f"must be between 0 and 600 seconds, got {value}")
    return value


def default_store_path() -> Path:
    """The DuckDB run store: `$ORCA_DB`, else `data/orca.duckdb` in the repository."""
    env = os.environ.get("ORCA_DB")
    return Path(env).expanduser() if env else REPO_ROOT / "data" / "orca.duckdb"


@dataclass(frozen=True)
class Settings:
    """Which LLM drives the agents, plus the seed and the run-store path."""

    provider: Provider = "offline"
    model: str = DEFAULT_MODELS["offline"]
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    seed: int = 42
    store_path: Path = field(default_factory=default_store_path)
    timeout_s: float = DEFAULT_LLM_TIMEOUT_S
    max_retries: int = DEFAULT_LLM_RETRIES
    llm_cache: bool = False  # answer repeated model requests from the store's reply cache (core.llm.cache)
    temperature: float | None = None  # sent to the provider when set (None: the provider's default)
    llm_seed: int | None = None  # a sampling seed sent to OpenAI-compatible servers when set (Anthropic has none)

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise SpecError(
                "provider", f"unknown provider {self.provider!r}; choose one of {', '.join(PROVIDERS)}"
            )
        if not str(self.model).strip():
            raise SpecError("model", "a model name is required")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or not 0 <= self.seed < 2**32:
            raise SpecError("seed", "the seed must be a whole number between 0 and 4294967295")
        if not isinstance(self.llm_cache, bool):
            raise SpecError("llm_cache", "must be true or false")
        if self.temperature is not None and (
            isinstance(self.temperature, bool)
            or not isinstance(self.temperature, int | float)
            or not 0 <= self.temperature <= MAX_TEMPERATURE
        ):
            raise SpecError("temperature", f"the temperature must be a number from 0 to {MAX_TEMPERATURE:g}")
        if self.llm_seed is not None and (
            not isinstance(self.llm_seed, int) or isinstance(self.llm_seed, bool) or not 0 <= self.llm_seed < 2**32
        ):
            raise SpecError("llm_seed", "the model's seed must be a whole number between 0 and 4294967295")
        if self.base_url and not str(self.base_url).startswith(("http://", "https://")):
            raise SpecError("base_url", "the base URL must start with http:// or https://")
        if (
            isinstance(self.timeout_s, bool)
            or not isinstance(self.timeout_s, int | float)
            or not 0 < self.timeout_s <= MAX_LLM_TIMEOUT_S
        ):
            raise SpecError(
                "timeout_s", f"the LLM timeout must be more than 0 and at most {MAX_LLM_TIMEOUT_S:g} seconds"
            )
        if (
            isinstance(self.max_retries, bool)
            or not isinstance(self.max_retries, int)
            or not 0 <= self.max_retries <= MAX_LLM_RETRIES
        ):
            raise SpecError(
                "max_retries", f"the LLM retries must be a whole number from 0 to {MAX_LLM_RETRIES}"
            )
        if self.timeout_s * (self.max_retries + 1) > MAX_LLM_WAIT_S:
            raise SpecError(
                "timeout_s",
                f"timeout × (retries + 1) = {self.timeout_s * (self.max_retries + 1):g} s exceeds the "
                f"{MAX_LLM_WAIT_S:g} s one request may block a turn; lower the timeout or the retries",
            )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, provider: str | None = None) -> Settings:
        """Settings from environment variables (see `ENV_VARS`); a bad value is a `SpecError` naming the variable.

        The provider is `provider` if given (the sidebar's or a CLI flag's choice), else `ORCA_PROVIDER`, else
        whichever API key is set, else offline. `ORCA_MODEL` counts only for the provider the environment picks.
        """
        env = dict(os.environ if env is None else env)
        chosen = _env_provider(env)
        provider = (provider or chosen).strip().lower()
        entry = PROVIDER_REGISTRY.get(provider)
        key = env.get(entry.key_var) if entry and entry.key_var else None
        url_var = entry.url_var if entry else None
        seed_text = env.get("ORCA_SEED", "42").strip()
        try:
            seed = int(seed_text)
        except ValueError:
            raise SpecError("ORCA_SEED", f"must be a whole number, got {seed_text!r}") from None
        model = env.get("ORCA_MODEL") if provider == chosen else None
        timeout_s = _env_number(env, "ORCA_LLM_TIMEOUT", DEFAULT_LLM_TIMEOUT_S, float)
        max_retries = _env_number(env, "ORCA_LLM_RETRIES", DEFAULT_LLM_RETRIES, int)
        try:
            return cls(
                provider=provider,  # type: ignore[arg-type]
                model=model or DEFAULT_MODELS.get(provider, DEFAULT_MODELS["offline"]),
                base_url=env.get(url_var or "") or None,
                api_key=key or None,
                seed=seed,
                store_path=Path(env["ORCA_DB"]).expanduser() if env.get("ORCA_DB") else default_store_path(),
                timeout_s=timeout_s,
                max_retries=max_retries,
            )
        except SpecError as err:
            name = {
                "provider": "ORCA_PROVIDER",
                "model": "ORCA_MODEL",
                "seed": "ORCA_SEED",
                "timeout_s": "ORCA_LLM_TIMEOUT",
                "max_retries": "ORCA_LLM_RETRIES",
            }.get(err.field, url_var or err.field)
            raise SpecError(name, str(err).removeprefix(f"{err.field}: ")) from None

    @classmethod
    def from_cli(
        cls,
        provider: str | None = None,
        model: str | None = None,
        base_url: str | None = None,
        seed: int | None = None,
        *,
        timeout_s: float | None = None,
        max_retries: int | None = None,
    ) -> Settings:
        """Settings from the environment with a CLI's `--provider/--model/--base-url/--seed/--llm-timeout/
        --llm-retries` applied; the environment's model counts only for the provider the environment picks
        (see `from_env`)."""
        settings = cls.from_env(provider=provider)
        changes = {
            "model": model,
            "base_url": base_url,
            "seed": seed,
            "timeout_s": timeout_s,
            "max_retries": max_retries,
        }
        return settings.with_changes(**{k: v for k, v in changes.items() if v is not None})

    def with_changes(self, **changes: object) -> Settings:
        """A validated copy with some fields changed (the sidebar's edits)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def public_dict(self) -> dict[str, object]:
        """What a run may record: everything but the key (and a password in the base URL)."""
        data = asdict(self)
        data.pop("api_key")
        data["base_url"] = redact_url(self.base_url) if self.base_url else None
        data["store_path"] = str(self.store_path)
        return data

"""Models per role: which provider, model, temperature and seed play each LLM role of an experiment agent
(a lab's Copilot, manager imitator and judge; an optimization and a decision agent; a RetailBench agent and
judge).

A role is named in a spec (`roles = { judge = "openai:gpt-4o-mini" }`, or a table with `provider`, `model`,
`temperature`, `seed`) or on the CLI (`--role judge=openai:gpt-4o-mini`). Only the text before the first ":"
is the provider, so model names with colons (`llama3:8b`) work. "offline" must be named to get an offline
stand-in for a role: nothing falls back to one, and an offline role is labelled as such.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import SpecError
from core.llm.registry import PROVIDER_REGISTRY

if TYPE_CHECKING:
    from core.config import Settings

ROLE_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_MODEL_CHARS = 200
MAX_TEMPERATURE = 2.0
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_FIELDS = ("provider", "model", "temperature", "seed")


@dataclass(frozen=True)
class RoleModel:
    """The model of one role; `temperature`/`seed` None leave the provider's defaults."""

    provider: str
    model: str
    temperature: float | None = None
    seed: int | None = None

    def check(self, where: str) -> RoleModel:
        """This role model, or a `SpecError` at `where` naming what is wrong."""
        if self.provider not in PROVIDER_REGISTRY:
            raise SpecError(
                f"{where}.provider", f"unknown provider {self.provider!r}; choose one of {', '.join(PROVIDER_REGISTRY)}"
            )
        if not isinstance(self.model, str) or not self.model.strip() or len(self.model) > MAX_MODEL_CHARS:
            raise SpecError(f"{where}.model", f"a model name is 1-{MAX_MODEL_CHARS} characters")
        if _CONTROL.search(self.model):
            raise SpecError(f"{where}.model", "a model name has no control characters")
        t = self.temperature
        if t is not None and (
            isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or not 0 <= t <= MAX_TEMPERATURE
        ):
            raise SpecError(f"{where}.temperature", f"must be a number from 0 to {MAX_TEMPERATURE:g}")
        s = self.seed
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 2**32):
            raise SpecError(f"{where}.seed", "must be a whole number between 0 and 4294967295")
        return self

    @property
    def offline(self) -> bool:
        return self.provider == "offline"

    @property
    def label(self) -> str:
        """How CSVs and reports name the role's model: offline stand-ins say so."""
        if self.offline:
            return f"offline stand-in ({self.model})"
        extra = "".join(
            f", {k} {v}" for k, v in (("temperature", self.temperature), ("seed", self.seed)) if v is not None
        )
        return f"LLM {self.provider}/{self.model}{extra}"

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _FIELDS if getattr(self, k) is not None}


def settings_for(model: RoleModel, where: str, env: Mapping[str, str] | None = None) -> Settings:
    """The `Settings` that play `model`: for an LLM the provider's key and base URL from the environment (a
    missing key is a `SpecError` at `where` naming the variable — never an offline stand-in), its temperature
    and seed; for "offline" the offline settings named after the stand-in."""
    from core.config import Settings

    if model.offline:
        return Settings(model=model.model)
    settings = Settings.from_env(dict(env) if env is not None else None, provider=model.provider).with_changes(
        model=model.model, temperature=model.temperature, llm_seed=model.seed
    )
    if not settings.api_key and not (model.provider == "openai" and settings.base_url):
        var = "ANTHROPIC_API_KEY" if model.provider == "anthropic" else "OPENAI_API_KEY (or OPENAI_BASE_URL)"
        raise SpecError(where, f"this LLM needs {var}; set it, or remove it (no offline stand-in is substituted)")
    return settings


def check_role_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not ROLE_RE.match(name):
        raise SpecError(where, "a role name is 1-40 lower-case letters, digits or _, starting with a letter")
    return name


def role_from_text(text: str, where: str = "role") -> RoleModel:
    """`provider:model` as a role model."""
    provider, sep, model = str(text).partition(":")
    if not sep:
        raise SpecError(where, f"write the model as provider:model (e.g. openai:gpt-4o-mini), got {text!r}")
    return RoleModel(provider.strip().lower(), model.strip()).check(where)


def parse_role(text: str) -> tuple[str, RoleModel]:
    """`ROLE=provider:model` (the CLI's `--role`) as (role, model)."""
    name, sep, value = str(text).partition("=")
    if not sep:
        raise SpecError("--role", f"write ROLE=provider:model (e.g. judge=openai:gpt-4o-mini), got {text!r}")
    role = check_role_name(name.strip(), "--role")
    return role, role_from_text(value, "--role")


def role_table(raw: object, where: str) -> dict[str, RoleModel]:
    """A spec's `roles` table: role -> "provider:model" or { provider, model, temperature, seed }."""
    if not isinstance(raw, Mapping):
        raise SpecError(where, 'must be a table, e.g. roles = { judge = "openai:gpt-4o-mini" }')
    out: dict[str, RoleModel] = {}
    for name, value in raw.items():
        role = check_role_name(name, f"{where}.{name}")
        at = f"{where}.{role}"
        if isinstance(value, str):
            out[role] = role_from_text(value, at)
            continue
        if not isinstance(value, Mapping):
            raise SpecError(at, 'must be "provider:model" or a table with provider and model')
        unknown = sorted(set(value) - set(_FIELDS))
        if unknown:
            raise SpecError(f"{at}.{unknown[0]}", f"unknown field; a role has {', '.join(_FIELDS)}")
        if "provider" not in value or "model" not in value:
            raise SpecError(at, "a role needs a provider and a model")
        out[role] = RoleModel(
            str(value["provider"]).strip().lower(), value["model"], value.get("temperature"), value.get("seed")
        ).check(at)
    return out

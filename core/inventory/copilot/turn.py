"""The Copilot's one turn result: what the session and both extraction agents answer in the chat protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.inventory.table import ParameterTable


@dataclass(frozen=True, kw_only=True)
class CopilotTurn:
    """One answer: the text, the Table 8 action, the full table, the open conflicts, and the recommended
    policy (None until one is chosen; the extraction agents never have one)."""

    assistant: str
    action: str
    table: dict[str, dict[str, str | None]]
    conflicts: tuple[dict[str, object], ...] = ()
    policy: dict[str, Any] | None = None

    @classmethod
    def of(cls, table: ParameterTable, *, assistant: str, action: str) -> CopilotTurn:
        """A turn showing `table` as it stands, with its open conflicts."""
        return cls(
            assistant=assistant,
            action=action,
            table=table.to_dict(),
            conflicts=tuple(c.to_dict() for c in table.conflicts),
        )

    def to_dict(self) -> dict[str, object]:
        """The chat protocol's JSON line (`inventory chat`): conflicts are shown in the text, not sent."""
        return {
            "assistant": self.assistant,
            "action": self.action,
            "table": self.table,
            "policy": self.policy,
        }

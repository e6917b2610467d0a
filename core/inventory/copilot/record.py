"""What the Copilot stores besides its conversation: the run metrics and the deployment zip.

The writing itself goes through the one recorder (`core/recorder.py`); while a stored conversation is replayed
on resume the recorder is paused, so resuming never records anything twice.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any


def run_metrics(policy: dict[str, Any] | None, messages: int) -> dict[str, Any]:
    """The run's metrics: the recommendation, its costs and the critic's verdict."""
    policy = policy or {}
    return {
        "recommended": policy.get("recommended"),
        "recommended_policy": policy.get("recommended_policy"),
        "recommended_mean": policy.get("recommended_mean"),
        "ss_mean": policy.get("ss_mean"),
        "dqn_mean": policy.get("dqn_mean"),
        "critic_ok": (policy.get("critic") or {}).get("ok"),
        "messages": messages,
    }


def deployment_zip(artifacts: dict[str, bytes]) -> bytes:
    """The `deployment_artifacts/` files among `artifacts` as one zip archive."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in artifacts.items():
            if name.startswith("deployment_artifacts/"):
                archive.writestr(name, data)
    return buf.getvalue()

"""`python -m core.cli inventory ...`: the one CLI group of the three inventory workbenches.

The Policy Simulator adds the engine commands (`optimize`, `evaluate`, `dp`, `order`), the Copilot `chat` and
the evaluation lab `lab`; each workbench keeps its commands in its own `cli.py`.
"""

from __future__ import annotations

from core.inventory.copilot.cli import add_chat_parser
from core.inventory.lab.cli import add_lab_parser
from core.inventory.simulator.cli import COMMANDS as SIMULATOR_COMMANDS

COMMANDS = [*SIMULATOR_COMMANDS, add_chat_parser, add_lab_parser]


def register(subparsers) -> None:
    """Add the `inventory` group with its commands to the top-level CLI."""
    parser = subparsers.add_parser("inventory", help="seed-000 inventory engine")
    sub = parser.add_subparsers(dest="inventory_command", required=True)
    for add in COMMANDS:
        add(sub)

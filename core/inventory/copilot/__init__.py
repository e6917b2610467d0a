"""The Inventory Copilot (seed 000): extraction agents, critic, policy interpretation, and the session its page
and `inventory chat` drive (`session.py`)."""

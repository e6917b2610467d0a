"""The Inventory Copilot (seed 000): extraction agents, critic, policy interpretation, and the session
(`session.py`) that its page and `inventory chat` drive."""

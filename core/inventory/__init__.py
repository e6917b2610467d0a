"""The three inventory workbenches over one shared base.

- `copilot/`: the Inventory Copilot (extraction, critic, interpretation; its page drives `session.py`).
- `simulator/`: the Policy Simulator (`session.py` runs and records comparisons; agents, experiment
  adapter, the engine commands); it imports nothing from `copilot/`.
- `lab/`: the inventory evaluation lab (seed 000 §3–4).
- The shared base here: the parameter table (`table.py`), plain policy and parameter names
  (`policy_names.py`), the reading of managers' messages (`nlu/` with its banks `intents.toml`, `rows.toml`)
  and the `inventory` CLI group (`cli.py`).
"""

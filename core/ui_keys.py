"""Session-state keys that cross a page boundary: one page (or the sidebar) writes them, another reads them.

A page's own keys stay in the page under its prefix (`orca_sim_`, `orca_copilot_`, ...); a key that another
page must know lives here, so the writer and the reader name the same constant.
"""

SETTINGS = "orca_settings"
"""The session's `core.config.Settings`, edited in the sidebar and read by every page."""

ENV_ERROR = "orca_env_error"
"""Why the environment's settings were refused (the session fell back to offline); the sidebar shows it."""

SIMULATOR_PARAMS_CSV = "orca_sim_params_csv"
"""An `extracted_params.csv` text the Inventory Copilot hands to the Policy Simulator, which loads and pops it."""

SIMULATOR_POLICY = "orca_sim_handoff_policy"
"""The Copilot's recommended policy and evaluation paths (`PolicyHandoff.to_dict()`) for the Policy Simulator."""

RETAIL_REPLAY_RUN = "orca_retail_replay_run"
"""The RetailBench run that the replay page opens (set by the RetailBench page's "open in the replay")."""

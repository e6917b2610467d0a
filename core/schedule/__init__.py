"""School Scheduling workbench: T-P-P tools over the start-time MILP, offline and LLM agents, CLI."""

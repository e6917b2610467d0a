"""ORCA core: agents, LLM providers, tools, run store and CLI (imports solvers/, never pages/)."""

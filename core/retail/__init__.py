"""RetailBench workbench (seeds 004/001): agents, runs, the LLM toolbox and the CLI over `solvers.retail`."""

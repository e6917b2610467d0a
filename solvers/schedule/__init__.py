"""School start-time MILP (seed 003 §3.1): data, model, Pareto frontier, alternatives, infeasibility analysis."""

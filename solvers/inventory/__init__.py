"""Seed-000 inventory engine: specification, simulator, policies, Monte Carlo, (s,S) search, DP, DQN, agent."""

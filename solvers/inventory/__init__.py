"""Seed-000 inventory engine: spec, the one period, environment, policies, Monte Carlo, search, DP, DQN, agent."""

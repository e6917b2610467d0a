"""Inventory Copilot agents: the parameter table, the information extraction agents and their NLU."""

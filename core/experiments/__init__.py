"""Batch experiments over any workbench with an experiment adapter: specs, engines, statistics and reports.

Generic: nothing here imports a workbench package; adapters are imported by their module string.
"""

"""ORCA solvers: pure OR and learning algorithms (no Streamlit, no LLM layer, no store)."""

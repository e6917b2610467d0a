"""The Policy Simulator: policy comparisons on common random numbers (`session.py`, which its page drives),
the offline policy agents, the experiment adapter and the engine commands (`cli.py`)."""

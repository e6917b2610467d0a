"""School Scheduling evaluation lab (seed 003 §3-5): decision agents with hidden utilities, scores, reports."""

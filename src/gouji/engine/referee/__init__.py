"""The referee of one game (``Game``), its phases in modules of their own, and what it gives
out: the per-seat view (the one place hidden information is filtered), records and scoring."""

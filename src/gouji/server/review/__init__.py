"""Review of finished games: replays and 复盘 (analyses run in a worker pool)."""

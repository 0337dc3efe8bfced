"""Players: accounts and sessions, 战绩 (a player's record), ratings and leaderboards."""

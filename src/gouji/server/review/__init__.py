"""Review of finished games: replays and 复盘 (analyses run in a worker pool), the analyses'
table (``store``) and a game's record, replay and analysis over HTTP (``routes``)."""

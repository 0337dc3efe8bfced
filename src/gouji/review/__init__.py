"""Looking back at finished games: replaying a record and 复盘 (judging its decisions with
the search). No server code: the server runs the analysis in a pool of its own."""

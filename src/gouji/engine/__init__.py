"""The engine: cards, plays, rule sets and their presets, and the match — everything a game
of 够级 needs and nothing above it (no bots, no server). Compiled with mypyc where a C compiler
is present (gouji.build); the public names are re-exported by ``gouji`` itself."""

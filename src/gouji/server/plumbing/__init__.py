"""What every domain of the server shares: the clock, limits, tokens, logs, security headers,
the origin check, the one HTTP layer (``http``, ``errors``) and the database itself (``db``,
and ``fence``: the leases every write checks); each domain owns its own tables."""

"""What every domain of the server shares: the clock, limits, tokens, logs, security headers,
the origin check and the database."""

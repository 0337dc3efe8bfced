"""A site of several server processes: leases of homes, the supervisor, metrics."""

"""A site of several server processes (docs/scaling.md): the leases of homes (``leases``),
the site's database with every domain's tables (``store``), the supervisor of ``gouji serve
--workers``, metrics, and the routes ``/healthz`` ``/readyz`` ``/metrics`` (``routes``)."""

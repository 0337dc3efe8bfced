"""Whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` the server believes (docs/security.md).

Behind a proxy the server sees the proxy's address, and plain HTTP where the proxy ended TLS.
The proxy says who the client was and which scheme it used in those two headers, and uvicorn's
``ProxyHeadersMiddleware`` puts them in the request (its client address: the per-address
limits; its scheme: ``Secure`` cookies, the ``https://`` of the wall's QR code) — but only for
a connection that comes from an address it trusts, since any client can send the headers too.

``gouji serve`` passes ``proxy_options(...)`` to ``uvicorn.Config``: a worker of a site
(``--worker-id``: ``gouji serve --workers``, the compose file, the systemd units) trusts the
addresses in ``FORWARDED_ALLOW_IPS`` (the site's HAProxy), or loopback where HAProxy runs on the
same machine, the supervisor's case. The site's HAProxy sets ``X-Forwarded-Proto`` where it ends
TLS and drops a client's own (gouji.server.site.supervisor.haproxy_config).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ENV = "FORWARDED_ALLOW_IPS"  # uvicorn's own variable: the proxy's addresses, comma-separated
LOOPBACK = "127.0.0.1,::1"  # HAProxy on this machine (gouji serve --workers)


def trusted_proxies(site_worker: bool, environ: Mapping[str, str]) -> str | None:
    """The addresses whose forwarded headers are believed (uvicorn's ``forwarded_allow_ips``);
    None: nobody's. ``site_worker``: this process serves behind the site's HAProxy."""
    named = environ.get(ENV, "").strip()
    if named:
        return named
    return LOOPBACK  # the supervisor's HAProxy; one process: uvicorn's default too


def proxy_options(site_worker: bool, environ: Mapping[str, str]) -> dict[str, Any]:
    """``uvicorn.Config``'s keyword arguments for the forwarded headers."""
    trusted = trusted_proxies(site_worker, environ)
    return {"proxy_headers": trusted is not None, "forwarded_allow_ips": trusted}

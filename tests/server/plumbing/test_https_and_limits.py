"""HTTPS behind the site's proxy and whose forwarded headers count (issue 39; docs/security.md).

Where HAProxy ends TLS (``bind … ssl crt …``, deploy/README.md) it tells the workers the scheme
in ``X-Forwarded-Proto``, and a client's own header never passes; a worker believes the header
only from the proxy's address (gouji.server.plumbing.forwarded, as ``gouji serve`` starts
uvicorn), so the session and guest cookies carry ``Secure`` over HTTPS and a client elsewhere
cannot claim a scheme or an address. Checked on the generated configuration, on the app as
uvicorn serves it, and end to end through a real HAProxy with a certificate of the test's own.
"""

from __future__ import annotations

import contextlib
import shutil
import ssl
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient

from gouji.server import create_app
from gouji.server.players.sessions import GUEST_COOKIE, HINT_COOKIE, SESSION_COOKIE
from gouji.server.plumbing.forwarded import RELAYED, served
from gouji.server.plumbing.limits import Limits, is_local
from gouji.server.site.supervisor import Worker, haproxy_config
from support import LIGHT_HASHER, free_port

from ..accountutil import PASSWORD
from ..wsutil import FAST, LOCAL, REMOTE, Address, fast_app

HTTPS = {"x-forwarded-proto": "https"}
PROXY_NET = "172.29.80.10"  # the compose file's HAProxy (FORWARDED_ALLOW_IPS)


def as_served(
    db: str, site_worker: bool, environ: dict[str, str], client: Address, limits: Limits = FAST
) -> TestClient:
    """A test client of the app wrapped as ``gouji serve`` has uvicorn serve it."""
    app = create_app(db, limits=limits, password_hasher=LIGHT_HASHER)
    asgi, options = served(app, site_worker, environ)
    config = uvicorn.Config(asgi, log_config=None, **options)
    config.load()
    return TestClient(config.loaded_app, client=client)


def set_cookies(response: Any) -> dict[str, str]:
    """Each cookie the response sets: its whole ``Set-Cookie`` line, lower case."""
    lines: list[str] = response.headers.get_list("set-cookie")
    return {line.partition("=")[0]: line.lower() for line in lines}


def secure_flags(client: TestClient, headers: dict[str, str]) -> dict[str, bool]:
    """Sign up and open a page: which of the three cookies came with ``Secure``."""
    made = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}, headers=headers)
    assert made.status_code == 201, made.text
    client.cookies.clear()
    page = client.get("/", headers=headers)
    assert page.status_code == 200
    cookies = {**set_cookies(made), **set_cookies(page)}
    return {
        name: "; secure" in cookies[name] for name in (SESSION_COOKIE, HINT_COOKIE, GUEST_COOKIE)
    }


# ---------------------------------------------------------------------- the generated config
def test_the_proxy_sets_the_scheme_where_it_ends_tls() -> None:
    cfg = haproxy_config([Worker("w1", "127.0.0.1", 8001)], ":443 ssl crt /etc/x.pem")
    frontend = cfg.split("frontend gouji\n", 1)[1].split("\n\n", 1)[0]
    assert "    bind :443 ssl crt /etc/x.pem\n" in frontend
    assert "http-request set-header X-Forwarded-Proto https if { ssl_fc }" in frontend
    assert "http-request del-header X-Forwarded-Proto if !{ ssl_fc }" in frontend
    assert "option forwardfor" in cfg  # and the client's address


# ---------------------------------------------------------------------- the app as served
def test_cookies_are_secure_over_https_through_the_site_s_proxy(sqlite_url: str) -> None:
    with as_served(sqlite_url, True, {}, LOCAL) as client:  # HAProxy on this machine
        assert secure_flags(client, HTTPS) == dict.fromkeys(
            (SESSION_COOKIE, HINT_COOKIE, GUEST_COOKIE), True
        )


def test_a_proxy_elsewhere_is_trusted_when_named(tmp_path: Path) -> None:
    env = {"FORWARDED_ALLOW_IPS": PROXY_NET}
    with as_served(f"sqlite:///{tmp_path / 'a.db'}", True, env, (PROXY_NET, 40000)) as client:
        assert all(secure_flags(client, HTTPS).values())
    with as_served(f"sqlite:///{tmp_path / 'b.db'}", True, env, LOCAL) as client:
        assert not any(secure_flags(client, HTTPS).values())  # loopback is not the proxy then


def test_a_client_s_own_forwarded_scheme_is_ignored(sqlite_url: str) -> None:
    with as_served(sqlite_url, True, {}, REMOTE) as client:  # straight to a worker, not the proxy
        assert not any(secure_flags(client, HTTPS).values())


def test_plain_http_through_the_proxy_is_not_secure(sqlite_url: str) -> None:
    with as_served(sqlite_url, True, {}, LOCAL) as client:
        assert not any(secure_flags(client, {}).values())


# ---------------------------------------------------------------------- through HAProxy
def haproxy_bin() -> str:
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").is_file() else None
    )
    if found is None:
        pytest.skip("HAProxy is not installed (apt-get install haproxy)")
    return found


@pytest.fixture
def certificate(tmp_path: Path) -> Path:
    """A self-signed certificate for 127.0.0.1 and its key in one ``.pem`` (HAProxy's form)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    key, crt = tmp_path / "key.pem", tmp_path / "crt.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(crt)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pem = tmp_path / "site.pem"
    pem.write_text(crt.read_text() + key.read_text())
    return pem


@contextlib.contextmanager
def worker(db: str) -> Iterator[int]:
    """The app served by uvicorn on a loopback port as a site's worker (in a thread)."""
    port = free_port()
    asgi, options = served(fast_app(db), True, {})
    config = uvicorn.Config(asgi, host="127.0.0.1", port=port, log_config=None, **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_ok(f"http://127.0.0.1:{port}/readyz")
        yield port
    finally:
        server.should_exit = True
        thread.join(15)


@contextlib.contextmanager
def proxy(tmp_path: Path, port: int, bind: str) -> Iterator[None]:
    """HAProxy with the site's generated configuration in front of the worker on ``port``."""
    cfg = tmp_path / f"haproxy-{free_port()}.cfg"
    cfg.write_text(haproxy_config([Worker("w1", "127.0.0.1", port)], bind))
    proc = subprocess.Popen([haproxy_bin(), "-db", "-f", str(cfg)], stderr=subprocess.PIPE)
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(10)


def wait_ok(url: str, context: ssl.SSLContext | None = None) -> None:
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context)
    )
    end = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError), opener.open(url, timeout=2) as r:
            if r.status == 200:
                return
        assert time.monotonic() < end, f"{url} never answered"
        time.sleep(0.1)


def sign_up_at(url: str, context: ssl.SSLContext | None, headers: dict[str, str]) -> str:
    """``POST /api/accounts`` at ``url``: the session cookie's ``Set-Cookie`` line."""
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context)
    )
    request = urllib.request.Request(
        url + "/api/accounts",
        data=b'{"name": "Ann", "password": "%s"}' % PASSWORD.encode(),
        headers={"content-type": "application/json", **headers},
        method="POST",
    )
    with opener.open(request, timeout=30) as r:
        assert r.status == 201
        lines: list[str] = r.headers.get_all("set-cookie") or []
    return next(line for line in lines if line.startswith(SESSION_COOKIE + "=")).lower()


def test_secure_cookies_end_to_end_through_haproxy(tmp_path: Path, certificate: Path) -> None:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own certificate
    with worker(f"sqlite:///{tmp_path / 'tls.db'}") as port:
        front = free_port()
        with proxy(tmp_path, port, f"127.0.0.1:{front} ssl crt {certificate}"):
            url = f"https://127.0.0.1:{front}"
            wait_ok(url + "/readyz", context)
            assert "; secure" in sign_up_at(url, context, {})
    with worker(f"sqlite:///{tmp_path / 'plain.db'}") as port:
        front = free_port()
        with proxy(tmp_path, port, f"127.0.0.1:{front}"):
            url = f"http://127.0.0.1:{front}"
            wait_ok(url + "/readyz")
            assert "; secure" not in sign_up_at(url, None, HTTPS)  # a client's claim is dropped


# ---------------------------------------------------------------------- one process alone
ROOMS = Limits(messages_per_s=10_000, message_burst=10_000, rooms_per_ip_per_hour=2)


def rooms_made(client: TestClient, headers: dict[str, str]) -> list[int]:
    return [client.post("/api/rooms", json={}, headers=headers).status_code for _ in range(3)]


def test_one_process_believes_no_forwarded_header(tmp_path: Path) -> None:
    spoof = {"x-forwarded-for": "203.0.113.50", **HTTPS}
    db = f"sqlite:///{tmp_path / 'one.db'}"
    with as_served(db, False, {}, LOCAL, limits=ROOMS) as client:
        assert not any(secure_flags(client, HTTPS).values())  # no proxy: plain HTTP
        assert rooms_made(client, {}) == [201, 201, 201]  # the machine itself: not counted
        # a request relayed from this machine for somebody else is not the machine's own,
        # and a forged address does not make it anybody in particular
        assert rooms_made(client, spoof) == [201, 201, 429]
        other = {"x-forwarded-for": "198.51.100.1"}
        assert rooms_made(client, other) == [429, 429, 429]  # the same one address: RELAYED
    with as_served(db, False, {}, REMOTE, limits=ROOMS) as client:
        assert rooms_made(client, spoof) == [201, 201, 429]  # counted as itself


def test_one_process_believes_the_proxy_it_is_told_of(tmp_path: Path) -> None:
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1"}  # a single process behind the operator's nginx
    db = f"sqlite:///{tmp_path / 'nginx.db'}"
    with as_served(db, False, env, LOCAL, limits=ROOMS) as client:
        assert all(secure_flags(client, HTTPS).values())
        far = {"x-forwarded-for": "203.0.113.50"}
        assert rooms_made(client, far) == [201, 201, 429]
        assert rooms_made(client, {"x-forwarded-for": "198.51.100.1"}) == [201, 201, 429]


def test_relayed_is_no_loopback_address() -> None:
    assert not is_local(RELAYED)

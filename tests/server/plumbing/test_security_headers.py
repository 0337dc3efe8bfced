"""Every HTTP answer carries the security headers (issue 23, item 1): a Content-Security-Policy
without inline script and framing by nobody, nosniff, a same-origin Referrer-Policy. The pages
working under that policy is checked by every browser test: a blocked script, style, image or
connection is a console error there, and console errors fail a browser test."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.server.plumbing.headers import HEADERS

from ..wsutil import app_client, create_room

PATHS = ("/", "/events", "/events/new", "/rules/MATCH7", "/api/rooms", "/static/js/table.js")


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return app_client(tmp_path)


def _check(headers: dict[str, str], what: str) -> None:
    for name, value in HEADERS:
        assert headers.get(name.decode()) == value.decode(), (what, name)
    csp = headers["content-security-policy"]
    directives = dict(d.split(" ", 1) for d in csp.split("; "))
    assert directives["script-src"] == "'self'", csp  # no inline script, no foreign one
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_pages_api_files_and_errors_carry_the_headers(client: TestClient) -> None:
    with client:
        code = create_room(client)
        for path in (*PATHS, f"/r/{code}", f"/api/rooms/{code}"):
            r = client.get(path)
            assert r.status_code == 200, (path, r.status_code)
            _check(dict(r.headers), path)
        for path in ("/nosuch", "/api/rooms/NOSUCHRM", "/api/events/NOPE"):
            r = client.get(path)
            assert r.status_code == 404
            _check(dict(r.headers), path)
        r = client.post("/api/rooms", content=b"{")
        assert r.status_code == 400
        _check(dict(r.headers), "a refused POST")
        with client.websocket_connect("/ws") as ws:  # the socket is not an HTTP answer
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"

"""No cross-site request forgery, no cross-site websocket hijacking (issue 23, item 1): every
state-changing request and every websocket handshake from another site is refused; the site's
own pages, programs without a browser and a proxy's named origin pass."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gouji.server.plumbing.origin import normal_origin, same_site

from ..wsutil import Player, app_client, create_room

EVIL = {"origin": "http://evil.example"}


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    return app_client(sqlite_url, origins=["https://gouji.example.org"])


def test_cross_site_writes_are_refused_before_they_act(client: TestClient) -> None:
    with client:
        code = create_room(client)
        writes = [
            ("POST", "/api/rooms", {"bots": 5}),
            ("POST", "/api/accounts", {"name": "Mallory", "password": "12345678"}),
            ("POST", "/api/session", {"name": "Ann", "password": "12345678"}),
            ("DELETE", "/api/session", None),
            ("PUT", "/api/me/password", {"old": "a", "new": "b"}),
            ("DELETE", "/api/me", {"password": "x"}),
            ("POST", "/api/events", {"name": "x"}),
        ]
        for method, path, body in writes:
            r = client.request(method, path, json=body, headers=EVIL)
            assert r.status_code == 403 and r.json()["error"] == "cross_site", (method, path)
        assert client.get("/api/rooms").json()["rooms"] == []  # no room was made
        # reading is not refused (a link from another site opens the table)
        assert client.get(f"/api/rooms/{code}", headers=EVIL).status_code == 200
        fetch = {"sec-fetch-site": "cross-site"}  # an old browser without Origin
        assert client.post("/api/rooms", json={}, headers=fetch).status_code == 403


def test_the_site_s_own_origin_and_programs_pass(client: TestClient) -> None:
    with client:
        for headers in (
            {"origin": "http://testserver"},  # the Host the request came to
            {"origin": "https://gouji.example.org"},  # the proxy's, named with --origin
            {"origin": "https://GOUJI.example.org:443"},
            {"sec-fetch-site": "same-origin"},
            {},  # curl, a bot's client: no cookie of a victim to use
        ):
            assert client.post("/api/rooms", json={}, headers=headers).status_code == 201, headers


def test_a_cross_site_websocket_is_refused_at_the_handshake(client: TestClient) -> None:
    with client:
        code = create_room(client)
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws", headers=EVIL) as ws,
        ):
            ws.receive_json()
        assert refused.value.code == 1008
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert Player(ws).join(code)["room"] == code


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("https://x.org", "x.org", True),
        ("https://x.org", "x.org:443", True),
        ("http://x.org:8000", "x.org:8001", False),
        ("http://x.org.evil.example", "x.org", False),
        ("null", "x.org", False),
        ("http://user@x.org", "x.org", False),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://x.org", "", False),
    ],
)
def test_same_site(origin: str, host: str, same: bool) -> None:
    assert same_site(origin, host) is same


def test_normal_origin() -> None:
    assert normal_origin("https://A.org/") == "https://a.org:443"
    assert normal_origin("ftp://a.org") is None and normal_origin("a.org") is None


def test_serve_refuses_an_origin_that_is_no_address(capsys: pytest.CaptureFixture[str]) -> None:
    from gouji.cli import main

    assert main(["serve", "--origin", "ftp://gouji.example.org"]) == 2
    assert "--origin" in capsys.readouterr().err

"""Answers at the edge that were wrong or noisy (issue 39, the LOW row; D163): a client that
leaves in the middle of its body is answered quietly (no ERROR traceback in the log), and the
``403 cross_site`` answer carries the security headers like every other."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request

from gouji.server.plumbing.headers import HEADERS
from gouji.server.plumbing.http import ApiError, read_json

from ..wsutil import app_client


def _request(path: str, length: int) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(length).encode()),
        ],
        "client": ("203.0.113.7", 50000),
        "server": ("testserver", 80),
    }


@pytest.mark.parametrize("path", ["/api/accounts", "/api/session", "/api/rooms"])
def test_a_client_leaving_mid_body_logs_no_error(
    tmp_path: Path, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_client(tmp_path)
    sent: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = [
        {"type": "http.request", "body": b'{"name": "Ann", "pass', "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if parts else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    with client, caplog.at_level(logging.INFO):
        assert client.portal is not None
        client.portal.call(client.app, _request(path, 64), receive, send)
    assert sent and sent[0]["status"] == 400  # nobody reads it; no 500
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def test_read_json_answers_a_disconnect_as_a_client_error() -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def read() -> None:
        await read_json(Request(_request("/api/accounts", 10), receive))

    with pytest.raises(ApiError) as refused:
        asyncio.run(read())
    assert refused.value.status == 400 and refused.value.code == "bad_request"


def test_the_cross_site_refusal_carries_the_security_headers(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        r = client.post("/api/rooms", json={}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "cross_site"
        for name, value in HEADERS:
            assert r.headers.get(name.decode()) == value.decode(), name

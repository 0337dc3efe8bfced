"""Helpers of the players' tests: an account signed up through the HTTP API."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

PASSWORD = "correct horse"


def sign_up(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> dict[str, Any]:
    """A new account (the client now holds its session cookies): ``{"id", "name"}``."""
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body

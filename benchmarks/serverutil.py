"""What the server benchmarks share: a free loopback port, the HTTP calls they make, and
percentiles."""

from __future__ import annotations

import json
import socket
import urllib.request
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post_room(base: str, body: dict[str, Any]) -> str:
    """POST /api/rooms; the new room's code."""
    req = urllib.request.Request(base + "/api/rooms", data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req) as r:
        code: str = json.load(r)["code"]
        return code


def get_json(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:
        return json.load(r)


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]

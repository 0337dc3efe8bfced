"""Who may change an event, and the same request never changing it twice.

The organiser holds the event's key. A referee holds a key the organiser issued for chosen
matches (场次: "match 2" of every round is the same physical table at a real-card event);
only its hash is kept, and the organiser can revoke it. A referee enters sheets, corrects or
voids them, gives sanctions and walkovers at its matches, nothing else. The audit log names
who did each change ("organiser", "referee 王").

An organiser or referee POST/PUT/DELETE may carry an ``Idempotency-Key`` header: the same key
again (a double click, a retry after a lost answer) gets the first answer and changes
nothing. Answers are kept per event, the newest ``MAX_REPLIES``, with the event's settings.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from gouji.server.plumbing import tokens

MAX_REFEREES = 64
MAX_REPLIES = 200
_IDEMPOTENCY = re.compile(r"[\x21-\x7e]{1,100}")  # visible ASCII, as the header allows
_TABLE = re.compile(r"r[0-9]{1,3}m([0-9]{1,4})(?:t[12])?")


@dataclass(frozen=True)
class Actor:
    """Whoever a request's key is: the organiser, or a referee for ``matches`` (None: all)."""

    role: str  # "organiser" or "referee"
    name: str = ""
    id: str = ""
    matches: tuple[int, ...] | None = None

    @property
    def label(self) -> str:
        """How the audit log names it."""
        return "organiser" if self.role == "organiser" else f"referee {self.name}"

    def covers(self, table_or_match: str) -> bool:
        """Whether this key may act at a table or match (by its match number)."""
        if self.role == "organiser" or self.matches is None:
            return True
        m = _TABLE.fullmatch(table_or_match)
        return m is not None and int(m.group(1)) in self.matches

    def as_dict(self) -> dict[str, Any]:
        return {"role": self.role, "name": self.name, "id": self.id,
                "matches": None if self.matches is None else list(self.matches)}  # fmt: skip


def referee_by_key(referees: list[dict[str, Any]], key: str) -> Actor | None:
    """The live (not revoked) referee whose key this is."""
    for r in referees:
        if not r.get("revoked") and tokens.matches(key, r["hash"]):
            matches = r.get("matches")
            return Actor("referee", r["name"], r["id"], None if matches is None else tuple(matches))
    return None


def new_referee(
    referees: list[dict[str, Any]], name: str, matches: list[int] | None, now: float
) -> tuple[dict[str, Any], str]:
    """A referee entry (stored: its key's hash) and its key (shown once)."""
    if sum(1 for r in referees if not r.get("revoked")) >= MAX_REFEREES:
        raise ValueError(f"an event has at most {MAX_REFEREES} referees")
    key = tokens.new_token()
    entry = {
        "id": secrets.token_hex(4),
        "name": name,
        "matches": matches,
        "hash": tokens.token_hash(key),
        "created": round(now, 3),
        "revoked": None,
    }
    return entry, key


def public(referee: dict[str, Any]) -> dict[str, Any]:
    """A referee as the organiser's list shows it: never its key's hash."""
    return {k: referee[k] for k in ("id", "name", "matches", "created", "revoked")}


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key, checked (None when it has none)."""
    raw = request.headers.get("idempotency-key")
    if raw is None:
        return None
    if not _IDEMPOTENCY.fullmatch(raw):
        raise ValueError("Idempotency-Key is 1 to 100 visible ASCII characters")
    return raw


@dataclass
class Replies:
    """The answers given to keyed requests of one event (kept with its settings) and the
    requests with a key still being answered (a double click waits for the first)."""

    stored: dict[str, dict[str, Any]]
    running: dict[str, asyncio.Future[None]]

    def find(self, key: str, method: str, path: str) -> dict[str, Any] | None:
        reply = self.stored.get(key)
        if reply is not None and (reply["method"], reply["path"]) != (method, path):
            raise LookupError("this Idempotency-Key was used for another request")
        return reply

    def keep(self, key: str, method: str, path: str, status: int, body: bytes) -> None:
        self.stored[key] = {
            "method": method,
            "path": path,
            "status": status,
            "body": body.decode("utf-8"),
        }
        while len(self.stored) > MAX_REPLIES:
            self.stored.pop(next(iter(self.stored)))


__all__ = [
    "Actor",
    "Replies",
    "idempotency_key",
    "new_referee",
    "public",
    "referee_by_key",
]

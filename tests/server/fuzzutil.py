"""What the fuzz tests of the server share (tests/server/tables/test_server_fuzz.py: the
websocket; test_server_fuzz_http.py: HTTP): the limits they run with, the checks of every answer
and of the log, a websocket client that marks whose answer is whose, the rebuild of the rooms
from the store, and the strategies of odd text and JSON."""

import dataclasses
import json
import logging
import string
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from gouji.server.site.store import Store
from gouji.server.tables.hub import Hub
from gouji.server.tables.phrases import SAY_IDS
from gouji.server.tables.protocol import (
    ACCOUNT_NEEDED,
    BAD_INVITE,
    BAD_JSON,
    BAD_MESSAGE,
    ILLEGAL,
    MAX_MESSAGE,
    NO_ROOM,
    NOT_JOINED,
    NOT_STARTED,
    NOT_YOUR_TURN,
    RATE_LIMITED,
    ROOM_FULL,
    SEAT_TAKEN,
    STARTED,
    TOO_LARGE,
    TOO_MANY_CONNECTIONS,
    UNAVAILABLE,
)
from gouji.server.tables.room import Room
from gouji.server.tables.store import StoredRoom
from support import sized

from .wsutil import FAST

Message = dict[str, Any]
Snapshot = dict[str, Any]
Frame = tuple[str, str | bytes]  # ("text", str) or ("bytes", bytes)

SEED = 7  # the deal of the fuzzed rooms (the fuzzing player usually sits where play starts)
SLOW_BOTS = {"bot_delay_ms": 60_000, "next_delay_ms": 600_000, "timer_s": None}
#: the fuzz asks for many unknown room codes; the per-address limit on them (tested in
#: test_server_security.py) would otherwise, rightly, refuse every later join
WS_LIMITS = dataclasses.replace(FAST, lookups_per_ip_per_min=1_000_000)
#: from afar (the TestClient's "testclient" address), with room creation and lookups not
#: rationed, and all-bot rooms stopped at once so they do not play on in the background
HTTP_LIMITS = dataclasses.replace(
    WS_LIMITS, rooms_per_ip_per_hour=1_000_000, bot_room_s=0.05, bot_room_games=1
)
HTTP_EXAMPLES = sized(300, 2400)

ERROR_CODES = frozenset(
    {
        BAD_JSON,
        BAD_MESSAGE,
        TOO_LARGE,
        NO_ROOM,
        NOT_JOINED,
        NOT_YOUR_TURN,
        ILLEGAL,
        SEAT_TAKEN,
        STARTED,
        NOT_STARTED,
        RATE_LIMITED,
        ROOM_FULL,
        UNAVAILABLE,
        TOO_MANY_CONNECTIONS,
        BAD_INVITE,
        ACCOUNT_NEEDED,
    }
)
STATUSES = frozenset({"waiting", "playing", "between", "over", "expired"})
SUMMARY_KEYS = frozenset(
    {
        "code",
        "config",
        "status",
        "version",
        "seats",
        "spectators",
        "game",
        "games_finished",
        "totals",
        "to_act",
        "next_due",
        "watchers",
        "notes",
        "event",
    }
)
SEAT_KEYS = frozenset(
    {"seat", "name", "bot", "human", "online", "trust", "timeouts", "free", "reserved", "account"}
)
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_-")

#: what one run sent: "ws" fuzzed websocket messages, "ws_own" the test's own (markers,
#: probes, the other players' moves), "http" fuzzed HTTP requests
COUNTS: Counter[str] = Counter()


def fuzz_settings(examples: int) -> settings:
    """Reproducible runs: a fixed seed from the test's code, no example database."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ------------------------------------------------------------------------------ the checks
def check_documented(m: Any, who: str) -> None:
    """``m`` is a server message docs/protocol.md documents, with the fields it lists."""
    assert isinstance(m, dict) and isinstance(m.get("type"), str), f"{who}: got {m!a}"
    kind = m["type"]
    keys = set(m)
    if kind == "error":
        assert {"type", "code", "message"} <= keys <= {"type", "code", "message", "id", "reason"}, m
        assert m.get("reason") is None or m["code"] == "illegal", m
        assert m["code"] in ERROR_CODES, f"{who}: undocumented error code in {m!a}"
        assert isinstance(m["message"], str) and m["message"], m
        assert isinstance(m.get("id", ""), str), m
    elif kind == "pong":
        assert m == {"type": "pong"}, m
    elif kind == "welcome":
        assert keys == {"type", "token", "seat", "room"}, m
        assert isinstance(m["token"], str) and m["token"] and set(m["token"]) <= TOKEN_CHARS, m
        assert m["seat"] is None or (type(m["seat"]) is int and 0 <= m["seat"] < 6), m
        assert isinstance(m["room"], str) and m["room"], m
    elif kind == "state":
        assert keys == {"type", "version", "room", "view", "deadline"}, m
        assert type(m["version"]) is int and m["version"] >= 0, m
        room = m["room"]
        assert isinstance(room, dict) and set(room) >= SUMMARY_KEYS, m
        assert room["status"] in STATUSES and room["version"] == m["version"], m
        seats = room["seats"]
        assert isinstance(seats, list) and len(seats) == 6, m
        assert all(isinstance(s, dict) and set(s) == SEAT_KEYS for s in seats), m
        assert m["view"] is None or isinstance(m["view"], dict), m
        assert m["deadline"] is None or isinstance(m["deadline"], int | float), m
    elif kind == "ack":
        assert keys == {"type", "id", "duplicate"}, m
        assert isinstance(m["id"], str) and isinstance(m["duplicate"], bool), m
    elif kind == "hint":
        assert keys == {"type", "action"} and isinstance(m["action"], str) and m["action"], m
    elif kind == "replaced":
        assert {"type", "message"} <= keys <= {"type", "message", "why"}, m
        assert isinstance(m["message"], str) and m.get("why", "relink") == "relink", m
    elif kind == "check":
        assert (
            {"type", "action", "ok", "reason"} <= keys <= {"type", "action", "ok", "reason", "id"}
        )
        assert isinstance(m["ok"], bool) and (m["reason"] is None) == m["ok"], m
    elif kind == "said":
        assert keys == {"type", "seat", "id"} and m["id"] in SAY_IDS, m
        assert type(m["seat"]) is int and 0 <= m["seat"] < 6, m
    else:
        raise AssertionError(f"{who}: undocumented message {m!a}")


def check_log(caplog: pytest.LogCaptureFixture, after: str) -> None:
    """No traceback and no ERROR record (of ``gouji.server`` or anybody) since the last
    check."""
    records = list(caplog.records)
    caplog.clear()
    for rec in records:
        text = rec.getMessage()
        bad = rec.levelno >= logging.ERROR or rec.exc_info is not None or "Traceback" in text
        assert not bad, f"after {after}: {rec.name} logged {rec.levelname}: {text}"


def snapshot(room: Room) -> Snapshot:
    m = room.match
    return {
        "version": room.version,
        "status": room.status,
        "seats": [(s.name, s.token, s.bot, s.trust, s.timeouts) for s in room.seats],
        "applied": sorted(room.applied, key=repr),
        "record": m.record() if m is not None else None,
    }


async def live_rooms(hub: Hub, codes: tuple[str, ...]) -> dict[str, Snapshot]:
    """The live rooms, read in the server's loop under each room's lock."""
    out: dict[str, Snapshot] = {}
    for code in codes:
        room = hub.get(code)
        assert room is not None
        async with room.lock:
            out[code] = snapshot(room)
    return out


class Rebuilt:
    """The rooms as a restart rebuilds them from the database (``Store.load``, then
    ``Hub._room_of`` and ``Room.replay``). A rebuild is a function of the stored room, so
    it is made again only when the stored room changed."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        self.known: dict[str, tuple[StoredRoom, Snapshot]] = {}

    def rooms(self, codes: tuple[str, ...]) -> dict[str, Snapshot]:
        found = {r.code: r for r in self.store.load() if r.code in codes}
        out: dict[str, Snapshot] = {}
        for code in codes:
            stored = found[code]
            if code in self.known and self.known[code][0] == stored:
                out[code] = self.known[code][1]
                continue
            room = Hub(None)._room_of(stored)
            room.replay(stored.actions)
            out[code] = snapshot(room)
            self.known[code] = (stored, out[code])
            rows = {r.seat: (r.name, r.token, r.bot) for r in self.store.seats(code)}
            table = [rows.get(i, (None, None, None)) for i in range(6)]
            assert table == [s[:3] for s in out[code]["seats"]], f"room {code}: seats table"
        return out

    def close(self) -> None:
        self.store.close()


# ------------------------------------------------------------------------------ a client
class Conn:
    """One websocket of a test; every message it gets is checked against the protocol."""

    def __init__(self, ws: WebSocketTestSession, who: str) -> None:
        self.ws = ws
        self.who = who
        self.marks = 0
        self.acts = 0
        self.state: Message | None = None
        self.welcome: Message | None = None

    def send(self, frame: Frame) -> None:
        payload = frame[1]
        if isinstance(payload, bytes):
            self.ws.send_bytes(payload)
        else:
            self.ws.send_text(payload)

    def own(self, **msg: Any) -> None:
        """A message of the test's own (not fuzzed)."""
        COUNTS["ws_own"] += 1
        self.ws.send_text(json.dumps(msg))

    def receive(self) -> Message:
        try:
            raw = self.ws.receive()
        except Exception as e:  # the app's task died: uvicorn would close with 1011
            raise AssertionError(f"{self.who}: the socket broke: {e!r}") from e
        if raw["type"] == "websocket.close":
            raise AssertionError(f"{self.who}: closed {raw.get('code')}: {raw.get('reason')}")
        assert raw["type"] == "websocket.send" and isinstance(raw.get("text"), str), raw
        m: Message = json.loads(raw["text"])
        check_documented(m, self.who)
        if m["type"] == "state":
            self.state = m
        elif m["type"] == "welcome":
            self.welcome = m
        return m

    def _sync(self) -> list[Message]:
        self.marks += 1
        mark = f"~mark~{self.marks}"
        self.own(type="~mark", id=mark)
        got: list[Message] = []
        while True:
            m = self.receive()
            if m["type"] == "error" and m.get("id") == mark:
                assert m["code"] == BAD_MESSAGE, m
                return got
            got.append(m)

    def flush(self, atomic: bool = False) -> list[Message]:
        """Everything the server sends for what was sent before (see the module docstring).
        The answer to one message (``atomic``: handled without a pause, so its ``state``
        comes after all it queued) is complete once a ``state`` came before the marker's."""
        got = self._sync()
        if atomic and any(m["type"] == "state" for m in got):
            return got
        return got + self._sync()

    def do(self, **msg: Any) -> list[Message]:
        self.own(**msg)
        return self.flush()

    def act_first_legal(self) -> None:
        assert self.state is not None and self.state["view"] is not None
        self.play(self.state["view"]["legal_actions"][0])

    def act_hinted(self) -> None:
        hints = [m for m in self.do(type="hint") if m["type"] == "hint"]
        assert len(hints) == 1, hints
        self.play(hints[0]["action"])

    def play(self, action: str) -> None:
        self.acts += 1
        answers = self.do(type="act", id=f"p.{self.acts}", action=action)
        assert any(m["type"] == "ack" for m in answers), answers


def probe(
    conn: Conn, version: int, names: list[str | None], seat: int, *, same_room: bool = False
) -> None:
    """``conn`` (seated at ``seat``) is not disturbed: pong, then a state at ``version`` with
    the seats' ``names``, its own view, no error and no take-over."""
    conn.own(type="ping")
    conn.own(type="resync")
    got = conn.flush()
    assert [m for m in got if m["type"] == "pong"] == [{"type": "pong"}], (conn.who, got)
    # a fuzzing player seated at the same table may say a 快捷语, which its room hears
    heard = ("pong", "state", "said") if same_room else ("pong", "state")
    assert not [m for m in got if m["type"] not in heard], (conn.who, got)
    states = [m for m in got if m["type"] == "state"]
    assert states, f"{conn.who}: no state after resync"
    last = states[-1]
    assert last["version"] == version, (conn.who, last["version"], version)
    assert [s["name"] for s in last["room"]["seats"]] == names, (conn.who, last["room"])
    assert last["room"]["seats"][seat]["human"] and last["room"]["seats"][seat]["online"]
    assert last["view"] is None or last["view"]["seat"] == seat, conn.who


# ------------------------------------------------------------------------------ strategies
ODD_STRINGS = (
    "",
    " ",
    "\t\n",
    "null",
    "0",
    "-1",
    "1e999",
    "NaN",
    "true",
    "²",
    "٣",
    "Ⅻ",
    "ß",
    "İ",
    "ﬀ",
    "\u200b",
    "\u202eevil",
    "\ufeff",
    "e\u0301",
    "名字",
    "🂡",
    "\ud800",
    "\udfff",
    "a\ud83cb",
    "a\x00b",
    "\x00",
    "\x07",
    "\x1b[31m",
    "<script>",
    "../../etc/passwd",
    "%00",
    "x" * 1000,
    "é" * 3000,
    "x" * (MAX_MESSAGE + 1),
)


ODD_TEXT = st.one_of(st.text(max_size=24), st.sampled_from(ODD_STRINGS))


def json_values(leaves: int) -> st.SearchStrategy[Any]:
    """Any JSON value: wrong types for every field, unknown shapes, odd strings."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(),
        ODD_TEXT,
    )
    return st.recursive(
        scalars,
        lambda kids: st.one_of(
            st.lists(kids, max_size=4), st.dictionaries(ODD_TEXT, kids, max_size=4)
        ),
        max_leaves=leaves,
    )


JSON = json_values(8)
SMALL_JSON = json_values(3)


def nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth

"""Fuzzing the server's websocket protocol and HTTP endpoints with Hypothesis, in process
through Starlette's TestClient (loopback only, no network).

For every fuzzed websocket message and every fuzzed HTTP request:

1. no HTTP answer is a 5xx (an error is a 4xx with ``{"error": "..."}``);
2. the log holds no traceback and no ERROR record (a WARNING for a dropped connection is fine);
3. the websocket answers with messages docs/protocol.md documents (errors with a code of
   ``gouji.server.tables.protocol``), and an error leaves every room's version as it was; never a
   closed or broken socket (what uvicorn closes with 1011);
4. nobody else is disturbed: a seated player in the same room and one in another room still
   get ``pong`` and, after ``resync``, a valid ``state`` at their room's version with its seats'
   names as the room has them (their own unchanged), their own view and no take-over;
5. the store equals memory: each room rebuilt from the database as a restart does
   (``Store.load``, ``Hub._room_of``, ``Room.replay``) has the live room's version, status,
   seats (name, token hash, bot, 托管, timeouts), applied ids and match record, and the seats
   table agrees.

Each example gets a server of its own (a fresh SQLite file): the fuzzed room, where "bob"
sits, and another room, where "bea" sits and the match has started. Rooms have no turn timer
and bots that wait a minute, so nothing moves by itself; the test lets the game go on when it
chooses (the bots decide through the room driver's own step, "bob" through the websocket). An
example begins in one of ``SCENARIOS`` (the fuzzing connection seated where play starts, in a
started match; after a whole game; seated before the start; its seat taken over by another
connection with its token; watching; in the other room; nowhere), then sends 4 to 24 fuzzed
frames: messages of every type with good, odd, wrongly typed, missing or extra fields (legal
actions of the seat among them), any JSON, raw text and bytes, and odd frames (deep nesting,
4,300-digit numbers, lone surrogates, NUL, BOMs, UTF-16, over 16 KiB).

HTTP: ``POST /api/rooms`` with fuzzed configs (every field, rule overrides), any JSON, raw
bytes and odd bodies (huge, deep, lone surrogates, NUL, 4,300-digit numbers, UTF-16) and odd
headers (``content-length`` of 5,000 digits); every route with fuzzed methods, room codes,
game indexes ("²", "%00", 5,000 characters), static paths and ``Range`` headers, against a room
with a finished game and a waiting one. The fuzz runs with message rates, room creation and
unknown-code lookups not rationed; with the default limits, a flood of 100 messages gets a
``rate_limited`` error, then a close 1008, and the seated player in the room plays on.

Whose answer is whose: after each message the test sends a marker (a message of an unknown
type with a fresh ``id``; its answer is a ``bad_message`` error with that id) and reads up to
that answer. A connection's messages are handled one after the other, each without a pause, and
its writer sends what is queued before the pending ``state``; so what a message caused came
before the marker's answer, but for a ``state``, which may come right after it: when none came,
a second marker collects it. The other players are read with two markers always, so nothing is
left over when the next message goes out.

Reproducible: ``derandomize=True`` (a seed from each test's code) and no example database; the
counts below hold for this code and Hypothesis 6.170. The default run sends 760 fuzzed
websocket messages (659 fuzzed frames and the flood test's 101; besides them 9,936 messages of
the test's own: markers, probes and moves of the other players) and 309 fuzzed HTTP requests
(300 drawn and the 9 of ``SURE_REQUESTS``): it reaches every line and branch of src/gouji that
the 74 websocket examples and 600 HTTP requests of one run did before it was sized (coverage).
The deep run (``GOUJI_TEST_PROFILE=deep``), with four times those examples, sends 5,140 fuzzed
websocket messages (5,039 frames and the 101; 70,800 of its own) and 2,409 HTTP requests. The
tests assert lower bounds of these counts, and that the fuzz reached the engine.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketTestSession

from gouji.agents import names as agent_names
from gouji.engine.actions import WORDS
from gouji.engine.cards import RANKS
from gouji.engine.match import Match
from gouji.engine.rules import KEYS, PRESETS, make_rules
from gouji.server import create_app
from gouji.server.plumbing.http import MAX_BODY
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
    MESSAGE_TYPES,
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
    parse_config,
)
from gouji.server.tables.room import Room
from gouji.server.tables.store import StoredRoom
from support import sized

from ..wsutil import FAST, create_room, wait_for

pytestmark = pytest.mark.timeout(sized(60, 600))  # the deep run: four times the examples

Message = dict[str, Any]
Snapshot = dict[str, Any]
Frame = tuple[str, str | bytes]  # ("text", str) or ("bytes", bytes)

LOCAL = ("127.0.0.1", 50000)  # rooms made from the machine itself are not rationed
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


def _fuzz_settings(examples: int) -> settings:
    """Reproducible runs: a fixed seed from the test's code, no example database."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ------------------------------------------------------------------------------ the checks
def _check_documented(m: Any, who: str) -> None:
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


def _check_log(caplog: pytest.LogCaptureFixture, after: str) -> None:
    """No traceback and no ERROR record (of ``gouji.server`` or anybody) since the last
    check."""
    records = list(caplog.records)
    caplog.clear()
    for rec in records:
        text = rec.getMessage()
        bad = rec.levelno >= logging.ERROR or rec.exc_info is not None or "Traceback" in text
        assert not bad, f"after {after}: {rec.name} logged {rec.levelname}: {text}"


def _snapshot(room: Room) -> Snapshot:
    m = room.match
    return {
        "version": room.version,
        "status": room.status,
        "seats": [(s.name, s.token, s.bot, s.trust, s.timeouts) for s in room.seats],
        "applied": sorted(room.applied, key=repr),
        "record": m.record() if m is not None else None,
    }


async def _live(hub: Hub, codes: tuple[str, ...]) -> dict[str, Snapshot]:
    """The live rooms, read in the server's loop under each room's lock."""
    out: dict[str, Snapshot] = {}
    for code in codes:
        room = hub.get(code)
        assert room is not None
        async with room.lock:
            out[code] = _snapshot(room)
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
            out[code] = _snapshot(room)
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
        _check_documented(m, self.who)
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


def _probe(
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


def _json_values(leaves: int) -> st.SearchStrategy[Any]:
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


JSON = _json_values(8)
SMALL_JSON = _json_values(3)
GOOD_NAMES = ("ann", " Ann ", "guest", "名字", "e\u0301", "ＡＢＣ", "🂡 ace", "x" * 40, "bob")
NAMES = st.one_of(
    st.sampled_from(GOOD_NAMES),
    st.sampled_from(("", "  ", "x" * 41, "\u200b", "\u202ebob", "\ud800", "a\x00", "\t")),
    st.text(max_size=45),
)
ACTION_WORDS = (*WORDS, "play", "burn", "hui", "order", "huan", *RANKS)
ACTION_ODD = (*RANKS, "0", "1", "10", "11", "x", "-", "LJLJ", "PASS", "Play", "７", "\x00")
ACTION_TEXTS = st.one_of(
    st.lists(st.sampled_from(ACTION_WORDS), min_size=1, max_size=8).map(" ".join),
    st.lists(st.sampled_from(ACTION_WORDS + ACTION_ODD), min_size=1, max_size=6).map(" ".join),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
    st.sampled_from(
        (
            "pass",
            "",
            " ",
            "x" * 300,
            "x" * 301,
            "play 7\x00",
            "play ７",
            "\ud800",
            "play " + "7 " * 147,
            "order " + "9" * 290,
            "noswap",
            "noskip",
        )
    ),
)
ID_TEXT = st.from_regex(r"[A-Za-z0-9._:~-]{1,100}", fullmatch=True).filter(
    lambda s: not s.startswith("~mark")
)
ROOM_TEXT = st.from_regex(r"[A-Za-z0-9]{1,16}", fullmatch=True)
TOKEN_TEXT = st.from_regex(r"[A-Za-z0-9_-]{1,100}", fullmatch=True)
EXTRA_FIELDS = st.one_of(
    st.sampled_from(("bots", "bot", "seat", "room", "name", "on", "pad", "__proto__")), ODD_TEXT
)
BAD_FIELD = st.sampled_from(("odd", "wrong", "missing", "null"))
ODD_TYPES = st.sampled_from(("", "PING", "ping ", "Join", "state", "error", "ack", "pong"))


@dataclass
class Ctx:
    """What the fuzzing connection knows: the rooms, its token, its legal actions, its ids."""

    code: str
    other: str
    first: int
    token: str | None = None
    legal: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=lambda: ["a"])
    moves: int = 0

    def learn(self, answers: list[Message], conn: Conn) -> None:
        for m in answers:
            if m["type"] == "welcome":
                self.token = m["token"]
            elif m["type"] == "ack":
                self.ids.append(m["id"])
        view = conn.state["view"] if conn.state is not None else None
        self.legal = list(view.get("legal_actions", [])) if view is not None else []


def _actions(ctx: Ctx) -> st.SearchStrategy[str]:
    """Action texts: mostly legal ones when the seat has a decision, else engine garbage."""
    if not ctx.legal:
        return ACTION_TEXTS
    legal = st.sampled_from(ctx.legal)
    changed = st.sampled_from(
        [
            b
            for a in ctx.legal
            for b in (a.upper(), f"  {a}  ", a + " 7", a.replace(" ", "  "), a[::-1])
        ]
    )
    return st.one_of(legal, legal, changed, ACTION_TEXTS)


def _field_values(kind: str, ctx: Ctx) -> dict[str, st.SearchStrategy[Any]]:
    """Good-looking values of each field of a message type."""
    if kind == "join":
        rooms = st.one_of(
            st.sampled_from((ctx.code, ctx.code, ctx.code.lower(), ctx.other, "ZZZZ2222")),
            st.sampled_from((f" {ctx.code}", "A" * 17, "")),
            ROOM_TEXT,
            ODD_TEXT,
        )
        tokens = st.one_of(
            st.sampled_from(("", "bogus", "x" * 100, "x" * 101, "a b", ctx.token or "t")),
            TOKEN_TEXT,
            ODD_TEXT,
        )
        return {"room": rooms, "name": NAMES, "token": tokens}
    if kind == "sit":
        return {"seat": st.one_of(st.just(ctx.first), st.integers(-2, 8))}
    if kind == "act":
        return {"id": st.one_of(ID_TEXT, st.sampled_from(ctx.ids)), "action": _actions(ctx)}
    if kind == "trust":
        return {"on": st.booleans()}
    if kind == "say":  # 快捷语: a known id, or any other text (refused)
        return {"id": st.one_of(st.sampled_from(sorted(SAY_IDS)), ID_TEXT)}
    return {}


def _confused(value: Any) -> st.SearchStrategy[Any]:
    """The value with the wrong type: numbers as strings, bools as ints, wrapped, padded."""
    options: list[Any] = [[value], {"value": value}]
    if isinstance(value, bool):
        options += [int(value), str(value).lower()]
    elif isinstance(value, int):
        options += [str(value), float(value), value != 0, value + 2**64]
    elif isinstance(value, str):  # (as many options whatever the text: reproducible draws)
        options += [value + "\x00", f" {value} ", value.upper(), value * 3, len(value)]
    return st.sampled_from(options)


def _draw_message(data: st.DataObject, ctx: Ctx, kind: str | None = None, odd: int = 4) -> Message:
    """A message of a protocol type (or an odd one) whose fields are good, or (one time in
    ``odd`` + 1 each) of a wrong type, odd, missing or null; sometimes an ``id``, an unknown
    field, a type that is no string."""
    if kind is None:
        types = st.one_of(
            st.sampled_from(MESSAGE_TYPES), st.sampled_from(MESSAGE_TYPES), ODD_TYPES, ODD_TEXT
        )
        kind = data.draw(types, label="type")
    msg: Message = {"type": kind}
    for name, good in _field_values(kind, ctx).items():
        how = "good" if data.draw(st.integers(0, odd)) else data.draw(BAD_FIELD, label="bad")
        if how == "good":
            msg[name] = data.draw(good, label=name)
        elif how == "odd":
            msg[name] = data.draw(JSON, label=name)
        elif how == "wrong":
            msg[name] = data.draw(good.flatmap(_confused), label=name)
        elif how == "null":
            msg[name] = None
    if "id" not in msg and data.draw(st.integers(0, 3)) == 0:
        msg["id"] = data.draw(st.one_of(ID_TEXT, SMALL_JSON), label="id")
    if data.draw(st.integers(0, 3 * odd)) == 0:
        msg[data.draw(EXTRA_FIELDS, label="extra field")] = data.draw(JSON, label="extra")
    if data.draw(st.integers(0, 3 * odd)) == 0:  # the type itself no string
        msg["type"] = data.draw(SMALL_JSON, label="type value")
    return msg


def _draw_encoded(data: st.DataObject, value: Any) -> Frame:
    """``value`` as JSON: escaped or raw Unicode, in a text or (1 in 4) a binary frame."""
    text = json.dumps(value, ensure_ascii=data.draw(st.booleans(), label="ascii"))
    if data.draw(st.integers(0, 3), label="binary") == 0:
        return ("bytes", text.encode("utf-8", "surrogatepass"))
    return ("text", text)


def _nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


SPECIAL_FRAMES: tuple[Frame, ...] = (
    ("text", ""),
    ("bytes", b""),
    ("text", " "),
    ("text", "null"),
    ("text", "{}"),
    ("text", "[]"),
    ("text", '"ping"'),
    ("text", "1"),
    ("text", "{"),
    ("text", '{"type":"ping"'),
    ("text", '{"type":"ping"}{"type":"ping"}'),
    ("text", '{"type":"ping","type":"join"}'),
    ("text", _nested(50)),
    ("text", '{"type":"ping","x":' + _nested(50) + "}"),
    ("text", '{"type":"ping","id":"a","x":' + _nested(7, "1") + "}"),
    ("text", _nested(5000)),
    ("text", _nested(9000)),
    ("text", '{"a":' * 3000 + "1" + "}" * 3000),
    ("text", '{"type":"sit","seat":' + "9" * 4300 + "}"),
    ("text", '{"type":"sit","seat":' + "9" * 4301 + "}"),
    ("text", '{"type":"sit","seat":-' + "9" * 5000 + "}"),
    ("text", '{"type":"sit","seat":1e400}'),
    ("text", '{"type":"sit","seat":NaN}'),
    ("text", '{"type":"sit","seat":-Infinity}'),
    ("text", '{"type":"sit","seat":-0}'),
    ("text", '{"type":"sit","seat":1.0}'),
    ("text", '{"type":"sit","seat":true}'),
    ("text", '{"type":"sit","seat":"1"}'),
    ("text", '{"type":"trust","on":1}'),
    ("text", '{"type":"trust","on":"true"}'),
    ("text", '{"type":"join","room":"AB","name":"\\ud800"}'),
    ("text", '{"type":"join","room":"AB","name":"\\udfff\\ud800"}'),
    ("text", '{"type":"act","id":"\\ud800","action":"pass"}'),
    ("text", '{"type":"act","id":"a","action":"pass\\u0000"}'),
    ("text", '{"type":"act","id":"a","action":"pass\x00"}'),
    ("text", '{"type":"ping"}\x00'),
    ("text", '{"type":"ping","id":"\ud800"}'),
    ("text", "\ud800"),
    ("text", '\ufeff{"type":"ping"}'),
    ("bytes", b'\xef\xbb\xbf{"type":"ping"}'),
    ("bytes", '{"type":"ping"}'.encode("utf-16")),
    ("bytes", '{"type":"ping"}'.encode("utf-32")),
    ("bytes", b"\xff\xfe\xfd"),
    ("bytes", b'{"type":"join","room":"\xed\xa0\x80"}'),
    ("bytes", b'{"type":"ping","id":"\xc0\xaf"}'),
    ("text", "x" * (MAX_MESSAGE + 1)),
    ("text", json.dumps({"type": "ping", "pad": "é" * (MAX_MESSAGE // 2)}, ensure_ascii=False)),
    ("text", json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE - 40)})),
    ("text", '{"type":"ping","id":null}'),
    ("text", '{"type":["ping"]}'),
    ("text", '{"type":{"a":1}}'),
    ("text", '{"type":"act","id":"' + "i" * 101 + '","action":"pass"}'),
    ("text", '{"type":"act","id":"ok","action":"' + "p" * 301 + '"}'),
)


FRAME_KINDS = ("message",) * 5 + ("act",) * 2 + ("json", "raw", "special")
TURN_FRAME_KINDS = (
    ("message",) * 2 + ("act",) * 4 + ("legal",) * 2 + ("hint", "json", "raw", "special")
)
LOBBY_FRAME_KINDS = ("message",) * 4 + ("lobby",) * 3 + ("act", "json", "raw", "special")
LOBBY_TYPES = st.sampled_from(("sit", "stand", "start", "sit"))
RAW_FRAMES = st.one_of(st.binary(max_size=64).map(lambda b: ("bytes", b)), st.text(max_size=64))


def _draw_frame(data: st.DataObject, ctx: Ctx, started: bool) -> Frame:
    """One fuzzed frame: a message of a protocol type (an ``act`` or a ``hint`` more often
    when the seat has a decision, a ``sit``, ``stand`` or ``start`` before the start), any
    JSON value, raw text or bytes, or one of the odd frames."""
    kinds = TURN_FRAME_KINDS if ctx.legal else FRAME_KINDS if started else LOBBY_FRAME_KINDS
    kind = data.draw(st.sampled_from(kinds), label="frame kind")
    if kind == "lobby":
        kind = data.draw(LOBBY_TYPES, label="lobby type")
    if kind == "message":
        return _draw_encoded(data, _draw_message(data, ctx))
    if kind == "legal":  # a legal move with a fresh id: the game goes on
        ctx.moves += 1
        action = data.draw(st.sampled_from(ctx.legal), label="legal")
        return _draw_encoded(data, {"type": "act", "id": f"move.{ctx.moves}", "action": action})
    if kind in ("act", "hint", "sit", "stand", "start"):
        return _draw_encoded(data, _draw_message(data, ctx, kind, odd=12))
    if kind == "json":
        return _draw_encoded(data, data.draw(JSON, label="json"))
    if kind == "raw":
        got = data.draw(RAW_FRAMES, label="raw")
        return got if isinstance(got, tuple) else ("text", got)
    return data.draw(st.sampled_from(SPECIAL_FRAMES), label="special")


# ------------------------------------------------------------------------------ ws fuzzing
async def _bots_play(room: Room, most: int) -> int | None:
    """Let bots and 托管 seats decide, through the driver's own step, until a human's turn."""
    for _ in range(most):
        m = room.match
        if m is None or m.to_act is None or not room.seats[m.to_act].automatic:
            break
        await room._step("bot")
    m = room.match
    return m.to_act if m is not None else None


@dataclass
class Table:
    """The fuzzed room, its seated player, the other room and its player, and every check."""

    client: TestClient
    hub: Hub
    rebuilt: Rebuilt
    caplog: pytest.LogCaptureFixture
    code: str
    near: Conn
    near_seat: int
    other: str
    far: Conn
    far_names: list[str | None]
    far_version: int
    last: dict[str, Snapshot] = field(default_factory=dict)

    def live(self) -> dict[str, Snapshot]:
        assert self.client.portal is not None
        live: dict[str, Snapshot] = self.client.portal.call(
            _live, self.hub, (self.code, self.other)
        )
        return live

    def check(self, after: str) -> None:
        """Store = memory for both rooms, the seated players in both rooms undisturbed, and
        the log clean."""
        live = self.last = self.live()
        stored = self.rebuilt.rooms((self.code, self.other))
        for code in (self.code, self.other):
            assert stored[code] == live[code], f"after {after}: room {code}: store ≠ memory"
        near = live[self.code]
        name, _, bot, _, _ = near["seats"][self.near_seat]
        assert (name, bot) == ("bob", None), f"after {after}: the seated player lost the seat"
        names = [s[0] for s in near["seats"]]
        _probe(self.near, near["version"], names, self.near_seat, same_room=True)
        assert live[self.other]["version"] == self.far_version, f"after {after}: other room"
        _probe(self.far, self.far_version, self.far_names, 0)
        _check_log(self.caplog, after)

    def step(self, conn: Conn, ctx: Ctx, frame: Frame) -> list[Message]:
        """Send one fuzzed message; check its answers and everything else."""
        before = self.last or self.live()
        COUNTS["ws"] += 1
        conn.send(frame)
        answers = conn.flush(atomic=True)
        about = f"{frame[0]} frame {ascii(frame[1])[:300]}"
        assert answers, f"no answer to {about}"
        COUNTS.update(f"answer {m.get('code', m['type'])}" for m in answers)
        if any(m["type"] == "error" for m in answers):  # an error changes nothing
            after = self.live()
            for code in before:
                assert after[code]["version"] == before[code]["version"], (about, answers)
        ctx.learn(answers, conn)
        self.check(about)
        return answers

    def take_over(self, conn: Conn, ctx: Ctx, twin: Conn) -> None:
        """Another connection joins the fuzzed room with the fuzzing connection's token: it
        takes the seat (if there is one); the fuzzing connection is told and watches on."""
        assert ctx.token is not None
        answers = twin.do(type="join", room=self.code, name="twin", token=ctx.token)
        assert [m["type"] for m in answers][:1] == ["welcome"], answers
        answers = conn.flush()
        ctx.learn(answers, conn)
        self.check("another connection presented the token")

    def finish_game(self, conn: Conn, ctx: Ctx) -> None:
        """Play the first game to its end (both players take the hints): the fuzz then
        begins between games, with a prompt or ``next`` due."""
        assert self.client.portal is not None
        room = self.hub.get(self.code)
        assert room is not None and room.match is not None
        for _ in range(1000):
            to_act = self.client.portal.call(_bots_play, room, 1000)
            if room.match.game.is_over:
                break
            (self.near if to_act == self.near_seat else conn).act_hinted()
        assert room.match.game.is_over
        ctx.learn(conn.flush(), conn)
        self.check("a game played to its end")

    def advance(self, conn: Conn, ctx: Ctx) -> None:
        """The game goes on until the fuzzing player's decision: bots, 托管 and the seated
        player decide; between games the seated player asks for the next one."""
        assert self.client.portal is not None
        room = self.hub.get(self.code)
        assert room is not None
        for _ in range(8):
            to_act = self.client.portal.call(_bots_play, room, 30)
            if to_act == self.near_seat:
                self.near.do(type="resync")
                self.near.act_first_legal()
            elif to_act is None and room.status == "between":
                self.near.do(type="next")
            else:
                break
        ctx.learn(conn.flush(), conn)
        self.check("the game went on")


#: how an example begins, and its number of examples in the default run and in the deep run:
#: the fuzzing connection joins the fuzzed room, sits where play starts and starts the match
#: ("play"; "late": and the first game is played to its end), or sits anywhere, or does and
#: another connection takes its seat with its token ("replaced"), or watches the match the
#: seated player starts ("watch"), or joins the other room, or joins nothing; then come the
#: fuzzed messages (and, but in "play" and "late", sometimes another connection with the
#: fuzzing one's token). One run had 32, 4, 8, 8, 8, 8 and 6 before the default run was sized:
#: the default run's examples reach every line and branch of src/gouji those did (coverage),
#: the deep run has four times as many
SCENARIOS = {
    "play": sized(16, 128),
    "late": sized(2, 16),
    "sit": sized(6, 32),
    "replaced": sized(8, 32),
    "watch": sized(8, 32),
    "there": sized(8, 32),
    "nowhere": sized(6, 24),
}


def _setup(data: st.DataObject, table: Table, conn: Conn, ctx: Ctx, scenario: str) -> bool:
    """The example's beginning (``SCENARIOS``): real messages, fuzzed names. Whether the
    match started."""
    if scenario == "nowhere":
        return False
    play = scenario in ("play", "late")
    fuzzed = scenario in ("sit", "there")  # a name that may be refused, else a good one
    names = NAMES if fuzzed else st.sampled_from(GOOD_NAMES)
    room = table.other if scenario == "there" else table.code
    join = {"type": "join", "room": room, "name": data.draw(names, label="name")}
    table.step(conn, ctx, _draw_encoded(data, join))
    if scenario == "watch" and conn.welcome is not None:  # a spectator of a game in play
        table.near.do(type="start")
        ctx.learn(conn.flush(), conn)
        table.check("the seated player started the match")
        return True
    if scenario not in ("play", "late", "sit", "replaced") or conn.welcome is None:
        return False
    seat = ctx.first if play else data.draw(st.integers(0, 5), label="seat")
    table.step(conn, ctx, _draw_encoded(data, {"type": "sit", "seat": seat}))
    if not play:
        return False
    answers = table.step(conn, ctx, _draw_encoded(data, {"type": "start"}))
    return any(m["type"] == "state" and m["view"] is not None for m in answers)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_fuzzed_messages_are_answered_disturb_nobody_and_the_store_equals_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, scenario: str
) -> None:
    caplog.set_level(logging.WARNING)
    first = Match(make_rules(), SEED).to_act
    assert first is not None
    near_seat = (first + 3) % 6
    before = COUNTS.copy()
    examples = iter(range(10**6))

    @_fuzz_settings(SCENARIOS[scenario])
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        # a server of its own for each example, so that examples do not depend on each other
        caplog.clear()
        url = f"sqlite:///{tmp_path / f'ws{next(examples)}.db'}"
        app = create_app(url, limits=WS_LIMITS)
        client = TestClient(app, client=LOCAL)
        rebuilt = Rebuilt(url)
        with (
            client,
            client.websocket_connect("/ws") as far_ws,
            client.websocket_connect("/ws") as near_ws,
        ):
            # the other room is closed to watchers taking seats: nothing done there by the
            # fuzzing connection may change it
            other = create_room(client, seed=SEED + 1, seat_takeover=False, **SLOW_BOTS)
            far = Conn(far_ws, "the player in another room")
            far.do(type="join", room=other, name="bea")
            far.do(type="sit", seat=0)
            far.do(type="start")
            assert far.state is not None and far.state["room"]["status"] == "playing"
            code = create_room(client, seed=SEED, **SLOW_BOTS)
            near = Conn(near_ws, "the seated player in the same room")
            near.do(type="join", room=code, name="bob")
            near.do(type="sit", seat=near_seat)
            table = Table(
                client,
                app.state.hub,
                rebuilt,
                caplog,
                code,
                near,
                near_seat,
                other,
                far,
                [s["name"] for s in far.state["room"]["seats"]],
                far.state["version"],
            )
            with (
                client.websocket_connect("/ws") as fuzz_ws,
                client.websocket_connect("/ws") as twin_ws,
            ):
                conn = Conn(fuzz_ws, "the fuzzing connection")
                twin = Conn(twin_ws, "a connection with the fuzzing one's token")
                ctx = Ctx(code, other, first)
                started = _setup(data, table, conn, ctx, scenario)
                if scenario == "replaced" and conn.welcome is not None:
                    table.take_over(conn, ctx, twin)
                if scenario == "late" and started:
                    table.finish_game(conn, ctx)
                advances = 0
                for _ in range(data.draw(st.integers(4, 24), label="messages")):
                    # when the fuzzing player has no decision, the game sometimes (at most
                    # 3 times) goes on: bots, 托管 and the seated player decide until it has
                    waits = started and not ctx.legal and advances < 3
                    if waits and data.draw(st.booleans(), label="go on"):
                        table.advance(conn, ctx)
                        advances += 1
                        continue
                    here = conn.welcome is not None and conn.welcome["room"] == code
                    if (
                        here
                        and scenario not in ("play", "late")
                        and twin.welcome is None
                        and data.draw(st.integers(0, 9), label="take over") == 0
                    ):
                        table.take_over(conn, ctx, twin)
                        continue
                    answers = table.step(conn, ctx, _draw_frame(data, ctx, started))
                    started = started or any(
                        m["type"] == "state" and m["view"] is not None for m in answers
                    )
            table.check("the fuzzing connection closed")  # a seated player left: 托管
        rebuilt.close()
        _check_log(caplog, "the app stopped")

    fuzz()
    sent = COUNTS - before
    assert sent["ws"] >= 6 * SCENARIOS[scenario], sent
    if scenario == "play":  # the fuzz reached the engine: moves applied, refused, hinted
        n = SCENARIOS[scenario]  # (30, 10 and 5 for 32 examples)
        assert sent["answer ack"] >= n * 15 // 16 and sent["answer illegal"] >= n * 5 // 16, sent
        assert sent["answer hint"] >= n * 5 // 32, sent


# ------------------------------------------------------------------------------ HTTP fuzzing
@dataclass(frozen=True)
class Req:
    method: str
    url: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


PATH_ODD = (
    "²",
    "%00",
    "%",
    "%zz",
    "%2e%2e",
    "..",
    ".",
    "%2F",
    "%C0%AF",
    "%e2%82",
    "%ED%A0%80",
    "٣",
    "0",
    "00",
    "-1",
    "+1",
    " 1",
    "1.0",
    "999999999",
    "9999999999",
    "9" * 5000,
    "x" * 5000,
    "é" * 3000,
    "\ud800",
    "\x00",
    "ZZZZZZZZ",
    "~",
    "\\",
    "a b",
    "名字",
)


def _segment(extra: tuple[str, ...]) -> st.SearchStrategy[str]:
    """One path segment, percent-encoded (``%`` sometimes left as is: ``%00`` reaches the
    server as a NUL)."""
    raw = st.one_of(st.sampled_from(extra), st.sampled_from(PATH_ODD), st.text(max_size=30))
    safe = st.sampled_from(("", "%", "%:@!$&'()*+,;=~"))
    return st.builds(lambda s, keep: quote(s, safe=keep, errors="surrogatepass"), raw, safe)


def _get_requests(codes: tuple[str, ...]) -> st.SearchStrategy[Req]:
    code = _segment((*codes, *(c.lower() for c in codes)))
    index = _segment(("0", "0", "1", "00", "000000001", "999999999"))
    path = st.one_of(
        st.builds(lambda c: f"/api/rooms/{c}", code),
        st.builds(lambda c: f"/api/rooms/{c}/games", code),
        st.builds(lambda c, i: f"/api/rooms/{c}/games/{i}/record", code, index),
        st.builds(lambda c, i: f"/api/rooms/{c}/games/{i}/replay", code, index),
        st.builds(lambda c: f"/r/{c}", code),
        st.builds(lambda c, i: f"/replay/{c}/{i}", code, index),
        st.builds(
            lambda parts: "/static/" + "/".join(parts),
            st.lists(_segment(("js", "app.js", "index.html", "css", "a.b.c")), max_size=5),
        ),
        st.sampled_from(("/", "/healthz", "/ws", "/api", "/api/rooms", "/static", "/nope")),
    )
    query = st.one_of(st.just(""), st.builds(lambda s: "?" + s, _segment(("x=%00", "a=1&a=2"))))
    method = st.sampled_from(("GET",) * 8 + ("HEAD", "POST", "PUT", "DELETE", "OPTIONS"))
    return st.builds(lambda m, p, q, h: Req(m, p + q, None, h), method, path, query, GET_HEADERS)


GET_HEADERS = st.one_of(
    st.just(()),
    st.sampled_from(
        tuple(
            (("range", r),)
            for r in (
                "bytes=0-1",
                "bytes=5-2",
                "bytes=-0",
                "bytes=" + "9" * 5000 + "-",
                "bytes=99999999999999999999-",
                "bytes=0-0," + ",".join(["0-0"] * 500),
                "bytes=1-1,3-3",
                "items=0-1",
                "bytes=a-b",
                "bytes=",
            )
        )
    ),
    st.sampled_from(
        (
            (("if-range", "x"), ("range", "bytes=0-1")),
            (("if-none-match", "*"),),
            (("if-modified-since", "garbage"),),
            (("accept-encoding", "gzip;q=" + "9" * 5000),),
            (("cookie", "a=" + "%00" * 100),),
            (("host", "a" * 300 + ":99999"),),
        )
    ),
)
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "preset": st.sampled_from((*PRESETS, "outline_full", " LAIWU ", "NOPE", "")),
    "overrides": st.dictionaries(
        st.one_of(st.sampled_from(KEYS), ODD_TEXT),
        st.one_of(
            _json_values(4),
            st.sampled_from(
                ("true", "no", "3,4", "[]", "{}", "3:10,4:10", "std", "le10", "dian,luo")
            ),
            st.sampled_from(("9" * 4000, "9" * 5000, "1_000", "-1", "1e400", "nan", "[3,")),
        ),
        max_size=3,
    ),
    "bots": st.integers(-1, 7),
    "bot": st.sampled_from((*agent_names(), "nobody", "")),
    "timer_s": st.one_of(st.none(), st.floats(), st.integers(-1, 4000)),
    "count_visibility": st.sampled_from(("le10", "always", "hidden", "LE10", "x")),
    "card_counter": st.booleans(),
    "games": st.integers(-1, 1001),
    "bot_delay_ms": st.integers(-1, 60_001),
    "next_delay_ms": st.integers(-1, 600_001),
    "seed": st.integers(-1, 2**53 + 1),
}

BODY_ODD: tuple[bytes, ...] = (
    b"",
    b" " * MAX_BODY + b"{}",
    b" " * (MAX_BODY - 2) + b"{}",
    b"{" * 40_000,
    _nested(50).encode(),
    b'{"overrides":' + _nested(50).encode() + b"}",
    b'{"overrides":{"a":' * 3000 + b"1" + b"}" * 3001,
    b'{"seed":' + b"9" * 4300 + b"}",
    b'{"seed":' + b"9" * 4301 + b"}",
    b'{"games":-' + b"9" * 5000 + b"}",
    b'{"preset":"\\ud800"}',
    b'{"overrides":{"\\udfff":1}}',
    b'{"preset":"a\\u0000"}',
    b'{"preset":"a\x00"}',
    b'{"bot":"\xed\xa0\x80"}',
    b"\xff\xfe",
    b"null",
    b"[]",
    b'"x"',
    b"1",
    b"NaN",
    b'{"timer_s":NaN}',
    b'{"timer_s":Infinity}',
    b'{"timer_s":1e999}',
    b'{"timer_s":-0.0}',
    b'{"bots":6,"timer_s":null}',
    b'{"bots":true}',
    b'{"seed":1.5}',
    b'{"seed":"7"}',
    b'{"preset":"OUTLINE_FULL","preset":"NOPE"}',
    b'\xef\xbb\xbf{"bots":5}',
    '{"bots":5}'.encode("utf-16"),
    b'{"overrides":{"deck.remove":{"3":"x"}}}',
    b'{"overrides":{"deck.remove":"3:' + b"9" * 5000 + b'"}}',
    b'{"overrides":{"rev.gousiji":' + b"9" * 4000 + b"}}",
    b'{"overrides":{"sw.timeout_s":"1e400"}}',
    b'{"overrides":{"hui.options":[["3"]]}}',
    b'{"overrides":{"trib.order":{"a":1}}}',
    b'{"overrides":{"play.gouji_min":{"T":"5"}}}',
)
HEADERS = st.one_of(
    st.just(()),
    st.sampled_from(
        (
            (("content-type", "application/json"),),
            (("content-type", "text/plain; charset=latin-1"),),
            (("content-type", "multipart/form-data; boundary=x"),),
            (("content-length", "9" * 5000),),
            (("content-length", "99999999999999999999"),),
            (("content-length", "0"),),
            (("content-length", "-1"),),
            (("content-length", "abc"),),
            (("content-length", " 12"),),
            (("transfer-encoding", "chunked"),),
            (("content-encoding", "gzip"),),
        )
    ),
)


@st.composite
def _post_requests(draw: st.DrawFn) -> Req:
    kind = draw(st.sampled_from(("config",) * 4 + ("json", "raw", "odd", "odd")))
    body: bytes
    if kind == "config":
        value: Any = draw(st.fixed_dictionaries({}, optional=PLAUSIBLE))
        if draw(st.integers(0, 4)) == 0:
            value[draw(ODD_TEXT)] = draw(SMALL_JSON)
        text = json.dumps(value, ensure_ascii=draw(st.booleans()))
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "json":
        text = json.dumps(draw(JSON), ensure_ascii=draw(st.booleans()))
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "raw":
        body = draw(st.binary(max_size=200))
    else:
        body = draw(st.sampled_from(BODY_ODD))
    return Req("POST", "/api/rooms", body, draw(HEADERS))


#: requests sent in every run besides the drawn ones: what a run of fewer drawn requests can
#: miss (with these, the default run's 300 drawn requests reach every line and branch of
#: src/gouji that the 600 drawn in one run before it was sized did)
SURE_REQUESTS = (
    Req("GET", "/api/rooms"),  # the lobby's list
    Req("GET", "/static/js/app.js"),  # a file served
    Req("POST", "/api/rooms", b'{"preset":"NOPE"}'),  # R0.8: no such preset
    Req("POST", "/api/rooms", b'{"overrides":{"nope":1}}'),  # R0.8: no such key
    Req("POST", "/api/rooms", b'{"overrides":{"deck.remove":"{3: 2, 4:2}"}}'),  # a map as text
    Req("POST", "/api/rooms", b'{"overrides":{"deck.remove":"3:x"}}'),  # one not read
    Req("POST", "/api/rooms", b'{"next_delay_ms":600001}'),  # out of range
    Req("POST", "/api/rooms", b" " * MAX_BODY + b"{}"),  # too large, in every way it can be
    Req("POST", "/api/rooms", b"[" * (MAX_BODY + 1)),
    Req("POST", "/api/rooms", b"{}", (("content-length", "9" * 5000),)),
    Req("POST", "/api/rooms", b"{}", (("content-length", "99999999999999999999"),)),
    Req("POST", "/api/rooms", b" " * MAX_BODY + b"{}", (("transfer-encoding", "chunked"),)),
    Req("POST", "/api/rooms", b"{" * 40_000, (("content-type", "application/json"),)),
)


async def _finished_room(hub: Hub) -> str:
    """An all-bot room of one fast game, made on the machine itself (not bounded)."""
    config, seed = parse_config(
        {"bots": 6, "bot": "random", "bot_delay_ms": 0, "games": 1, "timer_s": None, "seed": 3}
    )
    return hub.create(config, seed, local=True).code


def test_fuzzed_http_requests_get_no_5xx_and_log_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    for name in ("index.html", "table.html", "replay.html"):
        (web / name).write_text(f"<title>{name}</title>")
    (web / "js" / "app.js").write_text("let x = 1;")
    app = create_app(f"sqlite:///{tmp_path / 'http.db'}", web_dir=web, limits=HTTP_LIMITS)
    hub: Hub = app.state.hub
    client = TestClient(app, raise_server_exceptions=False)  # from afar
    before = COUNTS.copy()
    with client:
        assert client.portal is not None
        done = client.portal.call(_finished_room, hub)
        waiting = create_room(client)
        wait_for(lambda: hub.rooms[done].status == "over", 30)
        assert client.get(f"/api/rooms/{done}/games/0/replay").status_code == 200

        @_fuzz_settings(HTTP_EXAMPLES)
        @given(req=st.one_of(_get_requests((done, waiting)), _post_requests()))
        def fuzz(req: Req) -> None:
            COUNTS["http"] += 1
            r = client.request(req.method, req.url, content=req.body, headers=dict(req.headers))
            about = f"{req.method} {ascii(req.url)[:300]} {ascii(req.body)[:200]}"
            about += f" {ascii(req.headers)[:200]}"
            assert r.status_code < 500, f"{about}: {r.status_code} {r.text[:300]}"
            COUNTS[f"status {r.status_code}"] += 1
            ranged = any(k == "range" for k, _ in req.headers)  # Starlette answers in text
            if r.status_code >= 400 and req.method != "HEAD" and not ranged:
                answer = r.json()
                assert isinstance(answer, dict) and isinstance(answer.get("message"), str), about
                assert re.fullmatch(r"[a-z]+(?:_[a-z]+)*", str(answer.get("error"))), about
            _check_log(caplog, about)

        for req in SURE_REQUESTS:
            fuzz = example(req=req)(fuzz)
        fuzz()
    _check_log(caplog, "the app stopped")
    sent = COUNTS - before
    assert sent["http"] >= HTTP_EXAMPLES * 9 // 10, sent
    # answers of every kind: pages and files, new rooms, records, bad bodies, no such thing,
    # wrong methods, bodies too large. The mix shifts with any change of the code: Hypothesis
    # also draws the literals of every loaded module of the project (9 to 21 bodies too large
    # seen for the same seed), so each kind needs a few answers, not a share
    assert all(sent[f"status {s}"] >= 5 for s in (200, 201, 400, 404, 405, 413)), sent


# ------------------------------------------------------------------------------ the default limits
def test_a_flood_of_100_messages_is_rate_limited_then_closed_1008_and_the_other_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    url = f"sqlite:///{tmp_path / 'flood.db'}"
    app = create_app(url)  # the default limits: 20 messages a second, bursts of 40
    hub: Hub = app.state.hub
    client = TestClient(app, client=LOCAL)
    rebuilt = Rebuilt(url)
    with client, client.websocket_connect("/ws") as other_ws:
        code = create_room(client, seed=SEED, **SLOW_BOTS)
        other = Conn(other_ws, "the seated player")
        other.do(type="join", room=code, name="bob")
        other.do(type="sit", seat=1)
        other.do(type="start")
        assert other.state is not None
        names = [s["name"] for s in other.state["room"]["seats"]]
        version = other.state["version"]
        with client.websocket_connect("/ws") as flood_ws:
            flood_ws.send_text(json.dumps({"type": "join", "room": code, "name": "eve"}))
            for _ in range(100):
                flood_ws.send_text('{"type":"ping"}')
            COUNTS["ws"] += 101
            got: list[Message] = []
            while True:
                raw = flood_ws.receive()
                if raw["type"] == "websocket.close":
                    assert raw["code"] == 1008, raw
                    break
                m = json.loads(raw["text"])
                _check_documented(m, "the flooding connection")
                got.append(m)
        kinds = Counter(m.get("code", m["type"]) for m in got)
        assert kinds[RATE_LIMITED] >= 1 and kinds["welcome"] == 1, kinds
        assert 30 <= kinds["pong"] < 100, kinds  # the burst of 40, less the join
        assert set(kinds) <= {"welcome", "state", "pong", RATE_LIMITED}, kinds
        first_error = next(i for i, m in enumerate(got) if m["type"] == "error")
        assert sum(m["type"] == "pong" for m in got[:first_error]) >= 30, kinds
        _probe(other, version, names, 1)
        assert client.portal is not None
        live = client.portal.call(_live, hub, (code,))
        assert rebuilt.rooms((code,)) == live and live[code]["version"] == version
    rebuilt.close()
    dropped = [r for r in caplog.records if "dropped a connection" in r.getMessage()]
    assert len(dropped) == 1 and dropped[0].levelno == logging.WARNING
    _check_log(caplog, "the flood")

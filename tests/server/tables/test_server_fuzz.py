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

HTTP (test_server_fuzz_http.py): ``POST /api/rooms`` with fuzzed configs (every field, rule
overrides), any JSON, raw bytes and odd bodies (huge, deep, lone surrogates, NUL, 4,300-digit
numbers, UTF-16) and odd headers (``content-length`` of 5,000 digits); every route with fuzzed
methods, room codes, game indexes ("²", "%00", 5,000 characters), static paths and ``Range``
headers, against a room with a finished game and a waiting one. The fuzz runs with message
rates, room creation and unknown-code lookups not rationed; with the default limits, a flood of
100 messages gets a ``rate_limited`` error, then a close 1008, and the seated player in the
room plays on.

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

import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from gouji.engine.actions import WORDS
from gouji.engine.cards import RANKS
from gouji.engine.match import Match
from gouji.engine.rules import make_rules
from gouji.server import create_app
from gouji.server.tables.hub import Hub
from gouji.server.tables.phrases import SAY_IDS
from gouji.server.tables.protocol import (
    MAX_MESSAGE,
    MESSAGE_TYPES,
    RATE_LIMITED,
)
from gouji.server.tables.room import Room
from support import sized

from ..fuzzutil import (
    COUNTS,
    JSON,
    ODD_TEXT,
    SEED,
    SLOW_BOTS,
    SMALL_JSON,
    WS_LIMITS,
    Conn,
    Frame,
    Message,
    Rebuilt,
    Snapshot,
    check_documented,
    check_log,
    fuzz_settings,
    live_rooms,
    nested,
    probe,
)
from ..wsutil import LOCAL, create_room

pytestmark = pytest.mark.timeout(sized(60, 600))  # the deep run: four times the examples


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
    ("text", nested(50)),
    ("text", '{"type":"ping","x":' + nested(50) + "}"),
    ("text", '{"type":"ping","id":"a","x":' + nested(7, "1") + "}"),
    ("text", nested(5000)),
    ("text", nested(9000)),
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
            live_rooms, self.hub, (self.code, self.other)
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
        probe(self.near, near["version"], names, self.near_seat, same_room=True)
        assert live[self.other]["version"] == self.far_version, f"after {after}: other room"
        probe(self.far, self.far_version, self.far_names, 0)
        check_log(self.caplog, after)

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

    @fuzz_settings(SCENARIOS[scenario])
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
        check_log(caplog, "the app stopped")

    fuzz()
    sent = COUNTS - before
    assert sent["ws"] >= 6 * SCENARIOS[scenario], sent
    if scenario == "play":  # the fuzz reached the engine: moves applied, refused, hinted
        n = SCENARIOS[scenario]  # (30, 10 and 5 for 32 examples)
        assert sent["answer ack"] >= n * 15 // 16 and sent["answer illegal"] >= n * 5 // 16, sent
        assert sent["answer hint"] >= n * 5 // 32, sent


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
                check_documented(m, "the flooding connection")
                got.append(m)
        kinds = Counter(m.get("code", m["type"]) for m in got)
        assert kinds[RATE_LIMITED] >= 1 and kinds["welcome"] == 1, kinds
        assert 30 <= kinds["pong"] < 100, kinds  # the burst of 40, less the join
        assert set(kinds) <= {"welcome", "state", "pong", RATE_LIMITED}, kinds
        first_error = next(i for i, m in enumerate(got) if m["type"] == "error")
        assert sum(m["type"] == "pong" for m in got[:first_error]) >= 30, kinds
        probe(other, version, names, 1)
        assert client.portal is not None
        live = client.portal.call(live_rooms, hub, (code,))
        assert rebuilt.rooms((code,)) == live and live[code]["version"] == version
    rebuilt.close()
    dropped = [r for r in caplog.records if "dropped a connection" in r.getMessage()]
    assert len(dropped) == 1 and dropped[0].levelno == logging.WARNING
    check_log(caplog, "the flood")

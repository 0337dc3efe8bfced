"""The server tests' clients: a test client of a new app (``app_client``, the one builder every
server test module uses) and a small websocket client over Starlette's TestClient."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import ASGIApp

from gouji.server import create_app
from gouji.server.plumbing.clock import Clock
from gouji.server.plumbing.limits import Limits
from support import LIGHT_HASHER

Message = dict[str, Any]

#: Test clients answer at machine speed: a message rate no person reaches is allowed them
#: (the limits themselves are tested with the defaults in test_server_limits.py).
FAST = Limits(messages_per_s=10_000, message_burst=10_000, outbox=10_000)


Address = tuple[str, int]

LOCAL: Address = ("127.0.0.1", 50000)  # a client on the machine itself
REMOTE: Address = ("203.0.113.7", 50000)  # a client elsewhere (a documentation address)
TESTCLIENT: Address = ("testclient", 50000)  # Starlette's own: counted as a client elsewhere


def sqlite_in(folder: Path, name: str = "app.db") -> str:
    """The URL of the SQLite file ``name`` in ``folder`` (a test's ``tmp_path``)."""
    return f"sqlite:///{folder / name}"


def app_client(
    db: Path | str,
    *,
    limits: Limits = FAST,
    clock: Clock | None = None,
    web: Path | None = None,
    client: Address = TESTCLIENT,
    wrap: Callable[[Starlette], ASGIApp] | None = None,
    **options: Any,
) -> TestClient:
    """A test client of a new app (``create_app``) on the database ``db``: a URL, or a folder
    (a test's ``tmp_path``) for the SQLite file ``app.db`` in it. At machine speed (``FAST``)
    and argon2 at a test's cost unless given; ``clock`` and ``web`` (the web client's folder)
    are the app's own unless given; requests come from ``client``; ``wrap`` puts a middleware
    of the test's around the app; ``options`` go to ``create_app`` as they are."""
    url = sqlite_in(db) if isinstance(db, Path) else db
    options.setdefault("password_hasher", LIGHT_HASHER)
    if clock is not None:
        options["clock"] = clock
    if web is not None:
        options["web_dir"] = web
    app = create_app(url, limits=limits, **options)
    return TestClient(app if wrap is None else wrap(app), client=client)


def local_client(
    tmp_path: Path, limits: Limits = FAST, where: Address = LOCAL, db: str = "s.db"
) -> TestClient:
    """A test client of a new app on the SQLite file ``db`` in ``tmp_path``, connecting from
    ``where`` (the machine itself unless given: its limits on rooms made are not counted)."""
    return app_client(sqlite_in(tmp_path, db), limits=limits, client=where)


def fast_app(db_url: str, **kw: Any) -> Starlette:
    """The server app for tests that play at machine speed."""
    kw.setdefault("password_hasher", LIGHT_HASHER)
    return create_app(db_url, limits=FAST, **kw)


def create_room(client: TestClient, **config: Any) -> str:
    """Create a room (fast bots, no timer unless given: a rated room's is ten minutes, since it
    needs one, D161) and return its code."""
    body: dict[str, Any] = {"bot_delay_ms": 0, "timer_s": 600 if config.get("rated") else None}
    body.update(config)
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


class Player:
    """One websocket: sends messages and reads until a wanted message comes."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.state: Message | None = None
        self.welcome: Message | None = None
        self.seen: list[Message] = []
        self.n = 0
        self.acted = -1  # the version of the last state this player acted on

    def send(self, **msg: Any) -> None:
        self.ws.send_json(msg)

    def recv(self) -> Message:
        m: Message = self.ws.receive_json()
        self.seen.append(m)
        if m["type"] == "state":
            self.state = m
        elif m["type"] == "welcome":
            self.welcome = m
        return m

    def until(self, pred: Callable[[Message], bool], limit: int = 20000) -> Message:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("the wanted message never came")

    def next_of(self, kind: str) -> Message:
        return self.until(lambda m: m["type"] == kind)

    def state_where(self, pred: Callable[[Message], bool]) -> Message:
        return self.until(lambda m: m["type"] == "state" and pred(m))

    def reach(self, pred: Callable[[Message], bool]) -> Message:
        """The latest state if it satisfies ``pred``, else the next one that does."""
        if self.state is not None and pred(self.state):
            return self.state
        return self.state_where(pred)

    def at_version(self, version: int) -> Message:
        """The latest state if it is at ``version`` or later, else the next one that is."""
        return self.reach(lambda m: int(m["version"]) >= version)

    def join(self, room: str, name: str = "ann", token: str | None = None) -> Message:
        msg: dict[str, Any] = {"type": "join", "room": room, "name": name}
        if token is not None:
            msg["token"] = token
        self.ws.send_json(msg)
        w = self.next_of("welcome")
        self.next_of("state")
        return w

    def my_turn(self) -> Message:
        """The next state in which this seat has a decision (or the room is no longer
        playing)."""
        return self.reach(
            lambda m: (
                (m["version"] > self.acted and bool(m["view"] and m["view"]["legal_actions"]))
                or m["room"]["status"] in ("between", "over")
            )
        )

    def act(self, action: str) -> Message:
        """Send ``act`` with a fresh id and return the answer (ack or error)."""
        self.n += 1
        if self.state is not None:
            self.acted = self.state["version"]
        cid = f"{id(self)}-{self.n}"
        self.send(type="act", id=cid, action=action)
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == cid)

    def play_game(self, use_hint: bool = False, max_acts: int | None = None) -> int:
        """Play the seat's decisions (the first legal action, or the hint) until the game is
        over; returns how many it made."""
        made = 0
        while max_acts is None or made < max_acts:
            m = self.my_turn()
            if m["room"]["status"] in ("between", "over"):
                return made
            legal = m["view"]["legal_actions"]
            action = legal[0]
            if use_hint:
                self.send(type="hint")
                action = self.next_of("hint")["action"]
                assert action in legal
            answer = self.act(action)
            assert answer["type"] == "ack" and answer["duplicate"] is False, answer
            made += 1
        return made


def seated_and_started(p: Player, code: str) -> Message:
    """``ann`` joins ``code``, sits at seat 0 and starts: the first state of the match."""
    p.join(code, "ann")
    p.send(type="sit", seat=0)
    p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"] == "ann")
    p.send(type="start")
    return p.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")


@contextmanager
def player(client: TestClient) -> Iterator[Player]:
    with client.websocket_connect("/ws") as ws:
        yield Player(ws)


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Poll ``check`` until it holds."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


class Held(ThreadPoolExecutor):
    """An executor (in place of a worker pool: replays', analyses') whose jobs begin
    (``reached``) and then wait until let through: ``let(n)`` lets the next ``n`` go on,
    ``open()`` every one from then on. A computation under way, for as long as a test needs."""

    def __init__(self, threads: int = 2) -> None:
        super().__init__(threads)
        self.reached = threading.Event()
        self.opened = threading.Event()
        self.permits = threading.Semaphore(0)

    def let(self, n: int = 1) -> None:
        self.permits.release(n)

    def open(self) -> None:
        self.opened.set()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def held() -> Any:
            self.reached.set()
            end = time.monotonic() + 60
            while not self.opened.is_set() and not self.permits.acquire(timeout=0.01):
                assert time.monotonic() < end, "a held job was never let through"
            return fn(*args, **kwargs)

        return super().submit(held)

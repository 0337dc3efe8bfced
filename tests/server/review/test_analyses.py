"""复盘 on the server (issue 25; gouji.server.review.analyses, D130-D133): a
finished game's analysis is
judged in worker processes with its progress told, stored and answered at once afterwards (after
a restart too), queued within the per-address and server-wide limits, refused for what its
replay is refused, and a dead worker fails only its own analysis. The games are short (a deck
of 36 cards) and the work a decision small (``analysis_steps``), so each test takes seconds."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from gouji.server.review.analyses import BROKEN, Analyses
from gouji.server.site.store import Store
from support import ANALYSIS_STEPS, SHORT_GAME

from ..wsutil import FAST, Held, app_client, create_room, sqlite_in, wait_for

pytestmark = pytest.mark.timeout(120)

STEPS = ANALYSIS_STEPS  # the work a decision gets: a test's analysis takes about a second
LIMITS = dataclasses.replace(FAST, analysis_steps=STEPS)
ME = "203.0.113.7"  # the address a request comes from (documentation addresses)
OTHER = "203.0.113.8"
FROM_ME = (ME, 50000)


class Addressed:
    """The app, with each request's client address taken from its ``x-address`` header: one
    test client speaks for several addresses."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"x-address":
                    scope = {**scope, "client": (value.decode(), 50000)}
        await self.app(scope, receive, send)


def _analyses(client: TestClient) -> Analyses:
    analyses = client.app.app.state.analyses  # type: ignore[attr-defined]
    assert isinstance(analyses, Analyses)
    return analyses


def _finished(client: TestClient, games: int = 1) -> str:
    """A room of random bots that has played ``games`` short games to their end."""
    code = create_room(client, games=games, **SHORT_GAME)
    wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "over", 60)
    return code


def _url(code: str, index: int) -> str:
    return f"/api/rooms/{code}/games/{index}/analysis"


def _ask(client: TestClient, code: str, index: int, ip: str = ME) -> Any:
    return client.post(_url(code, index), headers={"x-address": ip})


def _state(client: TestClient, code: str, index: int) -> Any:
    r = client.get(_url(code, index))
    assert r.status_code == 200, r.text
    return r.json()


def _until_over(client: TestClient, code: str, index: int) -> tuple[Any, list[Any]]:
    """Poll until the analysis is done or failed: its last answer, and those before."""
    seen = [_state(client, code, index)]
    end = time.monotonic() + 60
    while seen[-1]["state"] not in ("done", "failed"):
        assert time.monotonic() < end, seen[-1]
        time.sleep(0.02)
        seen.append(_state(client, code, index))
    return seen[-1], seen[:-1]


def test_an_analysis_is_judged_in_workers_with_its_progress_and_stored(tmp_path: Path) -> None:
    """``none``, then POST: judged in a worker process while GET tells the decisions judged
    of how many; then ``done``: the analysis of every seat, stored. A second POST (and a GET
    after a restart on the same database) answers it at once, computing nothing again."""
    db = sqlite_in(tmp_path)
    client = app_client(db, limits=LIMITS, client=FROM_ME, wrap=Addressed)
    with client:
        code = _finished(client)
        assert _state(client, code, 0) == {"state": "none"}
        r = _ask(client, code, 0)
        assert r.status_code == 202 and r.json()["state"] == "running", r.text
        last, before = _until_over(client, code, 0)
        assert last["state"] == "done", last
        analysis = last["analysis"]
        assert analysis["format"] == "gouji-analysis/1"
        assert (analysis["steps"], analysis["seed"], analysis["seats"]) == (
            STEPS,
            1,
            [0, 1, 2, 3, 4, 5],
        )
        decisions = analysis["decisions"]
        assert decisions and [d["index"] for d in decisions] == sorted(
            d["index"] for d in decisions
        )
        flagged = [d for d in decisions if d["class"] != "good"]
        assert flagged, "random bots made no mistake the analysis saw"
        assert isinstance(_analyses(client).executor, ProcessPoolExecutor)
        progress = [(s["done"], s["total"]) for s in before if s["state"] == "running"]
        assert all(t is None or 0 <= d <= t == len(decisions) for d, t in progress), progress
        assert [d for d, _ in progress] == sorted(d for d, _ in progress)  # it only grows
        assert _analyses(client).computed == 1

        again = _ask(client, code, 0, OTHER)
        assert again.status_code == 200 and again.json() == last  # stored: at once
        assert _analyses(client).computed == 1
    # a restart: the same answer, nothing computed
    with app_client(db, limits=LIMITS, client=FROM_ME, wrap=Addressed) as client:
        assert _state(client, code, 0) == last
        assert _ask(client, code, 0).json() == last
        assert _analyses(client).computed == 0 and _analyses(client).executor is None


def test_progress_is_counted_as_decisions_are_judged(tmp_path: Path) -> None:
    """Held in its executor, the analysis says ``running`` with ``total`` null while the
    record is read, then each decision judged: ``done`` counts them (none on the loop: the
    executor does every step). A POST while it runs joins it."""
    client = app_client(tmp_path, limits=LIMITS, client=FROM_ME, wrap=Addressed)
    with client:
        code = _finished(client)
        held = Held(1)
        analyses = _analyses(client)
        analyses.executor = held
        assert _ask(client, code, 0).json() == {"state": "running", "done": 0, "total": None}
        assert held.reached.wait(30)
        held.let(1)  # the plan
        wait_for(lambda: _state(client, code, 0)["total"] is not None)
        total = _state(client, code, 0)["total"]
        assert total > 3 and _state(client, code, 0)["done"] == 0
        held.let(3)
        wait_for(lambda: _state(client, code, 0)["done"] == 3)
        joined = _ask(client, code, 0, OTHER)  # another address joins: not counted, not twice
        assert joined.status_code == 202
        assert joined.json() == {"state": "running", "done": 3, "total": total}
        assert analyses.joined == 1
        held.open()
        last, _ = _until_over(client, code, 0)
        assert last["state"] == "done" and len(last["analysis"]["decisions"]) == total
        assert analyses.computed == 1
        held.shutdown()


def test_analyses_wait_in_turn_within_the_limits(tmp_path: Path) -> None:
    """One analysis is judged at a time; the others wait (``queued``, their place told).
    An address has ``analyses_per_ip`` running or waiting (beyond, 429), the server
    ``analyses_queued`` (beyond, 503), each refusal saying why; a finished one frees its
    place, and a stored one is answered whatever the limits."""
    limits = dataclasses.replace(LIMITS, analyses_per_ip=1, analyses_queued=2)
    client = app_client(tmp_path, limits=limits, client=FROM_ME, wrap=Addressed)
    with client:
        code = _finished(client, games=3)
        held = Held(1)
        _analyses(client).executor = held
        assert _ask(client, code, 0, ME).json()["state"] == "running"
        r = _ask(client, code, 1, ME)
        assert r.status_code == 429 and r.headers["retry-after"]
        assert "at most 1 analyses running or waiting for one address" in r.json()["message"]
        r = _ask(client, code, 1, OTHER)
        assert r.status_code == 202 and r.json() == {"state": "queued", "position": 1}
        assert _state(client, code, 1) == {"state": "queued", "position": 1}
        r = _ask(client, code, 2, "203.0.113.9")
        assert r.status_code == 503 and r.headers["retry-after"]
        assert "2 analyses running or waiting already" in r.json()["message"]
        assert _state(client, code, 2) == {"state": "none"}
        held.open()
        assert _until_over(client, code, 0)[0]["state"] == "done"
        assert _until_over(client, code, 1)[0]["state"] == "done"  # its turn came
        assert _ask(client, code, 2, ME).status_code == 202  # places free again
        assert _until_over(client, code, 2)[0]["state"] == "done"
        assert _ask(client, code, 0, ME).status_code == 200  # stored: free
        held.shutdown()


def test_only_a_finished_game_that_exists_is_analysed(tmp_path: Path) -> None:
    """The replay's refusals: an unknown room, a game not finished (or never played), an
    index that is not a number, each 404 with a message, for GET and POST alike."""
    client = app_client(tmp_path, limits=LIMITS, client=FROM_ME, wrap=Addressed)
    with client:
        playing = create_room(client, games=2, **{**SHORT_GAME, "next_delay_ms": 600_000})
        wait_for(lambda: client.get(f"/api/rooms/{playing}").json()["status"] == "between", 60)
        for path in (
            _url("ZZZZZZZZ", 0),
            _url(playing, 1),  # the next game: not played yet
            _url(playing, 7),
            f"/api/rooms/{playing}/games/x/analysis",
            f"/api/rooms/{playing}/games/-1/analysis",
            f"/api/rooms/{playing}/games/99999999999999999999/analysis",
        ):
            for method in ("GET", "POST"):
                r = client.request(method, path)
                assert r.status_code == 404, (method, path, r.text)
                assert r.json()["error"], path
        assert _state(client, playing, 0) == {"state": "none"}  # game 1 is finished
        assert client.delete(_url(playing, 0)).status_code == 405
        assert not _analyses(client).jobs


def test_a_killed_worker_fails_its_analysis_and_the_next_one_works(tmp_path: Path) -> None:
    """A worker process killed: the analysis it was judging is ``failed`` with a message
    saying so (a GET tells it too), the server goes on, and the next analysis starts new
    workers and finishes."""
    client = app_client(tmp_path, limits=LIMITS, client=FROM_ME, wrap=Addressed)
    with client:
        code = _finished(client, games=2)
        analyses = _analyses(client)
        assert _ask(client, code, 0).status_code == 202
        assert _until_over(client, code, 0)[0]["state"] == "done"  # the workers are up
        pool = analyses.executor
        assert isinstance(pool, ProcessPoolExecutor)
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        assert _ask(client, code, 1).status_code == 202
        last, _ = _until_over(client, code, 1)
        assert last == {"state": "failed", "error": BROKEN}
        assert "worker process of the analyses stopped" in BROKEN
        assert client.get(f"/api/rooms/{code}").status_code == 200  # the server goes on
        assert _ask(client, code, 1).status_code == 202  # asked again: new workers
        assert _until_over(client, code, 1)[0]["state"] == "done"
        assert analyses.executor is not pool and analyses.computed == 2


def test_the_store_keeps_one_analysis_a_game_steps_and_seed(db_url: str) -> None:
    """SQLite and PostgreSQL: an analysis is kept under its room, game, steps and seed; the
    same one stored again (two processes made it) keeps the first; other steps are another."""
    with Store(db_url) as store:
        store.create_room("ABCD2345", {}, 1)
        assert store.analysis("ABCD2345", 0, STEPS, 1) is None
        store.save_analysis("ABCD2345", 0, STEPS, 1, '{"format": "gouji-analysis/1"}')
        store.save_analysis("ABCD2345", 0, STEPS, 1, '{"again": true}')
        assert store.analysis("ABCD2345", 0, STEPS, 1) == '{"format": "gouji-analysis/1"}'
        assert store.analysis("ABCD2345", 0, STEPS + 1, 1) is None
        assert store.analysis("ABCD2345", 1, STEPS, 1) is None
        with pytest.raises(IntegrityError):  # not a duplicate: a room that is not there
            store.save_analysis("NOSUCH00", 0, STEPS, 1, "{}")

"""Seats and ratings under attack (issue 39; docs/security.md), on SQLite and PostgreSQL
(``db_url``) where the store counts: a seat of a game belongs to whoever sat there at its
first action — a watcher who takes a bot's or an absent player's seat later plays it unrated
and unrecorded, and the player who left keeps the game and its loss (docs/decisions.md D148);
an account holds one seat of a room (D149); a page whose session ended (log-out, a changed
password) acts as the account no more (D150); a game whose record a crash lost is recorded
when its room is rebuilt, and no game is recorded twice (D151)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gouji.server.players.records import plays_table, ratings_table
from gouji.server.plumbing.db import engine_url

from ..accountutil import PASSWORD, sign_up
from ..wsutil import Message, Player, create_room, fast_app


def _account(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    """A new account: its id and its cookies (the client holds none afterwards; one client
    serves every player, since a room's tasks live in its client's event loop)."""
    account_id = int(sign_up(client, name)["id"])
    cookies = dict(client.cookies)
    client.cookies.clear()
    return account_id, cookies


def _as(client: TestClient, cookies: dict[str, str]) -> TestClient:
    """``client`` with these cookies only (a websocket reads them when it opens)."""
    client.cookies.clear()
    client.cookies.update(cookies)
    return client


def _rated_room(client: TestClient) -> str:
    """A rated room of one game, five expert bots beside its first player (a rated room has a
    turn timer)."""
    return create_room(client, bots=5, bot="expert", rated=True, games=1, timer_s=600)


def _started(p: Player, code: str) -> None:
    """``p`` sits at seat 0, starts, and makes the game's first decision of its seat (so the
    game has begun for every seat before anybody else sits)."""
    p.join(code, "me")
    p.send(type="sit", seat=0)
    p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
    p.send(type="start")
    assert p.play_game(max_acts=1) == 1


def _sit_then_leave(client: TestClient, code: str, seat: int, name: str) -> None:
    """A watcher takes ``seat`` of the running game, then closes its page (托管 plays on)."""
    with client.websocket_connect("/ws") as ws:
        p = Player(ws)
        p.join(code, name)
        p.reach(lambda m: m["room"]["seats"][seat]["free"])
        p.send(type="sit", seat=seat)
        st = p.until(lambda m: m["type"] in ("state", "error") and _seated(m, seat, name))
        assert st["type"] == "state", st


def _seated(m: dict[str, Any], seat: int, name: str) -> bool:
    return m["type"] == "error" or bool(m["room"]["seats"][seat]["name"] == name)


def _finished(client: TestClient, code: str) -> None:
    """Watch (as a guest) until the room's one game is over."""
    with _as(client, {}).websocket_connect("/ws") as ws:
        w = Player(ws)
        w.join(code, "watcher")
        w.reach(lambda m: m["room"]["games_finished"] == 1)


def _rows(db_url: str) -> tuple[list[Any], list[Any]]:
    engine = create_engine(engine_url(db_url))
    with engine.connect() as conn:
        plays = list(conn.execute(select(plays_table).order_by(plays_table.c.seat)).all())
        ratings = list(conn.execute(select(ratings_table)).all())
    engine.dispose()
    return plays, ratings


def _no_gain_for_leaving(record: dict[str, Any]) -> bool:
    """Whether the player's one game, left to 托管 after one decision, was rated: only where it
    did not raise the rating (a loss counts, a win gains nothing, D197)."""
    rated, rating = bool(record["recent"][0]["rated"]), record["presets"][0]["rating"]
    if rated:
        assert rating["games"] == 1 and rating["ordinal"] <= 0
    else:
        assert rating is None
    return rated


def test_a_watcher_who_takes_a_bot_s_seat_mid_game_plays_it_unrated(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        ann_id, ann = _account(client, "Ann")
        _, bob = _account(client, "Bob")
        code = _rated_room(client)
        with _as(client, ann).websocket_connect("/ws") as ws:
            _started(Player(ws), code)
            _sit_then_leave(_as(client, bob), code, 1, "Bob")  # a bot's, the game under way
        _finished(client, code)  # 托管 plays both their seats to the end
        assert client.get("/api/players/Bob").json()["games"] == 0
        record = client.get("/api/players/Ann").json()
    assert record["games"] == 1
    rated = _no_gain_for_leaving(record)
    plays, ratings = _rows(db_url)
    assert [(r.seat, r.account) for r in plays] == [(0, ann_id)]  # seat 1 was a bot's game
    assert [r.account for r in ratings] == ([ann_id] if rated else [])


def test_a_player_who_leaves_keeps_the_game_and_its_loss(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        ann_id, ann = _account(client, "Ann")
        _, bob = _account(client, "Bob")
        code = _rated_room(client)
        with _as(client, ann).websocket_connect("/ws") as ws:
            _started(Player(ws), code)
        _sit_then_leave(_as(client, bob), code, 0, "Bob")  # Ann's seat, on 托管: she left
        _finished(client, code)
        assert client.get("/api/players/Bob").json()["games"] == 0
        record = client.get("/api/players/Ann").json()
    assert record["games"] == 1 and record["recent"][0]["seat"] == 1
    rated = _no_gain_for_leaving(record)
    plays, ratings = _rows(db_url)
    assert [(r.seat, r.account, r.name) for r in plays] == [(0, ann_id, "Ann")]
    assert [r.account for r in ratings] == ([ann_id] if rated else [])


@pytest.mark.parametrize("rated", [True, False])
def test_one_account_holds_one_seat_of_a_room(sqlite_url: str, rated: bool) -> None:
    """Two pages of one account, both watching, each asking for a seat: the second is refused
    (rated or not: one person never sees two hands, D149)."""
    with TestClient(fast_app(sqlite_url)) as client:
        _, ann = _account(client, "Ann")
        code = create_room(client, bots=4, bot="expert", rated=rated, games=1, timer_s=600)
        _as(client, ann)
        with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
            first, second = Player(ws1), Player(ws2)
            first.join(code, "Ann")
            second.join(code, "Ann")
            first.send(type="sit", seat=0)
            first.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            second.send(type="sit", seat=1)
            second.send(type="ping")  # answered after the sit's answer
            refused = second.until(lambda m: m["type"] in ("error", "pong"))
            assert refused.get("code") == "already_seated", refused
            assert "seat 1" in refused["message"]
            first.send(type="sit", seat=2)  # the seated page may still move before the start
            moved = first.until(lambda m: m["type"] == "state" and m["room"]["seats"][2]["name"])
            assert moved["room"]["seats"][0]["name"] is None
            assert second.welcome is not None and second.welcome["seat"] is None


def test_two_guest_pages_may_hold_two_seats_of_a_casual_room(sqlite_url: str) -> None:
    """A guest is a browser, not a person (a private window is another guest): one device
    shared at a casual table may seat two (D149)."""
    with TestClient(fast_app(sqlite_url)) as client:
        code = create_room(client, bots=4, games=1)
        with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
            first, second = Player(ws1), Player(ws2)
            first.join(code, "Ann")
            second.join(code, "Bob")
            first.send(type="sit", seat=0)
            first.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            second.send(type="sit", seat=1)
            second.until(lambda m: m["type"] == "state" and m["room"]["seats"][1]["name"])


def _password_changed_elsewhere(client: TestClient, name: str) -> None:
    """The account logs in on another device and changes its password there: every other
    session of the account ends (the client holds the new session's cookies afterwards)."""
    r = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    r = client.put("/api/me/password", json={"old": PASSWORD, "new": "another horse"})
    assert r.status_code == 200, r.text


def _ended(p: Player) -> Message:
    """The error that ends a connection whose session ended; then the socket closes."""
    p.send(type="ping")  # answered after the message before it, if the connection lives
    answer = p.until(lambda m: m["type"] in ("error", "pong"))
    assert answer.get("code") == "session_ended", answer
    with pytest.raises(WebSocketDisconnect) as closed:
        p.recv()
    assert closed.value.code == 1008
    return answer


def test_a_page_open_before_a_password_change_takes_no_seat(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        _, ann = _account(client, "Ann")
        code = _rated_room(client)
        with _as(client, ann).websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "Ann")
            _password_changed_elsewhere(client, "Ann")  # the page's cookie is 401 now
            assert _as(client, ann).get("/api/me").status_code == 401
            p.send(type="sit", seat=0)
            _ended(p)
        summary = client.get(f"/api/rooms/{code}").json()
    assert summary["seats"][0]["name"] is None and summary["status"] == "waiting"


def test_a_seated_page_whose_session_ended_acts_no_more(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        _, ann = _account(client, "Ann")
        code = create_room(client, bots=5, games=1)
        with _as(client, ann).websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "Ann")
            p.send(type="sit", seat=0)
            p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            p.send(type="start")
            legal = p.my_turn()["view"]["legal_actions"]
            _password_changed_elsewhere(client, "Ann")
            p.send(type="act", id="after", action=legal[0])
            assert _ended(p)["id"] == "after"
        with _as(client, {}).websocket_connect("/ws") as ws:  # 托管 plays the seat on
            w = Player(ws)
            w.join(code, "watcher")
            w.reach(lambda m: m["room"]["seats"][0]["trust"] is True)


def _one_rated_game(client: TestClient, cookies: dict[str, str]) -> str:
    """The account of ``cookies`` plays a rated room's one game (its own decisions, so the
    game is rated whatever the result, D197) and leaves."""
    code = _rated_room(client)
    with _as(client, cookies).websocket_connect("/ws") as ws:
        _started(p := Player(ws), code)
        p.play_game()
    _finished(client, code)
    return code


def _recorded_once(db_url: str, account: int) -> None:
    """The account has the one game, rated once; nothing else is recorded."""
    with TestClient(fast_app(db_url)) as client:  # a restart: every room rebuilt
        record = client.get("/api/players/Ann").json()
    assert record["games"] == 1 and record["presets"][0]["rating"]["games"] == 1
    plays, ratings = _rows(db_url)
    assert [(r.account, r.rated) for r in plays] == [(account, True)]
    assert [(r.account, r.games) for r in ratings] == [(account, 1)]


def test_a_game_whose_record_a_crash_lost_is_recorded_at_the_restart(db_url: str) -> None:
    """The process dies between the game's last stored action and its record: the rebuilt
    room records it, with its rating, once however often it is rebuilt (D151)."""
    app = fast_app(db_url)
    with TestClient(app) as client:
        app.state.hub.on_game_over = lambda game: None  # dead before the record is written
        ann_id, ann = _account(client, "Ann")
        _one_rated_game(client, ann)
        assert client.get("/api/players/Ann").json()["games"] == 0
    _recorded_once(db_url, ann_id)
    _recorded_once(db_url, ann_id)


def test_a_game_recorded_live_is_not_recorded_again_at_a_restart(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        ann_id, ann = _account(client, "Ann")
        _one_rated_game(client, ann)
        assert client.get("/api/players/Ann").json()["games"] == 1
    _recorded_once(db_url, ann_id)

"""Account requests that used to be a 500 (issue 39, the LOW row; D163): a player's name with a
NUL or another control character (PostgreSQL's text refuses NUL), and two sign-ups of one name
at two workers at once (the second insert breaks the unique index) — on SQLite and PostgreSQL
(``db_url``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, event, insert, select
from starlette.testclient import TestClient

from gouji.server.players.store import accounts_table
from gouji.server.plumbing.db import engine_url

from ..accountutil import PASSWORD, sign_up
from ..wsutil import fast_app


def test_a_name_with_a_control_character_is_no_player(db_url: str) -> None:
    with TestClient(fast_app(db_url), raise_server_exceptions=False) as client:
        sign_up(client, "Ann")
        for path in ("%00", "Ann%00", "%01Ann", "An%7Fn", "%0A"):
            r = client.get("/api/players/" + path)
            assert r.status_code == 404, (path, r.text)
            assert r.json()["error"] == "no_player"
        assert client.get("/api/players/Ann").status_code == 200


def test_the_same_name_signed_up_at_two_workers_at_once_is_409(db_url: str) -> None:
    app = fast_app(db_url)
    other = create_engine(engine_url(db_url))  # another worker, a moment ahead
    engine = app.state.accounts.db.engine
    raced: list[bool] = []

    @event.listens_for(engine, "before_cursor_execute")
    def other_worker_first(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ACCOUNTS") and not raced:
            raced.append(True)  # after this worker's check, before its insert
            with other.begin() as theirs:
                theirs.execute(
                    insert(accounts_table).values(
                        name="Ann", name_key="ann", password="x", created=0.0
                    )
                )

    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
            assert raced and r.status_code == 409, r.text
            assert r.json()["error"] == "name_taken"
            assert client.get("/api/me").status_code == 401  # no session for the loser
        with other.connect() as conn:
            assert len(conn.execute(select(accounts_table)).all()) == 1
    finally:
        event.remove(engine, "before_cursor_execute", other_worker_first)
        other.dispose()

"""Accounts (issue 23, item 1): sign up, log in and out, change the password, delete the
account; argon2id, hashed session tokens, HttpOnly SameSite cookies, log-in limits per account
and per address — on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select, text
from starlette.testclient import TestClient

from gouji.server import create_app
from gouji.server.players.accounts import NEUTRAL_NAME, AccountError, account_name
from gouji.server.players.sessions import GUEST_COOKIE, HINT_COOKIE, SESSION_COOKIE
from gouji.server.players.store import accounts_table, sessions_table
from gouji.server.plumbing.db import engine_url
from gouji.server.plumbing.limits import Limits
from support import LIGHT_HASHER, sized

from ..accountutil import PASSWORD, sign_up
from ..wsutil import FAST, Player, app_client, create_room, fast_app


def _cookie_attrs(response: Any, name: str) -> str:
    cookies: list[str] = response.headers.get_list("set-cookie")
    return next(c for c in cookies if c.startswith(name + "="))


def test_sign_up_log_in_me_log_out(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        assert client.get("/api/me").status_code == 401  # a guest
        r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201 and r.json()["name"] == "Ann"
        session = _cookie_attrs(r, SESSION_COOKIE).lower()
        assert "httponly" in session and "samesite=lax" in session and "path=/" in session
        assert "httponly" not in _cookie_attrs(r, HINT_COOKIE).lower()  # read by the pages
        assert client.get("/api/me").json()["name"] == "Ann"

        assert client.delete("/api/session").status_code == 200
        assert client.get("/api/me").status_code == 401

        wrong = client.post("/api/session", json={"name": "ann", "password": "not the one"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_password"
        nobody = client.post("/api/session", json={"name": "bob", "password": PASSWORD})
        assert nobody.status_code == 401 and nobody.json() == wrong.json()  # names stay secret
        assert client.get("/api/me").status_code == 401

        ok = client.post("/api/session", json={"name": " ANN ", "password": PASSWORD})
        assert ok.status_code == 200 and ok.json()["name"] == "Ann"
        assert client.get("/api/me").json()["name"] == "Ann"


def test_passwords_and_sessions_are_stored_hashed(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=FAST)) as client:  # the accounts' own cost
        r = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        token = client.cookies[SESSION_COOKIE]
    engine = create_engine(engine_url(db_url))
    with engine.connect() as conn:
        stored = conn.execute(select(accounts_table.c.password)).scalar_one()
        sessions = conn.execute(select(sessions_table.c.token)).scalars().all()
        dump = json.dumps([list(row) for row in conn.execute(text("SELECT * FROM sessions"))])
    engine.dispose()
    assert r.status_code == 201
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=1$") and PASSWORD not in stored
    assert len(sessions) == 1 and len(sessions[0]) == 64 and token not in dump


def test_names_are_one_per_person_and_checked(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        sign_up(client, "Ann")
        again = client.post("/api/accounts", json={"name": "ＡＮＮ", "password": PASSWORD})
        assert again.status_code == 409 and again.json()["error"] == "name_taken"
        for bad in ("a", "x" * 21, "ann smith", "<b>", 7, None, "游客"):
            r = client.post("/api/accounts", json={"name": bad, "password": PASSWORD})
            assert r.status_code == 400 and r.json()["error"] == "bad_name", bad
        short = client.post("/api/accounts", json={"name": "Bob", "password": "1234567"})
        assert short.status_code == 400 and short.json()["error"] == "bad_password"
        assert client.post("/api/accounts", content=b"[1]").status_code == 400
        assert sign_up(client, "小明_2")["name"] == "小明_2"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=30), st.integers(), st.none(), st.lists(st.text(), max_size=2)))
def test_any_name_is_accepted_or_refused_with_a_reason(raw: object) -> None:
    try:
        name, key = account_name(raw)
    except AccountError as e:
        assert e.status == 400 and e.message
        return
    assert 2 <= len(name) <= 20 and key == name.casefold() and name == name.strip()


def test_log_in_failures_are_limited_per_account_and_per_address(sqlite_url: str) -> None:
    limits = Limits(
        messages_per_s=10_000,
        message_burst=10_000,
        login_failures_per_account=3,
        login_failures_per_ip=5,
    )
    with TestClient(create_app(sqlite_url, limits=limits, password_hasher=LIGHT_HASHER)) as client:
        sign_up(client, "Ann")
        sign_up(client, "Bob")
        for _ in range(3):
            bad = client.post("/api/session", json={"name": "ann", "password": "guess guess"})
            assert bad.status_code == 401
        locked = client.post("/api/session", json={"name": "ann", "password": PASSWORD})
        assert locked.status_code == 429 and locked.json()["error"] == "too_many_attempts"
        assert int(locked.headers["retry-after"]) > 0
        # the address has 3 failures of its 5: Bob still logs in …
        assert client.post("/api/session", json={"name": "bob", "password": PASSWORD}).is_success
        for _ in range(2):
            client.post("/api/session", json={"name": "bob", "password": "guess guess"})
        # once the address has used them all, a name that failed from it waits (D180) …
        ip = client.post("/api/session", json={"name": "bob", "password": PASSWORD})
        assert ip.status_code == 429 and "address" in ip.json()["message"]
        # … and a neighbour's right password still logs in
        sign_up(client, "Cy")
        assert client.post("/api/session", json={"name": "cy", "password": PASSWORD}).is_success


def test_change_password_ends_the_other_sessions(db_url: str) -> None:
    app = fast_app(db_url)
    with TestClient(app) as phone, TestClient(app) as laptop:
        sign_up(phone, "Ann")
        assert laptop.post("/api/session", json={"name": "Ann", "password": PASSWORD}).is_success
        wrong = phone.put("/api/me/password", json={"old": "not it at all", "new": "new secret"})
        assert wrong.status_code == 403
        short = phone.put("/api/me/password", json={"old": PASSWORD, "new": "short"})
        assert short.status_code == 400
        ok = phone.put("/api/me/password", json={"old": PASSWORD, "new": "new secret"})
        assert ok.status_code == 200
        assert phone.get("/api/me").status_code == 200  # this session stays
        assert laptop.get("/api/me").status_code == 401  # the other ended
        old = laptop.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert old.status_code == 401
        assert laptop.post(
            "/api/session", json={"name": "Ann", "password": "new secret"}
        ).is_success


def _play_one_game(client: TestClient, code: str, name: str = "ann") -> Player:
    with client.websocket_connect("/ws") as ws:
        p = Player(ws)
        p.join(code, name)
        p.send(type="sit", seat=0)
        p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"] is not None)
        p.send(type="start")
        p.play_game()
        p.reach(lambda m: m["room"]["games_finished"] >= 1)
    return p


def test_a_deleted_account_s_games_stay_under_a_neutral_name(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, games=1)
        p = _play_one_game(client, code)
        assert p.state is not None and p.state["room"]["seats"][0]["name"] == "Ann"
        assert client.get("/api/players/ann").json()["games"] == 1
        refused = client.request("DELETE", "/api/me", json={"password": "not the one"})
        assert refused.status_code == 403
        gone = client.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert gone.status_code == 200
        assert client.get("/api/me").status_code == 401
        assert client.get("/api/players/ann").status_code == 404
        assert client.get(f"/api/rooms/{code}").json()["seats"][0]["name"] == NEUTRAL_NAME
        assert client.get(f"/api/rooms/{code}/games/0/record").status_code == 200
        sign_up(client, "Ann")  # the name is free again, with no games
        assert client.get("/api/players/ann").json()["games"] == 0
    with TestClient(fast_app(db_url)) as client:  # a restart rebuilds the neutral name
        assert client.get(f"/api/rooms/{code}").json()["seats"][0]["name"] == NEUTRAL_NAME


def test_a_guest_s_games_join_the_account_made_in_that_browser(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client, TestClient(fast_app(db_url)) as other:
        client.get("/")  # the page gives the browser its guest cookie
        other.get("/")
        assert client.cookies[GUEST_COOKIE] != other.cookies[GUEST_COOKIE]
        _play_one_game(client, create_room(client, bots=5, games=1), "guest ann")
        _play_one_game(other, create_room(other, bots=5, games=1), "guest bob")
        sign_up(client, "Ann")
        record = client.get("/api/players/ann").json()
        assert record["games"] == 1 and record["recent"][0]["seat"] == 1
        sign_up(other, "Bob")
        assert other.get("/api/players/bob").json()["games"] == 1  # its own, not Ann's


def test_the_guest_cookie_is_httponly_and_only_set_once(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        first = client.get("/")
        cookie = _cookie_attrs(first, GUEST_COOKIE).lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert not any(
            c.startswith(GUEST_COOKIE) for c in client.get("/").headers.get_list("set-cookie")
        )
        assert not client.get("/api/rooms").headers.get_list("set-cookie")


@pytest.mark.parametrize("body", [b"{", b'{"name": 1, "password": []}', b'"x"', b"null"])
def test_bad_bodies_get_clear_errors(sqlite_url: str, body: bytes) -> None:
    with app_client(sqlite_url) as client:
        for path in ("/api/accounts", "/api/session"):
            r = client.post(path, content=body)
            assert r.status_code == 400 and r.json()["message"], (path, body)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=25), JSONISH),
        "password": st.one_of(st.text(max_size=140), JSONISH),
        "old": st.text(max_size=20),
        "new": st.text(max_size=20),
        "preset": st.sampled_from(("MATCH7", "match7", "", "NOPE")) | st.text(max_size=10),
        "rated": JSONISH,
    },
)
ROUTES = (
    ("POST", "/api/accounts"),
    ("POST", "/api/session"),
    ("PUT", "/api/me/password"),
    ("DELETE", "/api/me"),
    ("POST", "/api/quick"),
)


def test_fuzzed_account_requests_get_clear_answers_never_5xx(sqlite_url: str) -> None:
    limits = Limits(
        messages_per_s=10_000,
        message_burst=10_000,
        accounts_per_ip_per_hour=10_000,
        login_failures_per_ip=10_000,
        login_failures_per_account=10_000,
    )
    app = create_app(sqlite_url, limits=limits, password_hasher=LIGHT_HASHER)
    client = TestClient(app, raise_server_exceptions=False)
    seen: set[int] = set()
    with client:
        sign_up(client, "Ann")

        @settings(max_examples=sized(50, 500), deadline=None, derandomize=True, database=None)
        @given(
            route=st.sampled_from(ROUTES),
            body=st.one_of(FIELDS, JSONISH),
            name=st.text(max_size=30),
            preset=st.text(max_size=12),
        )
        def fuzz(route: tuple[str, str], body: Any, name: str, preset: str) -> None:
            method, path = route
            answers = [
                client.request(method, path, content=json.dumps(body)),
                client.get("/api/players/" + quote(name, safe="")) if name else None,
                client.get("/api/leaderboard", params={"preset": preset}),
            ]
            for r in answers:
                if r is None:
                    continue
                seen.add(r.status_code)
                assert r.status_code < 500, (method, path, body, r.text)
                if r.status_code >= 400:
                    answer = r.json()  # {"error": code, "message": text}; a path no route
                    assert isinstance(answer["error"], str) and answer["error"]  # has: {"error"}
            if client.get("/api/me").status_code == 401:  # logged out or deleted: back in
                again = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
                if again.status_code == 401:
                    sign_up(client, "Ann")

        fuzz()
    assert {200, 400, 404} <= seen, seen


def test_an_account_holder_reclaims_their_seat_from_another_device(db_url: str) -> None:
    app = fast_app(db_url)
    with TestClient(app) as phone, TestClient(app) as laptop, TestClient(app) as stranger:
        sign_up(phone, "Ann")
        code = create_room(phone, bots=5)
        with phone.websocket_connect("/ws") as ws:
            first = Player(ws)
            old_token = first.join(code, "ann")["token"]
            first.send(type="sit", seat=3)
            first.until(lambda m: m["type"] == "state" and m["room"]["seats"][3]["name"])
            assert laptop.post(
                "/api/session", json={"name": "ann", "password": PASSWORD}
            ).is_success
            with laptop.websocket_connect("/ws") as ws2:
                second = Player(ws2)
                welcome = second.join(code, "whatever")  # no token: the account is enough
                assert welcome["seat"] == 3 and welcome["token"] != old_token
                assert first.next_of("replaced")
        with stranger.websocket_connect("/ws") as ws3:  # the first device's token is void now
            copier = Player(ws3)
            assert copier.join(code, "eve", token=old_token)["seat"] is None

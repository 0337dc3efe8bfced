"""Failed log-ins lock accounts, not neighbours (issue 39, "Neighbours locked out"; D180).

A school, a club's Wi-Fi or a carrier's NAT is one address for many people: past
``login_failures_per_ip`` failures the address is slowed (its log-ins one at a time, each
failure holding the next back ``login_slow_s``) and a name that failed from it is refused from
it for the window — but anybody else's right password still logs in. A client spraying one
password over many names gets one try a name and waits after each. Failures are rows of the
database, so two apps on one database (a site's workers) count them together: on SQLite and
PostgreSQL (``db_url``)."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from starlette.applications import Starlette
from starlette.testclient import TestClient

from gouji.server import create_app
from gouji.server.plumbing.limits import AddressGate
from gouji.server.tables.hub import Hub
from gouji.server.tables.protocol import RoomConfig
from support import LIGHT_HASHER

from ..accountutil import PASSWORD
from ..wsutil import FAST, REMOTE, Address

SLOW_S = 0.02
LIMITS = dataclasses.replace(FAST, login_slow_s=SLOW_S)  # 20 failures an address, 10 an account
ELSEWHERE: Address = ("198.51.100.9", 50000)
WRONG = "not the password"


def _app(db_url: str) -> Starlette:
    return create_app(db_url, limits=LIMITS, password_hasher=LIGHT_HASHER)


def _log_in(client: TestClient, name: str, password: str = PASSWORD) -> int:
    return client.post("/api/session", json={"name": name, "password": password}).status_code


def _accounts(client: TestClient, *names: str) -> None:
    for name in names:
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    client.cookies.clear()


def test_a_neighbour_logs_in_after_twenty_failures_from_the_address(db_url: str) -> None:
    with TestClient(_app(db_url), client=REMOTE) as school:
        _accounts(school, "Ann", "Bob", "Cy")
        failures = [_log_in(school, "Ann", WRONG)] + [
            _log_in(school, f"pupil{i}", WRONG) for i in range(19)
        ]
        assert failures == [401] * 20
        assert _log_in(school, "Cy") == 200  # a third account's right password: in
        assert _log_in(school, "Bob") == 200
        assert _log_in(school, "Ann") == 429  # a name that failed from here waits …
        with TestClient(_app(db_url), client=ELSEWHERE) as home:
            assert _log_in(home, "Ann") == 200  # … from here only: the account is not locked


def test_a_password_sprayer_stays_throttled(db_url: str) -> None:
    with TestClient(_app(db_url), client=REMOTE) as sprayer:
        _accounts(sprayer, "Ann", "Bob")
        names = ["Ann", "Bob", *(f"user{i}" for i in range(198))]
        answers = []
        started = None
        for i, name in enumerate(names):
            if i == 20:  # the address is past its failures from here on
                started = time.monotonic()
            answers.append(_log_in(sprayer, name, "123456789"))
        assert started is not None
        assert answers == [401] * 200  # one try a name, nothing guessed
        assert time.monotonic() - started >= 180 * SLOW_S  # each failure held the next back
        again = [_log_in(sprayer, name, "password1") for name in names]
        assert again == [429] * 200  # no second password for any name from this address
        assert _log_in(sprayer, "Ann") == 429  # even the right one
    with TestClient(_app(db_url), client=ELSEWHERE) as owner:
        assert _log_in(owner, "Ann") == 200


def test_two_apps_on_one_database_count_the_failures_together(db_url: str) -> None:
    with (
        TestClient(_app(db_url), client=REMOTE) as a,
        TestClient(_app(db_url), client=REMOTE) as b,
    ):
        _accounts(a, "Ann", "Bob", "Cy")
        assert [_log_in(a, f"x{i}", WRONG) for i in range(10)] == [401] * 10
        assert [_log_in(b, f"y{i}", WRONG) for i in range(9)] == [401] * 9
        assert _log_in(a, "Ann", WRONG) == 401  # the address's twentieth, at the first app
        assert _log_in(b, "Cy") == 200  # a neighbour at the other: in
        assert _log_in(b, "Ann") == 429  # the name that failed at the first: held at both
        assert _log_in(b, "x3", WRONG) == 429 and _log_in(a, "y3", WRONG) == 429
        assert _log_in(b, "Bob") == 200


def test_an_account_is_still_locked_from_anywhere(db_url: str) -> None:
    """The per-account limit (10 in 15 minutes, from any address) stays as it was."""
    with (
        TestClient(_app(db_url), client=REMOTE) as a,
        TestClient(_app(db_url), client=ELSEWHERE) as b,
    ):
        _accounts(a, "Ann")
        for i in range(10):
            assert _log_in(a if i % 2 else b, "ann", WRONG) == 401
        assert _log_in(a, "Ann") == 429 and _log_in(b, "Ann") == 429


def test_a_slowed_address_waits_in_line_and_a_flood_is_refused() -> None:
    async def run() -> list[bool]:
        gate = AddressGate(waiting=2)
        entered: list[bool] = []
        release = asyncio.Event()

        async def one() -> None:
            async with gate.enter("203.0.113.7") as ok:
                entered.append(ok)
                if ok:
                    await release.wait()

        tasks = [asyncio.create_task(one()) for _ in range(5)]
        await asyncio.sleep(0.01)
        release.set()
        await asyncio.gather(*tasks)
        async with gate.enter("203.0.113.7") as ok:  # the line is empty again
            entered.append(ok)
        return entered

    entered = asyncio.run(run())
    assert sorted(entered) == [False, False, True, True, True, True]


# ------------------------------------------------------------------ room codes (D92, D182)

NOWHERE = "ZZZZZZZZ"  # a well-formed code of no room


def _room(client: TestClient) -> str:
    r = client.post("/api/rooms", json={})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def test_past_the_code_ceiling_a_neighbour_still_finds_the_club_s_rooms(db_url: str) -> None:
    """An address far past its unknown codes (a guesser behind the club's NAT) is refused a
    code it never reached, as it is an unknown one — but the rooms made or reached from that
    address, and the lobby's listed rooms, are still found by everybody there."""
    limits = dataclasses.replace(LIMITS, lookups_per_ip_per_min=2)
    app = create_app(db_url, limits=limits, password_hasher=LIGHT_HASHER)
    with TestClient(app, client=REMOTE) as club:
        hub = app.state.hub
        assert isinstance(hub, Hub)
        made_here = _room(club)
        reached = hub.create(RoomConfig()).code  # made elsewhere, its code shared in a chat
        assert club.get(f"/api/rooms/{reached}").status_code == 200
        listed = hub.create(RoomConfig(listed=True)).code
        never = hub.create(RoomConfig()).code
        answers = [club.get(f"/api/rooms/{NOWHERE}").status_code for _ in range(21)]
        assert answers == [404, 404] + [429] * 19  # 21 unknown codes: past ten times two
        for code in (made_here, reached, listed):
            assert club.get(f"/api/rooms/{code}").status_code == 200, code
        refused = club.get(f"/api/rooms/{never}")
        guessed = club.get(f"/api/rooms/{NOWHERE}")
        assert refused.status_code == guessed.status_code == 429
        assert refused.json() == guessed.json()  # a hit looks like a miss: nothing learnt
        assert hub.find(never, ELSEWHERE[0]) is not None  # other addresses: as ever

"""Sign-up attempts are limited and cost no hash until the name is free (issue 39; D162).

Every ``POST /api/accounts`` from an address counts, whatever comes of it (``sign_ups_per_ip``
in 15 minutes, rows of the database, so a site's workers count together); a malformed or taken
name is answered before argon2 runs, so a flood of sign-ups of a taken name neither costs the
server a core nor slows anybody's log-in. On SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

from argon2 import PasswordHasher
from starlette.testclient import TestClient

from gouji.server import create_app
from gouji.server.plumbing.limits import Limits

from ..accountutil import PASSWORD
from ..wsutil import LOCAL, REMOTE, Address

LIMITS = Limits(messages_per_s=10_000, message_burst=10_000, sign_ups_per_ip=5)
ELSEWHERE: Address = ("198.51.100.9", 50000)  # another address (documentation range)


class CountingHasher(PasswordHasher):
    """argon2 at a test's cost that counts the hashes it makes."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8192, parallelism=1)
        self.hashes = 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.hashes += 1
        return super().hash(password, salt=salt)


def sign_up_as(client: TestClient, name: str) -> int:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    return r.status_code


def test_sign_ups_of_a_taken_name_hit_the_limit_and_never_hash(db_url: str) -> None:
    hasher = CountingHasher()
    app = create_app(db_url, limits=LIMITS, password_hasher=hasher)
    with TestClient(app, client=REMOTE) as client:
        assert sign_up_as(client, "Ann") == 201
        assert hasher.hashes == 1
        answers = [sign_up_as(client, name) for name in ("ann", "ANN", "Ann", "ａｎｎ", "ann")]
        assert answers == [409, 409, 409, 409, 429]  # five attempts in all, then refused
        r = client.post("/api/accounts", json={"name": "Free", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert int(r.headers["retry-after"]) > 0
        assert hasher.hashes == 1  # none of them cost a hash
        login = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert login.status_code == 200  # the address may still log in
    with TestClient(app, client=ELSEWHERE) as other:  # another address is not held back
        assert sign_up_as(other, "Bob") == 201


def test_malformed_names_and_passwords_cost_no_hash_but_count(sqlite_url: str) -> None:
    hasher = CountingHasher()
    app = create_app(sqlite_url, limits=LIMITS, password_hasher=hasher)
    with TestClient(app, client=REMOTE) as client:
        bad = [
            client.post("/api/accounts", json={"name": "a", "password": PASSWORD}),
            client.post("/api/accounts", json={"name": "Bob", "password": "short"}),
            client.post("/api/accounts", json={"name": "<b>", "password": PASSWORD}),
        ]
        assert [r.status_code for r in bad] == [400, 400, 400]
        assert hasher.hashes == 0
        assert sign_up_as(client, "Bob") == 201 and hasher.hashes == 1
        assert sign_up_as(client, "Cy") == 201  # the fifth attempt
        assert sign_up_as(client, "Dee") == 429 and hasher.hashes == 2


def test_a_site_s_workers_count_sign_ups_together(db_url: str) -> None:
    first = create_app(db_url, limits=LIMITS, password_hasher=CountingHasher())
    second = create_app(db_url, limits=LIMITS, password_hasher=CountingHasher())
    with TestClient(first, client=REMOTE) as a, TestClient(second, client=REMOTE) as b:
        assert sign_up_as(a, "Ann") == 201
        assert [sign_up_as(a, "ann"), sign_up_as(b, "ann"), sign_up_as(b, "ann")] == [409] * 3
        assert sign_up_as(a, "ann") == 409  # the fifth
        assert sign_up_as(b, "Bob") == 429 and sign_up_as(a, "Bob") == 429


def test_the_machine_itself_is_not_counted(sqlite_url: str) -> None:
    hasher = CountingHasher()
    app = create_app(sqlite_url, limits=LIMITS, password_hasher=hasher)
    with TestClient(app, client=LOCAL) as client:
        assert sign_up_as(client, "Ann") == 201
        assert [sign_up_as(client, "ann") for _ in range(8)] == [409] * 8
        assert hasher.hashes == 1

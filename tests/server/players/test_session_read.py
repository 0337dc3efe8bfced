"""``GET /api/session`` (issue 35): who is logged in, with being logged out an answer
(``{"account": null}``, 200) and not a refusal, so that a logged-out page logs no console
error; a session that ended clears the page's hint cookie."""

from __future__ import annotations

from starlette.testclient import TestClient

from gouji.server.players.sessions import HINT_COOKIE

from ..accountutil import PASSWORD
from ..wsutil import fast_app


def test_the_session_read_answers_guests_and_accounts_alike(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        guest = client.get("/api/session")
        assert guest.status_code == 200 and guest.json() == {"account": None}
        signed = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        read = client.get("/api/session")
        assert read.status_code == 200 and read.json() == {"account": signed.json()}
        assert client.delete("/api/session").status_code == 200
        assert client.get("/api/session").json() == {"account": None}


def test_a_session_that_ended_clears_the_hint_cookie(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        client.cookies.set(HINT_COOKIE, "1")  # the hint outlived the session
        read = client.get("/api/session")
        assert read.status_code == 200 and read.json() == {"account": None}
        cleared = [c for c in read.headers.get_list("set-cookie") if c.startswith(HINT_COOKIE)]
        assert cleared and "max-age=0" in cleared[0].lower()

"""Ratings and 战绩 (issue 23, items 2 and 3): rated rooms, openskill's team model with the
bots' fixed league ratings, the records of every finished game, the leaderboard — on SQLite and
PostgreSQL (``db_url``)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, insert, select
from starlette.testclient import TestClient

from gouji.agents.ratings import BOT_RATINGS
from gouji.server.players.ratings import LISTED_GAMES, NEW, Rating, rate_game
from gouji.server.players.records import FinishedGame, play_facts, plays_table, ratings_table
from gouji.server.plumbing.db import engine_url

from ..accountutil import PASSWORD, sign_up
from ..wsutil import Player, create_room, fast_app


def test_the_team_that_scores_more_gains() -> None:
    expert = Rating(*BOT_RATINGS["expert"])
    before = [NEW, expert, expert, expert, expert, expert]
    won = rate_game(before, [6, -6])  # seats 1, 3, 5 (0, 2, 4) scored more
    lost = rate_game(before, [-6, 6])
    drawn = rate_game(before, [0, 0])
    assert won[0].mu > NEW.mu > drawn[0].mu > lost[0].mu  # a new player drawing fixed 23.7s
    assert won[2].mu > expert.mu and won[1].mu < expert.mu  # partners and opponents by seat
    assert all(r.sigma < NEW.sigma for r in (won[0], lost[0], drawn[0]))
    with pytest.raises(ValueError):
        rate_game(before[:5], [1, 0])


def test_play_facts_read_a_seat_s_game() -> None:
    result: dict[str, Any] = {
        "places": [1, 4, 2, 5, 3, 6],
        "team_points": [12, -12],
        "team_scores": [12, 0],
        "chuan": 0,
        "opened": [True, False, True, True, True, True],
        "burns": [[0, 1], [2, 1]],
        "men": [1],
    }
    assert play_facts(result, 0) == {
        "place": 1,
        "outcome": 1,
        "points": 12,
        "opened": True,
        "burns": 1,
        "burned": 0,
        "men": False,
        "chuan": 1,
    }
    other = play_facts(result, 1)
    assert other["outcome"] == -1 and other["burned"] == 2 and other["men"] is True
    assert other["chuan"] == -1 and other["opened"] is False
    assert play_facts({**result, "opened": None, "chuan": None}, 3)["opened"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"overrides": {"burn.enabled": False}},
        {"seed": 7},
        {"bot": "random"},
        {"rated": "yes"},
    ],
)
def test_a_rated_room_plays_its_preset_with_rated_bots(sqlite_url: str, body: Any) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        r = client.post("/api/rooms", json={"rated": True, "bots": 5, **body})
        assert r.status_code == 400, body
        assert r.json()["error"] == "bad_request" and "rated" in r.json()["message"]


def _join_and_sit(p: Player, code: str) -> None:
    p.join(code, "ann")
    p.send(type="sit", seat=0)


def test_only_accounts_sit_in_a_rated_room_and_its_game_rates_them(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as guest, TestClient(fast_app(db_url)) as client:
        code = create_room(guest, bots=5, bot="expert", rated=True, games=1)
        with guest.websocket_connect("/ws") as ws:
            p = Player(ws)
            _join_and_sit(p, code)
            refused = p.until(lambda m: m["type"] == "error")
            assert refused["code"] == "account_needed"
        sign_up(client, "Ann")
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _join_and_sit(p, code)
            st = p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            assert st["room"]["seats"][0]["name"] == "Ann"  # the account's name, not "ann"
            assert st["room"]["seats"][0]["account"] is True
            p.send(type="start")
            p.play_game()
            p.reach(lambda m: m["room"]["games_finished"] == 1)
        record = client.get("/api/players/Ann").json()
    (preset,) = record["presets"]
    rating = preset["rating"]
    assert preset["games"] == 1 and sum(preset["places"]) == 1
    assert rating["games"] == 1 and rating["provisional"] is True
    assert rating["mu"] != pytest.approx(NEW.mu) and rating["sigma"] < NEW.sigma
    assert len(rating["history"]) == 1 and record["recent"][0]["rated"] is True
    engine = create_engine(engine_url(db_url))
    with engine.connect() as conn:  # bots keep their league rating: no row of theirs
        rows = conn.execute(select(ratings_table)).all()
        plays = conn.execute(select(plays_table)).all()
    engine.dispose()
    assert len(rows) == 1 and len(plays) == 1


def test_an_unrated_room_records_but_does_not_rate(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, games=2, next_delay_ms=0)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _join_and_sit(p, code)
            p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            p.send(type="start")
            p.play_game()
            p.reach(lambda m: m["room"]["games_finished"] == 1)
        record = client.get("/api/players/Ann").json()
    assert record["games"] == 1 and record["presets"][0]["rating"] is None
    assert record["recent"][0]["replay"] == f"/replay/{code}/0"


def test_a_failing_record_never_stops_the_table(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)

    def broken(game: FinishedGame) -> None:
        raise RuntimeError("the records' database is gone")

    with TestClient(app) as client:
        app.state.hub.on_game_over = broken
        sign_up(client, "Ann")
        code = create_room(client, bots=5, games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _join_and_sit(p, code)
            p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            p.send(type="start")
            p.play_game()
            over = p.reach(lambda m: m["room"]["games_finished"] == 1)
        assert over["room"]["status"] in ("between", "over")
        assert client.get("/api/players/Ann").json()["games"] == 0


def test_the_leaderboard_lists_rated_players_best_first(db_url: str) -> None:
    app = fast_app(db_url)
    with TestClient(app) as client:
        ids = {name: sign_up(client, name)["id"] for name in ("Ann", "Bob", "Cai", "Dan")}
        client.delete("/api/session")
        engine = create_engine(engine_url(db_url))
        rows = [  # name, mu, sigma, games
            ("Ann", 30.0, 2.0, 40),  # ordinal 24
            ("Bob", 35.0, 6.0, 8),  # ordinal 17, provisional
            ("Cai", 40.0, 1.0, LISTED_GAMES - 1),  # too few games to be listed
            ("Dan", 28.0, 1.0, 30),  # ordinal 25
        ]
        with engine.begin() as conn:
            for name, mu, sigma, games in rows:
                conn.execute(
                    insert(ratings_table).values(
                        account=ids[name],
                        preset="OUTLINE_FULL",
                        mu=mu,
                        sigma=sigma,
                        games=games,
                        updated=0.0,
                    )
                )
        engine.dispose()
        board = client.get("/api/leaderboard?preset=OUTLINE_FULL").json()
        other = client.get("/api/leaderboard?preset=MATCH7").json()
        bad = client.get("/api/leaderboard?preset=NOPE")
    assert [p["name"] for p in board["players"]] == ["Dan", "Ann", "Bob"]
    assert [p["rank"] for p in board["players"]] == [1, 2, 3]
    assert [p["provisional"] for p in board["players"]] == [False, False, True]
    assert board["min_games"] == LISTED_GAMES and other["players"] == []
    assert bad.status_code == 400 and bad.json()["error"] == "bad_preset"


def test_a_player_page_of_nobody_is_404(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        assert client.get("/api/players/nobody").status_code == 404
        assert client.get("/api/players/" + "x" * 300).status_code == 404
        sign_up(client, "Ann", PASSWORD)
        assert client.get("/api/players/ANN").json()["name"] == "Ann"


def test_a_rating_row_is_made_once_and_counts_every_game(db_url: str) -> None:
    """The first rated game makes the row (yielding to one made meanwhile), every game
    updates it."""
    from gouji.server.players.records import Records
    from gouji.server.site.store import Store

    store = Store(db_url)
    records = Records(store)
    try:
        with records.engine.begin() as conn:
            records._put_rating(conn, 7, "MATCH7", Rating(27.0, 7.0), 1.0)
            records._put_rating(conn, 7, "MATCH7", Rating(28.0, 6.5), 2.0)
        with records.engine.connect() as conn:
            (row,) = conn.execute(select(ratings_table)).all()
    finally:
        store.close()
    assert (row.account, row.preset, row.games) == (7, "MATCH7", 2)
    assert (row.mu, row.sigma, row.updated) == (28.0, 6.5, 2.0)

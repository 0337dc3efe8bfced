"""托管 at a rated table (issue 35 item 1, D195–D197): ratings measure the player.

An account that creates a rated room with 新手 bots, presses 托管 and makes no decision gets
nowhere: 托管 plays the seat minimally (R19.2's timeout default, never 高手), and a seat that
left more than half of its decisions to 托管 gains no rating from the game, while a loss still
counts. A player who plays their own decisions is rated as before; casual rooms keep 高手 托管.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from sqlalchemy import select
from starlette.testclient import TestClient

from gouji.agents.ratings import BOT_RATINGS
from gouji.server.players.ratings import LISTED_GAMES, NEW, Rating, rate_game
from gouji.server.players.records import (
    Decided,
    FinishedGame,
    Records,
    Seated,
    plays_table,
    ratings_table,
)
from gouji.server.site.store import Store

from ..accountutil import sign_up
from ..wsutil import Player, create_room, fast_app

FARMED_GAMES = 3


def _sit(p: Player, code: str) -> None:
    p.join(code, "ann")
    p.send(type="sit", seat=0)
    p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])


def _agents_used(app: Any, code: str) -> set[str]:
    room = app.state.hub.rooms[code]
    return {name for _seat, name in room._agents}


def test_an_account_farming_on_trust_at_a_rated_table_gets_nowhere(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)
    with TestClient(app) as client:
        sign_up(client, "Ann")
        code = create_room(
            client, bots=5, bot="beginner", rated=True, games=FARMED_GAMES, next_delay_ms=0
        )
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _sit(p, code)
            p.send(type="start")
            p.state_where(lambda m: m["room"]["status"] == "playing")
            p.send(type="trust", on=True)  # at once: not one decision of their own
            p.state_where(lambda m: m["room"]["games_finished"] == FARMED_GAMES)
        assert "heuristic" not in _agents_used(app, code)  # 高手 never played the seat
        record = client.get("/api/players/Ann").json()
        board = client.get("/api/leaderboard?preset=" + record["presets"][0]["preset"]).json()
    (preset,) = record["presets"]
    assert preset["games"] == FARMED_GAMES  # every game is in 战绩
    rating = preset["rating"]
    if rating is not None:  # only games that did not raise it rated it: losses (D197)
        assert rating["games"] == sum(1 for g in record["recent"] if g["rated"])
        ordinals = [0.0] + [h["mu"] - 3 * h["sigma"] for h in rating["history"]]
        assert all(b <= a + 0.03 for a, b in pairwise(ordinals))  # (rounded to 0.01)
        assert rating["ordinal"] <= round(NEW.ordinal, 2)
    assert board["players"] == []


def test_a_player_who_makes_their_own_decisions_is_rated_as_before(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)
    with TestClient(app) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, bot="beginner", rated=True, games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _sit(p, code)
            p.send(type="start")
            assert p.play_game() > 0
            p.reach(lambda m: m["room"]["games_finished"] == 1)
        room = app.state.hub.rooms[code]
        assert room.decided is not None
        mine = room.decided[1][0]
        assert mine.own > 0 and mine.trusted == 0 and not mine.no_gain
        record = client.get("/api/players/Ann").json()
    (preset,) = record["presets"]
    assert record["recent"][0]["rated"] is True and preset["rating"]["games"] == 1


def test_casual_rooms_keep_the_expert_on_trust(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)
    with TestClient(app) as client:
        code = create_room(client, bots=5, bot="beginner", games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _sit(p, code)
            p.send(type="start")
            p.state_where(lambda m: m["room"]["status"] == "playing")
            p.send(type="trust", on=True)
            p.state_where(lambda m: m["room"]["games_finished"] == 1)
        assert "heuristic" in _agents_used(app, code)
        room = app.state.hub.rooms[code]
        assert room.decided is not None
        mine = room.decided[1][0]
        assert mine.trusted > 0 and mine.own == 0 and mine.no_gain  # counted in any room


def test_most_decisions_left_to_trust_means_no_gain() -> None:
    assert not Decided().no_gain  # a seat with no choice to make plays as before
    assert not Decided(own=5, trusted=5).no_gain  # half is not most
    assert Decided(own=5, trusted=6).no_gain
    assert Decided(own=30, trusted=1, left=True).no_gain  # someone else took the seat


def _game(index: int, team_points: list[int], decided: Decided) -> FinishedGame:
    ann = Seated(account=7, guest=None, name="Ann")
    seats = [ann] + [Seated(None, None, "beginner bot", "beginner")] * 5
    result: dict[str, Any] = {
        "places": [1, 2, 3, 4, 5, 6] if team_points[0] > team_points[1] else [6, 1, 5, 2, 4, 3],
        "team_points": team_points,
        "team_scores": team_points,  # MATCH7 records the raw sums
    }
    return FinishedGame("ROOM", index, "MATCH7", True, seats, result, 1.0 + index, [decided] * 6)


def test_a_trusted_win_gains_nothing_and_a_trusted_loss_still_counts(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    records = Records(store)
    bots = [Rating(*BOT_RATINGS["beginner"])] * 5
    try:
        trusted = Decided(own=1, trusted=9)
        assert records.game_over(_game(0, [6, -6], trusted))  # a win on 托管: no gain
        with records.engine.connect() as conn:
            assert conn.execute(select(ratings_table)).all() == []
            (won,) = conn.execute(select(plays_table)).all()
        assert won.rated is False and won.mu is None and won.outcome == 1
        assert records.game_over(_game(1, [-6, 6], trusted))  # a loss on 托管 counts
        lost = rate_game([NEW, *bots], [-6, 6])[0]
        assert records.game_over(_game(2, [6, -6], Decided(own=9, trusted=1)))  # their own
        won_own = rate_game([lost, *bots], [6, -6])[0]
        with records.engine.connect() as conn:
            (row,) = conn.execute(select(ratings_table)).all()
        assert (row.mu, row.sigma, row.games) == (won_own.mu, won_own.sigma, 2)
        assert lost.ordinal < NEW.ordinal and won_own.ordinal > lost.ordinal
    finally:
        store.close()
    assert LISTED_GAMES > 2  # (not listed yet: the leaderboard needs more games)

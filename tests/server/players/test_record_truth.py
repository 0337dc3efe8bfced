"""战绩 tells the truth (issue 35, item 4): a game's team points as its settlement recorded them
(``team_scores``: R17.1's 串三户 12, "positive only" 0 — D190), and a guest's game that ends
after they signed up in that browser is the account's (D191) — on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from gouji.engine.referee.scoring import Events, chuan_team, score
from gouji.server.players.records import FinishedGame, Records, Seated, play_facts, plays_table
from gouji.server.plumbing.db import engine_url
from gouji.server.site.store import Store

from ..accountutil import sign_up
from ..wsutil import Player, create_room, fast_app

CHUAN = (1, 4, 2, 5, 3, 6)  # seats 1, 3, 5 (team 0) take 头科, 二科, 三科: 串三户
PLAIN = (1, 2, 3, 4, 5, 6)  # team 0: 4 + 0 − 2 = 2; team 1: 2 + 0 − 4 = −2


def settled(system: str, places: tuple[int, ...]) -> dict[str, Any]:
    """A finished game's result as ``Game.result`` gives it, scored by the engine (R17)."""
    raw, recorded, bonus = score(system, Events(places))
    return {
        "places": list(places),
        "team_scores": recorded,
        "team_points": raw,
        "scoring": system,
        "chuan": chuan_team(places),
        "bonuses": bonus,
        "opened": None,
        "men": [],
        "burns": [],
    }


@pytest.mark.parametrize(
    ("system", "places", "mine", "theirs"),
    [
        ("outline", CHUAN, 12, 0),  # R17.1: 串三户 records 12, the 串'd team 0 (not 6 / −6)
        ("outline", PLAIN, 2, 0),  # "positive only": the losing team records 0, not −2
        ("match7", PLAIN, 7 + 4 + 2, 5 + 3 + 0),
        ("comp2", CHUAN, 6, -3),  # AMB-46: the winners' place sum doubled
        ("audit6", CHUAN, 30, 3),
    ],
)
def test_a_row_keeps_the_points_the_settlement_recorded(
    system: str, places: tuple[int, ...], mine: int, theirs: int
) -> None:
    result = settled(system, places)
    assert result["team_scores"] == [mine, theirs]
    won, lost = play_facts(result, 0), play_facts(result, 1)
    assert (won["points"], won["outcome"]) == (mine, 1)
    assert (lost["points"], lost["outcome"]) == (theirs, -1)


def test_the_record_page_shows_the_settlement_s_points(db_url: str) -> None:
    app = fast_app(db_url)
    with TestClient(app) as ann, TestClient(app) as bob:
        a, b = sign_up(ann, "Ann"), sign_up(bob, "Bob")
        seats = [Seated(a["id"], None, "Ann"), Seated(b["id"], None, "Bob")]
        seats += [Seated(None, None, "bot", bot="heuristic")] * 4
        for index, places in enumerate((CHUAN, PLAIN)):
            game = FinishedGame(
                "ROOM", index, "OUTLINE_FULL", False, seats, settled("outline", places)
            )
            assert app.state.hub.on_game_over(game) is True
        won = ann.get("/api/players/ann").json()["recent"]
        lost = bob.get("/api/players/bob").json()["recent"]
    assert [(g["game"], g["points"], g["outcome"]) for g in won] == [(1, 2, 1), (0, 12, 1)]
    assert [(g["game"], g["points"], g["outcome"]) for g in lost] == [(1, 0, -1), (0, 0, -1)]


def test_a_played_game_s_row_agrees_with_its_settlement(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)
    with TestClient(app) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _sit_and_start(p, code)
            p.play_game()
            p.reach(lambda m: m["room"]["games_finished"] >= 1)
        counted = app.state.hub.rooms[code].match.results[0]["team_scores"]  # the match's
        recent = client.get("/api/players/ann").json()["recent"]
    assert recent[0]["points"] == counted[0]


def test_a_guest_who_signs_up_mid_game_gets_the_game_when_it_ends(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        client.get("/")  # the page gives the browser its guest cookie
        code = create_room(client, bots=5, games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            _sit_and_start(p, code, "guest ann")
            assert p.play_game(max_acts=2) == 2  # the game is under way, the seat the guest's
            account = sign_up(client, "Ann")  # … who signs up in that browser before it ends
            assert client.get("/api/players/ann").json()["games"] == 0
            p.play_game()
            p.reach(lambda m: m["room"]["games_finished"] >= 1)
        record = client.get("/api/players/ann").json()
        assert record["games"] == 1 and record["recent"][0]["seat"] == 1
    with create_engine(engine_url(db_url)).connect() as conn:
        row = conn.execute(select(plays_table).where(plays_table.c.room == code)).one()
    assert (row.account, row.guest, row.name) == (account["id"], None, "guest ann")


def _sit_and_start(p: Player, code: str, name: str = "ann") -> None:
    p.join(code, name)
    p.send(type="sit", seat=0)
    p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"] is not None)
    p.send(type="start")
    p.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")


def test_adoption_holds_for_later_games_until_the_account_is_deleted(db_url: str) -> None:
    records = Records(Store(db_url))
    guest = "g" * 64
    seats = [Seated(None, guest, "guest ann")] + [Seated(None, None, "bot", bot="random")] * 5

    def finish(index: int) -> None:
        game = FinishedGame("R1", index, "OUTLINE_FULL", False, seats, settled("outline", PLAIN))
        assert records.game_over(game)

    finish(0)
    assert records.adopt(7, guest) == 1  # the finished game, at sign-up
    assert records.adopt(8, guest) == 0  # a second account from that browser takes nothing
    finish(1)  # a game under way at sign-up, ended since: the account's
    assert records.player(7)["games"] == 2 and records.player(8)["games"] == 0
    with records.engine.begin() as conn:  # a guest row written as the adoption committed
        conn.execute(
            plays_table.insert().values(
                account=None,
                guest=guest,
                name="guest ann",
                room="R1",
                game=2,
                seat=0,
                preset="OUTLINE_FULL",
                rated=False,
                finished=1.0,
                **play_facts(settled("outline", PLAIN), 0),
            )
        )
    assert records.player(7)["games"] == 3  # … is shown as the account's all the same
    records.forget(7)
    finish(3)
    assert records.player(7)["games"] == 0
    with records.engine.connect() as conn:
        last = conn.execute(select(plays_table).where(plays_table.c.game == 3)).one()
    assert (last.account, last.guest) == (None, guest)  # a deleted account adopts no more

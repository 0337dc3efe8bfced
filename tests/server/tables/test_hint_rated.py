"""No hints at a rated table (issue 35 item 1, D198): ratings measure the player.

The hint (提示) is 高手's choice for one's seat; a player who pressed it every turn would be
rated for 高手's play. A rated room refuses ``hint`` with ``no_hints`` (as lichess gives no
engine assistance in rated games), whoever asks and whenever; a casual room answers it as before.
"""

from __future__ import annotations

from starlette.testclient import TestClient

from gouji.server.tables.protocol import NO_HINTS

from ..accountutil import sign_up
from ..wsutil import Message, Player, create_room, fast_app


def _seated_and_started(p: Player) -> Message:
    """The joined player sits at seat 0 (under the account's name) and starts the match."""
    p.send(type="sit", seat=0)
    p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
    p.send(type="start")
    return p.state_where(lambda m: m["room"]["status"] == "playing")


def test_a_rated_room_refuses_hints(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, bot="beginner", rated=True, games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "ann")
            p.send(type="hint")  # seated or not, playing or not: never 高手's play
            assert p.next_of("error")["code"] == NO_HINTS
            _seated_and_started(p)
            legal = p.my_turn()["view"]["legal_actions"]
            assert legal
            p.send(type="hint")  # at the player's own decision
            error = p.until(lambda m: m["type"] in ("hint", "error"))
            assert error["type"] == "error" and error["code"] == NO_HINTS, error
            assert "rated" in error["message"]
            answer = p.act(legal[0])  # the room goes on: the refusal changed nothing
            assert answer["type"] == "ack", answer


def test_a_casual_room_still_answers_hints(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        sign_up(client, "Ann")
        code = create_room(client, bots=5, bot="beginner", games=1)
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "ann")
            _seated_and_started(p)
            legal = p.my_turn()["view"]["legal_actions"]
            p.send(type="hint")
            answer = p.until(lambda m: m["type"] in ("hint", "error"))
            assert answer["type"] == "hint" and answer["action"] in legal, answer

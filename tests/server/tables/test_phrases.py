"""快捷语 and emotes (issue 23, item 5; gouji.server.tables.phrases): a
fixed list of ids that a seated
player ``say``s and every connection of the room hears as ``said``; never free text, never
stored, rate-limited per seat on the server's clock, and refused at competition tables and
with competition scoring (R19.5: no signalling between partners; D95-D97)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from gouji.server.plumbing.clock import Clock
from gouji.server.site.store import Store
from gouji.server.tables.phrases import EMOTES, QUICK_WORDS, SAY_IDS

from ..eventutil import QUICK, create_event
from ..wsutil import Message, Player, app_client, create_room, player

pytestmark = pytest.mark.timeout(60)

WEB = Path(__file__).resolve().parents[3] / "src" / "gouji" / "web"


class SteppedClock(Clock):
    """The system's clock, moved forward by hand (``ahead`` seconds)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead


def _sit(p: Player, code: str, name: str, seat: int) -> None:
    p.join(code, name)
    p.send(type="sit", seat=seat)
    p.state_where(lambda m: m["room"]["seats"][seat]["name"] == name)


def _said(p: Player) -> Message:
    return p.until(lambda m: m["type"] in ("said", "error"))


def test_a_seated_player_says_and_every_connection_hears_it(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client, player(client) as ann, player(client) as bob, player(client) as watcher:
        code = create_room(client, bots=4)
        _sit(ann, code, "ann", 0)
        _sit(bob, code, "bob", 3)
        watcher.join(code, "w")
        st = watcher.reach(lambda m: m["room"]["seats"][3]["name"] == "bob")
        assert st["room"]["chat"] is True
        version = st["version"]
        ann.send(type="say", id="hurry")
        for p in (ann, bob, watcher):  # the speaker too: its page shows its own bubble
            assert _said(p) == {"type": "said", "seat": 0, "id": "hurry"}
        bob.send(type="say", id="cool")  # an emote
        for p in (ann, bob, watcher):
            assert _said(p) == {"type": "said", "seat": 3, "id": "cool"}
        # chat is not the game: no action stored, no new version, no room note
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        stored = next(r for r in store.load() if r.code == code)
        assert {a.kind for a in stored.actions} == {"sit"}
        summary = client.get(f"/api/rooms/{code}").json()
        assert summary["version"] == version and summary["notes"] == []
        ann.send(type="start")  # and the game goes on as before
        ann.state_where(lambda m: m["room"]["status"] == "playing")


def test_only_the_listed_ids_and_only_seated_players(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client, player(client) as ann, player(client) as watcher:
        code = create_room(client)
        _sit(ann, code, "ann", 0)
        watcher.join(code, "w")
        for bad in ("call_me_at_5551234", "HURRY", "hurry "):
            ann.send(type="say", id=bad)
            err = _said(ann)
            assert err["type"] == "error" and err["code"] == "bad_message", err
            if bad != "hurry ":  # not even an id: the message's "id" says what one is
                assert f"unknown 快捷语 '{bad}'" in err["message"], err
                assert "hurry" in err["message"] and "smile" in err["message"]  # the known
        for bad_type in (7, ["hurry"], None):
            ann.send(type="say", id=bad_type)
            assert _said(ann)["code"] == "bad_message"
        ann.send(type="say")
        assert "needs the field 'id'" in _said(ann)["message"]
        ann.send(type="say", id="hello", text="我是自由文本")  # no free text rides along
        assert "takes no field 'text'" in _said(ann)["message"]
        watcher.send(type="say", id="hello")
        err = _said(watcher)
        assert err["code"] == "bad_message" and "spectators do not speak" in err["message"]
        ann.send(type="say", id="hello")  # ann was never refused for the others' errors
        assert _said(ann)["type"] == "said"
        assert _said(watcher) == {"type": "said", "seat": 0, "id": "hello"}


def test_each_seat_speaks_once_every_3_s_and_8_times_a_minute(tmp_path: Path) -> None:
    clock = SteppedClock()
    client = app_client(tmp_path, clock=clock)
    with client:
        code = create_room(client, bots=4)
        with player(client) as ann:
            _sit(ann, code, "ann", 0)
            ann.send(type="say", id="hello")
            assert _said(ann)["type"] == "said"
            ann.send(type="say", id="hello")
            err = _said(ann)
            assert err["code"] == "rate_limited" and "every 3 s" in err["message"], err
            assert ann.welcome is not None
            token = ann.welcome["token"]
        with player(client) as again:  # the seat on a new connection: still the seat's limit
            assert again.join(code, "ann", token)["seat"] == 0
            again.send(type="say", id="hello")
            assert _said(again)["code"] == "rate_limited"
            for k in range(7):  # 1 + 7 = 8 within the minute, 3.1 s apart
                clock.ahead += 3.1
                again.send(type="say", id=QUICK_WORDS[k])
                assert _said(again)["type"] == "said", k
            clock.ahead += 3.1
            again.send(type="say", id="bye")
            err = _said(again)
            assert err["code"] == "rate_limited" and "at most 8" in err["message"], err
            clock.ahead += 40  # the first of the 8 is more than a minute ago
            again.send(type="say", id="bye")
            assert _said(again) == {"type": "said", "seat": 0, "id": "bye"}


def test_the_seats_limits_are_their_own(tmp_path: Path) -> None:
    clock = SteppedClock()
    client = app_client(tmp_path, clock=clock)
    with client, player(client) as ann, player(client) as bob:
        code = create_room(client, bots=4)
        _sit(ann, code, "ann", 0)
        _sit(bob, code, "bob", 1)
        ann.send(type="say", id="hello")
        assert _said(ann)["seat"] == 0
        ann.send(type="say", id="hello")
        assert _said(ann)["code"] == "rate_limited"
        bob.send(type="say", id="hello")  # at once: bob's first
        assert _said(bob) == {"type": "said", "seat": 0, "id": "hello"}
        assert _said(bob) == {"type": "said", "seat": 1, "id": "hello"}


@pytest.mark.parametrize(
    ("body", "chat"),
    [
        ({"preset": "COMP2"}, False),
        ({"preset": "MATCH7"}, False),
        ({"preset": "AUDIT"}, False),
        ({"preset": "OUTLINE_FULL", "overrides": {"score.system": "comp2"}}, False),
        ({"preset": "OUTLINE_FULL"}, True),
        ({"preset": "OUTLINE_CLASSIC"}, True),
        ({"preset": "LAIWU"}, True),
        ({"preset": "LIANG4"}, True),
    ],
)
def test_no_quick_words_with_competition_scoring(
    tmp_path: Path, body: dict[str, object], chat: bool
) -> None:
    """R19.5: rules scored as a competition (comp2, match7, audit6) play without chat."""
    client = app_client(tmp_path)
    with client, player(client) as ann:
        code = create_room(client, bots=5, **body)
        assert client.get(f"/api/rooms/{code}").json()["chat"] is chat
        _sit(ann, code, "ann", 0)
        ann.send(type="say", id="nice_cards")
        m = _said(ann)
        if chat:
            assert m == {"type": "said", "seat": 0, "id": "nice_cards"}
        else:
            assert m["code"] == "illegal" and "R19.5" in m["message"], m
            assert "competition" in m["message"]


def test_no_quick_words_at_an_events_table(tmp_path: Path) -> None:
    """An event's table, whatever its rules (here the default's outline scoring), has no
    chat: its invited player is refused (R19.5)."""
    client = app_client(tmp_path)
    with client:
        people = {"name": "人", "players": ["Ann", "Bob", "Cai"]}
        bots = {"name": "机", "players": ["B1", "B2", "B3"], "bot": "heuristic"}
        code, org = create_event(
            client, name="Chat", preset="OUTLINE_FULL", format="knockout", mode="online",
            teams=[people, bots], seed=8, **{**QUICK, "timer_s": 60},
        )  # fmt: skip
        r = client.post(f"/api/events/{code}/rounds", headers=org)
        assert r.status_code == 201, r.text
        url = next(u for u in next(iter(r.json()["seat_links"].values())) if u)
        path, _, query = url.partition("?")
        params = dict(p.split("=") for p in query.split("&"))
        room, seat, invite = path.removeprefix("/r/"), int(params["seat"]) - 1, params["invite"]
        assert client.get(f"/api/rooms/{room}").json()["chat"] is False
        with player(client) as ann:
            ann.send(type="join", room=room, name="x", seat=seat, invite=invite)
            ann.next_of("welcome")
            ann.send(type="sit", seat=seat, invite=invite)
            ann.state_where(lambda m: m["room"]["seats"][seat]["online"])
            ann.send(type="say", id="teamwork")
            err = _said(ann)
            assert err["code"] == "illegal" and "competition table" in err["message"], err
            assert "R19.5" in err["message"]


def test_the_page_has_words_for_exactly_the_servers_ids() -> None:
    """web/js/quick-words.js lists every id the server knows, and no other; its word file
    (web/js/words/chat.js, say.<id> and face.<id>) says each in both languages."""
    text = (WEB / "js" / "quick-words.js").read_text(encoding="utf-8")
    phrases = re.search(r"PHRASES = \[(.*?)\];", text, re.S)
    faces = re.search(r"FACES = \{(.*?)\n\};", text, re.S)
    assert phrases is not None and faces is not None
    assert tuple(re.findall(r'"(\w+)"', phrases.group(1))) == QUICK_WORDS
    assert tuple(re.findall(r"^  (\w+): ", faces.group(1), re.M)) == EMOTES
    words = (WEB / "js" / "words" / "chat.js").read_text(encoding="utf-8")
    ids = {f"say.{i}" for i in QUICK_WORDS} | {f"face.{i}" for i in EMOTES}
    for lang in ("zh", "en"):
        block = re.search(rf"^  {lang}: \{{(.*?)^  \}},", words, re.S | re.M)
        assert block is not None, lang
        said = re.findall(r'^    "((?:say|face)\.\w+)": "[^"]+",', block.group(1), re.M)
        assert set(said) == ids, lang
    assert len(SAY_IDS) == len(QUICK_WORDS) + len(EMOTES)

"""The bodies of the events API, checked as the network's input before the event sees them
(docs/protocol.md, "Events"): a new event and its teams, a referee's sheet and its 罚分
column, a sanction. Bodies are strict (``http.fields``: unknown fields refused), names are
cleaned as players' names (``clean_name``), every number is bounded; what the rules then
refuse is the event's to say (``EventError``, a 400 too).
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from gouji.agents import names as agent_names
from gouji.competition.event import Event, EventError
from gouji.server.events.live import Settings
from gouji.server.plumbing.http import bad_request, fields, integer
from gouji.server.tables.protocol import SEATS, ConfigProblem, clean_name, parse_config

MAX_ARTICLE = 80
MAX_BURNS = 60


def name_text(value: object, what: str) -> str:
    """A name: non-empty text, NFC, without control or invisible characters (clean_name)."""
    if not isinstance(value, str) or not value.strip():
        raise bad_request(f"{what} must be a non-empty text")
    try:
        return clean_name(value)
    except ValueError as e:
        raise bad_request(f"{what}: {e}") from None


def article(value: object) -> str:
    """A sanction's article: one line of visible text (as names are), at most 80 characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise bad_request("'article' is a text")
    text = unicodedata.normalize("NFC", value).strip()
    bad_chars = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")]
    if len(text) > MAX_ARTICLE or bad_chars:
        raise bad_request(f"'article' is one line of at most {MAX_ARTICLE} visible characters")
    return text


def seats(value: object, what: str, most: int = SEATS) -> list[int]:
    """A list of at most ``most`` seats 0…5 (None: none)."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > most:
        raise bad_request(f"'{what}' is a list of at most {most} seats")
    return [integer(v, what, 0, SEATS - 1) for v in value]


# ---------------------------------------------------------------------------------- teams
@dataclass
class TeamBody:
    """A team as registered: ``Event.add_team``'s arguments."""

    name: str
    players: list[str]
    bot: str | None
    subs: list[str]
    seed: int | None

    def add(self, ev: Event) -> Any:
        return ev.add_team(self.name, self.players, self.bot, subs=self.subs, seed=self.seed)


def team_body(body: object, default_bot: str) -> TeamBody:
    """``{"name", "players", "bot"?, "subs"?, "seed"?}``; ``"bot": true`` is ``default_bot``."""
    b = fields(body, ("name", "players"), ("bot", "subs", "seed"))
    name = name_text(b["name"], "a team's name")
    players = b["players"]
    if not isinstance(players, list) or len(players) > 10:
        raise bad_request(
            f"team {name}: 'players' is a list of three names (six at a duplicate event)"
        )
    names = [name_text(p, f"team {name}: a player's name") for p in players]
    subs = b.get("subs") or []
    if not isinstance(subs, list) or len(subs) > 10:
        raise bad_request(f"team {name}: 'subs' is a list of substitutes' names")
    bench = [name_text(p, f"team {name}: a substitute's name") for p in subs]
    seed = None if b.get("seed") is None else integer(b["seed"], "seed", 1, 256)
    bot = b.get("bot")
    if bot is True:
        bot = default_bot
    elif bot is False:
        bot = None
    if bot is not None and (not isinstance(bot, str) or bot not in agent_names()):
        raise bad_request(f"team {name}: 'bot' is true or one of {', '.join(agent_names())}")
    return TeamBody(name, names, bot, bench, seed)


# ---------------------------------------------------------------------------------- events
def new_event(body: object, local: bool, now: float) -> tuple[Event, Settings]:
    """``POST /api/events``'s body: the event with its teams (registered by the organiser at
    ``now``) and the server's settings of it (``local``: made on the server's machine)."""
    b = fields(
        body,
        ("name", "preset", "format", "mode"),
        (
            "rounds",
            "duplicate",
            "sequential",
            "third_place",
            "games",
            "seed",
            "teams",
            "bot",
            "bot_delay_ms",
            "next_delay_ms",
            "timer_s",
            "overrides",
        ),
    )
    name = name_text(b["name"], "the event's name")
    for f in ("preset", "format", "mode"):
        if not isinstance(b[f], str):
            raise bad_request(f"'{f}' must be a string")
    try:  # the rules as a room would read them (overrides, supported by the engine)
        cfg, _ = parse_config({"preset": b["preset"], "overrides": b.get("overrides")})
    except ConfigProblem as e:
        raise bad_request(str(e)) from None
    settings = Settings(remote=not local)
    if b.get("bot") is not None:
        if not isinstance(b["bot"], str) or b["bot"] not in agent_names():
            raise bad_request(f"'bot' must be one of {', '.join(agent_names())}")
        settings.bot = b["bot"]
    if b.get("bot_delay_ms") is not None:
        settings.bot_delay_ms = integer(b["bot_delay_ms"], "bot_delay_ms", 0, 60_000)
    if b.get("next_delay_ms") is not None:
        settings.next_delay_ms = integer(b["next_delay_ms"], "next_delay_ms", 0, 600_000)
    if "timer_s" in b:
        t = b["timer_s"]
        if t is not None and (
            not isinstance(t, int | float) or isinstance(t, bool) or not 0 < t <= 3600
        ):
            raise bad_request("'timer_s' must be a number of seconds in (0, 3600] or null")
        settings.timer_s = None if t is None else float(t)
    duplicate = b.get("duplicate", False)
    sequential = b.get("sequential", False)
    third_place = b.get("third_place", False)
    for flag, value in (
        ("duplicate", duplicate),
        ("sequential", sequential),
        ("third_place", third_place),
    ):
        if not isinstance(value, bool):
            raise bad_request(f"'{flag}' must be true or false")
    rounds = None if b.get("rounds") is None else integer(b["rounds"], "rounds", 1, 50)
    games = None if b.get("games") is None else integer(b["games"], "games", 1, 20)
    if b.get("seed") is not None:
        seed = integer(b["seed"], "seed", 0, 2**53)
        settings.fixed_deal = True  # whoever fixes the seed knows every deal
    else:
        seed = secrets.randbelow(2**53)
    teams = b.get("teams") or []
    if not isinstance(teams, list) or len(teams) > 256:
        raise bad_request("'teams' is a list of at most 256 teams")
    try:
        ev = Event(
            name,
            cfg.preset,
            b["format"],
            rounds=rounds,
            duplicate=duplicate,
            sequential=sequential,
            third_place=third_place,
            games=games,
            seed=seed,
            mode=b["mode"],
            overrides=cfg.overrides,
        )
        with ev.acting("organiser", round(now, 3)):
            for team in teams:
                team_body(team, settings.bot).add(ev)
    except EventError as e:
        raise bad_request(str(e)) from None
    return ev, settings


# ---------------------------------------------------------------------------------- sheets
def sheet_body(b: dict[str, Any]) -> dict[str, Any]:
    """A referee's sheet: places by seat (0…5), 不开点, 闷 and burns, checked as the
    network's input (the event scores and checks it against the rules)."""
    places = b["places"]
    if not isinstance(places, list) or len(places) != SEATS:
        raise bad_request("'places' gives each seat (0…5) its place 1…6")
    for p in places:
        integer(p, "places", 1, SEATS)
    burns = b.get("burns") or []
    if not isinstance(burns, list) or len(burns) > MAX_BURNS:
        raise bad_request(f"'burns' is a list of at most {MAX_BURNS} [burner, victim] pairs")
    for pair in burns:
        if not isinstance(pair, list) or len(seats(pair, "burns", 2)) != 2:
            raise bad_request("a burn is [burner, victim]")
    return {
        "places": places,
        "not_opened": seats(b.get("not_opened"), "not_opened"),
        "men": seats(b.get("men"), "men"),
        "burns": burns,
    }


def penalties_body(value: object) -> list[dict[str, Any]]:
    """The sheet's 罚分 column: ``[{"seat", "points" (negative), "article"}]``, each a penalty
    sanction counted in the sheet's game (R17.6)."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > SEATS:
        raise bad_request(f"'penalties' is a list of at most {SEATS} penalties")
    out = []
    for p in value:
        b = fields(p, ("seat",), ("points", "article"))
        points = -2 if b.get("points") is None else integer(b["points"], "points", -100, -1)
        out.append(
            {"seat": integer(b["seat"], "seat", 0, SEATS - 1), "points": points,
             "article": article(b.get("article"))}
        )  # fmt: skip
    return out


# ---------------------------------------------------------------------------------- sanctions
@dataclass(frozen=True)
class SanctionBody:
    """A sanction as given: ``Event.sanction``'s arguments (``game`` None: the game now)."""

    kind: str
    seat: int
    points: int
    article: str
    game: int | None


def sanction_body(body: object) -> SanctionBody:
    """``{"kind", "seat", "points"? (default −2), "article"?, "game"?}``."""
    b = fields(body, ("kind", "seat"), ("points", "article", "game"))
    kind, seat = b["kind"], integer(b["seat"], "seat", 0, SEATS - 1)
    if not isinstance(kind, str):
        raise bad_request("'kind' must be a string")
    points = b.get("points", -2)
    text = article(b.get("article"))
    points = -2 if points is None else integer(points, "points", -100, 100)
    game = None if b.get("game") is None else integer(b["game"], "game", 0, 1000)
    return SanctionBody(kind, seat, points, text, game)

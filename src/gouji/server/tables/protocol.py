"""Message validation for the websocket protocol and the create-room body (docs/protocol.md).

Everything a client sends passes through here first: a bad message becomes a
:class:`ProtocolError` with one of the documented codes, never an exception in a room.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

from gouji.agents import names as agent_names
from gouji.agents.ratings import BOT_RATINGS
from gouji.competition.formation import FORMATIONS
from gouji.engine.referee.game import UnsupportedRules, check_supported
from gouji.engine.rules import DEFAULT_PRESET, ConfigError, Rules, make_rules, parse_override
from gouji.server.plumbing.http import BadJson, load_json
from gouji.server.tables.phrases import EMOTES, QUICK_WORDS, SAY_IDS

MAX_MESSAGE = 16 * 1024  # bytes of one websocket message
SEATS = 6

# error codes (docs/protocol.md)
BAD_JSON = "bad_json"
BAD_MESSAGE = "bad_message"
TOO_LARGE = "too_large"
NO_ROOM = "no_room"
NOT_JOINED = "not_joined"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL = "illegal"
SEAT_TAKEN = "seat_taken"
STARTED = "started"
NOT_STARTED = "not_started"
RATE_LIMITED = "rate_limited"
ROOM_FULL = "room_full"
UNAVAILABLE = "unavailable"
TOO_MANY_CONNECTIONS = "too_many_connections"
BAD_INVITE = "bad_invite"
ACCOUNT_NEEDED = "account_needed"  # a rated room's seat, asked for without an account
ALREADY_SEATED = "already_seated"  # a second seat for an account that holds one in the room
SESSION_ENDED = "session_ended"  # the connection's session ended: it acts as nobody (closed)
NO_HINTS = "no_hints"  # a `hint` in a rated room: a rating measures the player (D198)

MAX_NAME = 40  # characters of a player's name
MAX_ACTION = 300  # characters of an action's text
_ID = re.compile(r"[A-Za-z0-9._:~-]{1,100}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")
_ROOM = re.compile(r"[A-Za-z0-9]{1,16}")
_ACTION = re.compile(rf"[ -~]{{1,{MAX_ACTION}}}")  # printable ASCII: action words and cards


class ProtocolError(Exception):
    """A client message the server answers with an ``error`` (the room is unchanged)."""

    def __init__(
        self, code: str, message: str, id: str | None = None, reason: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id
        self.reason = reason  # the engine's reason as data (gouji.engine.reasons), for `illegal`

    def as_message(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.id is not None:
            out["id"] = self.id
        if self.reason is not None:
            out["reason"] = self.reason
        return out


# type -> {field: (python type, required)}; every message may carry a string "id"
_STR = str
_SCHEMA: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "join": {
        "room": (_STR, True),
        "name": (_STR, False),
        "token": (_STR, False),
        "seat": (int, False),  # with "invite": a competition seat's player, never turned away
        "invite": (_STR, False),
    },
    "sit": {"seat": (int, True), "invite": (_STR, False)},
    "stand": {},
    "start": {},
    "act": {"id": (_STR, True), "action": (_STR, True), "auto": (bool, False)},
    "check": {"action": (_STR, True)},
    "hint": {},
    "trust": {"on": (bool, True)},
    "next": {},
    "resync": {},
    "ping": {},
    "say": {"id": (_STR, True)},  # 快捷语: one of quick.SAY_IDS (no free text)
}
MESSAGE_TYPES = tuple(_SCHEMA)


def _type_ok(value: object, want: type | tuple[type, ...]) -> bool:
    if want is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, want)


def clean_name(raw: object) -> str:
    """A player's name as shown to others: NFC, trimmed, no control or invisible characters,
    at most ``MAX_NAME`` characters; empty → ``guest``. Raises ``ValueError`` saying why."""
    if raw is None:
        return "guest"
    if not isinstance(raw, str):
        raise ValueError("a name is text")
    name = unicodedata.normalize("NFC", raw).strip()
    if len(name) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters")
    bad = [c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")]
    if bad:
        raise ValueError(f"a name cannot hold control or invisible characters ({bad[0]!a})")
    return name or "guest"


def _echo(value: object) -> str:
    """Client text quoted back in an error: ASCII-safe and short (errors queue up)."""
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """A validated client message; raises :class:`ProtocolError` (bad_json, bad_message,
    too_large) with a clear text."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
    if size > MAX_MESSAGE:
        raise ProtocolError(TOO_LARGE, f"a message is at most {MAX_MESSAGE} bytes, not {size}")
    try:
        msg = load_json(raw)
    except BadJson as e:
        raise ProtocolError(BAD_JSON, f"not acceptable JSON: {e}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_MESSAGE, "a message is a JSON object with a 'type'")
    kind = msg.get("type")
    raw_id = msg.get("id")
    msg_id = raw_id if isinstance(raw_id, str) and _ID.fullmatch(raw_id) else None
    if not isinstance(kind, str) or kind not in _SCHEMA:
        raise ProtocolError(
            BAD_MESSAGE,
            f"unknown message type {_echo(kind)}; types: {', '.join(MESSAGE_TYPES)}",
            msg_id,
        )
    extra = sorted(set(msg) - set(_SCHEMA[kind]) - {"type", "id"})
    if extra:
        raise ProtocolError(BAD_MESSAGE, f"'{kind}' takes no field {_echo(extra[0])}", msg_id)
    if raw_id is not None and msg_id is None:
        raise ProtocolError(BAD_MESSAGE, "'id' is 1 to 100 of A-Z a-z 0-9 . _ : ~ -", None)
    for name, (want, required) in _SCHEMA[kind].items():
        if name not in msg or msg[name] is None:
            if required:
                raise ProtocolError(BAD_MESSAGE, f"'{kind}' needs the field '{name}'", msg_id)
            continue
        if not _type_ok(msg[name], want):
            what = getattr(want, "__name__", str(want))
            raise ProtocolError(BAD_MESSAGE, f"'{kind}': field '{name}' must be {what}", msg_id)
    if kind in ("act", "check") and not _ACTION.fullmatch(msg["action"]):
        raise ProtocolError(
            BAD_MESSAGE,
            f"'act': an action is 1 to {MAX_ACTION} printable ASCII characters, e.g. 'play 7 7'",
            msg_id,
        )
    if kind == "say" and msg["id"] not in SAY_IDS:
        raise ProtocolError(
            BAD_MESSAGE,
            f"'say': unknown 快捷语 {_echo(msg['id'])}; ids: {', '.join(QUICK_WORDS + EMOTES)}",
            msg_id,
        )
    if kind == "sit" and not 0 <= msg["seat"] < SEATS:
        raise ProtocolError(BAD_MESSAGE, f"'sit': seats are 0 to {SEATS - 1}")
    if kind == "sit" and msg.get("invite") is not None and not _TOKEN.fullmatch(msg["invite"]):
        raise ProtocolError(BAD_MESSAGE, "'sit': not an invitation this server gives out")
    if kind == "join":
        if not _ROOM.fullmatch(msg["room"]):
            raise ProtocolError(BAD_MESSAGE, "'join': a room code is 1 to 16 letters and digits")
        token = msg.get("token")
        if token is not None and token != "" and not _TOKEN.fullmatch(token):
            raise ProtocolError(BAD_MESSAGE, "'join': not a token this server gives out")
        if (msg.get("seat") is None) != (msg.get("invite") is None):
            raise ProtocolError(BAD_MESSAGE, "'join': 'seat' and 'invite' come together")
        if msg.get("seat") is not None and not 0 <= msg["seat"] < SEATS:
            raise ProtocolError(BAD_MESSAGE, f"'join': seats are 0 to {SEATS - 1}")
        if msg.get("invite") is not None and not _TOKEN.fullmatch(msg["invite"]):
            raise ProtocolError(BAD_MESSAGE, "'join': not an invitation this server gives out")
        try:
            msg["name"] = clean_name(msg.get("name"))
        except ValueError as e:
            raise ProtocolError(BAD_MESSAGE, f"'join': {e}") from None
    return msg


# ------------------------------------------------------------------------------ room config
@dataclass
class RoomConfig:
    """The create-room body, validated (docs/protocol.md, HTTP)."""

    preset: str = DEFAULT_PRESET
    overrides: dict[str, Any] = field(default_factory=dict)
    bots: int = 5
    bot: str = "heuristic"
    timer_s: float | None = 30.0
    count_visibility: str | None = None
    card_counter: bool = False
    games: int | None = None
    bot_delay_ms: int = 600
    next_delay_ms: int = 3000
    seat_takeover: bool = True  # a watcher may take a bot's or an absent player's seat
    fixed_deal: bool = False  # the creator chose the seed: every seat and spectator is told
    expires: float | None = None  # epoch seconds after which an all-bot room plays no more
    formation: str = "seats"  # R1.6: seats / draw / opposite (gouji.competition.formation)
    listed: bool = False  # shown in the lobby's list of open rooms (else found by code only)
    rated: bool = (
        False  # every human seat an account; results rate them (gouji.server.players.ratings)
    )
    # quick match (快速开始): once a player sits, bots fill the free seats after this many
    # seconds without a change (gouji.server.tables.quickmatch); None: a seated player starts
    fill_after_s: float | None = None
    # a competition table: {"code": event, "table": table id}; its seats are fixed by
    # ``seating`` (by seat: {"name", "bot"} or {"name", "invite": the invitation's hash})
    event: dict[str, str] | None = None
    seating: list[dict[str, Any]] | None = None

    def rules(self) -> Rules:
        overrides = dict(self.overrides)
        if self.count_visibility is not None:
            overrides["info.count_visibility"] = self.count_visibility
        return make_rules(self.preset, overrides)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def public(self) -> dict[str, Any]:
        """The config as everybody may see it: the invitations' hashes left out."""
        out = asdict(self)
        if self.seating is not None:
            out["seating"] = [{k: v for k, v in s.items() if k != "invite"} for s in self.seating]
        return out


_CONFIG_FIELDS = {
    "preset",
    "overrides",
    "bots",
    "bot",
    "timer_s",
    "count_visibility",
    "card_counter",
    "games",
    "bot_delay_ms",
    "next_delay_ms",
    "seed",
    "seat_takeover",
    "formation",
    "listed",
    "rated",
}


class ConfigProblem(ValueError):
    """A create-room body the server refuses (HTTP 400)."""


def _int_field(body: dict[str, Any], name: str, lo: int, hi: int) -> int | None:
    v = body.get(name)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ConfigProblem(f"'{name}' must be an integer from {lo} to {hi}")
    return v


def parse_config(body: object) -> tuple[RoomConfig, int | None]:
    """The room config and the optional ``seed`` from a create-room body."""
    if not isinstance(body, dict):
        raise ConfigProblem("the body is a JSON object")
    unknown = sorted(set(body) - _CONFIG_FIELDS)
    if unknown:
        raise ConfigProblem(
            f"unknown field(s) {', '.join(unknown)}; fields: {', '.join(sorted(_CONFIG_FIELDS))}"
        )
    cfg = RoomConfig()
    if body.get("preset") is not None:
        if not isinstance(body["preset"], str):
            raise ConfigProblem("'preset' must be a string")
        cfg.preset = body["preset"]
    overrides = body.get("overrides")
    if overrides is not None:
        if not isinstance(overrides, dict):
            raise ConfigProblem("'overrides' must be an object of rule keys")
        cfg.overrides = {}
        for key, value in overrides.items():
            try:  # a string value is read like `--set key=value` on the command line
                val = parse_override(f"{key}={value}")[1] if isinstance(value, str) else value
            except ConfigError as e:
                raise ConfigProblem(str(e)) from None
            cfg.overrides[key] = list(val) if isinstance(val, tuple) else val
    bots = _int_field(body, "bots", 0, SEATS)
    if bots is not None:
        cfg.bots = bots
    if body.get("bot") is not None:
        if not isinstance(body["bot"], str) or body["bot"] not in agent_names():
            raise ConfigProblem(f"'bot' must be one of {', '.join(agent_names())}")
        cfg.bot = body["bot"]
    if "timer_s" in body:
        t = body["timer_s"]
        if t is not None and (
            not isinstance(t, int | float) or isinstance(t, bool) or not 0 < t <= 3600
        ):
            raise ConfigProblem("'timer_s' must be a number of seconds in (0, 3600] or null")
        cfg.timer_s = None if t is None else float(t)
    if body.get("count_visibility") is not None:
        if not isinstance(body["count_visibility"], str):
            raise ConfigProblem("'count_visibility' must be a string")
        cfg.count_visibility = body["count_visibility"]
    if body.get("seat_takeover") is not None:
        if not isinstance(body["seat_takeover"], bool):
            raise ConfigProblem("'seat_takeover' must be true or false")
        cfg.seat_takeover = body["seat_takeover"]
    if body.get("formation") is not None:
        if body["formation"] not in FORMATIONS:
            raise ConfigProblem(f"'formation' must be one of {', '.join(FORMATIONS)}")
        cfg.formation = body["formation"]
    if body.get("listed") is not None:
        if not isinstance(body["listed"], bool):
            raise ConfigProblem("'listed' must be true or false")
        cfg.listed = body["listed"]
    if body.get("rated") is not None:
        if not isinstance(body["rated"], bool):
            raise ConfigProblem("'rated' must be true or false")
        cfg.rated = body["rated"]
    if body.get("card_counter") is not None:
        if not isinstance(body["card_counter"], bool):
            raise ConfigProblem("'card_counter' must be true or false")
        cfg.card_counter = body["card_counter"]
    cfg.games = _int_field(body, "games", 1, 1000)
    delay = _int_field(body, "bot_delay_ms", 0, 60_000)
    if delay is not None:
        cfg.bot_delay_ms = delay
    pause = _int_field(body, "next_delay_ms", 0, 600_000)
    if pause is not None:
        cfg.next_delay_ms = pause
    seed = _int_field(body, "seed", 0, 2**53)
    cfg.fixed_deal = seed is not None  # whoever fixes the seed knows every hand
    try:
        rules = cfg.rules()
        check_supported(rules)
    except (ConfigError, UnsupportedRules) as e:
        raise ConfigProblem(str(e)) from None
    cfg.preset = rules.preset
    if cfg.rated:
        _check_rated(cfg)
    return cfg, seed


def _check_rated(cfg: RoomConfig) -> None:
    """A rated room plays a preset as it is (one rating per rule set), with bots whose rating
    is known (the level league's, gouji.agents.ratings), a deal nobody chose, and a turn timer:
    without one a player who stops acting stops the game for good, and it is never rated."""
    if cfg.timer_s is None:
        raise ConfigProblem(
            "a rated room needs a turn timer: 'timer_s' a number of seconds in (0, 3600], not null"
        )
    if cfg.overrides or cfg.count_visibility is not None:
        raise ConfigProblem("a rated room plays its preset unchanged: no 'overrides'")
    if cfg.fixed_deal:
        raise ConfigProblem("a rated room is dealt at random: no 'seed'")
    if cfg.bots and cfg.bot not in BOT_RATINGS:
        raise ConfigProblem(
            f"a rated room's bots have a known rating: 'bot' must be one of "
            f"{', '.join(sorted(BOT_RATINGS))}"
        )


def config_from_dict(data: dict[str, Any]) -> RoomConfig:
    """A stored config back as a :class:`RoomConfig`."""
    known = {k: v for k, v in data.items() if k in RoomConfig.__dataclass_fields__}
    return RoomConfig(**known)

"""The room authority: one ``Match`` per room, its seats, tokens, version and timers.

A room is a fold over its stored actions (``Room._fold``): seats taken and left, the start,
every decision (a player's ``act``, a bot's, 托管's, a timeout's), 托管 on/off and ``next``.
Live changes go through ``Room.commit`` (fold, store, version + 1, push); when the store
refuses the write, the fold is undone, so memory never holds what the store does not. A
restart replays the stored actions through the same fold: same state, same version.

Each room has one driver task (bots, 托管, the turn timer, the automatic next game) and one
lock; every change happens under the lock, synchronously, so a view is never half-updated.

A competition table (``config.event``) is a room whose seats are fixed at creation
(``config.seating``: bots, and players who take their seat with an invitation); it starts by
itself once every player is seated, and its event decides how many games it plays
(``allowed_games``) and when it is done (``halted``), through ``listener``
(gouji.server.events.service).
At a duplicate event the event also says how many of the table's games anyone outside their
seats may see (``public_games``): a deal still being played at another table is shown to
nobody but its own seats, each its own hand (docs/decisions.md D74, D85).

A game belongs, seat by seat, to whoever sat there at its first action (``starters``): a
watcher who takes a bot's or an absent player's seat later plays that game unrated and
unrecorded, and the player who left keeps it, loss included (docs/decisions.md D148).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gouji import agents
from gouji.agents.base import Agent
from gouji.competition.formation import apply_seating, seating
from gouji.engine.actions import NOSKIP, NOSWAP, Action, IllegalAction
from gouji.engine.cards import NUM_RANKS, RANKS
from gouji.engine.match import Match
from gouji.engine.policy import timeout_action
from gouji.engine.referee.game import PRIVATE_PENDING
from gouji.review.replay import replay_steps
from gouji.server.players.records import Decided, FinishedGame, Seated
from gouji.server.plumbing import tokens
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.db import Also
from gouji.server.plumbing.fence import Fence, LeaseLost
from gouji.server.tables.connection import dumps
from gouji.server.tables.holds import HOLD_S, Holds
from gouji.server.tables.phrases import no_chat
from gouji.server.tables.protocol import (
    SEATS,
    RoomConfig,
)
from gouji.server.tables.store import RoomStore, SeatRow, StoredAction

if TYPE_CHECKING:
    from gouji.server.tables.connection import Connection

log = logging.getLogger("gouji.server")

MOVE_KINDS = ("act", "autoact", "bot", "auto", "timeout")  # actions applied to the match
SERVER_KINDS = ("bot", "auto", "timeout", "next")  # decided by the server: nobody acknowledged
NOTES_KEPT = 40  # recent room notes (timeouts, 托管, watchers, seats taken) in the summary
TIMEOUTS_TO_TRUST = 2  # R19.3: 托管 after two timeouts in a row
RESUME_MIN_S = 3.0  # a turn timer resumed after a take-over leaves at least this (D56)


class StoreFailed(Exception):
    """The store refused a write; the room was rolled back to before the change."""


class RoomLost(StoreFailed):
    """Another process holds this room's home now: the change was not made here, and this
    process serves the room no more (its clients are sent to the owner)."""


@dataclass
class Seat:
    name: str | None = None
    token: str | None = None  # the seat token's hash (tokens.token_hash)
    bot: str | None = None  # agent name of a bot seat
    trust: bool = False  # 托管
    timeouts: int = 0  # timeouts in a row
    invite: str | None = None  # a competition seat: the hash of its player's invitation
    account: int | None = None  # the account of its player (whose record and rating count)
    guest: str | None = None  # else the hash of its player's guest cookie (their browser)

    @property
    def empty(self) -> bool:
        return self.name is None and self.bot is None

    @property
    def human(self) -> bool:
        return self.name is not None and self.bot is None

    @property
    def automatic(self) -> bool:
        """Decided by software: a bot or a human on 托管."""
        return self.bot is not None or self.trust


class Room:
    """The authority of one table (see the module docstring)."""

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        seed: int,
        created: float,
        store: RoomStore | None,
        clock: Clock = SYSTEM,
    ) -> None:
        self.code = code
        self.clock = clock  # table time: bot delays, the turn timer, expiry
        self.config = config
        self.rules = config.rules()
        self.seed = seed
        self.created = created
        self.store = store
        self.version = 0
        self.seats = [Seat() for _ in range(SEATS)]
        self.match: Match | None = None
        self.applied: set[tuple[int | None, str]] = set()  # (seat, client id) of applied acts
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.deadline: float | None = None  # epoch seconds of the turn timer's end
        self._deadline_mono: float | None = None
        self._deadline_key: tuple[int, ...] | None = None
        self._since = clock.monotonic()  # when the room last changed
        self._agents: dict[tuple[int, str], Agent] = {}
        self._hinter: Agent | None = None
        self.notes: list[dict[str, Any]] = []  # what the table is told beside the game's log
        self.replaced = 0  # players who took a seat in the running game (next_game's count)
        self._pushes = 0  # pushes so far: the key of the cached summary and spectator state
        self._cached: tuple[tuple[int, bool], dict[str, Any], str | None] = ((-1, False), {}, None)
        # a competition table: the event sets these (never stored: they follow from the event)
        self.allowed_games: int | None = None  # games the event lets it start
        self.halted: str | None = None  # why it plays no more: "decided" or "closed"
        self.listener: Callable[[Room], None] | None = None  # told after every change
        # how many games (from the first) may be shown outside their seats; None: all
        self.public_games: Callable[[Room], int | None] | None = None
        # several processes (docs/scaling.md): the home whose lease fences every write
        self.home = str(config.event["code"]) if config.event else code
        self.fence: Callable[[str], Fence] | None = None  # the hub's: this process's lease
        self.lost = False  # another process took the home: this copy is dead
        self.on_lost: Callable[[Room], None] | None = None
        self.on_push: Callable[[Room], None] | None = None  # the lobby's list (lobby.py)
        self.decisions = 0  # moves applied live here (the /metrics counter reads the hub's)
        # a game ended live (its index): its players' records and ratings (records.py)
        self.on_game_over: Callable[[FinishedGame], object] | None = None
        # the current game's index and who sat at each seat at its first action: whose game
        # it is, seat by seat, whoever takes a seat later (D148)
        self.starters: tuple[int, list[Seated]] | None = None
        # the current game's index and, by seat, who made its decisions: the player or 托管
        # (a rated game's rating counts them, D196); replaced whole on each change
        self.decided: tuple[int, list[Decided]] | None = None
        self.holds = Holds(clock)  # seats held for 快速开始 taps on their way (holds.py, D170)
        for i, entry in enumerate(config.seating or []):
            self.seats[i] = _reserved(entry)

    # ------------------------------------------------------------------ the fold
    def _fold(self, kind: str, seat: int | None, text: str) -> str:
        """Apply one action to the room's state; returns the text to store. Raises
        ``IllegalAction``/``ValueError`` (state unchanged) for a decision the match refuses."""
        if kind == "sit":
            assert seat is not None
            data = json.loads(text)
            token = tokens.stored_form(str(data["token"]))  # rooms stored before hashing
            for s in self.seats:
                if s.token is not None and s.token == token:
                    s.name, s.token = None, None
            before = self.seats[seat]
            account, guest = data.get("account"), data.get("guest")
            self.seats[seat] = Seat(
                name=str(data["name"]),
                token=token,
                account=int(account) if account is not None else None,
                guest=str(guest) if guest is not None else None,
            )
            if self.match is not None:  # a player joins a running match in a free seat:
                self.replaced += 1  # one more replaced before the next game (R3.7, R16.1)
                self._count(seat, left=True)  # whose game it was left it for good (D196)
                was = "bot" if before.bot else "player"
                # where in the games it happened and who sat there: the table's log keeps the
                # earlier lines under the name they were played under (D106)
                game = self.match.game
                self._note(
                    "seat",
                    seat,
                    name=str(data["name"]),
                    replaced=was,
                    before=before.name,
                    game=len(self.match.games),
                    i=len(game.log),
                )
        elif kind in ("claim", "rekey"):  # a competition seat taken with its invitation; a
            # seat's token presented again: either way the seat has a new token (D91)
            assert seat is not None and (kind == "rekey" or self.config.seating is not None)
            token = str(json.loads(text)["token"])
            for s in self.seats:
                if s.token == token:
                    s.token = None
            self.seats[seat] = dataclasses.replace(self.seats[seat], token=token)
        elif kind == "relink":  # the organiser gave a competition seat a new invitation
            assert seat is not None and self.config.seating is not None
            data = json.loads(text)
            entry = {**self.config.seating[seat], "invite": str(data["invite"])}
            entry["gen"] = int(data["gen"])
            self.config.seating = [
                entry if i == seat else s for i, s in enumerate(self.config.seating)
            ]
            s = self.seats[seat]
            away = self.match is not None and s.token is not None and not s.trust
            self.seats[seat] = Seat(name=s.name, invite=entry["invite"], trust=s.trust or away)
            if away:  # whoever sat there by the old link is gone: 托管 plays the seat
                self._note("trust", seat, on=True, why="left")
        elif kind == "stand":
            assert seat is not None
            self.seats[seat] = Seat()
        elif kind == "start":
            data = json.loads(text)
            for key, agent in data["bots"].items():
                self.seats[int(key)] = Seat(name=f"{agent} bot", bot=str(agent))
            order = seating(self.config.formation, self.seed)  # R1.6: teams by lot
            if order != sorted(order):
                self.seats = apply_seating(order, self.seats)
                self._note("formation", None, formation=self.config.formation, seating=order)
            self.match = Match(self.rules, self.seed, games=self.config.games)
        elif kind == "sanction":  # a referee's sanction at a competition table (R19.4)
            assert seat is not None and self.match is not None
            data = json.loads(text)
            self.match.sanction(
                str(data["kind"]), seat, points=int(data["points"]), article=str(data["article"])
            )
        elif kind in MOVE_KINDS:
            assert seat is not None and self.match is not None
            m = self.match
            if m.to_act != seat:
                raise IllegalAction(f"it is not P{seat}'s decision")
            game = m.game
            in_game = not game.is_over
            first = in_game and not game.actions  # the game's first action: its starters
            private = self.private_turn()
            choice = in_game and len(m.legal_actions()) > 1  # a forced move is nobody's
            m.apply(text)
            if first:
                self.starters = (len(m.games) - 1, [_seated(s) for s in self.seats])
                self.decided = (len(m.games) - 1, [Decided()] * SEATS)
            if choice and kind != "bot":
                self._count(seat, trusted=kind in ("auto", "timeout"))
            text = game.actions[-1] if in_game else m.prompt_answers[-1][-1]
            s = self.seats[seat]
            if kind == "act":  # the player's own decision ends 托管; "autoact" (the page's
                if s.trust:  # automatic pass) does not
                    self._note("trust", seat, on=False, why="acted")
                s.trust, s.timeouts = False, 0
            elif kind == "timeout":
                self._note("timeout", None if private else seat, action=text)
                if not private:  # a counted private timeout would show the table who was asked
                    s.timeouts += 1  # (R19.3 counts the public ones)
                    if s.timeouts >= TIMEOUTS_TO_TRUST and s.human and not s.trust:
                        s.trust = True
                        self._note("trust", seat, on=True, why="timeouts")
        elif kind == "trust":
            assert seat is not None
            s = self.seats[seat]
            words = text.split()
            s.trust = words[0] == "on"
            if not s.trust:
                s.timeouts = 0
            self._note("trust", seat, on=s.trust, why=words[1] if len(words) > 1 else "asked")
        elif kind == "next":
            assert self.match is not None
            self.match.next_game(self.replaced)
            self.replaced = 0
        else:
            raise ValueError(f"unknown action kind {kind!r}")
        return text

    def commit(
        self,
        kind: str,
        seat: int | None,
        text: str,
        client_id: str | None = None,
        seat_rows: list[SeatRow] | None = None,
        also: Also | None = None,
    ) -> None:
        """Fold a live action, store it (with ``also``'s writes, in one transaction), bump the
        version, push every connection and tell the ``listener``.

        An action the match refuses raises ``IllegalAction`` with nothing changed; a write the
        store refuses undoes the fold and raises ``StoreFailed`` (nothing changed either).
        """
        seats = [dataclasses.replace(x) for x in self.seats]
        mark = self._match_mark()
        # a sanction changes no count the mark sees: keep the whole match to go back to
        before = copy.deepcopy(self.match) if kind == "sanction" else None
        seating = self.config.seating  # a relink replaces it (never changes it in place)
        notes, replaced, starters = len(self.notes), self.replaced, self.starters
        decided = self.decided
        finished = len(self.match.results) if self.match is not None else 0
        try:
            stored_text = self._fold(kind, seat, text)
        except Exception:
            del self.notes[notes:]  # a refused decision leaves no note either
            raise
        stored_at = self.clock.time()
        if self.store is not None:
            action = StoredAction(self.version + 1, seat, kind, stored_text, client_id)
            fence = self.fence(self.home) if self.fence is not None else None
            try:
                durable = kind not in SERVER_KINDS
                stored_at = self.store.add_action(
                    self.code, action, seat_rows, also, fence, durable
                )
            except Exception as e:
                self.seats = seats
                self.config.seating = seating
                del self.notes[notes:]
                self.replaced, self.starters = replaced, starters
                self.decided = decided
                if before is not None:
                    self.match = before
                self._rewind_match(mark)
                if isinstance(e, LeaseLost):
                    log.warning("room %s: another process holds it now", self.code)
                    self.lost = True
                    self.changed.set()
                    if self.on_lost is not None:
                        self.on_lost(self)
                    raise RoomLost("this room is served by another process now") from None
                log.error("room %s: the store refused %s #%d: %s", self.code, kind, action.seq, e)
                raise StoreFailed(f"the store refused the change ({type(e).__name__})") from None
        if kind in MOVE_KINDS:
            self.decisions += 1
        self.version += 1
        if client_id is not None:
            self.applied.add((seat, client_id))
        self._after_change(stored_at)
        self.push_all()
        if self.match is not None and len(self.match.results) > finished:
            self._game_over(finished)
        if self.listener is not None:
            try:
                self.listener(self)
            except Exception:  # the event's trouble never stops the table
                log.exception("room %s: the event listener failed", self.code)

    def _game_over(self, index: int) -> None:
        """Game ``index`` ended live: its players' records (never on a replay of the stored
        actions, so a restart counts nothing twice)."""
        if self.on_game_over is None:
            return
        try:
            game = self.finished_game(index)
            if game is not None:
                self.on_game_over(game)
        except Exception:  # the records' trouble never stops the table
            log.exception("room %s: recording game %d failed", self.code, index + 1)

    def finished_game(self, index: int) -> FinishedGame | None:
        """Game ``index`` as the players' records take it (None: not finished here): each
        seat is whoever sat there at the game's first action (``starters``, D148) — the
        player who left keeps the game, and one who took the seat later is not in it."""
        m = self.match
        if m is None or index >= len(m.results):
            return None
        if self.starters is not None and self.starters[0] == index:
            seats = list(self.starters[1])
        else:  # never in practice: no game ends before its first action
            seats = [_seated(s) for s in self.seats]
        preset = self.config.preset
        decided = self.decided[1] if self.decided is not None and self.decided[0] == index else []
        return FinishedGame(
            self.code, index, preset, self.config.rated, seats, m.results[index], None, decided
        )

    def _count(self, seat: int, trusted: bool = False, left: bool = False) -> None:
        """One more decision of ``seat`` in the current game, its player's or 托管's; or its
        player left the game for good (``left``: someone else took the seat)."""
        m = self.match
        if self.decided is None or m is None or self.decided[0] != len(m.games) - 1:
            return
        if left and m.game.is_over:  # between games: the ended game was its player's
            return
        index, seats = self.decided
        d = seats[seat]
        if left:
            d = dataclasses.replace(d, left=True)
        elif trusted:
            d = dataclasses.replace(d, trusted=d.trusted + 1)
        else:
            d = dataclasses.replace(d, own=d.own + 1)
        self.decided = (index, [d if i == seat else x for i, x in enumerate(seats)])

    def replay(
        self, actions: list[StoredAction], stopped: float | None = None
    ) -> list[FinishedGame]:
        """Rebuild the room from its stored actions (a restart, a take-over). The turn timer
        resumes with the time it had left when its last process was last alive
        (``stopped``, epoch seconds; None: now), at least ``RESUME_MIN_S``. Returns the
        games that ended in those actions, as the records take them (each at the time its
        last action was stored): the hub has the records write those a crash lost (D151)."""
        finished: list[FinishedGame] = []
        for a in actions:
            if a.seq != self.version + 1:
                raise ValueError(f"room {self.code}: action #{a.seq} after #{self.version}")
            ended = len(self.match.results) if self.match is not None else 0
            self._fold(a.kind, a.seat, a.text)
            self.version = a.seq
            if self.match is not None and len(self.match.results) > ended:
                game = self.finished_game(ended)
                if game is not None and game.known:
                    finished.append(dataclasses.replace(game, finished=a.created))
            if a.client_id is not None:
                self.applied.add((a.seat, a.client_id))
            self._refresh_deadline(a.created)  # as it was set live, when the action was stored
        now = self.clock.time()
        if self.deadline is not None:
            timer = float(self.config.timer_s or 0)
            at = now if stopped is None or stopped <= 0 else min(stopped, now)
            left = min(timer, max(RESUME_MIN_S, self.deadline - at))
            self.deadline = round(now + left, 3)
            self._deadline_mono = self.clock.monotonic() + left
        self._since = self.clock.monotonic()
        self.changed.set()
        return finished

    def _match_mark(self) -> tuple[int, int, int, int, int] | None:
        """Where the match stands: games, actions of the last, its prompt answers, its
        sanctions and the sanctions queued for the next game (R19.4)."""
        m = self.match
        if m is None:
            return None
        return (
            len(m.games),
            len(m.game.actions),
            len(m.prompt_answers[-1]),
            len(m.game.sanctions),
            len(m.queued),
        )

    def _rewind_match(self, mark: tuple[int, int, int, int, int] | None) -> None:
        """Back to ``mark`` by replaying the match's own record up to it (rare: a failed
        write), so the rewound match is exactly the one the store holds."""
        if mark is None:
            self.match = None
            return
        m = self.match
        assert m is not None
        if self._match_mark() == mark:
            return
        games, actions, prompts, sanctions, queued = mark
        rec = m.record()
        rec["games"] = rec["games"][:games]
        last = rec["games"][-1]
        last["actions"], last["prompts"] = last["actions"][:actions], last["prompts"][:prompts]
        if "sanctions" in last:  # given in order: the first ones are those before the mark
            last["sanctions"] = last["sanctions"][:sanctions]
        if "queued" in rec:
            rec["queued"] = rec["queued"][:queued]
        self.match = Match.from_record(rec)

    def _note(self, kind: str, seat: int | None, **data: Any) -> None:
        """A room note for the table (a timeout, 托管 on/off, a seat taken, a watcher), tagged
        with the version it comes with; notes from stored actions come back on a restart."""
        self.notes.append({"v": self.version + 1, "type": kind, "seat": seat, **data})

    def note_presence(self, kind: str, name: str) -> None:
        """A watcher arrived or left (presence: not stored, same version)."""
        self.notes.append({"v": self.version, "type": kind, "seat": None, "name": name})

    def private_turn(self) -> bool:
        """Whether the decision pending is private (a burn offer, 革命, a 还贡 check): its
        seat must not be named to anybody else, on any channel (docs/decisions.md D9)."""
        m = self.match
        return m is not None and not m.game.is_over and m.game.pending in PRIVATE_PENDING

    def public_to_act(self) -> int | None:
        m = self.match
        return None if m is None or self.private_turn() else m.to_act

    def _after_change(self, now: float) -> None:
        self._since = self.clock.monotonic()
        self._refresh_deadline(now)
        self.changed.set()

    def _refresh_deadline(self, now: float) -> None:
        """A new decision for a human seat gets the whole timer from ``now`` (epoch
        seconds: when the action before it was stored)."""
        m, timer = self.match, self.config.timer_s
        seat = m.to_act if m is not None else None
        if m is None or seat is None or timer is None or self.seats[seat].automatic:
            self.deadline = self._deadline_mono = self._deadline_key = None
            return
        key = (len(m.games), len(m.game.actions), len(m.prompt_answers[-1]), seat)
        if key != self._deadline_key:
            self._deadline_key = key
            self.deadline = round(now + timer, 3)
            self._deadline_mono = self.clock.monotonic() + (self.deadline - self.clock.time())

    # ------------------------------------------------------------------ what clients see
    @property
    def status(self) -> str:
        m = self.match
        if self.halted:  # its event decided the match or closed (a table never started too)
            return "over"
        if m is None:
            return "waiting"
        if m.is_over:
            return "over"
        if self.expired:
            return "expired"
        if m.to_act is None:
            return "between"  # the game is over, `next` is due
        return "playing"

    @property
    def expired(self) -> bool:
        """An all-bot room made from afar plays for a bounded time only (docs/security.md)."""
        return self.config.expires is not None and self.clock.time() >= self.config.expires

    @property
    def chat(self) -> bool:
        """Whether its players may use 快捷语 and emotes (not at a competition: R19.5)."""
        return no_chat(self.config, self.rules) is None

    def seat_free(self, seat: int) -> bool:
        """May a spectator take this seat? Before the start an empty one; in a running match
        a bot's, or an absent player's on 托管 (it counts as a replaced player, R3.7)."""
        s = self.seats[seat]
        if self.match is None:
            return s.empty
        if self.match.is_over or self.halted or self.expired or not self.config.seat_takeover:
            return False
        return s.bot is not None or (s.human and s.trust and not self.online(seat))

    def online(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def invited(self, msg: dict[str, Any]) -> bool:
        """Whether a ``join`` carries the invitation of one of this table's seats: its player
        comes in however many watch (spectators never take a player's place)."""
        seat, invite = msg.get("seat"), msg.get("invite")
        seating = self.config.seating
        if seat is None or invite is None or seating is None or not 0 <= seat < len(seating):
            return False
        stored = seating[seat].get("invite")
        return stored is not None and tokens.matches(str(invite), str(stored))

    @property
    def gated(self) -> bool:
        """A competition table between games that its event has not (yet) asked for another
        (the other table of a duplicate match is still playing, or the match is decided)."""
        m = self.match
        if m is None or self.allowed_games is None:
            return False
        return m.game.is_over and len(m.games) >= self.allowed_games

    def _epoch(self, mono: float | None) -> float | None:
        """A time of the table's monotonic clock as epoch seconds (for the pages)."""
        if mono is None:
            return None
        return round(self.clock.time() + mono - self.clock.monotonic(), 3)

    def seat_of(self, account: int) -> int | None:
        """The seat an account's player holds (a person's, never a bot's)."""
        return next(
            (i for i, s in enumerate(self.seats) if s.bot is None and s.account == account), None
        )

    def open_seats(self) -> int:
        """The seats a newcomer may take: the free ones, less those held for 快速开始 taps
        before the start (holds.py)."""
        free = sum(1 for i in range(SEATS) if self.seat_free(i))
        return max(0, free - self.holds.count()) if self.match is None else free

    def may_sit(self, guest: str | None, moving: bool) -> bool:
        """Whether a connection (its browser's ``guest`` hash) may take a free seat now: once
        the match runs, or moving from its own seat, or with a hold of its own, always; else
        only a seat nobody's tap holds (D170)."""
        if self.match is not None or moving or self.holds.held_by(guest):
            return True
        return self.open_seats() > 0

    def hold(self, guest: str, seconds: float = HOLD_S) -> bool:
        """Hold a seat for a 快速开始 tap (renewed when this browser holds one already):
        whether the waiting room had one open."""
        if self.match is not None or self.config.seating is not None or self.lost:
            return False
        if not self.holds.held_by(guest) and self.open_seats() <= 0:
            return False
        self.holds.add(guest, seconds)
        self.changed.set()  # the driver plans the fill and the lapse again
        self.push_all()  # the lobby's list: one open seat fewer
        return True

    def fill_due(self) -> float | None:
        """A quick-match room (``config.fill_after_s``) waiting with a player there: when its
        bots fill the free seats and it starts (monotonic; at once when no seat is free)."""
        after = self.config.fill_after_s
        if after is None or self.match is not None or self.config.seating is not None:
            return None
        if not any(s.human and self.online(i) for i, s in enumerate(self.seats)):
            return None
        if not any(s.empty for s in self.seats):
            return self._since
        held = self.holds.last_lapse()  # never fill a seat held for a tap on its way
        return self._since + after if held is None else max(self._since + after, held)

    def ready_to_start(self) -> bool:
        """A competition table starts by itself once every invited player has taken a seat
        and its event lets it play a game (a duplicate table played after the other waits)."""
        return (
            self.match is None
            and self.config.seating is not None
            and not self.halted
            and self.allowed_games != 0
            and all(s.bot is not None or s.token is not None for s in self.seats)
        )

    def shown_games(self) -> int | None:
        """How many of the match's games, from the first, anyone outside their seats may see
        (None: every one). A duplicate table's deal stays with its seats until every table
        of the match has finished it (the event's ``deal_public``)."""
        if self.config.event is None or self.public_games is None:
            return None
        try:
            return self.public_games(self)
        except Exception:  # the event's trouble hides the deal rather than showing it
            log.exception("room %s: which games are public failed", self.code)
            return 0

    def deal_public(self, index: int) -> bool:
        """Whether game ``index``'s hands, record and replay may be shown to anyone."""
        shown = self.shown_games()
        return shown is None or index < shown

    def _hidden(self, shown: int | None) -> bool:
        """Whether the current game's deal is kept from spectators (``shown`` games public)."""
        m = self.match
        return m is not None and shown is not None and len(m.games) > shown

    def team_names(self) -> list[str] | None:
        """A competition table's two teams (A at seats 0, 2, 4), as its seating names them."""
        seating = self.config.seating or []
        names = [seating[i].get("team") if len(seating) > i else None for i in (0, 1)]
        return [str(n) for n in names] if all(isinstance(n, str) for n in names) else None

    def summary(self) -> dict[str, Any]:
        m = self.match
        ev = self.config.event
        shown = self.shown_games() if ev is not None else None
        return {
            "code": self.code,
            "config": self.config.public(),
            "status": self.status,
            "version": self.version,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "human": s.human,
                    "online": self.online(i),
                    "trust": s.trust,
                    "timeouts": s.timeouts,
                    "free": self.seat_free(i),
                    "reserved": s.invite is not None and s.token is None,
                    "account": s.account is not None,  # the name is an account's: a 战绩 page
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "watchers": sorted(c.name for c in self.conns if c.seat is None),
            "notes": self.notes[-NOTES_KEPT:],
            "game": len(m.games) if m is not None else 0,
            "games_finished": len(m.results) if m is not None else 0,
            "totals": m.totals if m is not None else [0, 0],
            "to_act": self.public_to_act(),
            "chat": self.chat,  # 快捷语 on (gouji.server.tables.phrases)
            "next_due": self.status == "between" and not self.gated,
            "fill_at": self._epoch(self.fill_due()),  # quick match: bots fill the seats then
            "event": None
            if ev is None
            else {
                "code": ev["code"],
                "table": ev["table"],
                "url": f"/e/{ev['code']}",
                "waiting": self.status == "between" and self.gated,
                "halted": self.halted,
                "teams": self.team_names(),
                "public_games": shown,
                "hidden": self._hidden(shown),
            },
        }

    def public_summary(self, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        """The summary as spectators and the HTTP API get it: while the current game's deal
        is hidden, the notes do not say what a timeout played for a seat."""
        out = summary if summary is not None else self.summary()
        if out["event"] is None or not out["event"]["hidden"]:
            return out
        notes = [{k: v for k, v in n.items() if k != "action"} for n in out["notes"]]
        return {**out, "notes": notes}

    def view(self, seat: int | None) -> dict[str, Any] | None:
        m = self.match
        if m is None:
            return None
        hidden = self._hidden(self.shown_games())
        if hidden and seat is None:  # a spectator may be a player of the other table
            return None
        v = m.view(seat)
        result = v["match"]["result"]
        if hidden and result is not None:  # the seat's own cards left, nobody else's
            hands = [h if s == seat else None for s, h in enumerate(result["hands"])]
            v["match"]["result"] = {**result, "hands": hands, "hands_hidden": True}
        if m.to_act is None or m.game.is_over:
            v["legal_actions"] = [a.text for a in m.legal_actions()] if m.to_act == seat else []
        if self.config.card_counter:
            out = [sum(h[r] for h in m.game.hands) for r in range(NUM_RANKS)]
            v["card_counter"] = {RANKS[r]: out[r] for r in range(NUM_RANKS)}
        return v

    def state_message(
        self, seat: int | None, summary: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        private = self.private_turn() and (self.match is None or self.match.to_act != seat)
        return {
            "type": "state",
            "version": self.version,
            "room": summary if summary is not None else self.summary(),
            "view": self.view(seat),
            "deadline": None if private or self.halted else self.deadline,
        }

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` as sent. The summary is made once per push and
        every spectator gets the same text, so watchers cost a copy each, not a rebuild."""
        key = (self._pushes, self.expired)  # expiry changes the status with no push
        if self._cached[0] != key:
            self._cached = (key, self.summary(), None)
        _, summary, spectators = self._cached
        if seat is not None:
            return dumps(self.state_message(seat, summary))
        if spectators is None:
            spectators = dumps(self.state_message(None, self.public_summary(summary)))
            self._cached = (key, summary, spectators)
        return spectators

    def push_all(self) -> None:
        """Every connection gets the room's latest state (a change, or presence)."""
        self._pushes += 1
        if len(self.notes) > 3 * NOTES_KEPT:
            del self.notes[:-NOTES_KEPT]
        for conn in self.conns:
            conn.mark()
        if self.on_push is not None:
            try:
                self.on_push(self)
            except Exception:  # the lobby's list never stops the table
                log.exception("room %s: the lobby's list failed", self.code)

    # ------------------------------------------------------------------ finished games
    def games(self) -> list[dict[str, Any]]:
        m = self.match
        if m is None:
            return []
        shown = self.shown_games()
        return [
            {
                "index": i,
                "places": r["places"],
                "team_scores": r["team_scores"],
                "public": shown is None or i < shown,  # its record and replay may be read
            }
            for i, r in enumerate(m.results)
        ]

    def record(self, index: int) -> dict[str, Any] | None:
        m = self.match
        if m is None or not 0 <= index < len(m.results):
            return None
        return m.games[index].record()

    def replay_steps(self, index: int) -> dict[str, Any] | None:
        """Spectator views with every hand, before the game's first action and after each
        (gouji.review.replay; the server computes them off its event loop:
        gouji.server.review.replays)."""
        rec = self.record(index)
        return replay_steps(rec, index) if rec is not None else None

    # ------------------------------------------------------------------ the driver
    def ensure_driver(self) -> None:
        """Start (or restart, in a new event loop) the room's driver task."""
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.lock = asyncio.Lock()
            self.changed = asyncio.Event()
            self.task = loop.create_task(self._drive(), name=f"room-{self.code}")

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def _plan(self) -> tuple[float, str] | None:
        plan = self._table_plan()
        lapse = self.holds.next_lapse()  # a 快速开始 hold lapses: the lobby's list is told
        if lapse is not None and (plan is None or lapse < plan[0]):
            return lapse, "lapse"
        return plan

    def _table_plan(self) -> tuple[float, str] | None:
        m = self.match
        if m is None and self.ready_to_start():
            return self._since, "start"
        fill = self.fill_due()
        if fill is not None:
            return fill, "fill"
        if m is None or self.expired or self.halted:
            return None
        seat = m.to_act
        if seat is not None:
            if self.seats[seat].automatic:
                return self._since + self.config.bot_delay_ms / 1000, "bot"
            if self._deadline_mono is not None:
                return self._deadline_mono, "timeout"
            return None
        if m.is_over or self.gated:
            return None
        if all(s.automatic for s in self.seats) and (self.conns or m.length is not None):
            # nobody needs to act: a fixed-length match plays to its end; an open-ended one
            # only while someone is there to watch (else it would run forever)
            return self._since + self.config.next_delay_ms / 1000, "next"
        return None

    async def _drive(self) -> None:
        while not self.lost:
            self.changed.clear()
            plan = self._plan()
            if plan is None:
                await self.changed.wait()
                continue
            at, what = plan
            delay = at - self.clock.monotonic()
            if delay > 0:
                if await self.clock.wait(self.changed, delay):
                    continue  # something changed first: plan again
            else:
                await asyncio.sleep(0)  # let the other rooms and clients run
                if self.changed.is_set():
                    continue
            try:
                await self._step(what)
            except StoreFailed:  # logged by commit; the store may come back
                await self.clock.sleep(1.0)
            except Exception:  # a bug must not kill the table: log, wait, plan again
                log.exception("room %s: driver step %s failed", self.code, what)
                await self.clock.sleep(1.0)

    async def _step(self, what: str) -> None:
        version = self.version
        if what == "lapse":
            async with self.lock:
                self.holds.purge()
                self.push_all()
            return
        if what == "start":
            async with self.lock:
                if self.version == version and self.ready_to_start():
                    start_match(self, self.config.bot)
            return
        if what == "fill":
            async with self.lock:
                due = self.fill_due()  # a tap's hold that came meanwhile puts it off (D170)
                if self.version == version and due is not None and due <= self.clock.monotonic():
                    start_match(self, self.config.bot)
            return
        m = self.match
        assert m is not None
        if self.expired or self.halted:  # its time ran out while the step was planned
            return
        if what == "next":
            async with self.lock:
                if self.version == version and not self.gated and not self.halted:
                    self.commit("next", None, "")
            return
        seat = m.to_act
        assert seat is not None
        if what == "timeout":
            async with self.lock:
                if self.version == version and m.to_act == seat:
                    self.commit("timeout", seat, self.timeout_text())
            return
        s = self.seats[seat]
        if s.bot is None and self.config.rated:  # 托管 at a rated table plays minimally:
            async with self.lock:  # R19.2's timeout default, never 高手's play (D195)
                if self.version == version and not self.halted and m.to_act == seat:
                    self.commit("auto", seat, self.timeout_text())
            return
        name = s.bot or "heuristic"
        agent = self._agent(seat, name)
        view, legal = m.view(seat), m.legal_actions()
        if agent.name == "search":  # slow (大师 too): think in a thread, the loop goes on
            action = await asyncio.to_thread(agent.act, view, legal)
        else:
            action = agent.act(view, legal)
        if action not in legal:
            log.warning("room %s: %s chose %s, not legal", self.code, name, action)
            action = Action.parse(self.timeout_text())
        async with self.lock:
            if self.version == version and not self.halted:
                self.commit("bot" if s.bot else "auto", seat, action.text)

    def _agent(self, seat: int, name: str) -> Agent:
        key = (seat, name)
        if key not in self._agents:
            self._agents[key] = agents.get(name, seed=self.seed + seat)
        return self._agents[key]

    def timeout_text(self) -> str:
        """R19.2's default for ``to_act``; in a between-games prompt, "no"."""
        m = self.match
        assert m is not None
        if not m.game.is_over:
            return timeout_action(m.game).text
        kinds = {a.kind for a in m.legal_actions()}
        return NOSWAP if NOSWAP in kinds else NOSKIP

    def hint(self, seat: int) -> str:
        m = self.match
        assert m is not None
        if self._hinter is None:
            self._hinter = agents.get("heuristic", seed=self.seed)
        return self._hinter.act(m.view(seat), m.legal_actions()).text


def _seated(seat: Seat) -> Seated:
    """Who sits at ``seat``, as the players' records know a seat's player."""
    return Seated(seat.account, seat.guest, seat.name, seat.bot)


def _reserved(entry: dict[str, Any]) -> Seat:
    """A competition seat as created: its bot, or its player waiting for the invitation."""
    bot = entry.get("bot")
    if bot is not None:
        return Seat(name=str(entry["name"]), bot=str(bot))
    return Seat(name=str(entry["name"]), invite=str(entry["invite"]))


def start_match(room: Room, bot: str) -> None:
    """Fill every empty seat with a ``bot`` and start the match (one stored action); with a
    formation other than ``seats`` the six are then seated by lot (R1.6) and every
    connection follows its player to the new seat."""
    empty = [i for i, s in enumerate(room.seats) if s.empty]
    filled: Sequence[Seat] = [
        Seat(name=f"{bot} bot", bot=bot) if i in empty else s for i, s in enumerate(room.seats)
    ]
    order = seating(room.config.formation, room.seed)
    moved = order != sorted(order)
    if moved:
        filled = apply_seating(order, filled)
    changed = range(SEATS) if moved else empty
    rows = [SeatRow(i, filled[i].name, filled[i].token, filled[i].bot) for i in changed]
    room.commit("start", None, json.dumps({"bots": {str(i): bot for i in empty}}), None, rows)
    if moved:
        where = {s.token: i for i, s in enumerate(room.seats) if s.token is not None}
        for c in room.conns:
            if c.token is not None:
                c.seat = where.get(tokens.token_hash(c.token))

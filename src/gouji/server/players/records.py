"""战绩: every finished game of a player, their ratings, and the leaderboards.

When a game of a room ends, each human seat whose player is known — an account, or a guest by
the hash of their browser's guest cookie — gets one row in ``plays``: the preset, the place
(头科 … 大落), the team's result and points as the settlement recorded them (``team_scores``:
what the match counted — 12 for a 串三户 and 0 for a losing team under "positive only" outline
scoring, R17.1; D190), 开点, burns made and suffered, 闷, 串三户 for and
against, and in a rated room the rating after the game (``gouji.server.players.ratings``). It is
written right after the game's last action is stored, in its own transaction: a failure here
is logged and never stops the table. A game whose record a crash (or such a failure) lost is
recorded when its room is rebuilt from its stored actions (``recover``); a game already
recorded is never recorded again (``(room, game, seat)`` is unique, and a game with rows is
skipped), so every finished game counts exactly once (docs/decisions.md D151).

An account made from a browser takes over that browser's guest rows (``adopt``), and the
browser's guest id is the account's from then on (``guest_accounts``): a game under way at
sign-up — its seat still the guest's, who sat there at its first action (D148) — is recorded
for the account when it ends (D191). A deleted account's rows stay, with the account and the
name removed (``forget``), and its guest ids are nobody's again.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from gouji.agents.ratings import BOT_RATINGS
from gouji.server.players.ratings import (
    LISTED_GAMES,
    NEW,
    PROVISIONAL_GAMES,
    Rating,
    bot_rating,
    rate_game,
)
from gouji.server.players.store import accounts_table
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.db import SCHEMA_LOCK, Database

log = logging.getLogger("gouji.server")

record_metadata = MetaData()

plays_table = Table(
    "plays",
    record_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", Integer, nullable=True, index=True),
    Column("guest", String(64), nullable=True, index=True),
    Column("name", String(80), nullable=True),  # at the table (None: a deleted account)
    Column("room", String(16), nullable=False),
    Column("game", Integer, nullable=False),  # 0-based index in the room's match
    Column("seat", Integer, nullable=False),
    Column("preset", String(40), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("place", Integer, nullable=False),  # 1 头科 … 6 大落
    Column("outcome", Integer, nullable=False),  # the team: 1 more points, 0 equal, -1 fewer
    Column("points", Integer, nullable=False),  # the team's points in the game
    Column("opened", Boolean, nullable=True),  # 开点 (None where the preset has no 打点)
    Column("burns", Integer, nullable=False),  # successful burns made
    Column("burned", Integer, nullable=False),  # … suffered
    Column("men", Boolean, nullable=False),  # 闷'd
    Column("chuan", Integer, nullable=False),  # 串三户: 1 the team's, -1 against it, 0 none
    Column("mu", Float, nullable=True),  # the rating after the game (rated rooms)
    Column("sigma", Float, nullable=True),
    Column("finished", Float, nullable=False),
    UniqueConstraint("room", "game", "seat", name="uq_plays_room_game_seat"),
)

ratings_table = Table(
    "ratings",
    record_metadata,
    Column("account", Integer, primary_key=True),
    Column("preset", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

guest_accounts_table = Table(
    "guest_accounts",
    record_metadata,
    Column("guest", String(64), primary_key=True),  # the hash of a browser's guest cookie
    Column("account", Integer, nullable=False, index=True),  # the account made from it
    Column("adopted", Float, nullable=False),
)

RECENT = 20  # games listed on a player's page
HISTORY = 200  # rating points in a player's chart, per preset


@dataclass(frozen=True)
class Seated:
    """Who sat at a seat when a game ended: an account, a guest (the hash of their browser's
    guest cookie), or a bot (``bot``: its agent); ``name`` as shown at the table."""

    account: int | None
    guest: str | None
    name: str | None
    bot: str | None = None

    @property
    def known(self) -> bool:
        """Whether the records keep this seat's game: a person known by account or browser."""
        return self.bot is None and (self.account is not None or self.guest is not None)


@dataclass(frozen=True)
class Decided:
    """Who made one seat's decisions in one game (the room counts them, D196): ``own`` by
    its player, ``trusted`` by 托管 or the turn timer; only decisions with a choice count
    (a forced pass is nobody's). ``left``: its player's seat was taken by someone else before
    the game ended (they left for good)."""

    own: int = 0
    trusted: int = 0
    left: bool = False

    @property
    def no_gain(self) -> bool:
        """The seat gains no rating from the game (a loss still counts, D197): its player
        left, or left more than half of its decisions to 托管."""
        return self.left or self.trusted > self.own


@dataclass(frozen=True)
class FinishedGame:
    """A game a room finished, as the tables tell it (the players' domain never reads a
    room): game ``index`` (from 0) of room ``room``, its preset, whether the room is rated,
    whose game each seat (0–5) is — who sat there at its first action, D148 — and its
    result (``Game.result``: places, team points…)."""

    room: str
    index: int
    preset: str
    rated: bool
    seats: Sequence[Seated]
    result: dict[str, Any]
    finished: float | None = None  # when (epoch seconds; None: now): a recovered game's own
    decided: Sequence[Decided] = ()  # by seat, who made its decisions (none known: all own)

    @property
    def known(self) -> bool:
        """Whether the records keep anything of this game (a seat of a known person)."""
        return any(s.known for s in self.seats)


class Records:
    """The plays and ratings tables over the rooms' database."""

    def __init__(self, store: Database, clock: Clock = SYSTEM) -> None:
        self.engine = store.engine
        self.clock = clock
        with self.engine.begin() as conn:
            if store.shared:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            record_metadata.create_all(conn)

    # ------------------------------------------------------------------ writing
    def game_over(self, game: FinishedGame) -> bool:
        """Record a finished game for its known players (and rate a rated room's), unless it
        is recorded already; whether it was recorded now."""
        if not game.known:
            return False
        bots = [s.bot for s in game.seats]
        rated = game.rated and all(b is None or b in BOT_RATINGS for b in bots)
        now = self.clock.time() if game.finished is None else game.finished
        with self.engine.begin() as conn:
            if game.index in self._recorded(conn, game.room, game.index):
                return False
            owners = _guest_owners(conn, [s.guest for s in game.seats if s.account is None])
            after: list[Rating] | None = None
            before: list[Rating] = []
            if rated:
                before = [
                    bot_rating(s.bot) if s.bot is not None else self._rating(conn, s, game.preset)
                    for s in game.seats
                ]
                after = rate_game(before, game.result["team_points"])
            for seat, s in enumerate(game.seats):
                if not s.known:
                    continue
                rating = after[seat] if after is not None and s.account is not None else None
                if rating is not None and _no_gain(game, seat, before[seat], rating):
                    rating = None  # 托管 played it: no gain, the game unrated (D197)
                account = _account(s, owners)  # an adopted guest's: the account (D191)
                conn.execute(
                    insert(plays_table).values(
                        account=account,
                        guest=s.guest if account is None else None,
                        name=s.name,
                        room=game.room,
                        game=game.index,
                        seat=seat,
                        preset=game.preset,
                        rated=rating is not None,
                        finished=now,
                        mu=rating.mu if rating is not None else None,
                        sigma=rating.sigma if rating is not None else None,
                        **play_facts(game.result, seat),
                    )
                )
                if rating is not None and s.account is not None:
                    self._put_rating(conn, s.account, game.preset, rating, now)
        return True

    def recover(self, games: Sequence[FinishedGame]) -> int:
        """Record the games of one room, rebuilt from its stored actions, that are not
        recorded yet (a crash between a game's last action and its record); how many."""
        known = [g for g in games if g.known]
        if not known:
            return 0
        with self.engine.connect() as conn:
            done = self._recorded(conn, known[0].room)
        return sum(1 for g in known if g.index not in done and self.game_over(g))

    @staticmethod
    def _recorded(conn: Connection, room: str, index: int | None = None) -> set[int]:
        """The games of ``room`` (only ``index``, if given) that have their rows."""
        query = select(plays_table.c.game).where(plays_table.c.room == room).distinct()
        if index is not None:
            query = query.where(plays_table.c.game == index)
        return {int(g) for g in conn.execute(query).scalars()}

    def _rating(self, conn: Connection, seated: Seated, preset: str) -> Rating:
        if seated.account is None:
            return NEW
        query = select(ratings_table.c.mu, ratings_table.c.sigma).where(
            ratings_table.c.account == seated.account, ratings_table.c.preset == preset
        )
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).first()
        return Rating(float(row.mu), float(row.sigma)) if row is not None else NEW

    @staticmethod
    def _put_rating(
        conn: Connection, account: int, preset: str, rating: Rating, now: float
    ) -> None:
        """The account's rating after one more game: its row made if missing (an insert that
        yields to a row made meanwhile, so two first games at once both count), then updated."""
        insert_new = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        conn.execute(
            insert_new(ratings_table)
            .values(
                account=account,
                preset=preset,
                mu=rating.mu,
                sigma=rating.sigma,
                games=0,
                updated=now,
            )
            .on_conflict_do_nothing(index_elements=["account", "preset"])
        )
        conn.execute(
            update(ratings_table)
            .where(ratings_table.c.account == account, ratings_table.c.preset == preset)
            .values(mu=rating.mu, sigma=rating.sigma, games=ratings_table.c.games + 1, updated=now)
        )

    def adopt(self, account: int, guest: str | None) -> int:
        """An account made from a browser takes over the browser's guest games, those
        finished and — the guest id being the account's from now on — those that finish
        later (D191); how many it took now. A browser already adopted stays its first
        account's."""
        if guest is None:
            return 0
        insert_new = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        with self.engine.begin() as conn:
            conn.execute(
                insert_new(guest_accounts_table)
                .values(guest=guest, account=account, adopted=self.clock.time())
                .on_conflict_do_nothing(index_elements=["guest"])
            )
            done = conn.execute(
                update(plays_table)
                .where(plays_table.c.guest == guest, plays_table.c.account.is_(None))
                .values(account=account, guest=None)
            )
        return int(done.rowcount)

    def forget(self, account: int) -> None:
        """A deleted account: its games stay, under no name; its ratings go, and the guest
        ids it adopted are nobody's again."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(guest_accounts_table).where(guest_accounts_table.c.account == account)
            )
            conn.execute(
                update(plays_table)
                .where(plays_table.c.account == account)
                .values(account=None, name=None)
            )
            conn.execute(delete(ratings_table).where(ratings_table.c.account == account))

    # ------------------------------------------------------------------ reading
    def player(self, account: int) -> dict[str, Any]:
        """Everything of a player's page but the name: per preset the counts, the rating
        and its history; the latest games."""
        with self.engine.connect() as conn:
            adopted = select(guest_accounts_table.c.guest).where(
                guest_accounts_table.c.account == account
            )
            rows = conn.execute(
                select(plays_table)
                # a guest row of an adopted browser is the account's too: one written while
                # the sign-up's adoption was committing (D191)
                .where((plays_table.c.account == account) | plays_table.c.guest.in_(adopted))
                .order_by(plays_table.c.finished, plays_table.c.id)
            ).all()
            ratings = {
                r.preset: r
                for r in conn.execute(
                    select(ratings_table).where(ratings_table.c.account == account)
                )
            }
        by_preset: dict[str, list[Any]] = {}
        for r in rows:
            by_preset.setdefault(r.preset, []).append(r)
        presets = []
        for preset, games in sorted(by_preset.items(), key=lambda kv: -len(kv[1])):
            presets.append(
                {
                    "preset": preset,
                    **_summary(games),
                    "rating": _rating_json(
                        ratings.get(preset), [g for g in games if g.mu is not None]
                    ),
                }
            )
        recent = [
            {
                "room": r.room,
                "game": r.game,
                "seat": r.seat + 1,
                "preset": r.preset,
                "rated": r.rated,
                "place": r.place,
                "outcome": r.outcome,
                "points": r.points,
                "finished": r.finished,
                "replay": f"/replay/{r.room}/{r.game}",
            }
            for r in reversed(rows[-RECENT:])
        ]
        return {"games": len(rows), "presets": presets, "recent": recent}

    def leaderboard(self, preset: str, limit: int = 100) -> list[dict[str, Any]]:
        """The rated players of ``preset`` with at least ``LISTED_GAMES`` games, best
        ordinal (mu − 3·sigma) first."""
        ordinal = ratings_table.c.mu - 3 * ratings_table.c.sigma
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table, accounts_table.c.name)
                .join(accounts_table, accounts_table.c.id == ratings_table.c.account)
                .where(ratings_table.c.preset == preset, ratings_table.c.games >= LISTED_GAMES)
                .order_by(ordinal.desc(), ratings_table.c.games.desc())
                .limit(limit)
            ).all()
        return [
            {"rank": i, "name": r.name, **(_rating_json(r, []) or {})}
            for i, r in enumerate(rows, 1)
        ]


def _guest_owners(conn: Connection, guests: Sequence[str | None]) -> dict[str, int]:
    """The accounts made from these guest ids' browsers (D191)."""
    wanted = [g for g in guests if g is not None]
    if not wanted:
        return {}
    query = select(guest_accounts_table).where(guest_accounts_table.c.guest.in_(wanted))
    return {str(r.guest): int(r.account) for r in conn.execute(query)}


def _account(seated: Seated, owners: dict[str, int]) -> int | None:
    """The account a seat's row is kept under: its own, or its adopted guest id's (D191)."""
    if seated.account is not None or seated.guest is None:
        return seated.account
    return owners.get(seated.guest)


def _no_gain(game: FinishedGame, seat: int, before: Rating, after: Rating) -> bool:
    """Whether ``seat``'s rating stays as it was: the game would raise it (its ordinal, what
    the leaderboard orders by), but its player left it or left most of it to 托管 (D197)."""
    trusted = seat < len(game.decided) and game.decided[seat].no_gain
    return trusted and after.ordinal > before.ordinal


def play_facts(result: dict[str, Any], seat: int) -> dict[str, Any]:
    """What one seat's row says of a finished game's ``result`` (``Game.result``): the team's
    points and outcome as the settlement recorded them (``team_scores``, what the match
    counts: R17.1's 串三户 12 and "positive only" 0), not the raw sums (D190)."""
    team = seat & 1
    points = result["team_scores"]
    mine, theirs = points[team], points[1 - team]
    chuan = result.get("chuan")
    opened = result.get("opened")
    return {
        "place": int(result["places"][seat]),
        "outcome": (mine > theirs) - (mine < theirs),
        "points": int(mine),
        "opened": bool(opened[seat]) if opened is not None else None,
        "burns": sum(1 for b in result.get("burns", []) if b[0] == seat),
        "burned": sum(1 for b in result.get("burns", []) if b[1] == seat),
        "men": seat in result.get("men", []),
        "chuan": 0 if chuan is None else (1 if chuan == team else -1),
    }


def _summary(games: list[Any]) -> dict[str, Any]:
    places = Counter(int(g.place) for g in games)
    dian = [g.opened for g in games if g.opened is not None]
    outcomes = Counter(int(g.outcome) for g in games)
    return {
        "games": len(games),
        "places": [places.get(p, 0) for p in range(1, 7)],
        "won": outcomes.get(1, 0),
        "drawn": outcomes.get(0, 0),
        "lost": outcomes.get(-1, 0),
        "opened": sum(dian),
        "dian_games": len(dian),
        "burns": sum(int(g.burns) for g in games),
        "burned": sum(int(g.burned) for g in games),
        "men": sum(1 for g in games if g.men),
        "chuan_for": sum(1 for g in games if g.chuan > 0),
        "chuan_against": sum(1 for g in games if g.chuan < 0),
    }


def _rating_json(row: Any, history: list[Any]) -> dict[str, Any] | None:
    if row is None:
        return None
    mu, sigma = float(row.mu), float(row.sigma)
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "ordinal": round(mu - 3 * sigma, 2),
        "games": int(row.games),
        "provisional": int(row.games) < PROVISIONAL_GAMES,
        "history": [
            {"at": g.finished, "mu": round(float(g.mu), 2), "sigma": round(float(g.sigma), 2)}
            for g in history[-HISTORY:]
        ],
    }

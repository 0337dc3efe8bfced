"""The analyses' table (复盘): a finished game's analysis, computed once and kept
(gouji.server.review.analyses), keyed by its room's game, the work a decision got and the
seed (SQLAlchemy 2, on the rooms' database).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from gouji.server.plumbing.db import metadata
from gouji.server.tables.store import RoomStore

analyses_table = Table(
    "analyses",  # 复盘: a finished game's analysis, computed once (gouji.server.review.analyses)
    metadata,
    Column("room", String(16), ForeignKey("rooms.code"), primary_key=True),
    Column("game", Integer, primary_key=True),  # the game's index in the room's match
    Column("steps", Integer, primary_key=True),  # the work a decision got …
    Column("seed", BigInteger, primary_key=True),  # … and the seed: another gives another one
    Column("data", Text, nullable=False),  # the analysis, JSON ("gouji-analysis/1")
    Column("created", Float, nullable=False),
)


class AnalysisStore(RoomStore):
    """The stored analyses of the rooms' finished games."""

    def analysis(self, room: str, game: int, steps: int, seed: int) -> str | None:
        """The stored analysis of a room's game (JSON text), or None."""
        c = analyses_table.c
        with self.engine.connect() as conn:
            row = conn.execute(
                select(c.data).where(
                    c.room == room, c.game == game, c.steps == steps, c.seed == seed
                )
            ).first()
        return str(row.data) if row is not None else None

    def save_analysis(self, room: str, game: int, steps: int, seed: int, data: str) -> None:
        """Keep an analysis (JSON text); one stored already (another process computed the
        same one: the same steps and seed give the same analysis) stays as it is."""
        values = {"room": room, "game": game, "steps": steps, "seed": seed, "data": data}
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(analyses_table).values(**values, created=self.clock.time()))
        except IntegrityError:
            if self.analysis(room, game, steps, seed) is None:
                raise  # not a duplicate: another fault (no such room)

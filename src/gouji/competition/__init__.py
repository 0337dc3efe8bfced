"""Competitions (比赛): events with teams of three, draws, knockout / round robin / Swiss
formats, duplicate tables, results from the engine or a referee's sheet, sanctions and
standings. No web code here: the server stores and serves events (``docs/competitions.md``)."""

from gouji.competition.event import (
    FORMATS,
    SANCTION_KINDS,
    Event,
    EventError,
    Match,
    Round,
    Table,
    Team,
)
from gouji.competition.play import play_event
from gouji.competition.sheet import SheetError, score_sheet

__all__ = [
    "FORMATS",
    "SANCTION_KINDS",
    "Event",
    "EventError",
    "Match",
    "Round",
    "SheetError",
    "Table",
    "Team",
    "play_event",
    "score_sheet",
]

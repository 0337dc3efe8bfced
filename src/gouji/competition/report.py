"""An event as one JSON-ready summary (the ``gouji tournament --json`` output) and as text."""

from __future__ import annotations

from typing import Any

from gouji.competition.event import Event


def summary(ev: Event) -> dict[str, Any]:
    """``format``, ``preset``, ``teams``, ``rounds`` (each a list of matches: ``teams`` [two
    names; the second null for a bye], ``games`` played at each table, ``totals`` [two, over
    the match's tables since any R17.3 reset], ``winner`` name or null for a bye or a draw),
    ``standings`` and ``winner``."""
    rounds = []
    for r in ev.rounds:
        matches = []
        for m in r.matches:
            a, b = m.teams
            names = [ev.teams[a].name, ev.teams[b].name if b is not None else None]
            totals = list(ev.match_totals(m)) if not m.is_bye else [0, 0]
            matches.append(
                {
                    "id": m.id,
                    "teams": names,
                    "games": max((len(t.games) for t in m.tables), default=0),
                    "totals": totals,
                    "winner": None if m.is_bye or m.winner is None else ev.teams[m.winner].name,
                    "bye": m.is_bye,
                    "by_lot": m.by_lot,
                    "tables": [t.id for t in m.tables],
                }
            )
        rounds.append(matches)
    standings = [
        {
            "team": s["team"],
            "points": s["points"],
            "matches_won": s["matches_won"],
            "games_won": s["games_won"],
            "score": s["score"],
            "disqualified": s["disqualified"],
        }
        for s in ev.standings()
    ]
    return {
        "name": ev.name,
        "format": ev.format,
        "preset": ev.preset,
        "duplicate": ev.duplicate,
        "seed": ev.seed,
        "teams": [t.name for t in ev.teams],
        "rounds": rounds,
        "standings": standings,
        "winner": ev.winner(),
        "sanctions": ev.sanctions,
    }


def text_report(ev: Event) -> list[str]:
    """The rounds and standings as lines for a terminal."""
    s = summary(ev)
    dup = ", duplicate" if ev.duplicate else ""
    lines = [f"{ev.name}: {ev.format}{dup}, {ev.preset}, {len(ev.teams)} teams"]
    for number, matches in enumerate(s["rounds"], start=1):
        lines.append(f"round {number}")
        for m in matches:
            if m["bye"]:
                lines.append(f"  {m['teams'][0]}: bye")
                continue
            a, b = m["teams"]
            ta, tb = m["totals"]
            won = m["winner"] or "draw"
            lines.append(f"  {a} {ta} : {tb} {b}  ({m['games']} games) → {won}")
    lines.append("standings")
    for place, row in enumerate(s["standings"], start=1):
        lines.append(
            f"  {place:>2}. {row['team']:<16} points {row['points']:>3}  score {row['score']:>5}"
            f"  matches won {row['matches_won']:>2}  games won {row['games_won']:>3}"
        )
    lines.append(f"winner: {s['winner']}")
    return lines

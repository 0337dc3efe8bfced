"""An event as one JSON-ready summary (the ``gouji tournament --json`` output) and as text."""

from __future__ import annotations

from typing import Any

from gouji.competition.event import Event


def summary(ev: Event) -> dict[str, Any]:
    """``format``, ``preset``, ``teams``, ``rounds`` (each a list of matches: ``teams`` [two names;
    the second null for a bye], ``games`` played at each table, ``extra_games`` of them played
    after a knockout tie [R17.3], ``totals`` [two, over the match's tables since any R17.3
    reset], ``winner`` name or null for a bye or a draw, ``by_lot`` when a lot chose it [D55],
    ``walkover`` [the absent teams' names], ``third_place``), ``standings`` (each with its
    team's ``bot``, null for people) and ``winner``."""
    rounds = []
    for r in ev.rounds:
        matches = []
        for m in r.matches:
            a, b = m.teams
            names = [ev.teams[a].name, ev.teams[b].name if b is not None else None]
            totals = list(ev.match_totals(m)) if not m.is_bye else [0, 0]
            games = max((len(t.games) for t in m.tables), default=0)
            matches.append(
                {
                    "id": m.id,
                    "teams": names,
                    "games": games,
                    "extra_games": ev.extra_games(m),
                    "reset_at": m.reset_at,  # the game (from 0) the totals count from
                    "totals": totals,
                    "winner": None if m.is_bye or m.winner is None else ev.teams[m.winner].name,
                    "bye": m.is_bye,
                    "by_lot": m.by_lot,
                    "walkover": [ev.teams[i].name for i in m.walkover],
                    "third_place": m.third_place,
                    "done": m.done,
                    "tables": [t.id for t in m.tables],
                }
            )
        rounds.append(matches)
    standings = [
        {
            "team": s["team"],
            "bot": ev.teams[s["index"]].bot,
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
        "unfinished": ev.unfinished,
        "sanctions": ev.sanctions,
    }


def text_report(ev: Event) -> list[str]:
    """The rounds and standings as lines for a terminal: a match's extra games (R17.3) and a
    lot that decided it (D55) are said, and the teams' bots when they differ, so a reader
    can tell a match won at the table from one drawn from a hat."""
    s = summary(ev)
    dup = ", duplicate" if ev.duplicate else ""
    lines = [f"{ev.name}: {ev.format}{dup}, {ev.preset}, {len(ev.teams)} teams"]
    for number, (rnd, matches) in enumerate(zip(ev.rounds, s["rounds"], strict=True), start=1):
        lines.append(f"round {number}")
        for match, m in zip(rnd.matches, matches, strict=True):
            if m["bye"]:
                lines.append(f"  {m['teams'][0]}: bye")
                continue
            a, b = m["teams"]
            ta, tb = m["totals"]
            won = m["winner"] or "draw"
            if m["by_lot"]:
                won += " by lot"
            lines.append(f"  {a} {ta} : {tb} {b}  ({_games(m, match.reset_at)}) → {won}")
    lines.append("standings")
    bots = {row["bot"] for row in s["standings"]}
    width = max((len(row["bot"] or "") for row in s["standings"]), default=0)
    for place, row in enumerate(s["standings"], start=1):
        team = f"{row['team']:<16}" + (f" {row['bot'] or '':<{width}} " if len(bots) > 1 else "")
        lines.append(
            f"  {place:>2}. {team} points {row['points']:>3}  score {row['score']:>5}"
            f"  matches won {row['matches_won']:>2}  games won {row['games_won']:>3}"
        )
    lines.append(f"winner: {s['winner']}")
    return lines


def _games(m: dict[str, Any], reset_at: int) -> str:
    """``3 games``, or ``3 games + 2 extra; totals from game 5`` after a tie (R17.3)."""
    extra = m["extra_games"]
    regular = m["games"] - extra
    text = f"{regular} game{'' if regular == 1 else 's'}"
    if extra:
        text += f" + {extra} extra"
    if reset_at:
        text += f"; totals from game {reset_at + 1}"
    return text

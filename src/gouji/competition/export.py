"""An event as the tables an association's secretary files: the overview, standings, matches,
games, sanctions and the audit log, each a header row and plain rows, in Chinese or English.

Everything a person reads is in words: seats numbered 1…6 as printed on the sheet, places as
头科…大落, sanctions, formats and log actions by name, tables as "round 2, match 3" — never an
engine code, a seat from 0 or a rule key. Numbers stay numbers (a spreadsheet sums them). No
web code here: the server turns these sheets into a workbook and CSV files
(``gouji.server.events.exports``); the same rows test without a server.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from gouji.competition.event import Event, Match, Table
from gouji.rulesdoc import NAMES as PRESET_NAMES
from gouji.rulesdoc.webwords import read_word_file

LANGS: tuple[str, ...] = ("zh", "en")

Cell = str | int | None

_ID = re.compile(r"r([0-9]+)m([0-9]+)(?:t([0-9]+))?")

#: The word file that the exports share with the event pages (web/js/words/competition.js).
WORD_FILE = "competition"

#: The exports' words that the event pages say too: the export's key and the key of the
#: shared word file (:data:`WORD_FILE`) that holds them, written once for both.
_FROM_PAGES: dict[str, str] = {
    "sheet_standings": "standings_h",
    "sheet_sanctions": "sanctions_h",
    "sheet_log": "log_h",
    "format": "format",
    "preset": "col_preset",
    "mode": "mode",
    "games_a_match": "games",
    "status": "col_status",
    "result": "col_result",
    "champion": "champion",
    "no_champion": "no_champion",
    "knockout": "fmt_knockout",
    "round_robin": "fmt_round_robin",
    "swiss": "fmt_swiss",
    "online": "mode_online",
    "paper": "mode_paper",
    "st_registering": "st_registering",
    "st_playing": "st_playing",
    "st_between_rounds": "st_between_rounds",
    "st_over": "st_over",
    "place": "sheet_place",
    "team": "col_team",
    "matches_won": "col_matches",
    "games_won": "col_games",
    "disqualified": "k_disqualify",
    "round": "print_round",
    "game": "col_game",
    "m_team_a": "team_a",
    "m_team_b": "team_b",
    "penalties": "penalties",
    "seat": "col_seat",
    "player": "col_player",
    "kind": "col_sanction",
    "article": "col_article",
    "pen_points": "sanction_points",
    "next_game": "events.next_game",
    "where": "col_table",
    "draw": "draw_result",
    "bye": "bye",
    "by_lot": "by_lot",
    "walkover": "wo_result",
    "playing": "unfinished",
    "place_1": "place_1",
    "place_2": "place_2",
    "place_3": "place_3",
    "place_4": "place_4",
    "place_5": "place_5",
    "place_6": "place_6",
    "k_warning": "k_warning",
    "k_cancel_turn": "k_cancel_turn",
    "k_penalty": "k_penalty",
    "k_last_place": "k_last_place",
    "k_disqualify": "k_disqualify",
    "round_n": "round_n",
    "pen": "seat_pen",
    "sep": "sep",
    "list_sep": "log_sep",
    "by_organiser": "by_organiser",
    "by_referee": "by_referee",
    "by_table": "by_table",
    "a_draw": "round_h",
    "a_result": "log_result",
    "a_sheet": "log_sheet",
    "a_void": "log_void",
    "a_sanction": "col_sanction",
    "a_walkover": "log_walkover",
    "a_revoke_referee": "log_revoke_referee",
    "vs": "log_vs",
    "gets_bye": "log_bye",
    "voided": "log_voided",
    "closed_done": "st_over",
    "match_numbers": "ref_matches",
    "lineup": "players_of",
}

#: The exports' own words, by language (the pages do not say them).
_OWN: dict[str, dict[str, str]] = {
    "zh": {
        # sheets
        "sheet_event": "概况",
        "sheet_matches": "各场",
        "sheet_games": "各局",
        # overview
        "item": "项目",
        "value": "内容",
        "name": "比赛名称",
        "modified": "{0}（有改动）",
        "duplicate": "复式",
        "teams_n": "参赛队数",
        "date": "创建日期（UTC）",
        "exported": "导出时间（UTC）",
        "unfinished": "未赛完即结束，没有冠军",
        "not_over": "比赛尚未结束",
        "yes": "是",
        "no": "否",
        # columns
        "points": "积分",
        "score": "总分",
        "byes": "轮空",
        "walkovers": "弃权",
        "match": "场次",
        "table": "桌号",
        "team_a": "甲队（1、3、5号位）",
        "team_b": "乙队（2、4、6号位）",
        "total_a": "甲队总分",
        "total_b": "乙队总分",
        "score_a": "甲队得分",
        "score_b": "乙队得分",
        "winner": "胜者",
        "how": "说明",
        "games_played": "已赛局数",
        "extra_games": "加赛局数",
        "totals_from": "总分起算局",
        "third_place": "季军赛",
        "extra": "加赛",
        "seat_n": "{0}号位",
        "seat_place": "{0}号位名次",
        "source": "来源",
        "src_sheet": "计分表",
        "src_engine": "线上",
        "repeat": "此前已受处罚次数",
        "n": "序号",
        "time": "时间（UTC）",
        "who": "操作人",
        "action": "操作",
        "before": "原来",
        "after": "改为",
        # values
        "both_absent": "双方弃权",
        "disq_forfeit": "取消资格判负：{0}",
        "from_game": "平局加赛，总分从第 {0} 局算起",
        "round_match": "第 {0} 轮第 {1} 场",
        "table_suffix": " {0}号桌",
        # the log
        "a_team": "报名",
        "a_remove_team": "删除报名",
        "a_correct": "更正成绩",
        "a_close": "结束比赛",
        "a_substitute": "换人（替补）",
        "a_referee": "发裁判密钥",
        "brief": "名次（1–6号位）{0}，得分 {1} : {2}",
        "b_penalties": "罚分 {0}",
        "b_not_opened": "不开点 {0}",
        "b_men": "闷 {0}",
        "b_burns": "烧牌 {0}",
        "burn": "{0}号位烧{1}号位",
        "closed_unfinished": "未赛完即结束",
        "closed_open": "未赛完即结束：{0}",
        "referee_of": "裁判 {0}（{1}）",
        "all_matches": "全部场次",
        "revoked": "已收回",
        "sanction_of": "{0}号位 {1}（{2}）{3}",
    },
    "en": {
        "sheet_event": "Event",
        "sheet_matches": "Matches",
        "sheet_games": "Games",
        "item": "Item",
        "value": "Value",
        "name": "Event",
        "modified": "{0} (modified)",
        "duplicate": "Duplicate",
        "teams_n": "Teams",
        "date": "Created (UTC)",
        "exported": "Exported (UTC)",
        "unfinished": "Ended unfinished: no winner",
        "not_over": "Not over yet",
        "yes": "yes",
        "no": "no",
        "points": "Match points",
        "score": "Total score",
        "byes": "Byes",
        "walkovers": "Walkovers",
        "match": "Match",
        "table": "Table",
        "team_a": "Team A (seats 1, 3, 5)",
        "team_b": "Team B (seats 2, 4, 6)",
        "total_a": "Total A",
        "total_b": "Total B",
        "score_a": "Score A",
        "score_b": "Score B",
        "winner": "Winner",
        "how": "Note",
        "games_played": "Games played",
        "extra_games": "Extra games",
        "totals_from": "Totals from game",
        "third_place": "Third-place match",
        "extra": "Extra",
        "seat_n": "Seat {0}",
        "seat_place": "Seat {0} place",
        "source": "Source",
        "src_sheet": "score sheet",
        "src_engine": "online",
        "repeat": "Earlier sanctions",
        "n": "No.",
        "time": "Time (UTC)",
        "who": "Who",
        "action": "Action",
        "before": "Before",
        "after": "After",
        "both_absent": "both absent",
        "disq_forfeit": "forfeit, disqualified: {0}",
        "from_game": "tied: totals from game {0}",
        "round_match": "Round {0}, match {1}",
        "table_suffix": ", table {0}",
        "a_team": "Team registered",
        "a_remove_team": "Team removed",
        "a_correct": "Sheet corrected",
        "a_close": "Event closed",
        "a_substitute": "Substitution",
        "a_referee": "Referee key issued",
        "brief": "places (seats 1–6) {0}, scores {1} : {2}",
        "b_penalties": "penalties {0}",
        "b_not_opened": "not opened {0}",
        "b_men": "闷 {0}",
        "b_burns": "burns {0}",
        "burn": "seat {0} burnt seat {1}",
        "closed_unfinished": "Ended unfinished",
        "closed_open": "Ended unfinished: {0}",
        "referee_of": "Referee {0} ({1})",
        "all_matches": "all matches",
        "revoked": "revoked",
        "sanction_of": "seat {0} {1} ({2}) {3}",
    },
}


def _words() -> dict[str, dict[str, str]]:
    pages = read_word_file(WORD_FILE)
    return {
        lang: _OWN[lang] | {key: pages[lang][shared] for key, shared in _FROM_PAGES.items()}
        for lang in LANGS
    }


#: Every word of the exports, by language.
WORDS: dict[str, dict[str, str]] = _words()


class ExportError(ValueError):
    """An export asked for in a way it cannot be made (an unknown language)."""


@dataclass(frozen=True)
class Sheet:
    """One table of the export: ``key`` names it for code ("standings"…), ``title`` for
    people; ``headers`` is the header row and ``rows`` the rows under it."""

    key: str
    title: str
    headers: list[str]
    rows: list[list[Cell]]


def check_lang(lang: str | None) -> str:
    """The language of an export: ``zh`` (the default) or ``en``."""
    if lang is None or lang == "":
        return "zh"
    if lang not in LANGS:
        raise ExportError(f"unknown language {lang[:10]!a}; languages: {', '.join(LANGS)}")
    return lang


class _Words:
    """The words of one language, with ``{0}``-style arguments."""

    def __init__(self, lang: str) -> None:
        self.lang = check_lang(lang)
        self.table = WORDS[self.lang]

    def __call__(self, key: str, *args: object) -> str:
        return self.table[key].format(*args)

    def minus(self, n: int) -> str:
        """A signed number as the pages print it, with a real minus sign: −2, +1."""
        return f"−{-n}" if n < 0 else f"+{n}" if n > 0 else "0"

    def place(self, p: int) -> str:
        return self(f"place_{p}") if 1 <= p <= 6 else str(p)

    def kind(self, kind: str) -> str:
        return self(f"k_{kind}") if f"k_{kind}" in self.table else kind

    def yes(self, flag: bool) -> str:
        return self("yes" if flag else "no")

    def seats(self, seats: Sequence[int]) -> str:
        return self("sep").join(self("seat_n", s + 1) for s in seats)


# ---------------------------------------------------------------------------------- places
def where(ev: Event, ident: str, w: _Words) -> str:
    """A table or match id ("r2m3t2") as people say it: round 2, match 3 (, table 2 when the
    match has two tables)."""
    m = _ID.fullmatch(ident or "")
    if m is None:
        return ident or ""
    text = w("round_match", int(m.group(1)), int(m.group(2)))
    if m.group(3) and ev.duplicate:
        text += w("table_suffix", int(m.group(3)))
    return text


def _table_number(t: Table) -> int:
    m = _ID.fullmatch(t.id)
    return int(m.group(3)) if m is not None and m.group(3) else 1


def _match_number(m: Match) -> int:
    found = _ID.fullmatch(m.id)
    return int(found.group(2)) if found is not None else 0


def _status(ev: Event, w: _Words) -> str:
    if ev.is_over:
        return w("st_over")
    cur = ev.current
    if cur is None:
        return w("st_registering")
    state = "st_playing" if not all(m.done for m in cur.matches) else "st_between_rounds"
    return w(state, cur.number)


def _stamp(at: object) -> str:
    """Epoch seconds as a UTC date and time, ``2025-05-01 14:03:07``."""
    if isinstance(at, bool) or not isinstance(at, int | float):
        return ""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")


# ---------------------------------------------------------------------------------- sheets
def overview(
    ev: Event, lang: str, *, created: float | None = None, exported: float | None = None
) -> Sheet:
    """The event in a few lines: name, format, rule set, play, date, status and its end —
    the champion, or that it ended unfinished (closed early: nobody won it)."""
    w = _Words(lang)
    preset = PRESET_NAMES.get(ev.preset, {}).get(w.lang, ev.preset)
    if ev.overrides:
        preset = w("modified", preset)
    if ev.unfinished:
        result = w("unfinished")
    elif not ev.is_over:
        result = w("not_over")
    else:
        champion = ev.winner()
        result = w("champion", champion) if champion else w("no_champion")
    rows: list[list[Cell]] = [
        [w("name"), ev.name],
        [w("format"), w(ev.format)],
        [w("preset"), preset],
        [w("mode"), w(ev.mode)],
        [w("duplicate"), w.yes(ev.duplicate)],
        [w("games_a_match"), ev.games],
        [w("teams_n"), len(ev.teams)],
        [w("date"), _stamp(created)[:10]],
        [w("status"), _status(ev, w)],
        [w("result"), result],
    ]
    if exported is not None:
        rows.append([w("exported"), _stamp(exported)])
    return Sheet("event", w("sheet_event"), [w("item"), w("value")], rows)


def standings(ev: Event, lang: str) -> Sheet:
    """The standings as the event orders them (``Event.standings``)."""
    w = _Words(lang)
    keys = (
        "place",
        "team",
        "points",
        "score",
        "matches_won",
        "games_won",
        "byes",
        "walkovers",
    )
    rows: list[list[Cell]] = [
        [*(s[k] for k in keys), w.yes(bool(s["disqualified"]))] for s in ev.standings()
    ]
    return Sheet("standings", w("sheet_standings"), [w(k) for k in (*keys, "disqualified")], rows)


def _outcome(ev: Event, m: Match, w: _Words) -> tuple[str, str]:
    """A match's winner column and its note: who won, or a draw, a bye, a walkover, a lot,
    a forfeit by disqualification, a tie's restart (R17.3) or that it is still being played."""
    name = ev.teams
    notes: list[str] = []
    if m.is_bye:
        return name[m.teams[0]].name, w("bye")
    if m.walkover:
        absent = w("sep").join(name[i].name for i in m.walkover)
        notes.append(w("both_absent") if len(m.walkover) == 2 else w("walkover", absent))
    out = _forfeited(ev, m)
    if out:
        notes.append(w("disq_forfeit", w("sep").join(name[i].name for i in out)))
    if m.by_lot:
        notes.append(w("by_lot"))
    if m.reset_at:
        notes.append(w("from_game", m.reset_at + 1))
    if not m.done:
        return "", w("list_sep").join([w("playing"), *notes])
    if m.winner is None:
        winner = "" if len(m.walkover) == 2 else w("draw")
    else:
        winner = name[m.winner].name
    return winner, w("list_sep").join(notes)


def _forfeited(ev: Event, m: Match) -> list[int]:
    """The disqualified teams of a match decided by their disqualification rather than by
    its games: its games unfinished, or a winner the totals would not give."""
    out = [i for i in m.teams if i is not None and ev.teams[i].disqualified]
    if not out or not m.done or m.walkover or m.is_bye:
        return []
    if any(len(t.games) < m.needed for t in m.tables):
        return out
    ta, tb = ev.match_totals(m)
    by_totals = m.teams[0] if ta > tb else m.teams[1] if tb > ta else None
    return out if by_totals != m.winner else []


def matches(ev: Event, lang: str) -> Sheet:
    """A row a match: both teams, their totals (R17.3: since the last reset, over both tables
    with duplicate), the winner or what decided it, games played and extra games."""
    w = _Words(lang)
    headers = [w(k) for k in ("round", "match", "m_team_a", "m_team_b", "total_a", "total_b",
                              "winner", "how", "games_played", "extra_games", "totals_from",
                              "third_place")]  # fmt: skip
    rows: list[list[Cell]] = []
    for r in ev.rounds:
        for m in r.matches:
            a, b = m.teams
            played = max((len(t.games) for t in m.tables), default=0)
            total_a: int | None = None
            total_b: int | None = None
            if not m.is_bye and played:
                total_a, total_b = ev.match_totals(m)
            winner, how = _outcome(ev, m, w)
            rows.append(
                [
                    r.number,
                    _match_number(m),
                    ev.teams[a].name,
                    ev.teams[b].name if b is not None else "",
                    total_a,
                    total_b,
                    winner,
                    how,
                    played,
                    ev.extra_games(m),
                    m.reset_at + 1 if m.reset_at else None,
                    w.yes(True) if m.third_place else "",
                ]
            )
    return Sheet("matches", w("sheet_matches"), headers, rows)


def _penalties(penalties: Sequence[Mapping[str, Any]], w: _Words, articles: bool = True) -> str:
    """Penalties as "2号位 −2 第二十九条（三）", seats from 1."""
    out = []
    for p in penalties:
        text = w("pen", int(p["seat"]) + 1, w.minus(int(p["points"])))
        if articles and p.get("article"):
            text += f" {p['article']}"
        out.append(text)
    return w("list_sep").join(out)


def games(ev: Event, lang: str) -> Sheet:
    """A row a game: where, which game (from 1; extra games of a tie marked), who sat at each
    seat 1…6 and their place, both team scores, penalties and where the result came from."""
    w = _Words(lang)
    headers = [w(k) for k in ("round", "match", "table", "game", "extra", "team_a", "team_b")]
    for s in range(1, 7):
        headers += [w("seat_n", s), w("seat_place", s)]
    headers += [w(k) for k in ("score_a", "score_b", "penalties", "source")]
    rows: list[list[Cell]] = []
    for r in ev.rounds:
        for m in r.matches:
            for t in m.tables:
                a, b = (ev.teams[i].name for i in t.teams)
                for i, g in enumerate(t.games):
                    row: list[Cell] = [
                        r.number,
                        _match_number(m),
                        _table_number(t),
                        i + 1,
                        w("extra") if i >= ev.games else "",
                        a,
                        b,
                    ]
                    for seat in range(6):
                        row += [ev.player_at(t, seat), w.place(int(g["places"][seat]))]
                    source = g.get("source") or ("engine" if t.room else "sheet")
                    row += [
                        int(g["team_scores"][0]),
                        int(g["team_scores"][1]),
                        _penalties(g.get("penalties") or [], w),
                        w("src_engine" if source == "engine" else "src_sheet"),
                    ]
                    rows.append(row)
    return Sheet("games", w("sheet_games"), headers, rows)


def sanctions(ev: Event, lang: str) -> Sheet:
    """A row a sanction: where and in which game it counts, the seat 1…6, team and player,
    the kind in words, points, article, and how often the player was sanctioned before."""
    w = _Words(lang)
    headers = [w(k) for k in ("round", "where", "game", "seat", "team", "player", "kind",
                              "pen_points", "article", "repeat")]  # fmt: skip
    rows: list[list[Cell]] = []
    for s in ev.sanctions:
        found = _ID.fullmatch(str(s.get("table") or ""))
        game = s.get("game")
        rows.append(
            [
                int(found.group(1)) if found else None,
                where(ev, str(s.get("table") or ""), w),
                game + 1 if isinstance(game, int) else w("next_game"),
                int(s["seat"]) + 1,
                s["team"],
                s["player"],
                w.kind(s["kind"]),
                int(s.get("points") or 0),
                s.get("article") or "",
                int(s.get("repeat") or 0),
            ]
        )
    return Sheet("sanctions", w("sheet_sanctions"), headers, rows)


# ---------------------------------------------------------------------------------- the log
def _who(by: object, w: _Words) -> str:
    if by == "organiser":
        return w("by_organiser")
    if by == "table":
        return w("by_table")
    if isinstance(by, str) and by.startswith("referee "):
        return w("by_referee", by[len("referee ") :])
    return str(by or "")


def _brief(game: object, w: _Words) -> str:
    """A game as the log keeps it (places, scores, the sheet's items, penalties) in words."""
    if not isinstance(game, Mapping) or "places" not in game:
        return ""
    scores = game.get("team_scores") or [0, 0]
    parts = [w("brief", " ".join(str(p) for p in game["places"]), scores[0], scores[1])]
    sheet = game.get("sheet") or {}
    if sheet.get("not_opened"):
        parts.append(w("b_not_opened", w.seats(sheet["not_opened"])))
    if sheet.get("men"):
        parts.append(w("b_men", w.seats(sheet["men"])))
    if sheet.get("burns"):
        burns = (w("burn", x + 1, y + 1) for x, y in sheet["burns"])
        parts.append(w("b_burns", w("sep").join(burns)))
    if game.get("penalties"):
        parts.append(w("b_penalties", _penalties(game["penalties"], w, articles=False)))
    return w("list_sep").join(parts)


def _pairs(pairs: object, w: _Words) -> str:
    if not isinstance(pairs, list):
        return ""
    out = []
    for p in pairs:
        if isinstance(p, list) and len(p) == 2:
            out.append(w("gets_bye", p[0]) if p[1] is None else w("vs", p[0], p[1]))
    return w("list_sep").join(out)


def _referee(entry: object, w: _Words) -> str:
    if not isinstance(entry, Mapping):
        return ""
    numbers = entry.get("matches")
    scope = (
        w("all_matches")
        if not numbers
        else w("match_numbers", w("sep").join(str(n) for n in numbers))
    )
    text = w("referee_of", entry.get("name", ""), scope)
    return text + (f"{w('list_sep')}{w('revoked')}" if entry.get("revoked") else "")


def _words_of(ev: Event, entry: Mapping[str, Any], w: _Words) -> tuple[str, str]:
    """A log entry's before and after in short words."""
    action, before, after = entry.get("action"), entry.get("before"), entry.get("after")
    if action in ("result", "sheet", "correct", "void"):
        return _brief(before, w), (w("voided") if action == "void" else _brief(after, w))
    if action == "draw":
        return "", _pairs(after, w)
    if action == "sanction" and isinstance(after, Mapping):
        kind = w.kind(str(after.get("kind")))
        if after.get("kind") == "penalty":
            kind += f" {w.minus(int(after.get('points') or 0))}"
        if after.get("article"):
            kind += f" {after['article']}"
        seat = int(after.get("seat") or 0) + 1
        return "", w("sanction_of", seat, after.get("player", ""), after.get("team", ""), kind)
    if action == "walkover" and isinstance(after, list):
        return "", w("walkover", w("sep").join(str(x) for x in after))
    if action == "close" and isinstance(after, Mapping):
        if not after.get("unfinished"):
            return "", w("closed_done")
        open_ = [where(ev, str(x), w) for x in after.get("open_matches") or []]
        return "", w("closed_open", w("sep").join(open_)) if open_ else w("closed_unfinished")
    if action in ("team", "remove_team"):
        team = after if action == "team" else before
        if isinstance(team, Mapping):
            text = _lineup(str(team.get("name", "")), team.get("players"), w)
            return ("", text) if action == "team" else (text, "")
    if action == "substitute":
        team = str(entry.get("team", ""))
        return _lineup(team, before, w), _lineup(team, after, w)
    if action in ("referee", "revoke_referee"):
        return "", _referee(after, w)
    return _plain(before), _plain(after)


def _lineup(team: str, players: object, w: _Words) -> str:
    names = [str(p) for p in players] if isinstance(players, list) else []
    return w("lineup", team, w("sep").join(names))


def _plain(value: object) -> str:
    """An entry of a kind this module does not know yet: its values, without keys."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        return " ".join(_plain(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_plain(v) for v in value)
    return str(value)


def audit_log(ev: Event, lang: str) -> Sheet:
    """The audit log (``Event.log``): when (UTC), who, what, where and before → after."""
    w = _Words(lang)
    headers = [w(k) for k in ("n", "time", "who", "action", "where", "game", "before", "after")]
    rows: list[list[Cell]] = []
    for e in ev.log:
        action = str(e.get("action") or "")
        key = f"a_{action}"
        place = e.get("table") or e.get("match")
        if place:
            at = where(ev, str(place), w)
        elif isinstance(e.get("round"), int):
            at = w("round_n", e["round"])
        else:
            at = ""
        game = e.get("game")
        before, after = _words_of(ev, e, w)
        rows.append(
            [
                e.get("n"),
                _stamp(e.get("at")),
                _who(e.get("by"), w),
                w(key) if key in w.table else action,
                at,
                game + 1 if isinstance(game, int) and not isinstance(game, bool) else None,
                before,
                after,
            ]
        )
    return Sheet("log", w("sheet_log"), headers, rows)


def workbook(
    ev: Event,
    lang: str,
    *,
    with_log: bool = False,
    created: float | None = None,
    exported: float | None = None,
) -> list[Sheet]:
    """Every sheet of the export, in order; the audit log only for the organiser."""
    sheets = [
        overview(ev, lang, created=created, exported=exported),
        standings(ev, lang),
        matches(ev, lang),
        games(ev, lang),
        sanctions(ev, lang),
    ]
    if with_log:
        sheets.append(audit_log(ev, lang))
    return sheets


__all__ = [
    "LANGS",
    "WORDS",
    "Cell",
    "ExportError",
    "Sheet",
    "audit_log",
    "check_lang",
    "games",
    "matches",
    "overview",
    "sanctions",
    "standings",
    "where",
    "workbook",
]

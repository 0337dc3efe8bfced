// What the public, organiser and print pages show alike: the event's line, standings, the
// bracket or the pairings, the tables now playing, the sanctions. Built from the JSON of
// GET /api/events/{code}, every word through event-words.js.
import { el } from "./common.js";
import { placeName, t } from "./i18n.js";
import { presetInfo } from "./presets.js";
import { matchTables, seatPlayers, tablesOf } from "./event-api.js";
import { articleText, num, parseTableId, sanctionText, tableLabel } from "./event-words.js";

/** The status of the event in words. */
export function statusText(ev) {
  const st = ev.status || "registering";
  if (st === "over") return t(ev.unfinished ? "st_unfinished" : "st_over");
  if (st === "registering") return t("st_registering");
  return t("st_" + st, ev.round || 0);
}

/** One line about the event: format, rule set, play, duplicate, games, teams. */
export function eventFacts(ev) {
  const facts = [
    t("fmt_" + ev.format),
    t(presetInfo(ev.preset).name),
    t(ev.mode === "paper" ? "mode_paper" : "mode_online"),
  ];
  if (ev.duplicate) facts.push(t("dup_on"));
  if (ev.games) facts.push(ev.games === 1 ? t("games_n_1") : t("games_n", ev.games));
  facts.push(t("teams_n", (ev.teams || []).length));
  return facts.join(" · ");
}

/** The event's header panel: name, facts, status, winner. */
export function eventHeader(ev) {
  const st = ev.status || "registering";
  return el(
    "section",
    { class: "card-panel ev-head", id: "ev-head" },
    el("h1", { id: "ev-name" }, ev.name),
    el("p", { class: "ev-facts" }, eventFacts(ev)),
    el(
      "p",
      { class: "ev-status" },
      el("span", { class: "ev-badge st-" + st, id: "ev-status" }, statusText(ev)),
      st === "over" && ev.unfinished
        ? el("span", { class: "ev-unfinished", id: "ev-unfinished" }, t("unfinished_note"))
        : st === "over"
          ? el(
              "span",
              { class: "ev-champion", id: "ev-champion" },
              ev.winner ? t("champion", ev.winner) : t("no_champion"),
            )
          : null,
    ),
  );
}

/** The standings table: 名次, 队, 积分, 总分, 胜场, 胜局. */
export function standingsTable(ev) {
  const rows = ev.standings || [];
  if (!rows.length) return el("p", { class: "muted" }, t("no_teams"));
  const head = el(
    "tr",
    null,
    ...["col_place", "col_team", "col_points", "col_score", "col_matches", "col_games"].map((k) =>
      el("th", { scope: "col" }, t(k)),
    ),
  );
  const body = rows.map((r, i) =>
    el(
      "tr",
      { class: r.disqualified ? "dq" : i === 0 && ev.winner && r.team === ev.winner ? "first" : null },
      el("td", { class: "num" }, String(r.place || i + 1)),
      el("td", { class: "team" }, r.team, seedMark(ev, r.team), r.disqualified ? el("span", { class: "ev-dq" }, t("dq")) : null),
      el("td", { class: "num" }, num(r.points)),
      el("td", { class: "num" }, num(r.score)),
      el("td", { class: "num" }, num(r.matches_won)),
      el("td", { class: "num" }, num(r.games_won)),
    ),
  );
  return el("table", { class: "ev-table standings", id: "standings" }, el("thead", null, head), el("tbody", null, body));
}

/** Whether a match of the summary is over (a bye, a winner, or all its tables done). */
export function matchDone(ev, m) {
  if (m.bye || m.winner) return true;
  const tables = matchTables(ev, m.id);
  return tables.length > 0 && tables.every((t) => t.done);
}

/** Two numbers as a score: "7 : 5" (negative with a real minus sign). */
export function pair(v) {
  return `${num(v[0])} : ${num(v[1])}`;
}

/** A team's record of the JSON's team_list (players, seed), or null. */
function teamOf(ev, name) {
  return (ev.team_list || []).find((t) => t && t.name === name) || null;
}

/** A seeded team's mark beside its name (种子 1), or null. */
export function seedMark(ev, name) {
  const tb = teamOf(ev, name);
  return tb && tb.seed ? el("span", { class: "ev-seed" }, t("seed_n", tb.seed)) : null;
}

/** A team's name with its seed mark and, at a match it did not come to, 弃权. */
export function teamName(ev, name, m) {
  const absent = m && (m.walkover || []).includes(name);
  return [name, seedMark(ev, name), absent ? el("span", { class: "ev-wo" }, t("walkover")) : null];
}

/** Which trio of a duplicate team of six sits on `side` of a table (the team at seats 1, 3, 5
 * plays its first trio, the other its second), or "" for a team of three. */
export function trioOf(ev, tb, side) {
  const team = teamOf(ev, tb.teams[side]);
  return team && (team.players || []).length === 6 ? t(side ? "trio_2" : "trio_1") : "";
}

/** Who sits where at a duplicate table: "一队（第一组）坐 1、3、5 号". */
export function seatsLine(ev, tb) {
  return [0, 1]
    .map((side) => {
      const seats = t(side ? "seats_b" : "seats_a");
      const trio = trioOf(ev, tb, side);
      return trio ? t("trio_seats", tb.teams[side], trio, seats) : t("team_seats", tb.teams[side], seats);
    })
    .join(" · ");
}

/** The game from which a table's totals count (R17.3: after a knockout tie they restart with
 * each extra game); 0 when no tie reset them. The table's `needed` tells how far it is. */
export function resetOf(ev, t) {
  const games = ev.games || 0;
  return games && (t.needed || 0) > games ? t.needed - 1 : 0;
}

/** A table's games summed in the order of `order` (two team names), from game `from` on. */
export function tableSums(t, order, from = 0) {
  const flip = order && t.teams[0] !== order[0];
  const sums = [0, 0];
  for (const g of (t.games || []).slice(from)) {
    sums[0] += Number(g.team_scores[flip ? 1 : 0]) || 0;
    sums[1] += Number(g.team_scores[flip ? 0 : 1]) || 0;
  }
  return sums;
}

/** A match's numbers: `totals`, what decides it (the summary's, since the last R17.3 reset),
 * `whole`, every game of its tables, and `reset`, the game the totals count from (0: none). */
export function matchSums(ev, m) {
  const tables = matchTables(ev, m.id);
  const whole = [0, 0];
  for (const t of tables) {
    const s = tableSums(t, m.teams);
    whole[0] += s[0];
    whole[1] += s[1];
  }
  const reset = Math.max(0, ...tables.map((t) => resetOf(ev, t)));
  return { totals: m.totals || [0, 0], whole, reset };
}

/** The match's score in words: "7 : 5"; after a knockout tie the totals that decide it and
 * the whole match's, each named ("加赛 19 : 23（全场 63 : 42）"); 轮空; 弃权. */
export function matchScoreText(ev, m) {
  if (m.bye) return t("bye");
  if ((m.walkover || []).length) return t("walkover");
  if (!m.games && !matchDone(ev, m)) return t("vs");
  const s = matchSums(ev, m);
  return s.reset ? t("extra_score", pair(s.totals), pair(s.whole)) : pair(s.totals);
}

/** What became of a match: 轮空; "X 弃权，Y 胜"; "加赛 5 局 · X 胜（抽签决定）"; 平局; the games
 * played so far. */
export function matchOutcomeText(ev, m) {
  if (m.bye) return t("bye");
  const absent = m.walkover || [];
  if (absent.length > 1) return t("walkover_both");
  if (absent.length === 1) return m.winner ? t("walkover_won", absent[0], m.winner) : t("walkover_by", absent[0]);
  const parts = [];
  const extra = m.extra_games || 0;
  if (extra) parts.push(extra === 1 ? t("extra_games_1") : t("extra_games_n", extra));
  if (m.winner) parts.push(m.by_lot ? t("won_by_lot", m.winner) : t("won_by", m.winner));
  else if (matchDone(ev, m)) parts.push(t("draw_result"));
  else if (ev.status === "over") parts.push(t("unfinished"));
  else {
    const tables = matchTables(ev, m.id);
    const needed = Math.max(0, ...tables.map((t) => t.needed || 0));
    parts.push(needed ? t("games_done", m.games || 0, needed) : t("playing"));
  }
  return parts.join(" · ");
}

/** How many rounds a knockout of `n` teams takes (byes make round 2 a power of two). */
export function knockoutRounds(n) {
  let r = 0;
  while (2 ** r < n) r += 1;
  return Math.max(r, 1);
}

/** The teams that entered a drawn knockout round (a bye counts one; the match for third place
 * is beside the final, not a round of its own). */
function entrants(matches) {
  let n = 0;
  for (const m of matches) if (!m.third_place) n += m.bye || m.teams[1] === null ? 1 : 2;
  return n;
}

/** A knockout round's name by the teams it had: 决赛 (two), 半决赛 (three or four), else 第 n
 * 轮 — so a round is named the final only where the bracket really reached it. */
function koRoundName(left, r) {
  if (left === 2) return t("final");
  if (left === 3 || left === 4) return t("semi_final");
  return t("round_n", r);
}

function tbdMatch(label) {
  return el(
    "div",
    { class: "br-match tbd" + (label ? " third" : "") },
    label ? el("div", { class: "br-label" }, label) : null,
    el("div", { class: "br-team" }, t("tbd")),
    el("div", { class: "br-team" }, t("tbd")),
  );
}

/** A match's box in the bracket: the two teams (winner in bold, seeds, 弃权), the totals that
 * decide it, after a tie both kinds of totals named, and the outcome (抽签决定 …). */
function bracketMatch(ev, m) {
  const done = matchDone(ev, m);
  const absent = (m.walkover || []).length > 0;
  const numbers = !m.bye && !absent && (m.games || done);
  const line = (name, k) =>
    el(
      "div",
      {
        class:
          "br-team" +
          (m.winner === name || (m.bye && k === 0) ? " win" : "") +
          (done && m.winner && m.winner !== name ? " lost" : ""),
      },
      el("span", { class: "br-name" }, name === null ? t("bye") : teamName(ev, name, m)),
      m.bye ? null : el("span", { class: "br-total" }, numbers ? num(m.totals[k]) : ""),
    );
  const s = m.bye ? null : matchSums(ev, m);
  return el(
    "div",
    { class: "br-match" + (m.third_place ? " third" : "") + (done || ev.status === "over" ? " done" : " live"), dataset: { match: m.id } },
    m.third_place ? el("div", { class: "br-label" }, t("third_place")) : null,
    line(m.teams[0], 0),
    line(m.teams[1], 1),
    s && s.reset ? el("div", { class: "br-note br-extra" }, t("extra_score", pair(s.totals), pair(s.whole))) : null,
    m.bye ? null : el("div", { class: "br-note" + (m.by_lot ? " br-lot" : "") }, matchOutcomeText(ev, m)),
  );
}

/** The knockout bracket: a column per round, a box per match (winner in bold); while the event
 * goes on, the rounds still to come as empty boxes. */
export function bracket(ev) {
  const rounds = ev.rounds || [];
  if (!rounds.length) return el("p", { class: "muted" }, t("no_rounds"));
  const cols = rounds.map((matches, r) =>
    el(
      "div",
      { class: "br-round" },
      el("h3", null, koRoundName(entrants(matches), r + 1)),
      el("div", { class: "br-matches" }, ...matches.map((m) => bracketMatch(ev, m))),
    ),
  );
  const later = [];
  if (ev.status !== "over") {
    // every match of the last round drawn sends one team on (a bye its team)
    let left = rounds[rounds.length - 1].filter((m) => !m.third_place).length;
    for (let r = rounds.length + 1; left > 1; r++) {
      const boxes = [];
      for (let k = 0; k < Math.ceil(left / 2); k++) boxes.push(tbdMatch(""));
      if (left === 2 && ev.third_place) boxes.push(tbdMatch(t("third_place")));
      later.push(el("div", { class: "br-round" }, el("h3", null, koRoundName(left, r)), el("div", { class: "br-matches" }, ...boxes)));
      left = Math.ceil(left / 2);
    }
  }
  return el("div", { class: "bracket", id: "bracket" }, ...cols, ...later);
}

/** The pairings per round (round robin, Swiss): teams, score, outcome, a row per match. */
export function pairings(ev) {
  const rounds = ev.rounds || [];
  if (!rounds.length) return el("p", { class: "muted" }, t("no_rounds"));
  const out = [];
  for (let r = rounds.length - 1; r >= 0; r--) {
    const rows = rounds[r].map((m, k) =>
      el(
        "tr",
        { class: matchDone(ev, m) || ev.status === "over" ? "done" : "live", dataset: { match: m.id } },
        el("td", { class: "num" }, String(k + 1)),
        el("td", { class: "team" + (m.winner === m.teams[0] ? " win" : "") }, teamName(ev, m.teams[0], m)),
        el("td", { class: "score" }, matchScoreText(ev, m)),
        el(
          "td",
          { class: "team" + (m.winner && m.winner === m.teams[1] ? " win" : "") },
          m.teams[1] === null ? t("bye") : teamName(ev, m.teams[1], m),
        ),
        el("td", { class: "outcome" + (m.by_lot ? " lot" : "") }, m.third_place ? t("third_place") + " · " : "", matchOutcomeText(ev, m)),
      ),
    );
    out.push(
      el(
        "div",
        { class: "pair-round" },
        el("h3", null, t("round_n", r + 1)),
        el("table", { class: "ev-table pairs" }, el("tbody", null, rows)),
      ),
    );
  }
  return el("div", { class: "pairings", id: "pairings" }, ...out);
}

/** A team at a table: its name, and with a duplicate team of six the trio that sits there. */
function tableTeam(ev, t, side) {
  const trio = trioOf(ev, t, side);
  return el("span", { class: "tag " + (side ? "team-b" : "team-a") }, t.teams[side], trio ? el("span", { class: "ev-trio" }, trio) : null);
}

/** The current round's tables still playing, with the room to watch (online). After a tie the
 * score says which totals it is (加赛 … 全场 …), as the bracket does. */
export function liveTables(ev) {
  const open = tablesOf(ev).filter((t) => t.round === ev.round && !t.done);
  if (!open.length) return el("p", { class: "muted", id: "no-live" }, t("no_live"));
  return el(
    "div",
    { class: "live-list", id: "live" },
    ...open.map((tb) => {
      const played = (tb.games || []).length;
      const whole = tableSums(tb, null);
      const reset = resetOf(ev, tb);
      const score = reset ? t("extra_score", pair(tableSums(tb, null, reset)), pair(whole)) : pair(whole);
      const next = played + 1 > (ev.games || Infinity) ? t("extra_game") + " · " : "";
      const third = (ev.rounds || []).some((r) => r.some((m) => m.third_place && m.id === tb.match));
      return el(
        "div",
        { class: "live-table", dataset: { table: tb.id } },
        el("div", { class: "live-label" }, t("round_n", tb.round), " · ", third ? t("third_place") + " · " : "", tableLabel(tb.id, !!ev.duplicate)),
        el("div", { class: "live-teams" }, tableTeam(ev, tb, 0), el("b", { class: "live-score" }, score), tableTeam(ev, tb, 1)),
        el(
          "div",
          { class: "live-foot" },
          el(
            "span",
            { class: "muted" },
            !tb.needed ? t("waiting") : played < tb.needed ? next + t("game_of", played + 1, tb.needed) : t("games_done", played, tb.needed),
          ),
          tb.room ? el("a", { class: "button small watch", href: "/r/" + tb.room, target: "_blank", rel: "noopener" }, t("watch")) : null,
        ),
      );
    }),
  );
}

/** The games of one table in the match's team order (so that the tables of a match add up to
 * its header): each game's score (加赛 marked), places by player, penalties; the table's total
 * and, after a tie, its games since the totals restarted. */
function resultTable(ev, m, tb, duplicate) {
  const names = seatPlayers(ev, tb);
  const flip = tb.teams[0] !== m.teams[0];
  const reset = resetOf(ev, tb);
  const p = parseTableId(tb.id);
  const whole = tableSums(tb, m.teams);
  return el(
    "div",
    { class: "result-table", dataset: { table: tb.id } },
    duplicate || trioOf(ev, tb, 0) || trioOf(ev, tb, 1)
      ? el("h5", null, duplicate && p ? t("table_n", p.table) + " · " : "", seatsLine(ev, tb))
      : null,
    el(
      "ol",
      { class: "result-games" },
      ...tb.games.map((g) =>
        el(
          "li",
          { class: g.extra ? "extra" : null },
          g.extra ? el("span", { class: "ev-extra" }, t("extra_game")) : null,
          el("b", null, pair(flip ? [g.team_scores[1], g.team_scores[0]] : g.team_scores)),
          " ",
          el(
            "span",
            { class: "muted" },
            (g.places || [])
              .map((place, seat) => [place, seat])
              .sort((a, b) => a[0] - b[0])
              .map(([place, seat]) => `${placeName(place)} ${names[seat]}`)
              .join(t("sep")),
          ),
          (g.penalties || []).length
            ? el("span", { class: "pen" }, " ", g.penalties.map((x) => t("pen_who", `${t("k_penalty")} ${num(x.points)}`, names[x.seat] || "")).join(t("sep")))
            : null,
        ),
      ),
    ),
    el(
      "p",
      { class: "result-sum" },
      t("sum_line", pair(whole)),
      reset ? [" · ", t("extra_sum", pair(tableSums(tb, m.teams, reset)))] : null,
    ),
  );
}

/** Every match of a round that has a result: its header (teams, the score — both kinds of
 * totals after a tie —, the outcome: 抽签决定, 弃权 …) and the games of its tables. */
export function resultsOfRound(ev, round) {
  const matches = (ev.rounds || [])[round - 1] || [];
  const duplicate = !!ev.duplicate;
  const blocks = [];
  for (const m of matches) {
    if (m.bye) continue;
    const absent = (m.walkover || []).length > 0;
    const tables = matchTables(ev, m.id).filter((t) => (t.games || []).length);
    if (!tables.length && !absent) continue;
    blocks.push(
      el(
        "div",
        { class: "result-match" + (m.by_lot ? " lot" : ""), dataset: { match: m.id } },
        el(
          "h4",
          null,
          m.third_place ? t("third_place") + " · " : "",
          tableLabel(m.id, false),
          " · ",
          teamName(ev, m.teams[0], m),
          ` ${t("vs")} `,
          teamName(ev, m.teams[1], m),
        ),
        el(
          "p",
          { class: "result-line" },
          absent ? null : [el("b", { class: "result-score" }, matchScoreText(ev, m)), " · "],
          el("span", { class: "result-outcome" }, matchOutcomeText(ev, m)),
        ),
        ...tables.map((t) => resultTable(ev, m, t, duplicate)),
      ),
    );
  }
  if (!blocks.length) return null;
  return el("div", { class: "results-round" }, el("h3", null, t("round_n", round)), ...blocks);
}

/** The sanctions given so far: where and in which game, who, what, the article. */
export function sanctionsList(ev) {
  const list = ev.sanctions || [];
  if (!list.length) return null;
  const head = el("tr", null, ...["col_table", "col_player", "col_sanction", "col_article"].map((k) => el("th", { scope: "col" }, t(k))));
  const rows = list.map((s) => {
    const id = /^r(\d+)/.exec(s.table || "");
    const when = s.game === null || s.game === undefined ? t("events.next_game") : t("events.game_n", s.game + 1);
    return el(
      "tr",
      { class: "sanction k-" + s.kind },
      el(
        "td",
        { class: "where" },
        id ? t("round_n", id[1]) + " · " + tableLabel(s.table, !!ev.duplicate) : "",
        el("div", { class: "when" }, when),
      ),
      el("td", { class: "who" }, s.player || "", el("div", { class: "muted" }, s.team || "")),
      el("td", { class: "kind" }, sanctionText(s)),
      el("td", { class: "article" }, articleText(s.article)),
    );
  });
  return el("table", { class: "ev-table sanctions", id: "sanctions" }, el("thead", null, head), el("tbody", null, rows));
}

/** A section panel with a heading. */
export function panel(id, title, ...children) {
  return el("section", { class: "card-panel ev-panel", id }, el("h2", null, title), ...children);
}

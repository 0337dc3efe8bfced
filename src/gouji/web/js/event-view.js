// What the public, organiser and print pages show alike: the event's line, standings, the
// bracket or the pairings, the tables now playing, the sanctions. Built from the JSON of
// GET /api/events/{code}, every word through event-words.js.
import { el } from "./common.js";
import { placeName } from "./i18n.js";
import { pick, presetInfo } from "./presets.js";
import { matchTables, seatPlayers, tablesOf } from "./event-api.js";
import { articleText, num, sanctionText, tableLabel, w } from "./event-words.js";

/** The status of the event in words. */
export function statusText(ev) {
  const st = ev.status || "registering";
  if (st === "over") return w("st_over");
  if (st === "registering") return w("st_registering");
  return w("st_" + st, ev.round || 0);
}

/** One line about the event: format, rule set, play, duplicate, games, teams. */
export function eventFacts(ev) {
  const facts = [
    w("fmt_" + ev.format),
    pick(presetInfo(ev.preset).name),
    w(ev.mode === "paper" ? "mode_paper" : "mode_online"),
  ];
  if (ev.duplicate) facts.push(w("dup_on"));
  if (ev.games) facts.push(ev.games === 1 ? w("games_n_1") : w("games_n", ev.games));
  facts.push(w("teams_n", (ev.teams || []).length));
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
      st === "over"
        ? el(
            "span",
            { class: "ev-champion", id: "ev-champion" },
            ev.winner ? w("champion", ev.winner) : w("no_champion"),
          )
        : null,
    ),
  );
}

/** The standings table: 名次, 队, 积分, 总分, 胜场, 胜局. */
export function standingsTable(ev) {
  const rows = ev.standings || [];
  if (!rows.length) return el("p", { class: "muted" }, w("no_teams"));
  const head = el(
    "tr",
    null,
    ...["col_place", "col_team", "col_points", "col_score", "col_matches", "col_games"].map((k) =>
      el("th", { scope: "col" }, w(k)),
    ),
  );
  const body = rows.map((r, i) =>
    el(
      "tr",
      { class: r.disqualified ? "dq" : i === 0 && ev.status === "over" ? "first" : null },
      el("td", { class: "num" }, String(r.place || i + 1)),
      el("td", { class: "team" }, r.team, r.disqualified ? el("span", { class: "ev-dq" }, w("dq")) : null),
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

/** "7 : 5" or "轮空" or "第 2/3 局" for a match of the summary. */
function matchScore(ev, m) {
  if (m.bye) return w("bye");
  if (!m.games && !matchDone(ev, m)) return w("vs");
  return `${num(m.totals[0])} : ${num(m.totals[1])}`;
}

function matchOutcome(ev, m) {
  if (m.bye) return w("bye");
  if (m.winner) return w("won_by", m.winner);
  if (matchDone(ev, m)) return w("draw_result");
  if (ev.status === "over") return w("unfinished");
  const tables = matchTables(ev, m.id);
  const needed = Math.max(0, ...tables.map((t) => t.needed || 0));
  return needed ? w("games_done", m.games || 0, needed) : w("playing");
}

/** How many rounds a knockout of `n` teams takes (byes make round 2 a power of two). */
export function knockoutRounds(n) {
  let r = 0;
  while (2 ** r < n) r += 1;
  return Math.max(r, 1);
}

/** A knockout round's name: 决赛 (final), 半决赛 (semi-final), else 第 n 轮. */
function koRoundName(r, total) {
  if (r === total) return w("final");
  if (r === total - 1) return w("semi_final");
  return w("round_n", r);
}

/** The knockout bracket: a column per round, a box per match (winner in bold); the rounds
 * still to come as empty boxes. */
export function bracket(ev) {
  const rounds = ev.rounds || [];
  if (!rounds.length) return el("p", { class: "muted" }, w("no_rounds"));
  const total = ev.status === "over" ? rounds.length : Math.max(rounds.length, knockoutRounds((ev.teams || []).length));
  const later = [];
  for (let r = rounds.length + 1; r <= total; r++) {
    const boxes = [];
    for (let k = 0; k < 2 ** (total - r); k++) {
      boxes.push(el("div", { class: "br-match tbd" }, el("div", { class: "br-team" }, w("tbd")), el("div", { class: "br-team" }, w("tbd"))));
    }
    later.push(el("div", { class: "br-round" }, el("h3", null, koRoundName(r, total)), el("div", { class: "br-matches" }, ...boxes)));
  }
  const cols = rounds.map((matches, r) =>
    el(
      "div",
      { class: "br-round" },
      el("h3", null, koRoundName(r + 1, total)),
      el(
        "div",
        { class: "br-matches" },
        ...matches.map((m) => {
          const done = matchDone(ev, m);
          const line = (name, k) =>
            el(
              "div",
              {
                class:
                  "br-team" +
                  (m.winner === name || (m.bye && k === 0) ? " win" : "") +
                  (done && m.winner && m.winner !== name ? " lost" : ""),
              },
              el("span", { class: "br-name" }, name === null ? w("bye") : name),
              m.bye ? null : el("span", { class: "br-total" }, m.games || done ? num(m.totals[k]) : ""),
            );
          return el(
            "div",
            { class: "br-match" + (done || ev.status === "over" ? " done" : " live"), dataset: { match: m.id } },
            line(m.teams[0], 0),
            line(m.teams[1], 1),
            m.bye ? null : el("div", { class: "br-note" }, matchOutcome(ev, m)),
          );
        }),
      ),
    ),
  );
  return el("div", { class: "bracket", id: "bracket" }, ...cols, ...later);
}

/** The pairings per round (round robin, Swiss): teams, score, outcome, a row per match. */
export function pairings(ev) {
  const rounds = ev.rounds || [];
  if (!rounds.length) return el("p", { class: "muted" }, w("no_rounds"));
  const out = [];
  for (let r = rounds.length - 1; r >= 0; r--) {
    const rows = rounds[r].map((m, k) =>
      el(
        "tr",
        { class: matchDone(ev, m) || ev.status === "over" ? "done" : "live", dataset: { match: m.id } },
        el("td", { class: "num" }, String(k + 1)),
        el("td", { class: "team" + (m.winner === m.teams[0] ? " win" : "") }, m.teams[0]),
        el("td", { class: "score" }, matchScore(ev, m)),
        el("td", { class: "team" + (m.winner && m.winner === m.teams[1] ? " win" : "") }, m.teams[1] === null ? w("bye") : m.teams[1]),
        el("td", { class: "outcome" }, matchOutcome(ev, m)),
      ),
    );
    out.push(
      el(
        "div",
        { class: "pair-round" },
        el("h3", null, w("round_n", r + 1)),
        el("table", { class: "ev-table pairs" }, el("tbody", null, rows)),
      ),
    );
  }
  return el("div", { class: "pairings", id: "pairings" }, ...out);
}

/** The current round's tables still playing, with the room to watch (online). */
export function liveTables(ev) {
  const open = tablesOf(ev).filter((t) => t.round === ev.round && !t.done);
  if (!open.length) return el("p", { class: "muted", id: "no-live" }, w("no_live"));
  return el(
    "div",
    { class: "live-list", id: "live" },
    ...open.map((t) => {
      const played = (t.games || []).length;
      const sums = [0, 0];
      for (const g of t.games || []) for (const k of [0, 1]) sums[k] += Number(g.team_scores[k]) || 0;
      return el(
        "div",
        { class: "live-table", dataset: { table: t.id } },
        el("div", { class: "live-label" }, w("round_n", t.round), " · ", tableLabel(t.id, !!ev.duplicate)),
        el(
          "div",
          { class: "live-teams" },
          el("span", { class: "tag team-a" }, t.teams[0]),
          el("b", { class: "live-score" }, `${num(sums[0])} : ${num(sums[1])}`),
          el("span", { class: "tag team-b" }, t.teams[1]),
        ),
        el(
          "div",
          { class: "live-foot" },
          el(
            "span",
            { class: "muted" },
            !t.needed ? w("waiting") : t.room && played < t.needed ? w("game_of", played + 1, t.needed) : w("games_done", played, t.needed),
          ),
          t.room ? el("a", { class: "button small watch", href: "/r/" + t.room, target: "_blank", rel: "noopener" }, w("watch")) : null,
        ),
      );
    }),
  );
}

/** Every game played at the tables of a round: places by player, team scores. */
export function resultsOfRound(ev, round) {
  const tables = tablesOf(ev).filter((t) => t.round === round && (t.games || []).length);
  if (!tables.length) return null;
  return el(
    "div",
    { class: "results-round" },
    el("h3", null, w("round_n", round)),
    ...tables.map((t) => {
      const names = seatPlayers(ev, t);
      return el(
        "div",
        { class: "result-table" },
        el("h4", null, tableLabel(t.id, !!ev.duplicate), " · ", t.teams[0], ` ${w("vs")} `, t.teams[1]),
        el(
          "ol",
          { class: "result-games" },
          ...t.games.map((g) =>
            el(
              "li",
              null,
              el("b", null, `${num(g.team_scores[0])} : ${num(g.team_scores[1])}`),
              " ",
              el(
                "span",
                { class: "muted" },
                (g.places || [])
                  .map((p, seat) => [p, seat])
                  .sort((a, b) => a[0] - b[0])
                  .map(([p, seat]) => `${placeName(p)} ${names[seat]}`)
                  .join(w("sep")),
              ),
              (g.penalties || []).length
                ? el("span", { class: "pen" }, " ", (g.penalties || []).map((p) => `${w("k_penalty")} ${num(p.points)}`).join(w("sep")))
                : null,
            ),
          ),
        ),
      );
    }),
  );
}

/** The sanctions given so far: where and in which game, who, what, the article. */
export function sanctionsList(ev) {
  const list = ev.sanctions || [];
  if (!list.length) return null;
  const head = el("tr", null, ...["col_table", "col_player", "col_sanction", "col_article"].map((k) => el("th", { scope: "col" }, w(k))));
  const rows = list.map((s) => {
    const id = /^r(\d+)/.exec(s.table || "");
    const when = s.game === null || s.game === undefined ? w("next_game") : w("game_n", s.game + 1);
    return el(
      "tr",
      { class: "sanction k-" + s.kind },
      el(
        "td",
        { class: "where" },
        id ? w("round_n", id[1]) + " · " + tableLabel(s.table, !!ev.duplicate) : "",
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

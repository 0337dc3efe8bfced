// The audit log on the organiser's page (GET …/log): every change with its time (local), who
// made it (组织者, 裁判 王, the online table), what in words, where (table and game as people
// name them) and before → after in short words.
import { t } from "./i18n.js";
import { el, patch } from "./common.js";
import { api, tablesOf } from "./event-api.js";
import { num, parseTableId, tableLabel } from "./event-words.js";
import { base, desk, isInt, isNum, isText, localTime, matchesText, showError } from "./event-desk.js";

const $ = (id) => document.getElementById(id);
const SHOWN = 30; // the newest entries shown until the reader asks for all
const ACTIONS = new Set([
  "team", "remove_team", "draw", "result", "sheet", "correct", "void", "sanction", "walkover",
  "substitute", "referee", "revoke_referee", "close",
]);  // prettier-ignore
export const audit = { log: null, all: false };

/** The log's entries with what the panel reads checked (others are left out). */
function entriesOf(data) {
  if (!Array.isArray(data)) return [];
  return data.filter((e) => e && isInt(e.n) && isText(e.action) && (e.at === null || isNum(e.at)) && (e.by === null || e.by === undefined || isText(e.by)));
}

export async function loadLog() {
  try {
    audit.log = entriesOf(await api("GET", base() + "/log", undefined, desk.key));
  } catch (e) {
    showError(e);
  }
}

function who(by) {
  if (by === "organiser") return t("by_organiser");
  if (by === "table") return t("by_table");
  if (isText(by) && by.startsWith("referee ")) return t("by_referee", by.slice(8));
  return "—";
}

function teamsAt(tid) {
  const t = tablesOf(desk.ev).find((x) => x.id === tid);
  return t && Array.isArray(t.teams) ? t.teams : null;
}

/** Where: "第 1 轮 · 第 2 场 · 第 3 局", a team, a round. */
function where(e) {
  const parts = [];
  const id = isText(e.table) ? e.table : isText(e.match) ? e.match : null;
  const p = id ? parseTableId(id) : null;
  if (p) {
    parts.push(t("round_n", p.round));
    parts.push(isText(e.table) ? tableLabel(e.table, !!desk.ev.duplicate) : t("match_n", p.match));
  }
  if (isInt(e.game)) parts.push(t("events.game_n", e.game + 1));
  if (e.action === "draw" && isInt(e.round)) parts.push(t("round_n", e.round));
  if (e.action === "substitute" && isText(e.team)) parts.push(e.team);
  return parts.join(" · ");
}

/** A game as the log keeps it, in short words: "青岛队 8 : 13 济南队", with its penalties. */
function gameWords(g, tid) {
  if (!g || typeof g !== "object" || !Array.isArray(g.team_scores) || g.team_scores.length !== 2) return "";
  const teams = teamsAt(tid) || ["", ""];
  let text = `${teams[0]} ${num(g.team_scores[0])} : ${num(g.team_scores[1])} ${teams[1]}`.trim();
  const pens = Array.isArray(g.penalties) ? g.penalties.filter((p) => p && isNum(p.points)) : [];
  if (pens.length) text += t("log_pens", pens.map((p) => num(p.points)).join(" "));
  return text;
}

function teamWords(tb) {
  if (!tb || typeof tb !== "object" || !isText(tb.name)) return "";
  const players = Array.isArray(tb.players) ? tb.players.filter(isText).join(t("sep")) : "";
  return players ? t("team_players", tb.name, players) : tb.name;
}

function refereeWords(r) {
  if (!r || typeof r !== "object" || !isText(r.name)) return "";
  const matches = Array.isArray(r.matches) && r.matches.every(isInt) ? r.matches : null;
  return t("who_scope", r.name, matchesText(matches));
}

/** Before and after of an entry, in words. */
function change(e) {
  const a = e.after;
  const b = e.before;
  switch (e.action) {
    case "result":
    case "sheet":
      return ["", gameWords(a, e.table)];
    case "correct":
      return [gameWords(b, e.table), gameWords(a, e.table)];
    case "void":
      return [gameWords(b, e.table), t("log_voided")];
    case "sanction": {
      if (!a || typeof a !== "object") return ["", ""];
      let what = t("k_" + (isText(a.kind) ? a.kind : "warning"));
      if (a.kind === "penalty" && isNum(a.points)) what += " " + num(a.points);
      const player = isText(a.player) ? t("who_team", a.player, isText(a.team) ? a.team : "") : "";
      return ["", `${player} ${what}`.trim()];
    }
    case "walkover":
      return ["", Array.isArray(a) ? t("log_absent", a.filter(isText).join(t("sep"))) : ""];
    case "substitute":
      return ["", isText(e.out) && isText(e.sub) ? t("log_swap", e.out, e.sub) : ""];
    case "team":
      return ["", teamWords(a)];
    case "remove_team":
      return [teamWords(b), ""];
    case "draw": {
      const pairs = Array.isArray(a) ? a.filter((p) => Array.isArray(p) && p.length === 2) : [];
      return ["", pairs.map((p) => (p[1] === null ? t("log_bye", p[0]) : t("log_vs", p[0], p[1]))).join(t("log_sep"))];
    }
    case "referee":
    case "revoke_referee":
      return ["", refereeWords(a)];
    case "close": {
      if (!a || typeof a !== "object" || !a.unfinished) return ["", t("log_closed")];
      const open = Array.isArray(a.open_matches) ? a.open_matches.filter(isText) : [];
      const names = open.map((m) => {
        const p = parseTableId(m);
        return p ? t("match_n", p.match) : "";
      });
      return ["", names.length ? t("log_closed_open", names.join(t("sep"))) : t("log_closed_early")];
    }
    default:
      return ["", ""];
  }
}

/** The audit log panel (organiser), the newest first. */
export function logPanel() {
  const show = desk.role === "organiser";
  $("log-panel").classList.toggle("hidden", !show);
  if (!show) return;
  const log = audit.log || [];
  if (!log.length) {
    patch($("log-box"), [el("p", { class: "muted" }, t("log_empty"))]);
    return;
  }
  const newest = [...log].reverse();
  const shown = audit.all ? newest : newest.slice(0, SHOWN);
  const head = el("tr", null, ...["log_time", "log_who", "log_what", "log_where", "log_change"].map((k) => el("th", { scope: "col" }, t(k))));
  const rows = shown.map((e) => {
    const [before, after] = change(e);
    return el(
      "tr",
      { class: "log-entry a-" + (ACTIONS.has(e.action) ? e.action : "other"), dataset: { n: String(e.n) } },
      el("td", { class: "when" }, localTime(e.at)),
      el("td", { class: "who" }, who(e.by)),
      el("td", { class: "what" }, ACTIONS.has(e.action) ? t("log_" + e.action) : t("log_other")),
      el("td", { class: "where" }, where(e)),
      el("td", { class: "change" }, before ? el("span", { class: "before" }, before) : null, before && after ? " → " : null, after ? el("span", { class: "after" }, after) : null),
    );
  });
  const more =
    newest.length > SHOWN
      ? el(
          "button",
          { type: "button", class: "small log-more", onclick: () => { audit.all = !audit.all; logPanel(); } },
          audit.all ? t("log_fewer") : t("log_all", newest.length),
        )
      : null;
  patch($("log-box"), [el("div", { class: "scroll-x log-scroll" }, el("table", { class: "ev-table log", id: "log" }, el("thead", null, head), el("tbody", null, rows))), more].filter(Boolean));
}

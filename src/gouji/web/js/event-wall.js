// The wall page of an event (/e/{code}/wall): big print for a projector at the hall — the
// event's name, the round, each table's number and teams (and players by seat), the round
// clock the organiser starts, the standings at a glance and a QR code of the public page
// (drawn by the server: no network needed). It polls the event's JSON every few seconds, as
// the public page does, and counts the clock down on the server's time (event-clock.js).
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { el, patch } from "./common.js";
import { eventCode, pollEvent, seatPlayers, tablesOf, teamNames } from "./event-api.js";
import { RoundClock, clockText } from "./event-clock.js";
import { num, parseTableId, setDuplicate, tableLabel } from "./event-words.js";
import { knockoutRounds, matchDone, statusText } from "./event-view.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;
const PAGE_MS = 12000; // many tables: the wall turns its pages this often
const code = eventCode();
const clock = new RoundClock();
let ev = null;
let reads = 0; // the event's JSON read so far
let turn = 0; // the pages turned so far (many tables)
let pages = 1;

// ------------------------------------------------------------------ the round
/** The status line: the status, a knockout round's name, the winner. */
function statusLine() {
  const parts = [statusText(ev)];
  const round = ev.round || 0;
  if (ev.format === "knockout" && round && ev.status !== "over") {
    const total = knockoutRounds((ev.teams || []).length);
    if (round === total) parts.push(t("final"));
    else if (round === total - 1) parts.push(t("semi_final"));
  }
  if (ev.status === "over" && !ev.unfinished) parts.push(ev.winner ? t("champion", ev.winner) : t("no_champion"));
  return parts.join(" · ");
}

/** The big number of a table as its sheet names it: the match, and with duplicate its table. */
function tableNumber(t) {
  const p = parseTableId(t.id);
  if (!p) return "";
  return ev.duplicate ? `${p.match}-${p.table}` : String(p.match);
}

/** What the sheets call a table (第 2 场 · 1 号桌), a line a part under its number. */
function tableWords(tb) {
  const p = parseTableId(tb.id);
  if (!p) return [];
  return ev.duplicate ? [t("match_n", p.match), t("table_n", p.table)] : [tableLabel(tb.id, false)];
}

/** "1 张三 3 李四 5 王五": a team's players by seat (1…6, as the sheets number them). */
function playersLine(names, side) {
  return [0, 1, 2].map((k) =>
    el("span", { class: "wall-seat" }, el("b", null, String(2 * k + side + 1)), " ", names[2 * k + side]),
  );
}

function tableRow(tb, m) {
  const names = seatPlayers(ev, tb);
  const games = tb.games || [];
  const sums = [0, 0];
  for (const g of games) for (const k of [0, 1]) sums[k] += Number(g.team_scores[k]) || 0;
  const done = tb.done || (m && matchDone(ev, m));
  const winner = m && m.winner;
  const side = (k) =>
    el(
      "div",
      { class: "wall-team" + (k ? " b" : " a") + (done && winner === tb.teams[k] ? " win" : "") + (done && winner && winner !== tb.teams[k] ? " lost" : "") },
      el("div", { class: "wall-team-name" }, tb.teams[k]),
      el("div", { class: "wall-players" }, playersLine(names, k)),
    );
  let note;
  if (winner && done) note = t("won_by", winner);
  else if (done) note = t("draw_result");
  else if (games.length || tb.needed) note = t("games_done", games.length, tb.needed || ev.games || 0);
  else note = "";
  return el(
    "div",
    { class: "wall-row" + (done ? " done" : ""), dataset: { table: tb.id } },
    el(
      "div",
      { class: "wall-no" },
      el("div", { class: "wall-no-big" }, tableNumber(tb)),
      ...tableWords(tb).map((x) => el("div", { class: "wall-no-label" }, x)),
    ),
    side(0),
    el(
      "div",
      { class: "wall-score" },
      el("div", { class: "wall-score-big" }, games.length ? `${num(sums[0])} : ${num(sums[1])}` : t("vs")),
      el("div", { class: "wall-note" }, note),
    ),
    side(1),
  );
}

/** The round's tables on the wall; pages of them when they do not fit. */
function tablesPanel() {
  const round = ev.round || 0;
  const box = $("tables-box");
  if (!round) {
    const names = teamNames(ev);
    $("tables-h").textContent = t("wall_no_round");
    box.className = "wall-rows wall-teams-list" + (names.length > 24 ? " many" : names.length > 12 ? " some" : "");
    patch(box, [
      el("p", { class: "wall-count" }, t("wall_teams", names.length)),
      el("ol", { class: "wall-registered" }, ...names.map((n) => el("li", null, n))),
    ]);
    $("wall-byes").classList.add("hidden");
    $("wall-page").classList.add("hidden");
    pages = 1;
    return;
  }
  $("tables-h").textContent = t("wall_round", round);
  const matches = (ev.rounds || [])[round - 1] || [];
  const byMatch = new Map(matches.map((m) => [m.id, m]));
  const tables = tablesOf(ev)
    .filter((t) => t.round === round)
    .sort((a, b) => {
      const p = parseTableId(a.id);
      const q = parseTableId(b.id);
      return p.match - q.match || p.table - q.table;
    });
  const byes = matches.filter((m) => m.bye).map((m) => m.teams[0]);
  $("wall-byes").textContent = byes.length ? t("wall_byes", byes.join(t("sep"))) : "";
  $("wall-byes").classList.toggle("hidden", !byes.length);
  const n = tables.length;
  const rowOf = (t) => tableRow(t, byMatch.get(String(t.id).replace(/t\d+$/, "")));
  const overflows = () => box.scrollHeight > box.clientHeight + 1;
  /** Show `per` tables a page in `size`; whether they fit. */
  const show = (size, per) => {
    pages = Math.max(1, Math.ceil(n / per));
    const p = turn % pages;
    $("wall-page").textContent = pages > 1 ? t("wall_page", p + 1, pages) : "";
    $("wall-page").classList.toggle("hidden", pages <= 1);
    box.className = "wall-rows " + size + (ev.duplicate ? " dup" : "");
    const count = Math.max(1, Math.min(n, per));
    box.style.setProperty("--rows", String(size.startsWith("roomy") ? count : Math.ceil(count / 2)));
    patch(box, tables.slice(p * per, p * per + per).map(rowOf));
    return !overflows();
  };
  // the biggest print that shows every table; else the smallest, a page at a time
  const sizes = ["roomy few", "roomy", "two", "dense"];
  let k = n <= 4 ? 0 : n <= 8 ? 1 : 2;
  while (!show(sizes[k], n || 1) && k < sizes.length - 1) k += 1;
  if (n > 1 && overflows()) {
    $("wall-page").textContent = t("wall_page", 1, 2); // its line takes its room first
    $("wall-page").classList.remove("hidden");
    const row = box.firstElementChild;
    const gap = parseFloat(getComputedStyle(box).rowGap) || 0;
    const fit = Math.max(1, Math.floor((box.clientHeight + gap) / (row.offsetHeight + gap)));
    show("dense", 2 * fit);
  }
}

// ------------------------------------------------------------------ standings
function standingsPanel() {
  const rows = ev.standings || [];
  const most = clock.clock ? 6 : 10;
  const box = $("standings-box");
  if (!rows.length) {
    patch(box, [el("p", { class: "wall-muted" }, t("no_teams"))]);
    return;
  }
  const head = el("tr", null, ...["col_place", "col_team", "col_points", "col_score"].map((k) => el("th", { scope: "col" }, t(k))));
  const body = rows.slice(0, most).map((r, i) =>
    el(
      "tr",
      { class: r.disqualified ? "dq" : i === 0 && ev.status === "over" ? "first" : null },
      el("td", { class: "num" }, String(r.place || i + 1)),
      el("td", { class: "team" }, r.team),
      el("td", { class: "num" }, num(r.points)),
      el("td", { class: "num" }, num(r.score)),
    ),
  );
  const nodes = [el("table", { class: "wall-table", id: "standings" }, el("thead", null, head), el("tbody", null, body))];
  if (rows.length > most) nodes.push(el("p", { class: "wall-muted" }, t("wall_more", rows.length)));
  patch(box, nodes);
}

// ------------------------------------------------------------------ the clock
let clockShown = "";

function tick() {
  const left = ev && ev.status !== "over" ? clock.left() : null;
  const text = left === null ? "" : left > 0 ? clockText(left) : t("time_up");
  const state = left === null ? "none" : left === 0 ? "up" : left <= 300 ? "low" : "run";
  const key = `${getLang()}|${text}|${state}`;
  if (key === clockShown) return;
  clockShown = key;
  const panel = $("clock-panel");
  panel.classList.toggle("hidden", left === null);
  panel.dataset.state = state;
  $("clock").textContent = text;
  $("clock-label").textContent = t("clock_left");
}

// ------------------------------------------------------------------ the page
function render() {
  applyStatic();
  if (!ev) return;
  document.title = t("wall_title", ev.name);
  $("wall-name").textContent = ev.name;
  $("wall-status").textContent = statusLine();
  $("wall-status").dataset.status = ev.status || "registering";
  tablesPanel();
  standingsPanel();
  clockShown = "";
  tick();
}


function turnPage() {
  if (ev && pages > 1) {
    turn += 1;
    tablesPanel();
  }
}

function qr() {
  const url = `${location.origin}/e/${code}`;
  $("qr").src = `/api/events/${encodeURIComponent(code)}/qr.svg`;
  $("qr").alt = url;
  $("qr-url").textContent = url.replace(/^https?:\/\//, "");
}

$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = { get event() { return ev; }, get reads() { return reads; }, clock };
applyStatic();
qr();
pollEvent(
  () => clock.load(code),
  $("wall-error"),
  POLL_MS,
  (data) => {
    ev = data;
    setDuplicate(data.duplicate);
    render();
  },
  () => {
    reads += 1;
  },
);
setInterval(tick, 250);
setInterval(turnPage, PAGE_MS);
let resized = 0;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(render, 200);
});

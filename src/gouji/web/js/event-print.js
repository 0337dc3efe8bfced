// Printable standings and score sheets (/e/{code}/print?round=N): one sheet per table of the
// round (players by seat 1…6 and, for a duplicate team of six, the trio that sits there; a row
// per game with each player's place, the items the rule set scores, the 罚分 and the team
// scores; a knockout's sheet has rows for the extra games a tie may need, R17.3; totals, the
// match's result — 抽签决定, 弃权 —, signatures of the referee and both captains). For the
// organiser of a real-card event (the key remembered in this browser), the round's hand records
// (牌谱, ?view=boards): one page per match, every game's six hands in taking order. The
// browser's print leaves out the buttons (@media print in event.css).
import { applyStatic, getLang, placeName, setLang, t } from "./i18n.js";
import { el } from "./common.js";
import { presetInfo } from "./presets.js";
import { api, eventCode, loadEvent, loadKey, seatPlayers, tablesOf } from "./event-api.js";
import { articleText, num, parseTableId, sanctionText, setDuplicate, sheetItems, tableLabel } from "./event-words.js";
import {
  eventFacts,
  matchOutcomeText,
  matchScoreText,
  pair,
  resetOf,
  seatsLine,
  standingsTable,
  statusText,
  tableSums,
  teamName,
  trioOf,
} from "./event-view.js";

const $ = (id) => document.getElementById(id);
const code = eventCode();
const base = `/api/events/${encodeURIComponent(code)}`;
const MAX_EXTRA = 5; // a knockout tie adds games until five more are tied, then the lot (R17.3, D55)
let ev = null;
let organiser = false; // the key remembered here is the organiser's (hand records offered)
const boards = new Map(); // round → the hand records of GET …/boards, once fetched

function asked() {
  return new URLSearchParams(location.search);
}

function chosenRound() {
  const n = Number(asked().get("round"));
  const last = (ev.rounds || []).length;
  return n >= 1 && n <= last ? n : ev.round || last;
}

function boardsView() {
  return asked().get("view") === "boards" && organiser && ev.mode === "paper";
}

/** The match of a table (its JSON's `match` id) in the event's rounds. */
function matchOf(t) {
  for (const r of ev.rounds || []) for (const m of r) if (m.id === t.match || String(t.id).startsWith(m.id + "t")) return m;
  return null;
}

/** What a game's sheet says besides places: 不开点, 闷 and burns, by player name. */
function itemsText(g, names) {
  const out = [];
  const sheet = g.sheet || g;
  for (const s of sheet.not_opened || []) out.push(`${names[s]} ${t("not_opened")}`);
  for (const s of sheet.men || []) out.push(`${names[s]} ${t("men")}`);
  for (const [b, v] of sheet.burns || []) out.push(`${t("burns")} ${names[b]} → ${names[v]}`);
  return out.join(t("sep"));
}

/** A game's penalty points by seat, as the sheet numbers seats: "2号位 −2". */
function penaltiesText(g) {
  return (g.penalties || []).map((p) => t("seat_pen", Number(p.seat) + 1, num(p.points))).join(t("sep"));
}

function sheet(tb, round) {
  const names = seatPlayers(ev, tb);
  const m = matchOf(tb);
  const walkover = !!(m && (m.walkover || []).length);
  const items = sheetItems(ev.preset).length > 0;
  const games = tb.games || [];
  const regular = ev.games || 0;
  // a knockout table still playing gets a row for each extra game a tie may need, left blank
  const extra = ev.format === "knockout" && !tb.done ? MAX_EXTRA : 0;
  const rows = walkover ? 0 : Math.max(games.length, tb.needed || 0, regular + extra);
  const trios = [trioOf(ev, tb, 0), trioOf(ev, tb, 1)];
  const seatHead = names.map((n, seat) =>
    el("th", { class: seat % 2 ? "tb" : "ta" }, el("div", { class: "seat-no" }, String(seat + 1)), el("div", null, n)),
  );
  const head = el(
    "tr",
    null,
    el("th", null, t("col_game")),
    ...seatHead,
    items ? el("th", null, t("col_items")) : null,
    el("th", null, t("penalties")),
    el("th", { class: "ta" }, tb.teams[0]),
    el("th", { class: "tb" }, tb.teams[1]),
  );
  const body = [];
  for (let i = 0; i < rows; i++) {
    const g = games[i];
    const isExtra = i >= regular;
    body.push(
      el(
        "tr",
        { class: (g ? "filled" : "blank") + (isExtra ? " extra" : ""), dataset: { game: String(i) } },
        el("td", { class: "num" }, String(i + 1), isExtra ? el("div", { class: "ev-extra" }, t("extra_game")) : null),
        ...names.map((_, seat) => el("td", null, g ? placeName((g.places || [])[seat]) : "")),
        items ? el("td", { class: "items" }, g ? itemsText(g, names) : "") : null,
        el("td", { class: "items pen-cell" }, g ? penaltiesText(g) : ""),
        el("td", { class: "num" }, g ? num(g.team_scores[0]) : ""),
        el("td", { class: "num" }, g ? num(g.team_scores[1]) : ""),
      ),
    );
  }
  const span = String(1 + 6 + (items ? 1 : 0) + 1);
  const whole = tableSums(tb, null);
  const reset = resetOf(ev, tb);
  const totals = [
    el(
      "tr",
      { class: "total" },
      el("th", { colspan: span }, t("col_total")),
      el("td", { class: "num" }, games.length ? num(whole[0]) : ""),
      el("td", { class: "num" }, games.length ? num(whole[1]) : ""),
    ),
  ];
  if (reset) {
    // after a tie the totals restart (R17.3): what decides the match is counted from here
    const since = tableSums(tb, null, reset);
    totals.push(
      el(
        "tr",
        { class: "total since" },
        el("th", { colspan: span }, t("since_game", reset + 1)),
        el("td", { class: "num" }, num(since[0])),
        el("td", { class: "num" }, num(since[1])),
      ),
    );
  }
  const decided = m && (games.length || walkover || m.winner || tb.done);
  const result = decided
    ? el(
        "p",
        { class: "sheet-result" + (m.by_lot ? " lot" : "") },
        el("b", null, t("match_result")),
        walkover ? null : [matchScoreText(ev, m), " · "],
        matchOutcomeText(ev, m),
      )
    : null;
  const sanctions = (ev.sanctions || []).filter((s) => s.table === tb.id);
  const team = (seat) =>
    el("span", { class: "tag " + (seat % 2 ? "team-b" : "team-a") }, tb.teams[seat % 2]);
  const p = parseTableId(tb.id);
  return el(
    "section",
    { class: "sheet-page", dataset: { table: tb.id } },
    el(
      "header",
      { class: "sheet-head" },
      el("h2", null, t("sheet_title"), " · ", ev.name),
      el(
        "p",
        null,
        t("round_n", round),
        " · ",
        m && m.third_place ? [el("b", { class: "ev-third" }, t("third_place")), " · "] : null,
        tableLabel(tb.id, !!ev.duplicate),
        " · ",
        t(presetInfo(ev.preset).name),
      ),
      el("p", { class: "sheet-teams" }, teamName(ev, tb.teams[0], m), ` ${t("vs")} `, teamName(ev, tb.teams[1], m)),
      ev.duplicate || trios[0] || trios[1]
        ? el("p", { class: "sheet-trios" }, (ev.duplicate && p ? t("table_n", p.table) + " · " : ""), seatsLine(ev, tb))
        : null,
    ),
    el(
      "table",
      { class: "ev-table seats-table" },
      el(
        "thead",
        null,
        el(
          "tr",
          null,
          el("th", null, t("col_seat")),
          el("th", null, t("col_player")),
          el("th", null, t("col_team")),
          trios[0] || trios[1] ? el("th", null, t("col_trio")) : null,
        ),
      ),
      el(
        "tbody",
        null,
        ...names.map((n, seat) =>
          el(
            "tr",
            null,
            el("td", { class: "num" }, String(seat + 1)),
            el("td", null, n),
            el("td", null, team(seat)),
            trios[0] || trios[1] ? el("td", null, trios[seat % 2]) : null,
          ),
        ),
      ),
    ),
    walkover
      ? null
      : el("div", { class: "sheet-scroll" }, el("table", { class: "ev-table sheet-table" }, el("thead", null, head), el("tbody", null, ...body, ...totals))),
    extra ? el("p", { class: "sheet-rule" }, t("extra_rule")) : null,
    result,
    sanctions.length
      ? el(
          "div",
          { class: "sheet-sanctions" },
          el("h3", null, t("sanctions_h")),
          el(
            "ul",
            null,
            ...sanctions.map((s) =>
              el("li", null, `${s.player} · ${s.team} · ${sanctionText(s)}`, s.article ? ` — ${articleText(s.article)}` : ""),
            ),
          ),
        )
      : null,
    el(
      "div",
      { class: "signatures" },
      el("div", { class: "sig" }, el("span", null, t("referee")), el("span", { class: "line" })),
      el("div", { class: "sig" }, el("span", null, t("captain_of", tb.teams[0])), el("span", { class: "line" })),
      el("div", { class: "sig" }, el("span", null, t("captain_of", tb.teams[1])), el("span", { class: "line" })),
    ),
  );
}

// ------------------------------------------------------------------ hand records (牌谱)
const SUITS = ["S", "H", "D", "C"];
const SUIT_MARK = { S: "♠", H: "♥", D: "♦", C: "♣" };
const HIGH_FIRST = ["2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"]; // 2 ranks above A

/** A hand as players write it: per suit its ranks high to low (10 for T), and the jokers
 * (大王 first). Card codes are rank + suit letter, "SJ" and "LJ" the jokers. */
function handCells(hand) {
  const bySuit = Object.fromEntries(SUITS.map((s) => [s, []]));
  const jokers = [];
  for (const c of hand) {
    if (c === "LJ" || c === "SJ") jokers.push(c);
    else if (bySuit[c.slice(-1)]) bySuit[c.slice(-1)].push(c.slice(0, -1));
  }
  const ranks = (list) =>
    list
      .sort((a, b) => HIGH_FIRST.indexOf(a) - HIGH_FIRST.indexOf(b))
      .map((r) => (r === "T" ? "10" : r))
      .join(" ");
  jokers.sort((a, b) => (a === b ? 0 : a === "LJ" ? -1 : 1));
  return [
    ...SUITS.map((s) => ranks(bySuit[s])),
    jokers.map((j) => t(j === "LJ" ? "big_joker" : "small_joker")).join(" "),
  ];
}

function boardBlock(b) {
  const head = el(
    "tr",
    null,
    el("th", null, ""),
    ...SUITS.map((s) => el("th", { class: "suit s-" + s }, SUIT_MARK[s])),
    el("th", null, t("jokers")),
    el("th", { class: "num" }, t("cards_col")),
  );
  const rows = b.hands.map((hand, k) =>
    el(
      "tr",
      null,
      el("th", { scope: "row" }, t("hand_n", k + 1)),
      ...handCells(hand).map((text, i) => el("td", { class: i < 4 ? "ranks s-" + SUITS[i] : "ranks" }, text)),
      el("td", { class: "num" }, String(hand.length)),
    ),
  );
  return el(
    "div",
    { class: "board" + (b.extra ? " extra" : ""), dataset: { game: String(b.game) } },
    el("h3", null, t(b.extra ? "board_extra" : "board_game", b.game + 1)),
    el("table", { class: "ev-table board-table" }, el("thead", null, head), el("tbody", null, ...rows)),
  );
}

function boardsPage(rec, round) {
  const m = (ev.rounds[round - 1] || []).find((x) => x.id === rec.match);
  return el(
    "section",
    { class: "sheet-page boards-page", dataset: { match: rec.match } },
    el(
      "header",
      { class: "sheet-head" },
      el("h2", null, t("boards_h", ev.name)),
      el(
        "p",
        null,
        t("round_n", round),
        " · ",
        m && m.third_place ? [el("b", { class: "ev-third" }, t("third_place")), " · "] : null,
        tableLabel(rec.match, false),
        m ? [" · ", m.teams[0], ` ${t("vs")} `, m.teams[1]] : null,
        " · ",
        t(presetInfo(ev.preset).name),
      ),
      el("p", { class: "boards-how" }, t("boards_how"), rec.tables.length > 1 ? " " + t("boards_both") : ""),
      el("p", { class: "boards-secret" }, t("boards_secret")),
    ),
    ...rec.boards.map(boardBlock),
  );
}

async function renderBoards(round) {
  if (!boards.has(round)) {
    boards.set(round, null);
    try {
      boards.set(round, await api("GET", `${base}/boards?round=${round}`, undefined, loadKey(code)));
    } catch (e) {
      boards.delete(round);
      $("print-error").textContent = e.message;
      return;
    }
  }
  const rec = boards.get(round);
  if (!rec || chosenRound() !== round || !boardsView()) return;
  // a match decided by a walkover is not played: no boards to prepare for it
  const played = rec.matches.filter((x) => {
    const m = (ev.rounds[round - 1] || []).find((y) => y.id === x.match);
    return !(m && (m.walkover || []).length);
  });
  document.title = t("boards_title", ev.name);
  $("print-box").replaceChildren(
    ...(played.length ? played.map((x) => boardsPage(x, round)) : [el("p", { class: "card-panel muted" }, t("boards_none"))]),
  );
}

// ------------------------------------------------------------------ the page
function viewLink(view, round, label) {
  const q = `?round=${round}` + (view === "boards" ? "&view=boards" : "");
  const on = (view === "boards") === boardsView();
  return el("a", { class: "button small" + (on ? " primary" : ""), href: q, id: "view-" + view }, label);
}

function render() {
  applyStatic();
  $("xlsx").href = `${base}/export.xlsx?lang=${getLang() === "zh" ? "zh" : "en"}`;
  if (!ev) return;
  document.title = t("print_title", ev.name);
  const round = chosenRound();
  const view = boardsView() ? "&view=boards" : "";
  const picks = (ev.rounds || []).map((_, i) =>
    el("a", { class: "button small" + (i + 1 === round ? " primary" : ""), href: `?round=${i + 1}${view}` }, t("round_n", i + 1)),
  );
  $("round-picks").replaceChildren(...picks);
  const offer = organiser && ev.mode === "paper" && (ev.rounds || []).length > 0;
  $("views").replaceChildren(...(offer ? [viewLink("sheets", round, t("sheets_view")), viewLink("boards", round, t("boards_view"))] : []));
  if (boardsView()) {
    renderBoards(round);
    return;
  }
  const standings = el(
    "section",
    { class: "sheet-page standings-page" },
    el("h1", null, ev.name),
    el(
      "p",
      null,
      eventFacts(ev),
      " · ",
      el("b", { id: "print-status" }, statusText(ev)),
      ev.status === "over" && !ev.unfinished && ev.winner ? [" · ", el("b", { id: "print-champion" }, t("champion", ev.winner))] : null,
      ev.unfinished ? [" · ", el("span", { id: "print-unfinished" }, t("unfinished_note"))] : null,
    ),
    el("h2", null, t("standings_at")),
    standingsTable(ev),
  );
  const tables = tablesOf(ev).filter((t) => t.round === round);
  $("print-box").replaceChildren(standings, ...tables.map((t) => sheet(t, round)));
}

/** Whether the key remembered here is this event's organiser's (a referee's is not: the hand
 * records are the organiser's alone). */
async function checkOrganiser() {
  const key = loadKey(code);
  if (!key || ev.mode !== "paper") return false;
  try {
    const who = await api("GET", `${base}/access`, undefined, key);
    return who.role === "organiser";
  } catch (e) {
    return false;
  }
}

async function load() {
  try {
    ev = await loadEvent(code);
    setDuplicate(ev.duplicate);
    organiser = await checkOrganiser();
    render();
  } catch (e) {
    $("print-error").textContent = e.message;
  }
}

$("public-link").href = `/e/${code}`;
$("csv-standings").href = `${base}/standings.csv`;
$("csv-results").href = `${base}/results.csv`;
$("print").addEventListener("click", () => window.print());
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = {
  get event() {
    return ev;
  },
};
applyStatic();
render();
load();

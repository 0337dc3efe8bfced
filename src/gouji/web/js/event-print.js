// Printable standings and score sheets (/e/{code}/print?round=N): one sheet per table of the
// round (players by seat 1…6, a row per game with each player's place, the items the rule
// set scores and the team scores, penalties, totals, signatures of the referee and both
// captains). The browser's print leaves out the buttons (@media print in event.css).
import { getLang, placeName, setLang } from "./i18n.js";
import { el } from "./common.js";
import { pick, presetInfo } from "./presets.js";
import { eventCode, loadEvent, seatPlayers, tablesOf } from "./event-api.js";
import { applyWords, articleText, num, sanctionText, sheetItems, tableLabel, w } from "./event-words.js";
import { eventFacts, standingsTable, statusText } from "./event-view.js";

const $ = (id) => document.getElementById(id);
const code = eventCode();
let ev = null;

function chosenRound() {
  const asked = Number(new URLSearchParams(location.search).get("round"));
  const last = (ev.rounds || []).length;
  return asked >= 1 && asked <= last ? asked : ev.round || last;
}

/** What a game's sheet says besides places: 不开点, 闷 and burns, by player name. */
function itemsText(g, names) {
  const out = [];
  for (const s of g.not_opened || []) out.push(`${names[s]} ${w("not_opened")}`);
  for (const s of g.men || []) out.push(`${names[s]} ${w("men")}`);
  for (const [b, v] of g.burns || []) out.push(`${w("burns")} ${names[b]} → ${names[v]}`);
  return out.join(w("sep"));
}

/** A game's penalty points by team: "青岛队 −2". */
function penaltiesText(g, t) {
  return (g.penalties || []).map((p) => `${t.teams[Number(p.seat) % 2]} ${num(p.points)}`).join(w("sep"));
}

function sheet(t, round) {
  const names = seatPlayers(ev, t);
  const items = sheetItems(ev.preset).length > 0;
  const games = t.games || [];
  const rows = Math.max(games.length, t.needed || 0, ev.games || 0);
  const seatHead = names.map((n, seat) =>
    el("th", { class: seat % 2 ? "tb" : "ta" }, el("div", { class: "seat-no" }, String(seat + 1)), el("div", null, n)),
  );
  const head = el(
    "tr",
    null,
    el("th", null, w("col_game")),
    ...seatHead,
    items ? el("th", null, w("col_items")) : null,
    el("th", null, w("penalties")),
    el("th", { class: "ta" }, t.teams[0]),
    el("th", { class: "tb" }, t.teams[1]),
  );
  const sums = [0, 0];
  const body = [];
  for (let i = 0; i < rows; i++) {
    const g = games[i];
    if (g) for (const k of [0, 1]) sums[k] += Number(g.team_scores[k]) || 0;
    body.push(
      el(
        "tr",
        { class: g ? "filled" : "blank" },
        el("td", { class: "num" }, String(i + 1)),
        ...names.map((_, seat) => el("td", null, g ? placeName((g.places || [])[seat]) : "")),
        items ? el("td", { class: "items" }, g ? itemsText(g, names) : "") : null,
        el("td", { class: "items" }, g ? penaltiesText(g, t) : ""),
        el("td", { class: "num" }, g ? num(g.team_scores[0]) : ""),
        el("td", { class: "num" }, g ? num(g.team_scores[1]) : ""),
      ),
    );
  }
  const total = el(
    "tr",
    { class: "total" },
    el("th", { colspan: String(1 + 6 + (items ? 1 : 0) + 1) }, w("col_total")),
    el("td", { class: "num" }, games.length ? num(sums[0]) : ""),
    el("td", { class: "num" }, games.length ? num(sums[1]) : ""),
  );
  const sanctions = (ev.sanctions || []).filter((s) => s.table === t.id);
  const team = (seat) => el("span", { class: "tag " + (seat % 2 ? "team-b" : "team-a") }, t.teams[seat % 2]);
  return el(
    "section",
    { class: "sheet-page", dataset: { table: t.id } },
    el(
      "header",
      { class: "sheet-head" },
      el("h2", null, w("sheet_title"), " · ", ev.name),
      el("p", null, w("round_n", round), " · ", tableLabel(t.id, !!ev.duplicate), " · ", pick(presetInfo(ev.preset).name)),
    ),
    el(
      "table",
      { class: "ev-table seats-table" },
      el("thead", null, el("tr", null, el("th", null, w("col_seat")), el("th", null, w("col_player")), el("th", null, w("col_team")))),
      el(
        "tbody",
        null,
        ...names.map((n, seat) => el("tr", null, el("td", { class: "num" }, String(seat + 1)), el("td", null, n), el("td", null, team(seat)))),
      ),
    ),
    el("div", { class: "sheet-scroll" }, el("table", { class: "ev-table sheet-table" }, el("thead", null, head), el("tbody", null, ...body, total))),
    sanctions.length
      ? el(
          "div",
          { class: "sheet-sanctions" },
          el("h3", null, w("sanctions_h")),
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
      el("div", { class: "sig" }, el("span", null, w("referee")), el("span", { class: "line" })),
      el("div", { class: "sig" }, el("span", null, w("captain_of", t.teams[0])), el("span", { class: "line" })),
      el("div", { class: "sig" }, el("span", null, w("captain_of", t.teams[1])), el("span", { class: "line" })),
    ),
  );
}

function render() {
  applyWords();
  if (!ev) return;
  document.title = w("print_title", ev.name);
  const round = chosenRound();
  const picks = (ev.rounds || []).map((_, i) =>
    el("a", { class: "button small" + (i + 1 === round ? " primary" : ""), href: `?round=${i + 1}` }, w("round_n", i + 1)),
  );
  $("round-picks").replaceChildren(...picks);
  const standings = el(
    "section",
    { class: "sheet-page standings-page" },
    el("h1", null, ev.name),
    el("p", null, eventFacts(ev), " · ", statusText(ev)),
    el("h2", null, w("standings_at")),
    standingsTable(ev),
  );
  const tables = tablesOf(ev).filter((t) => t.round === round);
  $("print-box").replaceChildren(standings, ...tables.map((t) => sheet(t, round)));
}

async function load() {
  try {
    ev = await loadEvent(code);
    render();
  } catch (e) {
    $("print-error").textContent = e.message;
  }
}

$("public-link").href = `/e/${code}`;
$("csv-standings").href = `/api/events/${encodeURIComponent(code)}/standings.csv`;
$("csv-results").href = `/api/events/${encodeURIComponent(code)}/results.csv`;
$("print").addEventListener("click", () => window.print());
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = { get event() { return ev; } };
applyWords();
load();

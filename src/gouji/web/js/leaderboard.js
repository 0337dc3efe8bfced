// The leaderboard (/leaderboard?preset=…, GET /api/leaderboard): one rule set's rated players
// with at least min_games games, best rating (mu − 3σ) first; the provisional ones marked.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { el, patch } from "./common.js";
import { call, playerUrl } from "./account-api.js";
import { renderAccountBox } from "./account-header.js";
import { ratingText, refusalWords } from "./account-words.js";
import { DEFAULT_PRESET, PRESETS } from "./presets.js";

const $ = (id) => document.getElementById(id);
const LISTED_GAMES = 5; // ratings.py, until the server's answer says
const PROVISIONAL_GAMES = 20;

const wanted = new URLSearchParams(location.search).get("preset");
let preset = PRESETS.some((p) => p.code === wanted) ? wanted : DEFAULT_PRESET;
let board = null; // the answer for `preset`
let failure = null;

function fillPresets() {
  const select = $("preset");
  select.textContent = "";
  for (const p of PRESETS) select.append(el("option", { value: p.code }, t(p.name)));
  select.value = preset;
}

function table(players) {
  const head = el(
    "tr",
    null,
    el("th", { scope: "col", class: "num" }, t("col_rank")),
    el("th", { scope: "col" }, t("account.col_player")),
    el("th", { scope: "col", class: "num" }, t("col_rating")),
    el("th", { scope: "col", class: "num" }, t("account.col_games")),
  );
  const rows = players.map((p) =>
    el(
      "tr",
      { class: "board-row" + (p.provisional ? " provisional" : ""), dataset: { name: p.name } },
      el("td", { class: "num rank" }, String(p.rank)),
      el(
        "td",
        { class: "name" },
        el("a", { href: playerUrl(p.name) }, p.name),
        p.provisional ? el("span", { class: "tag provisional" }, t("provisional")) : null,
      ),
      el("td", { class: "num rating" }, ratingText(p.ordinal)),
      el("td", { class: "num" }, String(p.games)),
    ),
  );
  return el("div", { class: "scroll-x" }, el("table", { class: "ev-table ranking-table", id: "board" }, el("thead", null, head), el("tbody", null, rows)));
}

function render() {
  applyStatic();
  renderAccountBox();
  document.title = t("board_title");
  fillPresets();
  const least = board ? board.min_games : LISTED_GAMES;
  $("board-rule").textContent = t("board_rule", least, board ? board.provisional_below : PROVISIONAL_GAMES);
  $("board-error").textContent = failure ? refusalWords(failure) : "";
  if (board === null) {
    patch($("board-box"), failure ? [] : [el("p", { class: "muted" }, t("loading"))]);
  } else if (!board.players.length) {
    patch($("board-box"), [el("p", { class: "muted board-empty", id: "board-empty" }, t("board_empty", least))]);
  } else {
    patch($("board-box"), [table(board.players)]);
  }
}

async function load() {
  const asking = preset;
  try {
    const answer = await call("GET", "/api/leaderboard?preset=" + encodeURIComponent(asking));
    if (asking !== preset) return; // another rule set was chosen meanwhile
    board = answer;
    failure = null;
  } catch (e) {
    if (asking !== preset) return;
    failure = e;
  }
  render();
}

$("preset").addEventListener("change", () => {
  preset = $("preset").value;
  board = null;
  history.replaceState(null, "", "?preset=" + encodeURIComponent(preset));
  render();
  load();
});
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = {
  get board() {
    return board;
  },
};
render();
load();

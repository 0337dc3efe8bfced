// A player's page (/players/NAME, GET /api/players/NAME): per rule set the games, how often
// each place, 胜/平/负, 开点, burns, 闷, 串三户, and the rating with its history drawn as a
// small SVG chart; then the latest games with links to their replays.
import { applyStatic, getLang, placeName, setLang, t } from "./i18n.js";
import { el, patch } from "./common.js";
import { call } from "./account-api.js";
import { renderAccountBox } from "./account-header.js";
import { ratingText, refusalWords, when } from "./account-words.js";
import { presetInfo, PRESETS } from "./presets.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const NEW_MU = 25; // ratings.py: a new player (openskill's defaults)
const NEW_SIGMA = 25 / 3;
const PROVISIONAL_GAMES = 20; // ratings.PROVISIONAL_GAMES

const asked = (() => {
  const raw = location.pathname.replace(/^\/players\//, "").replace(/\/$/, "");
  try {
    return decodeURIComponent(raw);
  } catch (e) {
    return raw; // a malformed address: asked as it is (the server says there is no such player)
  }
})();
let player = null; // the answer
let missing = false; // 404
let failure = null; // another refusal

function presetName(code) {
  return PRESETS.some((p) => p.code === code) ? t(presetInfo(code).name) : String(code);
}

function percent(n, of) {
  return of > 0 ? Math.round((100 * n) / of) + "%" : "—";
}

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  for (const c of children) if (c) e.append(c);
  return e;
}

/** The rating (mu − 3σ) after each rated game, from the new player's 0 where the history
 * starts at the first game, as an SVG line with its lowest and highest values marked. */
function chart(rating) {
  const points = rating.history.map((h) => Number(h.mu) - 3 * Number(h.sigma));
  const fromStart = rating.history.length === rating.games;
  if (fromStart) points.unshift(NEW_MU - 3 * NEW_SIGMA);
  if (points.length < 2) return null;
  const W = 320;
  const H = 110;
  const left = 34;
  const right = 8;
  const top = 10;
  const bottom = 18;
  const low = Math.min(...points);
  const high = Math.max(...points);
  const pad = Math.max(0, 2 - (high - low)) / 2; // a flat line is drawn in the middle
  const lo = low - pad;
  const hi = high + pad;
  const x = (i) => left + ((W - left - right) * i) / (points.length - 1);
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo);
  const d = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const last = points.length - 1;
  const first = fromStart ? 0 : rating.games - rating.history.length;
  const label = (tx, ty, text, anchor, cls) =>
    svg("text", { x: tx, y: ty, "text-anchor": anchor, class: cls || "chart-text" }, text);
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": t("chart_label") },
    svg("line", { x1: left, y1: y(high), x2: W - right, y2: y(high), class: "chart-grid" }),
    svg("line", { x1: left, y1: y(low), x2: W - right, y2: y(low), class: "chart-grid" }),
    label(left - 4, y(high) + 3.5, ratingText(high), "end"),
    high - low >= 0.05 ? label(left - 4, y(low) + 3.5, ratingText(low), "end") : null,
    label(left, H - 3, fromStart ? t("chart_start") : t("chart_games", first), "start"),
    label(W - right, H - 3, t("chart_games", first + last), "end"),
    svg("path", { d, class: "chart-line" }),
    svg("circle", { cx: x(last), cy: y(points[last]), r: 3.5, class: "chart-dot" }),
  );
}

function ratingBlock(r) {
  if (!r) return el("p", { class: "muted no-rating" }, t("no_rating"));
  const head = el(
    "div",
    { class: "rating-head" },
    el("span", { class: "rating-value" }, t("rating_line", ratingText(r.ordinal))),
    r.provisional ? el("span", { class: "tag provisional", title: t("provisional_hint", PROVISIONAL_GAMES) }, t("provisional")) : null,
    el("span", { class: "muted rating-games" }, t("rated_games", { count: r.games, 0: r.games })),
  );
  const small = el("div", { class: "rating-range" }, t("rating_range", ratingText(r.mu), ratingText(3 * r.sigma)));
  const drawn = chart(r);
  return el("div", { class: "rating-block" }, head, small, drawn ? el("div", { class: "chart-box" }, drawn) : null);
}

function placeBars(p) {
  const most = Math.max(1, ...p.places);
  return el(
    "div",
    { class: "place-bars" },
    p.places.map((n, i) =>
      el(
        "div",
        { class: "place-row place-" + (i + 1) },
        el("span", { class: "place-name" }, placeName(i + 1)),
        el("span", { class: "place-track" }, el("span", { class: "place-bar", style: `width: ${((100 * n) / most).toFixed(1)}%` })),
        el("span", { class: "place-count" }, String(n)),
        el("span", { class: "place-pct muted" }, percent(n, p.games)),
      ),
    ),
  );
}

function fact(key, value, extra) {
  return [el("dt", null, t(key)), el("dd", null, value, extra ? el("small", { class: "muted" }, " " + extra) : null)];
}

function presetSection(p) {
  const opened = t(p.dian_games === 1 ? "open_line_1" : "open_line", p.opened, p.dian_games);
  const facts = el(
    "dl",
    { class: "facts" },
    fact("results", t("result_line", p.won, p.drawn, p.lost), t("win_rate", percent(p.won, p.games))),
    fact("open_rate", p.dian_games > 0 ? percent(p.opened, p.dian_games) : "—", p.dian_games > 0 ? opened : null),
    fact("burns", t("burns_line", p.burns, p.burned)),
    fact("account.men", t("men_line", { count: p.men, 0: p.men })),
    fact("chuan", t("chuan_line", p.chuan_for, p.chuan_against)),
  );
  return el(
    "section",
    { class: "card-panel preset-panel", dataset: { preset: p.preset } },
    el("h2", null, el("span", null, presetName(p.preset)), el("span", { class: "muted games-n" }, t("account.games_n", { count: p.games, 0: p.games }))),
    el(
      "div",
      { class: "preset-body" },
      el("div", { class: "preset-rating" }, ratingBlock(p.rating)),
      el("div", { class: "preset-stats" }, el("h3", null, t("places")), placeBars(p), facts),
    ),
  );
}

function outcomeWord(o) {
  return o > 0 ? t("won") : o < 0 ? t("lost") : t("drawn");
}

function recentSection(recent) {
  if (!recent.length) return null;
  const cols = [
    ["col_when", "when"],
    ["account.col_preset", "wide"],
    ["col_seat", "num wide"],
    ["col_place", null],
    ["col_result", null],
    ["account.col_points", "num wide"],
    ["col_replay", null],
  ];
  const head = el("tr", null, cols.map(([k, cls]) => el("th", { scope: "col", class: cls }, t(k))));
  const rows = recent.map((g) =>
    el(
      "tr",
      { class: "game-row", dataset: { room: g.room, game: String(g.game) } },
      el("td", { class: "when" }, when(g.finished, true, true)),
      el("td", { class: "wide" }, presetName(g.preset), g.rated ? el("span", { class: "tag rated" }, t("rated_tag")) : null),
      el("td", { class: "num wide" }, t("account.seat_n", g.seat)),
      el("td", { class: "place" }, placeName(g.place)),
      el("td", { class: "outcome o" + Math.sign(g.outcome) }, outcomeWord(g.outcome)),
      el("td", { class: "num wide" }, String(g.points)),
      el("td", null, el("a", { class: "replay-link", href: /^\/replay\/[A-Za-z0-9]+\/\d+$/.test(g.replay) ? g.replay : "#" }, t("replay"))),
    ),
  );
  return el(
    "section",
    { class: "card-panel", id: "recent-panel" },
    el("h2", null, t("recent_h")),
    el("div", { class: "scroll-x" }, el("table", { class: "ev-table recent-table", id: "recent" }, el("thead", null, head), el("tbody", null, rows))),
  );
}

function render() {
  applyStatic();
  renderAccountBox();
  const shown = player ? player.name : asked;
  document.title = t("player_title", shown);
  let nodes;
  if (missing) {
    document.title = t("no_player_h");
    nodes = [el("section", { class: "card-panel", id: "no-player" }, el("h2", null, t("no_player_h")), el("p", null, t("no_player", asked)))];
  } else if (failure) {
    nodes = [el("p", { class: "error", id: "player-error", role: "alert" }, refusalWords(failure))];
  } else if (!player) {
    nodes = [el("p", { class: "muted loading" }, t("loading"))];
  } else {
    const head = el(
      "section",
      { class: "card-panel player-head" },
      el("h1", { id: "player-name" }, player.name),
      el("p", { class: "muted" }, t("since", when(player.since)), " · ", t("games_total", { count: player.games, 0: player.games })),
    );
    nodes = [head];
    if (!player.games) nodes.push(el("p", { class: "card-panel muted", id: "no-games" }, t("no_games")));
    nodes.push(...player.presets.map(presetSection));
    const recent = recentSection(player.recent);
    if (recent) nodes.push(recent);
  }
  patch($("player-box"), nodes);
}

async function load() {
  try {
    player = await call("GET", "/api/players/" + encodeURIComponent(asked));
  } catch (e) {
    if (e.status === 404) missing = true;
    else failure = e;
  }
  render();
}

$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = {
  get player() {
    return player;
  },
  get done() {
    return player !== null || missing || failure !== null;
  },
};
render();
load();

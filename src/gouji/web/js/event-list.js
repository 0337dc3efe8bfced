// The server's events (/events, from GET /api/events): the newest first, each with its
// format, rule set, play, status and teams, and links to its public page and its wall page.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { el, patch } from "./common.js";
import { presetInfo } from "./presets.js";
import { api } from "./event-api.js";
import { statusText } from "./event-view.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 15000;
let events = null;

/** When an event was created, as the page's language writes a date and time. */
function when(epoch) {
  const d = new Date(Number(epoch) * 1000);
  if (Number.isNaN(d.getTime())) return "";
  const locale = getLang() === "zh" ? "zh-CN" : "en-GB";
  return d.toLocaleString(locale, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

function row(e) {
  const code = String(e.code || "").replace(/[^A-Za-z0-9]/g, "");
  return el(
    "tr",
    { dataset: { code } },
    el("td", { class: "name" }, el("a", { href: `/e/${code}` }, String(e.name || ""))),
    el("td", { class: "wide" }, t("fmt_" + e.format)),
    el("td", { class: "wide" }, t(presetInfo(e.preset).name)),
    el("td", { class: "wide" }, t(e.mode === "paper" ? "mode_paper" : "mode_online")),
    el("td", { class: "st" }, statusText(e)),
    el("td", { class: "num" }, String(Number(e.teams) || 0)),
    el("td", { class: "wide" }, when(e.created)),
    el("td", { class: "go" }, el("a", { class: "button small wall", href: `/e/${code}/wall` }, t("wall_link"))),
  );
}

function render() {
  applyStatic();
  document.title = t("list_title");
  if (events === null) return;
  if (!events.length) {
    patch($("list-box"), [el("p", { class: "muted", id: "list-none" }, t("list_none"))]);
    return;
  }
  const cols = ["col_event", "col_format", "col_preset", "col_mode", "col_status", "col_teams", "col_created", null];
  const head = el("tr", null, ...cols.map((k, i) => el("th", { scope: "col", class: [1, 2, 3, 6].includes(i) ? "wide" : k === "col_teams" ? "num" : null }, k ? t(k) : "")));
  const table = el("table", { class: "ev-table ev-list", id: "event-list" }, el("thead", null, head), el("tbody", null, events.map(row)));
  patch($("list-box"), [el("div", { class: "scroll-x" }, table)]);
}

async function load() {
  try {
    const data = await api("GET", "/api/events");
    events = Array.isArray(data.events) ? data.events : [];
    $("list-error").textContent = "";
  } catch (e) {
    $("list-error").textContent = e.status >= 500 || e.status === 0 ? t("list_failed") : e.message;
  }
  render();
}

$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = { get events() { return events; } };
applyStatic();
load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, POLL_MS);

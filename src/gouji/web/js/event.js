// The public page of an event (/e/{code}): the bracket or the pairings, the tables playing now
// with a link to watch, every game's result, the sanctions and the standings. It polls the
// event's JSON every few seconds and redraws what changed.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { patch } from "./common.js";
import { eventCode, loadEvent, loadKey, pollEvent } from "./event-api.js";
import { setDuplicate } from "./event-words.js";
import { bracket, eventHeader, liveTables, pairings, resultsOfRound, sanctionsList, standingsTable } from "./event-view.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;
const code = eventCode();
let ev = null;

function render() {
  applyStatic();
  $("xlsx").href = `/api/events/${encodeURIComponent(code)}/export.xlsx?lang=${getLang() === "zh" ? "zh" : "en"}`;
  if (!ev) return;
  document.title = t("public_title", ev.name);
  patch($("head"), [eventHeader(ev)]);
  patch($("live-box"), [liveTables(ev)]);
  $("live-panel").classList.toggle("hidden", ev.status !== "playing");
  const ko = ev.format === "knockout";
  $("rounds-h").textContent = t(ko ? "bracket_h" : "pairings_h");
  patch($("rounds-box"), [ko ? bracket(ev) : pairings(ev)]);
  const results = [];
  for (let r = (ev.rounds || []).length; r >= 1; r--) {
    const box = resultsOfRound(ev, r);
    if (box) results.push(box);
  }
  patch($("results-box"), results);
  $("results-panel").classList.toggle("hidden", !results.length);
  patch($("standings-box"), [standingsTable(ev)]);
  const sanctions = sanctionsList(ev);
  patch($("sanctions-box"), sanctions ? [sanctions] : []);
  $("sanctions-panel").classList.toggle("hidden", !sanctions);
  $("refresh").classList.toggle("hidden", ev.status === "over");
}


function links() {
  const base = `/api/events/${encodeURIComponent(code)}`;
  $("print-link").href = `/e/${code}/print`;
  $("wall-link").href = `/e/${code}/wall`;
  $("csv-standings").href = `${base}/standings.csv`;
  $("csv-results").href = `${base}/results.csv`;
  $("xlsx").href = `${base}/export.xlsx?lang=${getLang() === "zh" ? "zh" : "en"}`;
  $("admin-link").href = `/e/${code}/admin`;
  $("admin-link").classList.toggle("hidden", !loadKey(code));
}

$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = { get event() { return ev; } };
links();
applyStatic();
pollEvent(() => loadEvent(code), $("ev-error"), POLL_MS, (data) => {
  ev = data;
  setDuplicate(data.duplicate);
  render();
});

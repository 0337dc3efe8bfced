// The organiser's page of an event (/e/{code}/admin), and a referee's with a referee's key:
// register teams (substitutes, seeds), draw rounds (抽签), hand out the seat links of online
// tables or enter each game's sheet at real-card tables (previewed and confirmed, corrected or
// voided until the next round is drawn), sanctions, walkovers, 换人, referees' keys, the audit
// log, the round clock, the end. A referee sees its tables only. Every change carries an
// Idempotency-Key (event-desk.js); every refusal is shown in words.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { el, patch, toast } from "./common.js";
import { rememberEvent } from "./event-api.js";
import { setDuplicate, tableLabel } from "./event-words.js";
import { eventHeader, sanctionsList, standingsTable } from "./event-view.js";
import { RoundClock, clockText } from "./event-clock.js";
import {
  act,
  ask,
  busy,
  clearError,
  copy,
  desk,
  dropKey,
  hooks,
  matchesText,
  organiser,
  refusedWords,
  rememberedKeys,
  showError,
  useKey,
  write,
} from "./event-desk.js";
import { loadLinks, offendersBox, state as tableState, tablesPanel } from "./event-desk-tables.js";
import {
  addTeam,
  issueReferee,
  loadReferees,
  refereesPanel,
  rosterPanel,
  teamList,
  teamsPanel,
} from "./event-desk-teams.js";
import { loadLog, logPanel } from "./event-desk-log.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 4000;
const code = desk.code;
let shown = "";
let linksRound = 0;
const roundClock = new RoundClock(); // the round clock, counted on the server's time

// ------------------------------------------------------------------ reading the event
/** The event read again (and, for the organiser, the log and the seat links); the page
 * redrawn when anything changed. */
async function reload() {
  try {
    const data = await roundClock.load(code);
    const text = JSON.stringify({ ...data, now: null }); // the server's time changes every time
    if (desk.ev && (desk.ev.round || 0) !== (data.round || 0)) tableState.links = {};
    const changed = text !== shown;
    desk.ev = data;
    setDuplicate(data.duplicate);
    if (!desk.role && desk.key) await checkKey(desk.key);
    if (organiser()) {
      if (data.mode === "online" && data.round && linksRound !== data.round && (await loadLinks())) {
        linksRound = data.round;
        shown = "";
      }
      if (changed || shown === "") await loadLog();
    }
    if (text !== shown || shown === "") {
      shown = text;
      rememberEvent(code, data.name);
      render();
    }
  } catch (e) {
    showError(e);
  }
}

async function poll() {
  await reload();
  if (!desk.ev || desk.ev.status !== "over") setTimeout(poll, POLL_MS);
}

/** Redraw everything now (a write answered: the event, the log, the referees). */
async function refresh() {
  shown = "";
  await reload();
  if (organiser()) {
    await loadReferees();
    render(true);
  }
}

// ------------------------------------------------------------------ the key
/** Ask the server who `key` is; the page then acts with it (or forgets it when refused). */
async function checkKey(key) {
  try {
    await useKey(key);
    clearError(); // an older key refused a moment ago: this one is good
    if (organiser()) await loadReferees();
    return true;
  } catch (e) {
    if (e.status === 403) {
      desk.key = key;
      dropKey();
    }
    showError(e);
    return false;
  }
}

function showKey() {
  $("key-form").classList.toggle("hidden", !!desk.key);
  $("key-known").classList.toggle("hidden", !desk.key);
  $("key-show").value = desk.key;
  $("key-panel").classList.toggle("attention", !desk.key);
  const a = desk.access;
  $("key-title").textContent = a && a.role === "referee" ? t("ref_key_h", a.name, matchesText(a.matches)) : t("key_h");
  $("key-saved").textContent = t(a && a.role === "referee" ? "ref_key_saved" : "key_saved");
  $("page-title").textContent = desk.role === "referee" ? t("ref_page") : t("admin_link");
}

/** A key in the address (#key=…, a referee's link or the organiser's): taken, checked,
 * remembered, and removed from the address bar. */
function keyFromHash() {
  const m = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (!m) return "";
  history.replaceState(null, "", location.pathname);
  try {
    return decodeURIComponent(m[1]);
  } catch (e) {
    return "";
  }
}

async function start() {
  const fromHash = keyFromHash();
  for (const key of fromHash ? [fromHash] : rememberedKeys()) {
    desk.key = key;
    if (await checkKey(key)) break;
  }
  showKey();
  applyStatic();
  poll();
}

// ------------------------------------------------------------------ the draw
function drawPanel() {
  const ev = desk.ev;
  const st = ev.status || "registering";
  const can = (st === "registering" && (ev.teams || []).length >= 2) || st === "between_rounds";
  $("draw-panel").classList.toggle("hidden", st === "over" || !organiser());
  $("draw").textContent = t("draw", (ev.round || 0) + 1);
  $("draw").disabled = !can || busy("draw");
  $("draw-hint").textContent = can ? "" : st === "playing" ? t("draw_wait") : t("draw_need");
}

async function draw() {
  const data = await act("draw", "POST", "/rounds", {}, $("draw"));
  if (data) {
    tableState.links = {};
    linksRound = 0;
    await refresh();
  }
}

// ------------------------------------------------------------------ the end
/** The matches still open, in words: "第 2 场（青岛队 对 济南队）". */
function openMatches(ev) {
  const ids = Array.isArray(ev.open_matches) ? ev.open_matches : [];
  const round = (ev.rounds || [])[(ev.round || 0) - 1] || [];
  return ids
    .map((id) => round.find((m) => m && m.id === id))
    .filter(Boolean)
    .map((m) => t("close_match", tableLabel(m.id, false), m.teams[0], m.teams[1] === null ? t("bye") : m.teams[1]));
}

async function closeEvent() {
  clearError();
  const ev = desk.ev;
  const st = ev.status || "registering";
  const body = [];
  if (st === "playing") {
    const open = openMatches(ev);
    body.push(el("p", null, t("close_open", ev.round)), el("ul", { class: "close-open" }, ...open.map((x) => el("li", null, x))));
  } else if (st === "between_rounds") body.push(el("p", null, t("close_rounds_left", ev.round)));
  else body.push(el("p", null, t("close_not_started")));
  body.push(el("p", { class: "close-warn" }, t("close_unfinished")), el("p", { class: "hint" }, t("close_confirm")));
  const done = await ask({
    title: t("close_h"),
    body,
    ok: t("events.close"),
    danger: true,
    run: async () => {
      try {
        await write("close", "POST", "/close", {}, $("close"));
        return null;
      } catch (e) {
        return refusedWords(e);
      }
    },
  });
  if (done) await refresh();
}

function endedNote() {
  const ev = desk.ev;
  const over = ev.status === "over";
  $("ended-note").classList.toggle("hidden", !over);
  if (!over) return;
  $("ended-note").textContent = ev.unfinished ? t("ended_unfinished") : ev.winner ? t("ended_done", ev.winner) : t("ended_no_winner");
  $("ended-note").classList.toggle("unfinished", !!ev.unfinished);
}

// ------------------------------------------------------------------ the round clock
function clockPanel() {
  const ev = desk.ev;
  $("clock-panel").classList.toggle("hidden", !(ev.round > 0 && ev.status !== "over" && organiser()));
  $("clock-stop").classList.toggle("hidden", !ev.clock);
  $("clock-start").textContent = t(ev.clock ? "clock_restart" : "clock_start");
  clockTick();
}

/** The time left, said every second: "第 2 轮剩余 12:34", "时间到". */
function clockTick() {
  const ev = desk.ev;
  if (!ev) return;
  const left = ev.status === "over" ? null : roundClock.left();
  const round = ev.clock ? ev.clock.round : ev.round;
  const text = left === null ? t("clock_none") : left > 0 ? t("clock_running", round, clockText(left)) : t("clock_up", round);
  if ($("clock-now").textContent !== text) $("clock-now").textContent = text;
  $("clock-now").classList.toggle("up", left === 0);
}

async function startClock(e) {
  e.preventDefault();
  const raw = $("clock-minutes").value.trim();
  const minutes = Number(raw);
  if (!/^[0-9]{1,3}$/.test(raw) || minutes < 1 || minutes > 300) {
    $("admin-error").textContent = t("err_minutes");
    return;
  }
  const ok = await act("clock", "POST", "/clock", { minutes }, $("clock-start"));
  if (ok) toast(t("clock_started", minutes), "info", 2500, "event");
}

async function stopClock() {
  const ok = await act("clock", "POST", "/clock", { minutes: null }, $("clock-stop"));
  if (ok) toast(t("clock_stopped"), "info", 2500, "event");
}

// ------------------------------------------------------------------ the page
function render(keep) {
  if (keep !== true) applyStatic();
  showKey();
  const ev = desk.ev;
  if (!ev) return;
  document.title = t(desk.role === "referee" ? "ref_title" : "admin_title", ev.name);
  patch($("head"), [eventHeader(ev)]);
  endedNote();
  teamsPanel();
  rosterPanel();
  drawPanel();
  tablesPanel();
  patch($("standings-box"), [standingsTable(ev)]);
  const sanctions = sanctionsList(ev);
  const offenders = offendersBox();
  patch($("sanctions-box"), [offenders, sanctions].filter(Boolean));
  $("sanctions-panel").classList.toggle("hidden", !sanctions);
  $("close-panel").classList.toggle("hidden", ev.status === "over" || !organiser());
  $("close").disabled = busy("close");
  refereesPanel();
  logPanel();
  clockPanel();
}

hooks.reload = refresh;
hooks.render = render;
hooks.keyRefused = () => {
  dropKey();
  showKey();
  shown = "";
  render(true);
};

$("public-link").href = `/e/${code}`;
$("print-link").href = `/e/${code}/print`;
$("wall-link").href = `/e/${code}/wall`;
$("clock-form").addEventListener("submit", startClock);
$("clock-stop").addEventListener("click", stopClock);
setInterval(clockTick, 1000);
$("key-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  clearError();
  const key = $("key-input").value.trim();
  if (!key) return;
  $("key-save").disabled = true;
  desk.key = key;
  const ok = await checkKey(key);
  $("key-save").disabled = false;
  if (ok) $("key-input").value = "";
  showKey();
  shown = "";
  await reload();
});
$("key-copy").addEventListener("click", () => copy(desk.key));
$("key-forget").addEventListener("click", () => {
  dropKey();
  showKey();
  shown = "";
  render(true);
});
$("team-form").addEventListener("submit", addTeam);
$("team-bot").addEventListener("change", () => {
  $("team-bot-level").disabled = !$("team-bot").checked;
  teamsPanel();
});
$("ref-form").addEventListener("submit", issueReferee);
$("draw").addEventListener("click", draw);
$("close").addEventListener("click", closeEvent);
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = {
  get event() {
    return desk.ev;
  },
  get links() {
    return tableState.links;
  },
  get role() {
    return desk.role;
  },
  teams: () => (desk.ev ? teamList(desk.ev) : []),
};
start();

// Step-by-step replay of a finished game: GET /api/rooms/{code}/games/{i}/replay.
import { renderAnalysis, setupAnalysis } from "./analysis.js";
import { el, toast } from "./common.js";
import { SEATS, drawFelt, teamOf } from "./felt.js";
import { actionLabel, applyStatic, getLang, setLang, t } from "./i18n.js";
import { displayName, eventText, namer, setTeamNames } from "./words.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean); // ["replay", code, game]
const code = (parts[1] || "").toUpperCase();
const game = Number(parts[2] || 0);

const R = { steps: [], i: 0, timer: null, seats: [], event: false };

function infos() {
  return Array.from({ length: SEATS }, (_, s) => {
    const x = R.seats[s] || {};
    const bot = x.bot && !(R.event && x.name); // an event's bots play as its registered players
    const name = bot ? t("bot_name", s + 1) : x.name ? displayName(x.name) : t("seat_n", s + 1);
    return { name, title: x.name || "", bot: Boolean(x.bot) };
  });
}

function show() {
  applyStatic();
  $("replay-title").textContent = `${code} · ${t("game_n", game + 1)}`;
  $("back-table").textContent = t("room") + " " + code;
  $("back-table").href = "/r/" + code;
  const n = R.steps.length;
  if (!n) return;
  R.i = Math.max(0, Math.min(R.i, n - 1));
  const step = R.steps[R.i];
  const v = step.view;
  drawFelt($("felt"), v, infos(), { me: null, hands: v.hands || null });
  $("slider").max = String(n - 1);
  $("slider").value = String(R.i);
  $("step-label").textContent = t("step", R.i, n - 1);
  const who = step.seat === null || step.seat === undefined ? "" : infos()[step.seat].name;
  $("step-action").textContent = step.action ? `${who}${t("colon")}${actionLabel(step.action)}` : "—";
  $("play").textContent = R.timer ? t("pause") : t("playpause");
  const ol = $("log");
  ol.textContent = "";
  const ctx = { ...namer(infos().map((i) => i.name)), revolutionary: v.revolutionary };
  for (const e of v.events || []) {
    const text = eventText(e, ctx);
    if (text) ol.append(el("li", { class: e.seat === null ? "table" : "team-" + teamOf(e.seat) }, text));
  }
  ol.scrollTop = ol.scrollHeight;
  renderAnalysis();
}

function go(i) {
  R.i = i;
  show();
}

function toggle() {
  if (R.timer) {
    clearInterval(R.timer);
    R.timer = null;
  } else {
    if (R.i >= R.steps.length - 1) R.i = 0;
    R.timer = setInterval(() => {
      if (R.i >= R.steps.length - 1) {
        clearInterval(R.timer);
        R.timer = null;
        show();
        return;
      }
      go(R.i + 1);
    }, 700);
  }
  show();
}

/** The replay's steps; a busy server (503: replays computing) is asked again shortly. */
async function fetchReplay() {
  for (let tries = 0; ; tries++) {
    const r = await fetch(`/api/rooms/${code}/games/${game}/replay`);
    if (r.status === 503 && tries < 10) {
      const wait = Number(r.headers.get("retry-after")) || 1;
      await new Promise((done) => setTimeout(done, wait * 1000));
      continue;
    }
    const d = await r.json().catch(() => ({}));
    const why = { 403: "hidden", 429: "rationed" }[r.status]; // a duplicate deal in play; rationed
    if (!r.ok) throw new Error(why || d.error || r.statusText);
    return d;
  }
}

async function load() {
  try {
    const [rep, room] = await Promise.all([
      fetchReplay(),
      fetch(`/api/rooms/${code}`).then((r) => (r.ok ? r.json() : null)).catch(() => null),
    ]);
    R.steps = rep.steps || [];
    R.seats = room && room.seats ? room.seats : [];
    R.event = Boolean(room && room.event);
    setTeamNames(room && room.event ? room.event.teams : null);
    show();
    setupAnalysis({
      code,
      game,
      names: () => infos().map((x) => x.name),
      step: () => R.i,
      count: () => R.steps.length,
      go,
    });
  } catch (e) {
    const known = { hidden: "replay_hidden", rationed: "replay_rationed" };
    const why = known[e.message] || "replay_missing";
    toast(t(why), "error", 10000);
    $("step-action").textContent = t(why);
  }
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(R.i - 1));
$("next").addEventListener("click", () => go(R.i + 1));
$("last").addEventListener("click", () => go(R.steps.length - 1));
$("play").addEventListener("click", toggle);
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  show();
});
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") go(R.i - 1);
  if (e.key === "ArrowRight") go(R.i + 1);
});
applyStatic();
load();

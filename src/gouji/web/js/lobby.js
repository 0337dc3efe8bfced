// The lobby: create a room (POST /api/rooms) or join one by code or link.
// Every word it shows comes from presets.js, in the page's language.
import { getLang, setLang } from "./i18n.js";
import { loadName, recentRooms, saveName, toast } from "./common.js";
import {
  BOT_LEVELS,
  BOT_SPEEDS,
  DEFAULT_BOT,
  DEFAULT_PRESET,
  DEFAULT_SPEED_MS,
  PRESETS,
  pick,
  presetInfo,
  rulesUrl,
  say,
} from "./presets.js";

const $ = (id) => document.getElementById(id);
const VISIBILITIES = ["le10", "always", "hidden"];
const FORMATIONS = ["seats", "draw", "opposite"]; // R1.6 (docs/protocol.md, Team formation)

/** Fill a <select> with [value, text] pairs, keeping its value (or taking `initial`). */
function fillSelect(select, items, initial) {
  const keep = select.options.length ? select.value : String(initial);
  select.textContent = "";
  for (const [value, text] of items) {
    const o = document.createElement("option");
    o.value = String(value);
    o.textContent = text;
    select.append(o);
  }
  select.value = keep;
  if (select.selectedIndex < 0) select.selectedIndex = 0;
}

function fillOptions() {
  fillSelect($("preset"), PRESETS.map((p) => [p.code, pick(p.name)]), DEFAULT_PRESET);
  fillSelect($("bot"), BOT_LEVELS.map((b) => [b.agent, pick(b.name)]), DEFAULT_BOT);
  fillSelect($("bot_speed"), BOT_SPEEDS.map((s) => [s.ms, pick(s.name)]), DEFAULT_SPEED_MS);
  fillSelect(
    $("bots"),
    [0, 1, 2, 3, 4, 5].map((n) => [n, n === 0 ? say("bots_0") : String(n)]),
    5,
  );
  fillSelect($("formation"), FORMATIONS.map((f) => [f, say("formation_" + f)]), "seats");
  const preset = presetInfo($("preset").value);
  fillSelect(
    $("count_visibility"),
    [["", say("vis_preset", say("vis_" + preset.countVisibility))]].concat(
      VISIBILITIES.map((v) => [v, say("vis_" + v)]),
    ),
    "",
  );
}

/** What depends on the chosen rule set and bot level: description, rules link, hints. */
function showChoices() {
  const preset = presetInfo($("preset").value);
  $("preset-desc").textContent = pick(preset.summary);
  $("rules-link").href = rulesUrl(preset.code);
  $("formation-hint").textContent = say("formation_" + $("formation").value + "_hint");
  const vis = $("count_visibility").options[0];
  if (vis) vis.textContent = say("vis_preset", say("vis_" + preset.countVisibility));
  $("games").placeholder = preset.games ? say("games_ph_n", preset.games) : say("games_ph");
  const level = BOT_LEVELS.find((b) => b.agent === $("bot").value);
  $("bot-hint").textContent = level ? pick(level.hint) : "";
  $("timer").disabled = $("no_timer").checked;
}

function refresh() {
  document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
  document.title = say("page_title");
  for (const el of document.querySelectorAll("[data-l]")) el.textContent = say(el.dataset.l);
  for (const el of document.querySelectorAll("[data-l-ph]")) el.placeholder = say(el.dataset.lPh);
  fillOptions();
  showChoices();
  const box = $("recent");
  box.textContent = "";
  const rooms = recentRooms();
  if (rooms.length) {
    const h = document.createElement("div");
    h.className = "muted";
    h.textContent = say("recent");
    box.append(h);
    for (const code of rooms) {
      const a = document.createElement("a");
      a.href = "/r/" + code;
      a.textContent = code;
      a.className = "recent-room";
      box.append(a, " ");
    }
  }
}

function needName() {
  const name = $("name").value.trim();
  if (!name) {
    $("lobby-error").textContent = say("err_name");
    $("name").focus();
    return null;
  }
  saveName(name);
  return name;
}

/** "K7QX2M", "/r/K7QX2M" or "http://host/r/K7QX2M" → "K7QX2M". */
export function codeFrom(text) {
  const s = text.trim();
  const m = s.match(/\/r\/([A-Za-z0-9]+)/);
  return (m ? m[1] : s).replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

/** The create-room body (docs/protocol.md) from the form. */
export function roomBody() {
  const seconds = Number($("timer").value);
  const body = {
    preset: $("preset").value,
    bots: Number($("bots").value),
    bot: $("bot").value,
    bot_delay_ms: Number($("bot_speed").value),
    timer_s: !$("no_timer").checked && seconds > 0 ? seconds : null,
    card_counter: $("card_counter").checked,
    games: $("games").value ? Number($("games").value) : null,
    formation: $("formation").value,
  };
  if ($("count_visibility").value) body.count_visibility = $("count_visibility").value;
  return body;
}

async function create(ev) {
  ev.preventDefault();
  $("lobby-error").textContent = "";
  if (!needName()) return;
  $("create").disabled = true;
  try {
    const r = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(roomBody()),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || r.status + " " + r.statusText);
    location.href = data.url || "/r/" + data.code;
  } catch (e) {
    $("lobby-error").textContent = String(e.message || e);
    toast(String(e.message || e), "error");
  } finally {
    $("create").disabled = false;
  }
}

function join(ev) {
  ev.preventDefault();
  $("lobby-error").textContent = "";
  if (!needName()) return;
  const code = codeFrom($("code").value);
  if (!code) {
    $("lobby-error").textContent = say("err_code");
    return;
  }
  location.href = "/r/" + code;
}

$("name").value = loadName();
$("name").addEventListener("change", () => saveName($("name").value.trim()));
$("create-form").addEventListener("submit", create);
$("join-form").addEventListener("submit", join);
for (const id of ["preset", "bot", "no_timer", "formation"]) $(id).addEventListener("change", showChoices);
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  refresh();
});
refresh();

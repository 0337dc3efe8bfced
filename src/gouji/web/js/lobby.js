// The lobby: create a room (POST /api/rooms), join one by code or link, or pick one from the
// list of open rooms (GET /api/rooms). The form's words come from presets.js, the list's from
// i18n.js, in the page's language.
import { applyStatic, getLang, hasWord, setLang, t } from "./i18n.js";
import { loadName, recentRooms, saveName, toast } from "./common.js";
import { BOT_LEVELS, BOT_SPEEDS, botLevel, DEFAULT_BOT, DEFAULT_PRESET, DEFAULT_SPEED_MS, PRESETS, presetInfo, rulesUrl } from "./presets.js";

const $ = (id) => document.getElementById(id);
const VISIBILITIES = ["le10", "always", "hidden"];
const FORMATIONS = ["seats", "draw", "opposite"]; // R1.6 (docs/protocol.md, Team formation)
const LIST_EVERY_MS = 5000; // the open rooms are asked for again this often while the page shows
const STATUSES = ["waiting", "playing", "between"]; // a listed room's status (docs/protocol.md)

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
  fillSelect($("preset"), PRESETS.map((p) => [p.code, t(p.name)]), DEFAULT_PRESET);
  fillSelect($("bot"), BOT_LEVELS.map((b) => [b.agent, t(b.name)]), DEFAULT_BOT);
  fillSelect($("bot_speed"), BOT_SPEEDS.map((s) => [s.ms, t(s.name)]), DEFAULT_SPEED_MS);
  fillSelect(
    $("bots"),
    [0, 1, 2, 3, 4, 5].map((n) => [n, n === 0 ? t("bots_0") : String(n)]),
    5,
  );
  fillSelect($("formation"), FORMATIONS.map((f) => [f, t("formation_" + f)]), "seats");
  const preset = presetInfo($("preset").value);
  fillSelect(
    $("count_visibility"),
    [["", t("vis_preset", t("vis_" + preset.countVisibility))]].concat(
      VISIBILITIES.map((v) => [v, t("vis_" + v)]),
    ),
    "",
  );
}

/** What depends on the chosen rule set and bot level: description, rules link, hints. */
function showChoices() {
  const preset = presetInfo($("preset").value);
  $("preset-desc").textContent = t(preset.summary);
  $("rules-link").href = rulesUrl(preset.code);
  $("formation-hint").textContent = t("formation_" + $("formation").value + "_hint");
  const vis = $("count_visibility").options[0];
  if (vis) vis.textContent = t("vis_preset", t("vis_" + preset.countVisibility));
  $("games").placeholder = preset.games ? t("games_ph_n", preset.games) : t("lobby.games_ph");
  const level = botLevel($("bot").value);
  $("bot-hint").textContent = level ? t(level.hint) : "";
  $("timer").disabled = $("no_timer").checked;
}

function refresh() {
  applyStatic();
  document.title = t("page_title");
  fillOptions();
  showChoices();
  renderRooms();
  const box = $("recent");
  box.textContent = "";
  const rooms = recentRooms();
  if (rooms.length) {
    const h = document.createElement("div");
    h.className = "muted";
    h.textContent = t("recent");
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
    $("lobby-error").textContent = t("err_name");
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
    listed: $("listed").checked,
    rated: $("rated").checked, // a rated room plays the preset as it is (quick-match.js)
  };
  if ($("count_visibility").value && !body.rated) body.count_visibility = $("count_visibility").value;
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
    // an error is {error: code, message} (docs/protocol.md, "Errors"): the page's words for the
    // code where it has them, else the server's message
    if (!r.ok) throw new Error(hasWord(data.error) ? t(data.error) : data.message || data.error || r.status + " " + r.statusText);
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
    $("lobby-error").textContent = t("err_code");
    return;
  }
  location.href = "/r/" + code;
}

// ---- the open rooms (GET /api/rooms) ----

/** The last answer (null before the first), whether the last ask failed, what is on screen. */
const openRooms = { rooms: null, failed: false, busy: false, shown: "" };

/** A count in words: `key` with {0}, or `key_1` for one ("1 player", "2 players"). */
function count(key, n) {
  return n === 1 ? t(key + "_1") : t(key, n);
}

/** A non-negative whole number from the answer (anything else is 0). */
function whole(v) {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** One room of the list: its rule set, status, seats, bot level, timer, watchers and the way in. */
function roomItem(room, code) {
  const status = STATUSES.includes(room.status) ? room.status : null;
  const free = whole(room.free);
  // waiting: the empty seats, of which the bots fill `fill` at the start (a person may still
  // take one: a bot fewer); at play: a bot's seat or an absent player's, to take over
  const fill = status === "waiting" ? Math.min(free, whole(room.fill)) : 0;
  const joinable = status === "waiting" && free > 0;
  const preset = PRESETS.find((p) => p.code === room.preset);
  const level = botLevel(room.bot);
  const game = whole(room.game);

  const li = document.createElement("li");
  li.className = "open-room";
  li.dataset.code = code;
  const main = document.createElement("div");
  main.className = "open-main";
  const title = document.createElement("div");
  title.className = "open-title";
  const name = document.createElement("strong");
  name.className = "open-preset";
  name.textContent = preset ? t(preset.name) : t("open_room", code);
  title.append(name);
  if (status) {
    const tag = document.createElement("span");
    tag.className = "tag open-status " + status;
    tag.textContent = t("open_status_" + status);
    title.append(" ", tag);
  }
  const facts = [];
  if (status === "playing" && game > 0) facts.push(t("open_game_n", game));
  if (status === "between" && game > 0) facts.push(t("open_after_n", game));
  facts.push(count("open_players", whole(room.players)));
  if (whole(room.bots) > 0) facts.push(count("open_bots", whole(room.bots)));
  if (status !== "waiting" && free > 0) facts.push(count("open_takeover", free));
  else if (free - fill > 0) facts.push(count("open_free", free - fill));
  else if (!fill) facts.push(t("open_full"));
  if (fill > 0) facts.push(count("open_fill", fill));
  if (level) facts.push(t("open_level", t(level.name)));
  const timer = whole(room.timer_s);
  facts.push(timer > 0 ? t("open_timer", timer) : t("open_no_timer"));
  if (whole(room.watchers) > 0) facts.push(count("open_watchers", whole(room.watchers)));
  const line = document.createElement("div");
  line.className = "open-facts";
  for (const fact of facts) {
    const span = document.createElement("span");
    span.textContent = fact;
    line.append(span);
  }
  if (preset) {
    const where = document.createElement("span");
    where.className = "open-code";
    where.textContent = t("open_room", code);
    line.append(where);
  }
  main.append(title, line);

  const go = document.createElement("a");
  go.className = "button open-go" + (joinable ? " primary" : "");
  go.href = "/r/" + code;
  go.textContent = t(joinable ? "open_join" : "open_watch");
  go.addEventListener("click", () => saveName($("name").value.trim())); // the table sits them
  li.append(main, go);
  return li;
}

/** Show the last answer in the page's language (again only when something changed). */
function renderRooms() {
  const { rooms, failed } = openRooms;
  const shown = JSON.stringify([getLang(), rooms, failed]);
  if (shown === openRooms.shown) return;
  openRooms.shown = shown;
  const list = $("open-rooms");
  list.textContent = "";
  for (const room of rooms || []) {
    const code = String((room && room.code) || "").replace(/[^A-Za-z0-9]/g, "");
    if (code) list.append(roomItem(room, code));
  }
  const n = list.children.length;
  $("open-count").textContent = String(n);
  $("open-count").classList.toggle("hidden", !n);
  const note = $("open-note");
  if (failed) note.textContent = t("open_failed");
  else if (rooms === null) note.textContent = t("open_loading");
  else note.textContent = n ? "" : t("open_none");
  note.classList.toggle("hidden", !note.textContent);
}

/** Ask for the open rooms; a failure keeps the rooms last seen and says so quietly. */
async function loadRooms() {
  if (openRooms.busy) return;
  openRooms.busy = true;
  try {
    const r = await fetch("/api/rooms", { cache: "no-store" });
    if (!r.ok) throw new Error(r.status + " " + r.statusText);
    const data = await r.json();
    openRooms.rooms = data && Array.isArray(data.rooms) ? data.rooms : [];
    openRooms.failed = false;
  } catch (e) {
    openRooms.failed = true;
  } finally {
    openRooms.busy = false;
  }
  renderRooms();
}

function followRooms() {
  loadRooms();
  setInterval(() => {
    if (document.visibilityState === "visible") loadRooms();
  }, LIST_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") loadRooms();
  });
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
followRooms();

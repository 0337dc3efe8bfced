// Create an event (/events/new): name, rule set, format, rounds, games a match, duplicate (and
// its tables one after the other, for teams of three), a third-place match (knockout), online
// or real cards; then on to the organiser's page with the key remembered.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { el, toast } from "./common.js";
import { BOT_LEVELS, BOT_SPEEDS, DEFAULT_BOT, DEFAULT_SPEED_MS, PRESETS, presetInfo, rulesUrl } from "./presets.js";
import { api, recentEvents, rememberEvent, saveKey } from "./event-api.js";
import { FORMATS, MODES } from "./event-words.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_EVENT_PRESET = "MATCH7"; // the seeds' tournament sheet (R17.3)

function fillSelect(select, items, initial) {
  const keep = select.options.length ? select.value : String(initial);
  select.textContent = "";
  for (const [value, text] of items) select.append(el("option", { value: String(value) }, text));
  select.value = keep;
  if (select.selectedIndex < 0) select.selectedIndex = 0;
}

function mode() {
  return $("mode").value === "online" ? "online" : "paper";
}

function showChoices() {
  const preset = presetInfo($("preset").value);
  $("preset-desc").textContent = t(preset.summary);
  $("rules-link").href = rulesUrl(preset.code);
  const fmt = $("format").value;
  $("format-hint").textContent = t("fmt_hint_" + fmt);
  const ko = fmt === "knockout";
  $("rounds").disabled = ko;
  if (ko) $("rounds").value = "";
  $("rounds").placeholder = t(ko ? "rounds_ko" : "rounds_auto");
  $("online-box").classList.toggle("hidden", mode() !== "online");
  $("mode-hint").textContent = t("mode_hint_" + mode());
  $("timer").disabled = $("no_timer").checked;
  // a third-place match is a knockout's; tables one after the other a duplicate event's
  $("third-place-box").classList.toggle("hidden", !ko);
  if (!ko) $("third_place").checked = false;
  const dup = $("duplicate").checked;
  $("sequential-box").classList.toggle("hidden", !dup);
  if (!dup) $("sequential").checked = false;
}

function refresh() {
  applyStatic();
  document.title = t("new_title");
  fillSelect($("preset"), PRESETS.map((p) => [p.code, t(p.name)]), DEFAULT_EVENT_PRESET);
  fillSelect($("format"), FORMATS.map((f) => [f, t("fmt_" + f)]), "knockout");
  fillSelect($("mode"), MODES.map((m) => [m, t("mode_" + m)]), "paper");
  fillSelect($("bot"), BOT_LEVELS.map((b) => [b.agent, t(b.name)]), DEFAULT_BOT);
  fillSelect($("bot_speed"), BOT_SPEEDS.map((s) => [s.ms, t(s.name)]), DEFAULT_SPEED_MS);
  showChoices();
  const list = recentEvents();
  $("recent-panel").classList.toggle("hidden", !list.length);
  $("recent-events").textContent = "";
  for (const x of list) {
    $("recent-events").append(
      el("div", { class: "recent-event" }, el("a", { href: `/e/${x.code}` }, x.name || x.code), " ",
        el("a", { class: "muted", href: `/e/${x.code}/admin` }, t("admin_link"))),
    );
  }
}

/** The POST /api/events body from the form. */
export function eventBody() {
  const body = {
    name: $("ev-name").value.trim(),
    preset: $("preset").value,
    format: $("format").value,
    duplicate: $("duplicate").checked,
    mode: mode(),
  };
  if ($("rounds").value && !$("rounds").disabled) body.rounds = Number($("rounds").value);
  if ($("games").value) body.games = Number($("games").value);
  if (body.format === "knockout" && $("third_place").checked) body.third_place = true;
  if (body.duplicate && $("sequential").checked) body.sequential = true;
  if (body.mode === "online") {
    const seconds = Number($("timer").value);
    body.bot = $("bot").value;
    body.bot_delay_ms = Number($("bot_speed").value);
    body.timer_s = !$("no_timer").checked && seconds > 0 ? seconds : null;
  }
  return body;
}

async function create(e) {
  e.preventDefault();
  $("new-error").textContent = "";
  const body = eventBody();
  if (!body.name) {
    $("new-error").textContent = t("err_ev_name");
    $("ev-name").focus();
    return;
  }
  $("create").disabled = true;
  $("create").textContent = t("creating");
  try {
    const data = await api("POST", "/api/events", body);
    saveKey(data.code, data.key);
    rememberEvent(data.code, body.name);
    location.href = data.admin_url || `/e/${data.code}/admin`;
  } catch (err) {
    $("new-error").textContent = err.message;
    toast(err.message, "error");
    $("create").disabled = false;
    $("create").textContent = t("create");
  }
}

$("event-form").addEventListener("submit", create);
for (const id of ["preset", "format", "no_timer", "mode", "duplicate"]) {
  $(id).addEventListener("change", showChoices);
}
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  refresh();
});
refresh();

// The lobby: create a room (POST /api/rooms) or join one by code or link.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { loadName, recentRooms, saveName, toast } from "./common.js";

const $ = (id) => document.getElementById(id);

function refresh() {
  applyStatic();
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

async function create(ev) {
  ev.preventDefault();
  $("lobby-error").textContent = "";
  if (!needName()) return;
  const body = {
    preset: $("preset").value,
    bots: Number($("bots").value),
    bot: $("bot").value,
    timer_s: Number($("timer").value) > 0 ? Number($("timer").value) : null,
    card_counter: $("card_counter").checked,
    games: $("games").value ? Number($("games").value) : null,
  };
  if ($("count_visibility").value) body.count_visibility = $("count_visibility").value;
  $("create").disabled = true;
  try {
    const r = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
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
    $("lobby-error").textContent = t("err_code");
    return;
  }
  location.href = "/r/" + code;
}

$("name").value = loadName();
$("name").addEventListener("change", () => saveName($("name").value.trim()));
$("create-form").addEventListener("submit", create);
$("join-form").addEventListener("submit", join);
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  refresh();
});
refresh();

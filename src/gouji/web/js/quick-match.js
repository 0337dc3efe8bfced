// 快速开始 (POST /api/quick): one tap takes the player to a waiting table of the chosen rule set,
// or to a new one where bots fill the free seats after a short wait; the table takes the first
// free seat by itself. The answer holds a seat there for this browser (its guest cookie) for
// 20 s, so everyone tapping at once is seated (D170); fetch follows a site's redirect to the
// process serving the table. Also the words of the create form's 排位 (rated) choice.
import { applyStatic, hasWord, t } from "./i18n.js";
import { loadName, saveName, toast } from "./common.js";
import { DEFAULT_PRESET, PRESETS } from "./presets.js";

const $ = (id) => document.getElementById(id);

function loggedIn() {
  return document.cookie.split("; ").includes("gouji_account=1");
}

function render() {
  applyStatic();
  $("quick-hint").textContent = t("quick_hint");
  const select = $("quick-preset");
  const keep = select.value || localStorage.getItem("gouji.quick.preset") || DEFAULT_PRESET;
  select.textContent = "";
  for (const p of PRESETS) {
    const o = document.createElement("option");
    o.value = p.code;
    o.textContent = t(p.name);
    select.append(o);
  }
  select.value = keep;
  if (select.selectedIndex < 0) select.value = DEFAULT_PRESET;
  $("rated-hint").classList.toggle("hidden", !$("rated").checked);
  $("count_visibility").disabled = $("rated").checked; // a rated room changes no rule
  if ($("rated").checked) $("no_timer").checked = false; // … and has a turn timer (D161)
  $("no_timer").disabled = $("rated").checked;
  $("timer").disabled = $("no_timer").checked;
}

function needAccount(where) {
  where.textContent = t("need_account") + " ";
  const a = document.createElement("a");
  a.href = "/account?next=" + encodeURIComponent("/");
  a.textContent = t("to_account");
  where.append(a);
}

async function quick() {
  const error = $("quick-error");
  error.textContent = "";
  const rated = $("quick-rated").checked;
  if (rated && !loggedIn()) {
    needAccount(error);
    return;
  }
  const name = $("name").value.trim() || loadName();
  if (name) saveName(name); // the table asks for a name when it has none
  const preset = $("quick-preset").value;
  localStorage.setItem("gouji.quick.preset", preset);
  $("quick").disabled = true;
  try {
    const r = await fetch("/api/quick", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ preset, rated }),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(hasWord(data.error) ? t(data.error) : t("quick.failed") + (data.message || r.status));
    location.href = data.url || "/r/" + data.code;
  } catch (e) {
    const text = e instanceof TypeError ? t("quick.offline") : String(e.message || e);
    error.textContent = text;
    toast(text, "error");
  } finally {
    $("quick").disabled = false;
  }
}

function checkRated() {
  render();
  if ($("rated").checked && !loggedIn()) needAccount($("lobby-error"));
  else $("lobby-error").textContent = "";
}

$("quick").addEventListener("click", quick);
$("rated").addEventListener("change", checkRated);
$("lang").addEventListener("click", render); // after the lobby's own words
render();

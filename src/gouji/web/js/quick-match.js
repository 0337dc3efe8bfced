// 快速开始 (POST /api/quick): one tap takes the player to a waiting table of the chosen rule set,
// or to a new one where bots fill the free seats after a short wait; the table takes the first
// free seat by itself. Also the words of the create form's 排位 (rated) choice.
import { getLang } from "./i18n.js";
import { loadName, saveName, toast } from "./common.js";
import { DEFAULT_PRESET, PRESETS, pick } from "./presets.js";

const $ = (id) => document.getElementById(id);

const WORDS = {
  zh: {
    quick_h: "快速开始",
    quick_preset: "规则",
    quick_rated: "排位赛（计积分，需要账号）",
    quick_go: "快速开始",
    quick_hint: "加入正在等人的桌子；没有就开一桌，最后一人坐下 15 秒后，空位由电脑（高手）补上。",
    rated: "排位赛（计积分；入座需要账号）",
    rated_hint: "排位赛按所选规则原样打（不改规则、不指定牌）；电脑只能选新手、普通、高手或大师。结果计入每位玩家在这套规则下的积分。",
    need_account: "排位赛需要账号：请先登录或注册。",
    to_account: "登录 / 注册",
    failed: "没能开始：",
    rate_limited: "开桌太频繁了，请稍后再试。",
    bad_preset: "这套规则不能快速开始。",
    offline: "连不上服务器，请检查网络。",
  },
  en: {
    quick_h: "Quick match",
    quick_preset: "Rules",
    quick_rated: "Rated (counts for your rating; needs an account)",
    quick_go: "Play now",
    quick_hint:
      "Joins a table that is waiting for players, or opens one; 15 s after the last person sits down, bots (Expert) fill the free seats.",
    rated: "Rated (counts for ratings; seats need an account)",
    rated_hint:
      "A rated room plays the rule set as it is (no changed rules, no chosen deal); bots are Beginner, Intermediate, Expert or Master. Results count for each player's rating in this rule set.",
    need_account: "Rated games need an account: log in or sign up first.",
    to_account: "Log in / sign up",
    failed: "Could not start: ",
    rate_limited: "Too many tables opened: try again later.",
    bad_preset: "This rule set cannot be played by quick match.",
    offline: "The server cannot be reached: check the connection.",
  },
};

function w(key) {
  return (WORDS[getLang()] || WORDS.zh)[key] || key;
}

function loggedIn() {
  return document.cookie.split("; ").includes("gouji_account=1");
}

function render() {
  for (const node of document.querySelectorAll("[data-q]")) node.textContent = w(node.dataset.q);
  $("quick-hint").textContent = w("quick_hint");
  const select = $("quick-preset");
  const keep = select.value || localStorage.getItem("gouji.quick.preset") || DEFAULT_PRESET;
  select.textContent = "";
  for (const p of PRESETS) {
    const o = document.createElement("option");
    o.value = p.code;
    o.textContent = pick(p.name);
    select.append(o);
  }
  select.value = keep;
  if (select.selectedIndex < 0) select.value = DEFAULT_PRESET;
  $("rated-hint").classList.toggle("hidden", !$("rated").checked);
  $("count_visibility").disabled = $("rated").checked; // a rated room changes no rule
}

function needAccount(where) {
  where.textContent = w("need_account") + " ";
  const a = document.createElement("a");
  a.href = "/account?next=" + encodeURIComponent("/");
  a.textContent = w("to_account");
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
    if (!r.ok) throw new Error(WORDS.zh[data.error] ? w(data.error) : w("failed") + (data.message || r.status));
    location.href = data.url || "/r/" + data.code;
  } catch (e) {
    const text = e instanceof TypeError ? w("offline") : String(e.message || e);
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

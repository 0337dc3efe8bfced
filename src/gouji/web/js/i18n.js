// The web client's one word system: every word a page shows, in Chinese and English, and the
// one lookup `t(key, …)`. The words are in js/words/ (one file a page or domain, each
// `{zh: {…}, en: {…}}`, each key in one file only); a page's HTML marks its words with
// `data-i18n` (text), `data-i18n-ph` (placeholder), `data-i18n-title` and `data-i18n-aria`,
// which `applyStatic` fills. The chosen language is remembered in localStorage.
//
// - Placeholders: {0} {1} … (positional: t(key, a, b)) or {who} {cards} … (named: t(key, {who})).
// - One thing: with named parameters and `count` 1, `<key>_1` where the page's language has it
//   ("1 card", not "1 cards").
// - A key the page's language lacks is said in the other language; a key neither has is shown
//   as itself (docs/decisions.md).
import { cardsText } from "./cards.js";
import account from "./words/account.js";
import analysis from "./words/analysis.js";
import chat from "./words/chat.js";
import common from "./words/common.js";
import competition from "./words/competition.js";
import events from "./words/events.js";
import lobby from "./words/lobby.js";
import presets from "./words/presets.js";
import story from "./words/story.js";
import table from "./words/table.js";

const KEY = "gouji.lang";

/** The word files by name (tests check that no key is in two of them). presets.js and
 * competition.js are JSON as an ES module (`export default {…};`): the server's Python reads
 * them too (gouji.rulesdoc the rule sets' names, gouji.competition.export the exports' words). */
export const WORD_FILES = { common, table, story, lobby, account, analysis, chat, events, presets, competition };

const WORDS = { zh: {}, en: {} };
for (const file of Object.values(WORD_FILES)) for (const l of ["zh", "en"]) Object.assign(WORDS[l], file[l]);

let lang = null;

export function getLang() {
  if (lang) return lang;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch (e) {
    saved = null;
  }
  if (saved === "zh" || saved === "en") lang = saved;
  else lang = (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
  return lang;
}

export function setLang(l) {
  lang = l === "zh" ? "zh" : "en";
  try {
    localStorage.setItem(KEY, lang);
  } catch (e) {
    /* private mode */
  }
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  // a toast is worded once, in the language of its moment: a switch takes the old ones away
  const toasts = document.getElementById("toasts");
  if (toasts) toasts.replaceChildren();
}

/** Fill "{0}" or "{name}" placeholders: fill("a {x}", [{x: 1}]) or fill("a {0}", [1]). */
function fill(s, args) {
  const named = args.length === 1 && args[0] !== null && typeof args[0] === "object";
  const values = named ? args[0] : args;
  return s.replace(/\{(\w+)\}/g, (m, k) => (values[k] !== undefined && values[k] !== null ? String(values[k]) : ""));
}

/** The words of `key` in the page's language, else in the other one; undefined if neither. */
function word(key) {
  const l = getLang();
  if (WORDS[l][key] !== undefined) return WORDS[l][key];
  return WORDS[l === "zh" ? "en" : "zh"][key];
}

/** `<key>_1` when the page's language has it and the named parameters' `count` is 1. */
function one(key, params) {
  return params && Number(params.count) === 1 && WORDS[getLang()][key + "_1"] !== undefined ? key + "_1" : key;
}

/** Whether a word file has `key`. */
export function hasWord(key) {
  return WORDS.zh[key] !== undefined || WORDS.en[key] !== undefined;
}

/** The one lookup: `key`'s words in the page's language, placeholders filled (see above). */
export function t(key, ...args) {
  const named = args.length === 1 && args[0] !== null && typeof args[0] === "object";
  const s = word(named ? one(key, args[0]) : key);
  return s === undefined ? key : fill(s, args);
}

/** An event's words (words/story.js `ev.*`), null when there are none for it. */
export function tEvent(key, params) {
  const s = word(one("ev." + key, params));
  return s === undefined ? null : fill(s, [params]);
}

/** A refusal's words (reason key and params, `why.*`), null for an unknown key. */
export function tWhy(key, params) {
  const s = word(one("why." + key, params));
  return s === undefined ? null : fill(s, [params || {}]);
}

/** A server error code's words (`err.*`), the general one for an unknown code. */
export function tError(code) {
  return word("err." + code) || word("err.error");
}

/** A room note's words (`note.*`), null for an unknown note. */
export function tNote(key, params) {
  const s = word("note." + key);
  return s === undefined ? null : fill(s, [params]);
}

export function suitName(code) {
  return WORDS[getLang()]["suit." + code] || "";
}

export function placeName(p) {
  return p ? t("place_" + p) : "";
}

/** Label of an action word, e.g. "play 7 7" → "出 7 7", "nogeming" → "不革命". */
export function actionLabel(action) {
  const l = getLang();
  const a = String(action);
  if (WORDS[l]["act." + a]) return WORDS[l]["act." + a];
  const [word, ...rest] = a.split(" ");
  const cards = cardsText(rest.join(" "), l);
  if (word === "play") return (l === "zh" ? "出 " : "play ") + cards;
  if (word === "burn") return (l === "zh" ? "烧 " : "burn ") + cards;
  if (word === "huan") return (l === "zh" ? "还 " : "return ") + cards;
  if (word === "hui") return "会" + rest.join("");
  if (word === "order") {
    const plays = rest.join(" ").split("|").map((p) => cardsText(p.trim(), l));
    return (l === "zh" ? "按此顺序出：" : "Play in this order: ") + plays.join(" → ");
  }
  return a;
}

/** Fill the page's marked words (data-i18n, -ph, -title, -aria) and say the page's language. */
export function applyStatic(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-ph]")) e.placeholder = t(e.dataset.i18nPh);
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll("[data-i18n-aria]")) e.setAttribute("aria-label", t(e.dataset.i18nAria));
  document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
}

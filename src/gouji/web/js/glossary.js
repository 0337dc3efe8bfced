// The table's help sheet (规则和术语): the table's rules page, how cards are chosen, and a short
// glossary of the game's words in Chinese and English (from the terms of docs/spec/sources.md §G,
// section G, in players' words). The terms stay Chinese in English too: that is how players
// say them.
import { el } from "./common.js";
import { t } from "./i18n.js";

/** The terms a player meets at the table, in the order a game goes; each is said as it is in
 * both languages and explained by words/table.js's `gloss.<term>`. */
export const GLOSSARY = [
  "联邦",
  "对头",
  "上家 / 下家",
  "首发",
  "够级",
  "过牌",
  "让牌",
  "扣牌",
  "接风",
  "烧",
  "头科 · 二科 · 三科 · 四科",
  "二落 · 大落",
  "无头",
  "够死级",
  "四人乱缠",
  "串三户",
  "开点",
  "憋3",
  "闷",
  "革命",
  "进贡",
  "落贡 · 还贡",
  "明点 · 预点",
  "托管",
];

/** The help sheet; `rulesHref` is the table's rules page, `onClose()` hides it. */
export function helpSheet(rulesHref, onClose) {
  const terms = GLOSSARY.flatMap((term) => [el("dt", null, term), el("dd", null, t("gloss." + term))]);
  return el(
    "div",
    { class: "help-inner" },
    el("button", { type: "button", class: "close small", "aria-label": t("close"), onclick: onClose }, "×"),
    el("h3", null, t("help_title")),
    el("p", null, el("a", { class: "button primary rules-page-link", href: rulesHref, target: "_blank", rel: "noopener" }, t("help_rules"))),
    el("h4", null, t("help_select_h")),
    el("p", { class: "help-select" }, t("help_select")),
    el("h4", null, t("help_terms_h")),
    el("dl", { class: "glossary" }, terms),
  );
}

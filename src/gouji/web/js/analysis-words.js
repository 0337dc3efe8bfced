// 复盘's numbers and refusals in words (the analysis of a finished game, docs/protocol.md) on the
// replay page; the words themselves are in words/analysis.js.
import { parseCards, rankIndex } from "./cards.js";
import { actionLabel, t } from "./i18n.js";

/** The classes, mildest first, with the symbol each mark carries (colour and symbol). */
export const MARKS = { good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A number of points with a real minus sign and one decimal: "−1.2", "+0.8", "0.0". */
export function points(x, signed = true) {
  const v = Math.round(Number(x) * 10) / 10;
  if (!Number.isFinite(v)) return "—";
  if (v < 0) return "−" + (-v).toFixed(1);
  return (signed && v > 0 ? "+" : "") + v.toFixed(1);
}

/** A value and its 95 % interval as "−1.2 ± 0.6 points" (the interval's half width). */
export function valueText(value, ci) {
  if (!Array.isArray(ci) || ci.length !== 2) return t("value_exact", points(value));
  return t("value", points(value), points((ci[1] - ci[0]) / 2, false));
}

/** Why an analysis is not shown, in words: the server's status and error text. */
export function refusalText(status, error) {
  if (status === 403) return t("hidden");
  if (status === 404) return t("missing");
  if (status === 429) return t("busy_me");
  if (status === 503) return t("busy_server");
  if (status === 0) return t("network");
  return failureText(error);
}

/** A failed analysis's error (the server's English text) in the page's language. */
export function failureText(error) {
  const text = String(error || "");
  if (/worker process of the analyses stopped/.test(text)) return t("broken");
  if (/cannot be replayed|only a finished game/.test(text)) return t("not_analysable");
  return t("failed_other");
}

/** `n` cards of one rank in words: "a King", "a pair of 7s", "five Kings" / "一张K", "五张K". */
function groupText(code, n) {
  if (n === 1) return t("deed.one." + code);
  const cards = t("deed.many." + code);
  if (n === 2) return t("deed.pair", { cards });
  const number = t("deed.numbers").split(",")[n] || String(n);
  return t("deed.n", { n: number, cards });
}

/** Cards in words, the played rank first, then what goes with it (2s, then jokers): "K K K K K"
 * is "five Kings", "7 7 2" is "a pair of 7s with a 2" / "一对7带一张2". */
export function cardsInWords(text) {
  const counts = new Map();
  for (const c of parseCards(text)) counts.set(c, (counts.get(c) || 0) + 1);
  const extra = (c) => (c === "2" || c === "SJ" || c === "LJ" ? 1 : 0);
  const groups = [...counts].sort((a, b) => extra(a[0]) - extra(b[0]) || b[1] - a[1] || rankIndex(a[0]) - rankIndex(b[0]));
  const words = groups.map(([code, n]) => groupText(code, n));
  if (words.length < 2) return words.join("");
  const [main, ...rest] = words;
  return t("deed.with", { main, rest: rest.join(t("deed.and")) });
}

/** An action 复盘 names, in words (play, pass, 让牌, burn, no burn); any other action as the
 * table's buttons say it. */
export function deedText(action) {
  const [word, ...rest] = String(action).split(" ");
  if (word === "play" || word === "burn") return t("deed." + word, { cards: cardsInWords(rest.join(" ")) });
  if (!rest.length && (word === "pass" || word === "rang" || word === "noburn")) return t("deed." + word);
  return actionLabel(action);
}

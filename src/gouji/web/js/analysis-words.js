// 复盘's numbers and refusals in words (the analysis of a finished game, docs/protocol.md) on the
// replay page; the words themselves are in words/analysis.js.
import { t } from "./i18n.js";

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

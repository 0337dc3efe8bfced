// The players' pages' helpers for words (账号 /account, 战绩 /players/NAME, 排行榜 /leaderboard;
// the words themselves are in words/account.js): dates, ratings, refusals. A server refusal is
// said by its `error` code, never by the server's English message. `?lang=zh|en` in a page's
// address picks its language (and is remembered, as the language switch is).
import { getLang, hasWord, setLang, t } from "./i18n.js";

// ?lang=zh or ?lang=en: a link that says its language (remembered like the switch's choice)
const asked = new URLSearchParams(location.search).get("lang");
if (asked === "zh" || asked === "en") setLang(asked);

/** What a refusal says to the player: by its code (`where` tells a log-in's wrong password,
 * which may be the name, from a confirmation's), its status when the code is unknown. */
export function refusalWords(err, where = "") {
  const code = err && err.code;
  if (code === "wrong_password") return t(where === "login" ? "e_wrong_login" : "e_wrong_password");
  if (code === "too_many_attempts") {
    const minutes = Math.max(1, Math.ceil((Number(err.retryAfter) || 900) / 60));
    return t("e_too_many_attempts", minutes);
  }
  if (code && hasWord("e_" + code)) return t("e_" + code);
  const status = Number(err && err.status) || 0;
  if (status === 0) return t("e_network");
  if (status >= 500) return t("e_server", status);
  return t("account.e_other", status);
}

/** A date (and with `time`, the time of day) as the page's language writes it; with `short`,
 * without the year when it is this year's. */
export function when(epoch, time = false, short = false) {
  const d = new Date(Number(epoch) * 1000);
  if (Number.isNaN(d.getTime())) return "";
  const zh = getLang() === "zh";
  const opts = zh ? { month: "2-digit", day: "2-digit" } : { month: "short", day: "numeric" };
  if (!short || d.getFullYear() !== new Date().getFullYear()) opts.year = "numeric";
  if (time) Object.assign(opts, { hour: "2-digit", minute: "2-digit" });
  return d.toLocaleString(zh ? "zh-CN" : "en-GB", opts);
}

/** A rating as shown: one decimal. */
export function ratingText(x) {
  const n = Number(x);
  return Number.isFinite(n) ? n.toFixed(1) : "—";
}

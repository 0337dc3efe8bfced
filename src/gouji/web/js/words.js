// The story in words: game events, room notes and refusals in the player's language.
// The one place that turns the server's data (docs/engine.md "Events", reason keys,
// docs/protocol.md notes) into sentences; the log, the announcements, the tribute panel and
// the replay all call these.
import { cardsText } from "./cards.js";
import { actionLabel, getLang, placeName, suitName, t, tError, tEvent, tNote, tWhy } from "./i18n.js";

/**
 * A naming context: `name(seat)` gives a seat's display name (1-based "座位 n" when unknown);
 * `me` is the viewer's seat (null for a spectator). A context may also say the game's
 * `revolutionary` (its place is no going out).
 */
export function namer(names, me = null) {
  return {
    me,
    name: (s) => (s === null || s === undefined ? "" : names[s] || t("seat_n", s + 1)),
  };
}

let TEAMS = null; // a competition table's two teams as registered (A first), or null

/** Name the teams as an event registered them (`[A, B]`), or null for 甲队/乙队. */
export function setTeamNames(names) {
  TEAMS = Array.isArray(names) && names.length === 2 && names.every((n) => typeof n === "string") ? names : null;
}

export function teamName(team) {
  if (TEAMS) return displayName(TEAMS[team ? 1 : 0]);
  return team === 0 ? t("team_a") : t("team_b");
}

function cards(text) {
  return cardsText(text || "", getLang());
}

function joinNames(list) {
  return list.join(getLang() === "zh" ? "、" : ", ");
}

const CN_DIGITS = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A Chinese number up to 99 ("二十九" → 29), or the text itself when it is not one. */
function cnNumber(text) {
  const [tens, ones] = text.includes("十") ? text.split("十") : [null, text];
  const t10 = tens === null ? 0 : tens === "" ? 1 : CN_DIGITS[tens];
  const t1 = ones === "" ? 0 : CN_DIGITS[ones];
  return t10 === undefined || t1 === undefined ? text : String(t10 * 10 + t1);
}

/**
 * A sanction's article (R19.4) as given by the referee, in parentheses: in Chinese as it is
 * ("（第三十条）"); in English the outline's "第…条" and "（一）" read as "Article 30 (1)".
 */
function articleText(article) {
  if (!article) return "";
  if (getLang() === "zh") return /^[（(]/.test(article) ? article : `（${article}）`;
  const en = article
    .replace(/第([一二三四五六七八九十]+)条/g, (m, n) => `Article ${cnNumber(n)}`)
    .replace(/[（(]([一二三四五六七八九十]+)[）)]/g, (m, n) => ` (${cnNumber(n)})`)
    .replace(/（/g, " (")
    .replace(/）/g, ")")
    .replace(/\s+/g, " ")
    .trim();
  return /^\(/.test(en) ? " " + en : ` (${en})`;
}

/** Points as a referee says them: "−2", "+3" (a true minus sign). */
function pointsText(points) {
  return points < 0 ? `−${-points}` : `+${points}`;
}

/** The words of the fields an event carries, for its template. */
function params(ev, ctx) {
  const p = { who: ctx.name(ev.seat) };
  if (ev.cards !== undefined) p.cards = cards(ev.cards);
  if (ev.card !== undefined) p.card = cards(ev.card);
  if (ev.count !== undefined) p.count = ev.count;
  if (ev.place !== undefined) p.place = placeName(ev.place);
  if (ev.victim !== undefined) p.victim = ctx.name(ev.victim);
  if (ev.payer !== undefined) p.payer = ctx.name(ev.payer);
  if (ev.receiver !== undefined) p.receiver = ctx.name(ev.receiver);
  if (ev.seller !== undefined) p.seller = ctx.name(ev.seller);
  if (ev.to !== undefined) p.to = ctx.name(ev.to);
  if (ev.from !== undefined) p.from = ctx.name(ev.from);
  if (ev.team !== undefined) p.team = teamName(ev.team);
  if (ev.kind !== undefined) p.kind = t("kind_" + ev.kind);
  if (ev.rank !== undefined) p.rank = ev.rank;
  if (ev.suit !== undefined) p.suit = suitName(ev.suit);
  if (ev.ranks !== undefined) p.ranks = String(ev.ranks).split(" ").join(getLang() === "zh" ? "会" : " 会");
  if (ev.plays !== undefined) p.plays = ev.plays.map(cards).join(" → ");
  if (ev.type === "sanction") {
    p.article = articleText(ev.article);
    if (ev.points !== undefined) p.points = pointsText(ev.points);
    if (ev.seat !== null && ev.seat !== undefined) p.team = teamName(ev.seat % 2);
  }
  return p;
}

/** The template key of an event (some types have variants). */
function eventKey(ev) {
  switch (ev.type) {
    case "pass":
      return ev.auto ? "pass_auto" : "pass";
    case "buy":
      return ev.free ? "buy_free" : "buy";
    case "tribute":
      return ev.skipped ? "tribute_skipped" : "tribute";
    case "burning":
      return ev.teammate ? "burning_mate" : "burning";
    case "sanction":
      return "sanction_" + ev.kind;
    case "wutou":
      return ev.how ? "wutou_" + ev.how : "wutou";
    default:
      return ev.type;
  }
}

/** One event (public or private) as a sentence; null for an event with nothing to say. */
export function eventText(ev, ctx) {
  if (!ev || ev.type === "other") return null;
  const p = params(ev, ctx);
  if (ev.type === "gouji") {
    const who = (ev.answerers || []).map((s) => ctx.name(s));
    p.answer = who.length ? tEvent("gouji_answer", { names: joinNames(who) }) : tEvent("gouji_noone", {});
  }
  // R15.4: the revolutionary laid its hand aside; its 三科 is no going out
  const rev = ev.type === "place" && ctx.revolutionary !== undefined && ctx.revolutionary !== null && ev.seat === ctx.revolutionary;
  return tEvent(rev ? "place_rev" : eventKey(ev), p);
}

// The moments a table announces (a banner on the felt and maybe a sound).
const MOMENTS = {
  gouji: "gouji",
  gousiji: "gouji",
  burning: "burn",
  burn_success: "burn",
  burn_broken: "burn",
  rang: "info",
  opened: "info",
  opened_at_end: "info",
  men: "info",
  jiefeng: "info",
  wutou: "info",
  chaos: "info",
  place: "place",
  ended: "place",
  moved: "place",
  broken_burn: "burn",
  chuan: "place",
  geming: "info",
  tiao: "info",
  void_redeal: "info",
  four_unlocked: "info",
  sanction: "info",
  punished: "place",
};

/** The places taken in one state as one line (a single announcement): the viewer's own
 * first, then by place. */
export function placesLine(events, ctx) {
  const mine = (e) => (ctx.me !== null && ctx.me !== undefined && e.seat === ctx.me ? 0 : 1);
  const sorted = [...events].sort((a, b) => mine(a) - mine(b) || a.place - b.place);
  return sorted.map((e) => eventText(e, ctx)).filter((x) => x).join(t("settle_sep"));
}

/** The kind of moment an event is ("gouji", "burn", "place", "info"), or null. */
export function momentOf(ev) {
  return MOMENTS[ev.type] || null;
}

/** A room note (docs/protocol.md `notes`) as a sentence; null for one with nothing to say. */
export function noteText(note, ctx) {
  const who = ctx.name(note.seat);
  switch (note.type) {
    case "timeout":
      if (note.seat === null || note.seat === undefined) return tNote("timeout_private", {});
      return tNote("timeout", { who, action: actionLabel(note.action || "") });
    case "trust":
      return tNote(`trust_${note.on ? "on" : "off"}_${note.why || "asked"}`, { who });
    case "seat":
      return tNote(note.replaced === "bot" ? "seat_bot" : "seat_player", {
        name: displayName(note.name),
        seat: t("seat_n", note.seat + 1),
      });
    case "watch":
      return tNote("watch", { name: displayName(note.name) });
    default:
      return null;
  }
}

/** A person's name as shown: the server's "guest" in the page's language. */
export function displayName(name) {
  return !name || name === "guest" ? t("guest") : name;
}

/** A reason's card params in the page's language. */
function reasonParams(params) {
  const out = { ...(params || {}) };
  for (const k of ["standing", "play", "cards"]) if (out[k] !== undefined) out[k] = cards(out[k]);
  return out;
}

/** Why a decision is refused (a `check` or `illegal` reason), in words. The rule it cites is
 * not in the words (players' rules pages show no rule numbers): the table links it (ruleHref). */
export function reasonText(reason) {
  if (!reason) return tWhy("other");
  const key = reason.key === "malformed" && reason.rule === "R4.2" ? "malformed_R4_2" : reason.key;
  return tWhy(key, reasonParams(reason.params)) || tWhy("other");
}

/** The address of the section of `preset`'s rules page that explains `rule` ("R5.1",
 * "R8.2/R8.5", "R13.5 (a)": the first number), in `lang`; null without a rule number. */
export function ruleHref(rule, preset, lang) {
  const m = /^R\d+(\.\d+)?/.exec(String(rule || "").trim());
  if (!m || !preset) return null;
  return `/rules/${encodeURIComponent(preset)}?lang=${lang === "zh" ? "zh" : "en"}#${m[0]}`;
}

/** A server `error` message in words: its reason when it has one, else its code. */
export function errorText(msg) {
  if (msg.reason) return reasonText(msg.reason);
  return tError(msg.code || "error");
}

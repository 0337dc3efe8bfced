// What the table page reads from the room and its game, for all of its parts: the room's code
// (from the address), its seats and their names (now, and when a line of the log was written),
// the naming the panels word things with, the game's number, the event's hold on the next game,
// the rule set with links into its rules page, and the replay links. It reads the table's
// shared state (state.js) and changes nothing in it but the seat notes it keeps for the names.
import { el } from "./common.js";
import { SEATS } from "./felt.js";
import { getLang, t } from "./i18n.js";
import { table, whenTable } from "./state.js";
import { displayName, namer, ruleHref } from "./words.js";

/** The table's shared state (table.js's `S`), from the moment table.js has started. */
let S = table.state;
whenTable((started) => {
  S = started.state;
});

/** The room's code: the last part of the page's address (/r/{code}). */
export const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();

/** The room summary's seats: [{name, title, bot, trust, connected, empty, free}]. */
export function roomSeats() {
  const raw = (S.room && S.room.seats) || [];
  const registered = Boolean(S.room && S.room.event); // an event's bots play as its players
  const out = [];
  for (let s = 0; s < SEATS; s++) {
    const x = raw[s] || {};
    const bot = x.bot || null;
    out.push({
      name: bot && !(registered && x.name) ? t("bot_name", s + 1) : x.name ? displayName(x.name) : "",
      title: x.name || "",
      bot: Boolean(bot),
      trust: Boolean(x.trust),
      connected: x.online === undefined ? undefined : Boolean(x.online),
      empty: !x.name && !bot,
      free: Boolean(x.free) && S.seat === null,
    });
  }
  return out;
}

/** Display names; two humans with one name get their seat numbers added. */
export function names() {
  const infos = roomSeats();
  const seen = {};
  for (const i of infos) if (i.name) seen[i.name] = (seen[i.name] || 0) + 1;
  return infos.map((i, s) => {
    if (i.empty || !i.name) return t("seat_n", s + 1);
    return seen[i.name] > 1 ? `${i.name} #${s + 1}` : i.name;
  });
}

/** Names of the seats, the viewer's seat and the hint: what the panels need to say things. */
export function naming() {
  return { ...namer(names(), S.seat), hint: S.hint, held: eventHold(), revolutionary: S.view ? S.view.revolutionary : null };
}

/** Why an event's table does not start its next game now (the event decides): waiting for
 * the match's other table, the match decided, the event closed; null when it may. */
export function eventHold() {
  const e = S.room && S.room.event;
  if (!e) return null;
  if (e.halted) return e.halted === "closed" ? "event_closed" : "event_decided";
  return e.waiting ? "event_waiting" : null;
}

export function gameNo() {
  return (S.view && S.view.match && S.view.match.game) || 0;
}

export function roomConfig() {
  const r = S.room || {};
  return r.config || r;
}

/** Keep the room's seat notes that say where in the games they happened (a person took a
 * bot's or an absent player's seat: `game`, `i` — the log's length then — and the name
 * `before`); the room's notes hold only the latest few. */
export function rememberSeatNotes() {
  for (const n of (S.room && S.room.notes) || []) {
    if (n.type !== "seat" || !Number.isInteger(n.game) || !Number.isInteger(n.i) || !Number.isInteger(n.seat)) continue;
    if (!S.seatNotes.some((x) => x.seat === n.seat && x.game === n.game && x.i === n.i)) S.seatNotes.push(n);
  }
}

/** The names of the seats when line `i` of the current game was written: a seat taken since
 * shows the name it had then (the bot's, the absent player's), not its new player's. */
export function namesAt(i) {
  const game = gameNo();
  const now = names();
  return now.map((name, seat) => {
    let first = null; // the first change of the seat after line i
    for (const n of S.seatNotes) {
      if (n.seat !== seat || n.game < game || (n.game === game && n.i <= i)) continue;
      if (!first || n.game < first.game || (n.game === first.game && n.i < first.i)) first = n;
    }
    if (!first) return name;
    const registered = Boolean(S.room && S.room.event); // an event's bots play as its players
    const bot = first.replaced === "bot" && !(registered && first.before);
    return bot || !first.before ? t("bot_name", seat + 1) : displayName(first.before);
  });
}

/** The table's rule set (its rules page is /rules/{preset}). */
export function presetCode() {
  return (S.view && S.view.preset) || roomConfig().preset || "OUTLINE_FULL";
}

/** A link to the section of the table's rules page that explains `rule` (the page shows no
 * rule numbers: the number is in the link's address and title); nothing without a rule. */
function ruleLink(rule) {
  const href = ruleHref(rule, presetCode(), getLang());
  return href ? el("a", { class: "rule-link", href, target: "_blank", rel: "noopener", title: rule }, t("rule_see")) : null;
}

/** Words followed by the link to the rule they cite, if any. */
export function withRule(text, rule) {
  const link = ruleLink(rule);
  return link ? [text, getLang() === "zh" ? "" : " ", link] : [text];
}

/** The replay of game `i`; null while it is a duplicate deal the other table still plays. */
export function replayHref(i) {
  const shown = S.room && S.room.event ? S.room.event.public_games : null;
  if (shown !== null && shown !== undefined && i >= shown) return null;
  return `/replay/${code}/${i}`;
}


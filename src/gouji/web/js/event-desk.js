// What the organiser's and referees' page (/e/{code}/admin) shares between its parts: who this
// page acts as (the key and its role), the writes it sends (each with an Idempotency-Key, one at
// a time per action, the button disabled meanwhile), the confirmation dialog, the answers of the
// server checked before they are used, and the outline's ladder of sanctions.
import { t } from "./i18n.js";
import { el, lsGet, lsSet, toast } from "./common.js";
import { ApiRefusal, api, eventCode, loadKey, saveKey } from "./event-api.js";
import { parseTableId } from "./event-words.js";

const $ = (id) => document.getElementById(id);

/** The page's state: the event's JSON and who the page's key is. */
export const desk = {
  code: eventCode(),
  ev: null, // GET /api/events/{code}
  key: "", // the key the page acts with (organiser's or a referee's)
  role: null, // "organiser", "referee", or null (no key, or not known yet)
  access: null, // {role, name, id, matches} of the key (GET …/access)
};

/** What the parts ask of the page (set by event-admin.js). */
export const hooks = {
  reload: async () => {},
  render: () => {},
  keyRefused: () => {},
};

export function base() {
  return `/api/events/${encodeURIComponent(desk.code)}`;
}

// ------------------------------------------------------------------ the answers checked
/** The server answered something the page cannot read (a newer server, a proxy's page). */
export class BadAnswer extends Error {
  constructor() {
    super(t("e_answer"));
  }
}

export function need(ok) {
  if (!ok) throw new BadAnswer();
}

export const isText = (x) => typeof x === "string";
export const isInt = (x) => Number.isInteger(x);
export const isNum = (x) => typeof x === "number" && Number.isFinite(x);
export const intList = (x, n) => Array.isArray(x) && (n === undefined || x.length === n) && x.every(isInt);

/** The answer of GET …/access: who this key is. */
export function accessOf(data) {
  need(data && (data.role === "organiser" || data.role === "referee"));
  need(isText(data.name) && isText(data.id));
  need(data.matches === null || intList(data.matches));
  return { role: data.role, name: data.name, id: data.id, matches: data.matches };
}

// ------------------------------------------------------------------ keys
// The organiser's key is kept where the other event pages look for it (event-api.js); a
// referee's key beside it, so that opening a referee's link never loses the organiser's.
export function loadRefereeKey() {
  return lsGet(`gouji.event.${desk.code}.referee`) || "";
}

export function saveRoleKey(role, value) {
  if (role === "organiser") saveKey(desk.code, value);
  else lsSet(`gouji.event.${desk.code}.referee`, value ? String(value) : null);
}

/** The keys this browser remembers for the event, the organiser's first. */
export function rememberedKeys() {
  return [loadKey(desk.code), loadRefereeKey()].filter(Boolean);
}

/** Who `key` is, asked of the server; the page then acts with it. Throws the refusal. */
export async function useKey(key) {
  const who = accessOf(await api("GET", base() + "/access", undefined, key));
  desk.key = key;
  desk.role = who.role;
  desk.access = who;
  saveRoleKey(who.role, key);
  return who;
}

/** Forget the page's key (refused, or the user asked). */
export function dropKey() {
  if (desk.role) saveRoleKey(desk.role, "");
  else if (desk.key) {
    if (loadKey(desk.code) === desk.key) saveKey(desk.code, "");
    if (loadRefereeKey() === desk.key) saveRoleKey("referee", "");
  }
  desk.key = "";
  desk.role = null;
  desk.access = null;
}

export const organiser = () => desk.role === "organiser";

/** Whether the page's key may act at a table or match (a referee: at its match numbers). */
export function covers(id) {
  if (desk.role === "organiser") return true;
  if (desk.role !== "referee" || !desk.access) return false;
  if (desk.access.matches === null) return true;
  const p = parseTableId(id);
  return !!p && desk.access.matches.includes(p.match);
}

// ------------------------------------------------------------------ writes
const running = new Set(); // actions whose request is on its way
const settling = new Set(); // actions sent whose page is not yet redrawn (see act)
const lost = new Map(); // action → {sig, id}: a request whose answer never came

function newId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Whether the action `slot` is being sent now (its buttons are drawn disabled). */
export function busy(slot) {
  return running.has(slot) || settling.has(slot);
}

/**
 * Send a change (POST, PUT, DELETE) for the user's action `slot` with the page's key and an
 * Idempotency-Key: a new one per action, the same one again when the action is retried after
 * its answer was lost (no answer, or the server failed), so the server records it once. While
 * it runs, the action cannot be sent again and `button` is disabled. Resolves to the answer,
 * or undefined when the action was already on its way; throws the refusal.
 */
export async function write(slot, method, path, body, button, keyed = true) {
  if (running.has(slot)) return undefined;
  const sig = JSON.stringify([method, path, body === undefined ? null : body, desk.key]);
  let entry = lost.get(slot);
  if (!entry || entry.sig !== sig) entry = { sig, id: newId() };
  // `keyed` false: a request that changes nothing (a preview), sent with the action's guard
  running.add(slot);
  if (button) button.disabled = true;
  try {
    const data = await api(method, base() + path, body, desk.key, keyed ? { "Idempotency-Key": entry.id } : {});
    lost.delete(slot);
    return data;
  } catch (e) {
    if (e instanceof ApiRefusal && (e.status === 0 || e.status >= 500)) lost.set(slot, entry);
    else lost.delete(slot);
    throw e;
  } finally {
    running.delete(slot);
    if (button) button.disabled = false;
  }
}

/** Whether a refusal says the page's key is no key of the event (a wrong one, a revoked
 * referee's): the page then asks for a key. A referee refused elsewhere than at its matches
 * keeps its key. */
function keyGone(e) {
  return !!e && e.status === 403 && !/ does not referee /.test(e.serverMessage || "");
}

/** A refusal in words on the page (and a toast); a refused key is asked for again. */
export function showError(e) {
  const text = e && e.message ? e.message : String(e);
  $("admin-error").textContent = text;
  toast(text, "error", 6000, "event");
  if (keyGone(e)) hooks.keyRefused();
}

export function clearError() {
  $("admin-error").textContent = "";
}

/**
 * `write` then the event read again; a refusal is shown. Resolves to the answer or null.
 * `written(answer)` runs once the write succeeded, before the re-read (a form cleared there
 * keeps what the user types meanwhile). The action stays busy until the page is redrawn and
 * the caller has done with the answer: a second click of a double click that comes late,
 * under load, would otherwise send the same form again.
 */
export async function act(slot, method, path, body, button, written) {
  if (settling.has(slot)) return null;
  clearError();
  settling.add(slot);
  try {
    const data = await write(slot, method, path, body, button);
    if (data === undefined) return null;
    if (written) written(data); // before the re-read: what is typed meanwhile is the next one's
    await hooks.reload();
    return data;
  } catch (e) {
    showError(e);
    return null;
  } finally {
    settling.delete(slot);
    if (button) button.disabled = busy(slot); // the redraw drew it while the action settled
  }
}

// ------------------------------------------------------------------ the confirmation dialog
let closeAsk = null;

/**
 * Ask before a change: a modal with `title`, `body` (nodes), a cancel and an OK button. With
 * `run` (async, resolves to null or the refusal's words), OK runs it with both buttons
 * disabled and the dialog closes once it succeeds; a refusal stays in the dialog. Resolves to
 * whether it was confirmed (and done).
 */
export function ask({ title, body, ok, cancel, danger, run }) {
  const box = $("ask");
  if (closeAsk) closeAsk(false);
  return new Promise((resolve) => {
    const yes = el("button", { type: "button", class: "ask-ok " + (danger ? "danger" : "primary") }, ok);
    const no = el("button", { type: "button", class: "ask-cancel" }, cancel || t("a_cancel"));
    const said = el("p", { class: "error ask-error", role: "alert" });
    const finish = (value) => {
      closeAsk = null;
      if (box.open) box.close();
      box.replaceChildren();
      resolve(value);
    };
    closeAsk = finish;
    yes.addEventListener("click", async () => {
      if (yes.disabled) return;
      if (!run) return finish(true);
      yes.disabled = no.disabled = true;
      said.textContent = "";
      const refused = await run();
      if (closeAsk !== finish) return; // another dialog took its place
      if (!refused) return finish(true);
      said.textContent = refused;
      yes.disabled = no.disabled = false;
    });
    no.addEventListener("click", () => finish(false));
    box.oncancel = (e) => {
      e.preventDefault(); // Esc: as the cancel button, unless the change is on its way
      if (!no.disabled) finish(false);
    };
    box.replaceChildren(el("h3", { class: "ask-title", id: "ask-title" }, title), el("div", { class: "ask-body" }, ...body), said, el("div", { class: "ask-buttons" }, no, yes));
    box.showModal();
    yes.focus();
  });
}

/** The words of a refusal for a dialog (a refused key is asked for again as well). */
export function refusedWords(e) {
  if (keyGone(e)) hooks.keyRefused();
  return e && e.message ? e.message : String(e);
}

// ------------------------------------------------------------------ small helpers
export function copy(text) {
  const done = () => toast(t("events.copied"), "info", 1500, "event");
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else {
    const box = el("textarea", { style: "position:fixed;opacity:0" }, text);
    document.body.append(box);
    box.select();
    try {
      document.execCommand("copy");
      done();
    } catch (e) {
      /* copy by hand */
    }
    box.remove();
  }
}

/** A time of the server (epoch seconds) in the reader's local time: "3月5日 14:07:31". */
export function localTime(epoch) {
  if (!isNum(epoch)) return "";
  const d = new Date(epoch * 1000);
  const lang = document.documentElement.lang || "zh-CN";
  const day = d.toLocaleDateString(lang, { month: "short", day: "numeric" });
  const time = d.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  return `${day} ${time}`;
}

/** "第 1、2 场" / "Matches 1, 2" / "全部场次" of a referee's match numbers. */
export function matchesText(matches) {
  if (matches === null || matches === undefined) return t("ref_all");
  return t("ref_matches", matches.join(t("sep")));
}

// The outline's ladder of sanctions (O 第二十九–三十条), as gouji/competition/discipline.py has
// it: each kind's step, and the sanction proposed after the most severe step so far.
const LADDER = { warning: 0, cancel_turn: 1, penalty: 1, last_place: 2, disqualify: 3 };
const NEXT_STEP = ["penalty", "last_place", "disqualify", "disqualify"];

/** The sanction the outline proposes after `kinds` (one player's so far); a first: warning. */
export function nextStep(kinds) {
  const steps = kinds.filter((k) => k in LADDER).map((k) => LADDER[k]);
  return steps.length ? NEXT_STEP[Math.max(...steps)] : "warning";
}

/** The player's sanctions so far in the event ({team, player} as the JSON names them). */
export function sanctionsOf(ev, team, player) {
  return (ev.sanctions || []).filter((s) => s && s.team === team && s.player === player);
}

/** The outline's next step for a player: the server's (offenders) where it flags one. */
export function proposalFor(ev, team, player) {
  const flagged = (ev.offenders || []).find((o) => o && o.team === team && o.player === player);
  if (flagged && isText(flagged.next)) return flagged.next;
  return nextStep(sanctionsOf(ev, team, player).map((s) => s.kind));
}

// 快捷语 and emotes at the table (docs/protocol.md `say` / `said`; gouji.server.tables.phrases): a fixed
// list of phrases and faces that a seated player sends by id. Every page shows them in its
// reader's language, as a bubble by the speaker's seat. A reader mutes a seat by tapping its
// name (or in the list), remembered for the room. Nothing of this at a competition table or
// with a competition's scoring (`room.chat` false: R19.5, no signalling between partners).
import { el, lsGet, lsSet } from "./common.js";
import { t } from "./i18n.js";
import { table, whenTable } from "./state.js";

// The server's ids (gouji.server.tables.phrases.QUICK_WORDS, EMOTES), in the order the list
// shows them; their words are words/chat.js's say.<id> and face.<id>, a face's picture here.
export const PHRASES = ["hello", "hurry", "thinking", "nice_cards", "well_played", "nice_burn", "teamwork", "cheer", "thanks", "oops", "stay", "bye"];
export const FACES = {
  smile: "😄",
  laugh: "😂",
  love: "😍",
  cool: "😎",
  sweat: "😅",
  shock: "😱",
  cry: "😭",
  sleepy: "😴",
};

const GAP_MS = 3000; // the server's say_gap_s: the button rests as long after each say
const PHRASE_MS = 4000; // how long a bubble stays
const FACE_MS = 3000;
const LEAVE_MS = 400;

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const QUIET_KEY = "gouji.quiet." + code;
const $ = (id) => document.getElementById(id);

/** The words of an id in the reader's language (a face: the face itself). */
export function sayText(id) {
  if (PHRASES.includes(id)) return t("say." + id);
  return FACES[id] || null;
}

function state() {
  return table.state;
}

function chatOn() {
  const r = state().room;
  return Boolean(r && r.chat);
}

function human(seat) {
  const seats = (state().room && state().room.seats) || [];
  return Boolean(seats[seat] && seats[seat].human);
}

/** The seat's name as the felt shows it (the reader's words for bots and empty seats). */
function seatName(seat) {
  const n = document.querySelector(`#felt .seat[data-seat="${seat}"] .seat-name`);
  return (n && n.textContent) || String(seat + 1);
}

// ------------------------------------------------------------------ muted seats
function muted() {
  try {
    const v = JSON.parse(lsGet(QUIET_KEY) || "[]");
    return new Set(Array.isArray(v) ? v.filter((s) => Number.isInteger(s)) : []);
  } catch (e) {
    return new Set();
  }
}

function setMuted(seat, on) {
  const m = muted();
  if (on) m.add(seat);
  else m.delete(seat);
  lsSet(QUIET_KEY, m.size ? JSON.stringify([...m].sort()) : null);
  if (on) for (const b of document.querySelectorAll(`.say-bubble[data-seat="${seat}"]`)) b.remove();
  markMuted();
  if (!$("say-panel").classList.contains("hidden")) fillPanel();
}

/** A "muted" tag in the muted seats' name rows: a style of our own, so that the felt
 * (redrawn by table.js) is never touched. */
function markMuted() {
  const rules = chatOn()
    ? [...muted()].map((s) => `#felt .seat[data-seat="${s}"] .seat-head::after { content: "${t("tag")}"; }`)
    : [];
  $("say-muted-style").textContent = rules.join("\n");
}

// ------------------------------------------------------------------ the list
function openButton() {
  return el(
    "button",
    { type: "button", id: "say-open", class: "say-open", "aria-expanded": "false", "aria-controls": "say-panel", onclick: togglePanel },
    el("span", { class: "say-icon", "aria-hidden": "true" }),
    el("span", { class: "say-open-label" }, t("chat.open")),
  );
}

function togglePanel(e) {
  if (e) e.stopPropagation();
  const panel = $("say-panel");
  const open = panel.classList.contains("hidden");
  closeMenu();
  panel.classList.toggle("hidden", !open);
  $("say-open").setAttribute("aria-expanded", String(open));
  if (open) {
    fillPanel();
    fitPanel();
  }
}

/** The list may meet the bottom of a short window: then it scrolls instead. */
function fitPanel() {
  const panel = $("say-panel");
  panel.style.maxHeight = "";
  if (getComputedStyle(panel).position === "fixed") return; // a phone's sheet: CSS sizes it
  const r = panel.getBoundingClientRect();
  if (r.bottom > innerHeight - 8) panel.style.maxHeight = `${Math.max(160, innerHeight - 8 - r.top)}px`;
}

function closePanel() {
  $("say-panel").classList.add("hidden");
  $("say-open").setAttribute("aria-expanded", "false");
}

function fillPanel() {
  const panel = $("say-panel");
  const me = state().seat;
  const quiet = muted();
  const others = [0, 1, 2, 3, 4, 5].filter((s) => s !== me && human(s));
  panel.setAttribute("aria-label", t("title"));
  panel.replaceChildren(
    el(
      "div",
      { class: "say-head" },
      el("b", null, t("title")),
      el("button", { type: "button", class: "small say-close", "aria-label": t("chat.close"), onclick: closePanel }, "×"),
    ),
    el(
      "div",
      { class: "say-phrases" },
      PHRASES.map((id) => el("button", { type: "button", class: "say-phrase", dataset: { say: id }, onclick: () => say(id) }, t("say." + id))),
    ),
    el(
      "div",
      { class: "say-faces", role: "group", "aria-label": t("faces") },
      Object.keys(FACES).map((id) =>
        el("button", { type: "button", class: "say-face", dataset: { say: id }, title: t("face." + id), "aria-label": t("face." + id), onclick: () => say(id) }, FACES[id]),
      ),
    ),
    others.length
      ? el(
          "div",
          { class: "say-mutes" },
          el("span", { class: "muted" }, t("mutes")),
          others.map((s) =>
            el(
              "button",
              { type: "button", class: "small say-mute" + (quiet.has(s) ? " on" : ""), dataset: { seat: String(s) }, "aria-pressed": String(quiet.has(s)), onclick: () => setMuted(s, !quiet.has(s)) },
              seatName(s),
            ),
          ),
        )
      : null,
  );
}

function say(id) {
  if (!table.send({ type: "say", id })) return;
  closePanel();
  const b = $("say-open");
  b.disabled = true; // the server takes one every 3 s: the button says so by resting
  setTimeout(() => {
    b.disabled = false;
  }, GAP_MS);
}

// ------------------------------------------------------------------ the seat's menu
/** The record page (战绩) of a seat held by an account, else null. */
function record(seat) {
  const s = ((state().room && state().room.seats) || [])[seat];
  return s && s.account && s.name && !s.bot ? "/players/" + encodeURIComponent(s.name) : null;
}

/** Tapping a seat's name offers to mute (or unmute) that seat's 快捷语 and, for an account's
 * seat, its record (战绩). */
function onFeltClick(e) {
  const name = e.target.closest && e.target.closest(".seat-name");
  const seatEl = name && name.closest(".seat");
  if (!seatEl) return;
  const seat = Number(seatEl.dataset.seat);
  const mutable = chatOn() && seat !== state().seat && human(seat);
  if (!mutable && !record(seat)) return;
  openMenu(seat, name, mutable);
}

function openMenu(seat, anchor, mutable = true) {
  closePanel();
  const menu = $("say-menu");
  const on = muted().has(seat);
  const who = seatName(seat);
  const page = record(seat);
  menu.replaceChildren(
    mutable
      ? el(
          "button",
          { type: "button", class: "say-menu-btn", dataset: { seat: String(seat) }, onclick: () => {
            setMuted(seat, !on);
            closeMenu();
          } },
          on ? t("unmute", { who: who }) : t("mute", { who: who }),
        )
      : null,
    page
      ? el("a", { class: "button small say-menu-btn say-record", href: page, target: "_blank", rel: "noopener", onclick: closeMenu }, t("record", { who: who }))
      : null,
  );
  menu.classList.remove("hidden");
  const wrap = menu.parentElement.getBoundingClientRect();
  const r = anchor.getBoundingClientRect();
  const x = Math.max(4, Math.min(wrap.width - menu.offsetWidth - 4, r.left - wrap.left));
  menu.style.left = `${x}px`;
  menu.style.top = `${r.bottom - wrap.top + 4}px`;
  menu.querySelector("button, a").focus();
}

function closeMenu() {
  $("say-menu").classList.add("hidden");
}

// ------------------------------------------------------------------ bubbles
function showBubble(seat, id) {
  const seatEl = document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  const text = sayText(id);
  const layer = $("say-bubbles");
  if (!seatEl || !text) return;
  for (const old of layer.querySelectorAll(`.say-bubble[data-seat="${seat}"]`)) old.remove();
  const face = Boolean(FACES[id]);
  const b = el("div", { class: "say-bubble" + (face ? " face" : ""), role: "status", dataset: { seat: String(seat), say: id } }, text);
  layer.append(b);
  const area = layer.getBoundingClientRect();
  const r = seatEl.getBoundingClientRect();
  const head = seatEl.querySelector(".seat-head");
  const h = head ? head.getBoundingClientRect() : r;
  const low = r.top + r.height / 2 - area.top > area.height / 2; // the seats below: above them
  b.classList.add(low ? "above" : "below");
  const half = b.offsetWidth / 2;
  const x = Math.max(half + 4, Math.min(area.width - half - 4, r.left + r.width / 2 - area.left));
  b.style.left = `${x}px`;
  b.style.top = low ? `${r.top - area.top - b.offsetHeight - 8}px` : `${h.bottom - area.top + 8}px`;
  b.style.setProperty("--tail", `${r.left + r.width / 2 - area.left - x}px`);
  setTimeout(() => {
    b.classList.add("leaving"); // fades out, then goes
    setTimeout(() => b.remove(), LEAVE_MS);
  }, face ? FACE_MS : PHRASE_MS);
}

// ------------------------------------------------------------------ start
function update() {
  const on = chatOn();
  const speaker = on && state().seat !== null && state().joined;
  $("say-open").classList.toggle("hidden", !speaker);
  if (!speaker) closePanel();
  if (!on) {
    closeMenu();
    $("say-bubbles").replaceChildren();
  }
  $("say-open").querySelector(".say-open-label").textContent = t("chat.open");
  markMuted();
  if (!$("say-panel").classList.contains("hidden")) fillPanel();
}

function onMessage(msg) {
  if (msg.type === "said") {
    if (chatOn() && Number.isInteger(msg.seat) && !muted().has(msg.seat)) showBubble(msg.seat, msg.id);
  } else if (msg.type === "state" || msg.type === "welcome" || msg.type === "replaced") update();
}

function start() {
  const wrap = document.querySelector(".felt-wrap");
  if (!wrap) return;
  wrap.append(
    el("div", { id: "say-bubbles", class: "say-bubbles", "aria-live": "polite" }),
    openButton(),
    el("div", { id: "say-panel", class: "say-panel hidden", role: "dialog" }),
    el("div", { id: "say-menu", class: "say-menu hidden" }),
  );
  document.head.append(el("style", { id: "say-muted-style" }));
  table.listeners.push(onMessage);
  $("felt").addEventListener("click", onFeltClick);
  $("lang").addEventListener("click", update); // after table.js's own: the new language
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".say-panel, .say-open, .say-menu, .seat-name")) {
      closePanel();
      closeMenu();
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      closePanel();
      closeMenu();
    }
  });
  update();
}

whenTable(start);

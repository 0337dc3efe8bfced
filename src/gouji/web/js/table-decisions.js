// Where the player decides, on the table page: the hand's selection (a hint selects its cards),
// the action bar (what the decision asks, its buttons, why the selection cannot be played, the
// 自动过牌 and 托管 switches, the automatic pass) and the two panels that hold decisions of their
// own: the tribute (R16) and the settlement with the between-games question. It reads and
// changes the table's shared state and sends through it (state.js); table.js calls it.
import { RANKS, canon, cardsText, countsOf, parseCards, sortCards } from "./cards.js";
import { el, patch, toast } from "./common.js";
import { teamOf, tickTimers } from "./felt.js";
import { drawHand, setupHandInput, tapRank } from "./hand.js";
import { actionLabel, getLang, t } from "./i18n.js";
import { settlementPanel } from "./settlement.js";
import { table, whenTable } from "./state.js";
import { firstLeadMade, hasTribute, huanCheckText, tributePanel } from "./tribute.js";
import { eventHold, gameNo, naming, replayHref, roomConfig, roomSeats, withRule } from "./table-room.js";

const $ = (id) => document.getElementById(id);
const CARD_KINDS = ["burn", "play", "huan"];
const CARD_ACTION = /^(play|burn|huan) /;
const AUTO_KEY = "gouji.autopass";
const BURN_CHOICES = 6; // a burn offer lists at most this many beating plays as buttons
const TRIBUTE_READ_MS = 8000; // the tribute panel stays this long at least (first lead or not)

/** The table's shared state (table.js's `S`), from the moment table.js has started. */
let S = table.state;
whenTable((started) => {
  S = started.state;
});

/** Send a message, or a decision (`auto`: one the page made by itself), through table.js. */
const send = (msg) => table.send(msg);
const act = (action, auto = false) => table.act(action, auto);

// ------------------------------------------------------------------ decisions
export function legalNow() {
  const v = S.view;
  if (!v || S.seat === null) return [];
  let acts = (v.legal_actions || []).slice();
  const m = v.match;
  if (!acts.length && m && m.prompt && m.prompt_to === S.seat) acts = [m.prompt, "no" + m.prompt];
  return acts;
}

export function onlyAutoPass() {
  const acts = legalNow();
  return autoPassOn() && acts.length === 1 && acts[0] === "pass";
}

function selectedCards() {
  return [...S.selected].map((i) => S.hand[i]).filter((c) => c !== undefined);
}

function selectedAction(kind) {
  const sel = selectedCards();
  if (!sel.length) return null;
  const a = `${kind} ${canon(sel)}`;
  return legalNow().includes(a) ? a : null;
}

/** The legal card action the selection makes, if any (play, burn or 还贡). */
export function selectedLegal() {
  for (const kind of CARD_KINDS) {
    const a = selectedAction(kind);
    if (a) return a;
  }
  return null;
}

/** The card action the selection would be in this phase (legal or not). */
function selectionAction() {
  const v = S.view;
  const sel = selectedCards();
  if (!v || !sel.length) return null;
  const kind = { burn_offer: "burn", huan: "huan", lead: "play", respond: "play", rang_return: "play" }[v.phase];
  return kind ? `${kind} ${canon(sel)}` : null;
}

/** Ask the server why the selection cannot be played (its answer fills S.why). */
export function checkSelection() {
  S.why = null;
  const a = selectionAction();
  if (a && legalNow().length && !legalNow().includes(a)) {
    S.checkFor = a;
    send({ type: "check", action: a });
  } else S.checkFor = null;
}

/** What the decision asks, in words, for the phases that need more than buttons. */
function askText(v, ctx) {
  const me = S.seat;
  switch (v.phase) {
    case "burn_offer": {
      const own = t("ask_burn", { owner: ctx.name(v.owner), cards: cardsWords(v.standing) });
      return teamOf(v.owner) === teamOf(me) ? `${own} ${t("ask_burn_mate", { owner: ctx.name(v.owner) })}` : own;
    }
    case "hui":
      return legalNow().includes("hui 5") ? t("ask_hui5") : t("ask_hui");
    case "huan":
      return t("select_card_huan");
    case "huan_check":
      return huanCheckText(v, ctx);
    case "renounce":
      return t("ask_renounce", { who: ctx.name(v.revolutionary) });
    case "order":
      return t("ask_order", { who: ctx.name(v.claim ? v.claim.seat : null) });
    case "yudian":
    case "mingdian":
    case "geming":
    case "kou":
      return t("ask_" + v.phase);
    default:
      return null;
  }
}

function cardsWords(text) {
  return cardsText(text || "", getLang());
}

function actionButton(a, extraClass = "") {
  return el(
    "button",
    {
      type: "button",
      class: "act-btn" + extraClass + (S.hint === a ? " hinted" : "") + (a === "pass" ? " pass-btn" : ""),
      dataset: { action: a },
      disabled: Boolean(S.busy),
      onclick: () => act(a),
    },
    actionLabel(a),
  );
}

function cardKindButton(kind) {
  const a = selectedAction(kind);
  const hinted = S.hint && S.hint === a;
  return el(
    "button",
    {
      type: "button",
      class: "primary play-btn" + (hinted ? " hinted" : ""),
      dataset: { action: kind },
      disabled: Boolean(S.busy) || !a,
      title: a ? actionLabel(a) : "",
      onclick: () => {
        const x = selectedAction(kind);
        if (x) act(x);
      },
    },
    t(kind),
  );
}

function decisionButtons(v, acts) {
  const busy = Boolean(S.busy);
  const kinds = new Set(acts.filter((a) => CARD_ACTION.test(a)).map((a) => a.split(" ")[0]));
  const buttons = [];
  if (acts.length && hintsOffered()) {
    buttons.push(el("button", { type: "button", class: "hint-btn", dataset: { action: "hint" }, disabled: busy, onclick: askHint }, t("hint")));
  }
  for (const kind of CARD_KINDS) if (kinds.has(kind)) buttons.push(cardKindButton(kind));
  if (v.phase === "burn_offer") {
    for (const a of acts.filter((x) => x.startsWith("burn ")).slice(0, BURN_CHOICES)) buttons.push(actionButton(a, " burn-choice"));
  }
  for (const a of acts) if (!CARD_ACTION.test(a)) buttons.push(actionButton(a));
  const shown = new Set(acts.filter((a) => !CARD_ACTION.test(a)));
  const hk = S.hint ? S.hint.split(" ")[0] : "";
  if (S.hint && !shown.has(S.hint) && !(CARD_KINDS.includes(hk) && kinds.has(hk))) buttons.push(actionButton(S.hint));
  if (S.selected.size && !v.is_over) {
    buttons.push(el("button", { type: "button", class: "small clear-btn", onclick: clearSelection }, t("clear")));
  }
  return buttons;
}

function gameEndButtons(v) {
  const m = v.match || {};
  const out = [];
  if (v.is_over && S.settleClosed === gameNo() && m.result) {
    out.push(el("button", { type: "button", class: "settle-open", onclick: () => reopenSettlement() }, t("settle_show")));
  }
  if (v.is_over && !m.prompt && !m.is_over && S.seat !== null && !eventHold()) {
    out.push(el("button", { type: "button", class: "primary next-btn", dataset: { action: "next" }, onclick: () => send({ type: "next" }) }, t("next_game")));
  }
  return out;
}

function statusLine(v, ctx) {
  const status = el("div", { class: "act-status" });
  if (!v.is_over && v.to_act === S.seat) {
    status.append(el("span", { class: "your-turn" }, t("to_act_you")), " ", el("span", { class: "timer", dataset: { deadline: String(S.deadline || "") } }));
  }
  // the tribute panel, when shown, asks its own questions
  const ask = v.to_act === S.seat && !v.is_over && !tributeVisible(v) ? askText(v, ctx) : null;
  return ask ? [status, el("div", { class: "ask-text decision" }, ask)] : [status];
}

function optionsRow() {
  const info = roomSeats()[S.seat] || {};
  return el(
    "div",
    { class: "act-opts" },
    el("span", { class: "muted keys-help" }, t("keys_help")),
    el(
      "label",
      { class: "check" },
      el("input", { type: "checkbox", id: "autopass", checked: autoPassOn(), onchange: (e) => setAutoPass(e.target.checked) }),
      " ",
      t("auto_pass"),
    ),
    el(
      "button",
      { type: "button", class: "small trust-btn" + (info.trust ? " on" : ""), id: "trust", onclick: () => send({ type: "trust", on: !info.trust }) },
      info.trust ? t("trust_off") : t("trust_on"),
    ),
  );
}

export function renderActions() {
  const box = $("actions");
  const v = S.view;
  box.classList.toggle("hidden", !v);
  patch(box, v ? actionNodes(v) : []);
  tickTimers(box);
}

function actionNodes(v) {
  if (S.seat === null) {
    const free = roomSeats().some((i) => i.free);
    return [el("span", { class: "muted spectator-note" }, free ? t("spectator_take") : t("spectator")), ...gameEndButtons(v)];
  }
  const nodes = statusLine(v, naming());
  nodes.push(el("div", { class: "act-buttons" }, decisionButtons(v, legalNow()), gameEndButtons(v)));
  if (S.why && S.selected.size) nodes.push(el("div", { class: "why", role: "status" }, t("why_prefix"), withRule(S.why.text, S.why.rule)));
  nodes.push(optionsRow());
  return nodes;
}

function autoPassOn() {
  try {
    return localStorage.getItem(AUTO_KEY) !== "0";
  } catch (e) {
    return true;
  }
}

function setAutoPass(on) {
  try {
    localStorage.setItem(AUTO_KEY, on ? "1" : "0");
  } catch (e) {
    /* ignore */
  }
  maybeAutoPass();
}

/** 自动过牌: with nothing but a pass to choose, pass at once (it keeps 托管 on). */
export function maybeAutoPass() {
  if (!S.view || S.busy || !onlyAutoPass() || S.autoSent === S.version) return;
  S.autoSent = S.version;
  act("pass", true);
}

/** Whether the table offers 提示 (the hint, 高手's choice): not at a rated table, whose
 * rating is the player's own play (D198; the server refuses it there with no_hints). */
export function hintsOffered() {
  return !roomConfig().rated;
}

export function askHint() {
  if (hintsOffered()) send({ type: "hint" }); // the H key too
}

// ------------------------------------------------------------------ hand
export function renderHand() {
  const box = $("hand");
  const v = S.view;
  if (!v || S.seat === null || v.hand === undefined) {
    box.classList.add("hidden");
    box.textContent = "";
    S.hand = [];
    return;
  }
  box.classList.remove("hidden");
  if (v.hand !== S.handKey) {
    S.hand = sortCards(parseCards(v.hand));
    S.handKey = v.hand;
    S.selected.clear();
    S.why = null;
  }
  drawHand(box, S.hand, S.selected, getLang());
}

function refreshSelection() {
  for (const c of $("hand").querySelectorAll(".card")) c.classList.toggle("selected", S.selected.has(Number(c.dataset.idx)));
  renderActions();
}

export function clearSelection() {
  if (!S.selected.size && !S.hint) return;
  S.selected.clear();
  S.hint = null;
  S.why = null;
  refreshSelection();
}

/** Whether the decision is a 还贡 (only `huan <card>` actions): a click picks one card. */
function onlyHuan() {
  const acts = legalNow();
  return acts.length > 0 && acts.every((a) => a.startsWith("huan "));
}

function markSelected() {
  for (const c of $("hand").querySelectorAll(".card")) c.classList.toggle("selected", S.selected.has(Number(c.dataset.idx)));
}

export function setupHand() {
  setupHandInput($("hand"), {
    set: (i, mode) => {
      if (!S.view || S.view.is_over) return; // nothing to play once the game is over
      if (mode && onlyHuan()) S.selected.clear();
      if (mode) S.selected.add(i);
      else S.selected.delete(i);
      markSelected();
    },
    tap: (i) => {
      if (!S.view || S.view.is_over) return;
      S.selected = tapRank(S.hand, S.selected, i, onlyHuan());
      markSelected();
    },
    end: () => {
      S.hint = null;
      checkSelection();
      renderActions();
    },
  });
}

export function applyHint() {
  const h = S.hint;
  if (!h) return;
  const kind = h.split(" ")[0];
  if (CARD_KINDS.includes(kind)) {
    const want = countsOf(parseCards(h.slice(kind.length)));
    S.selected.clear();
    S.hand.forEach((c, i) => {
      const r = RANKS.indexOf(c);
      if (want[r] > 0) {
        want[r] -= 1;
        S.selected.add(i);
      }
    });
    S.why = null;
  }
  refreshSelection();
  renderTribute();
  renderSettlement();
  toast(`${t("hint")}${t("colon")}${actionLabel(h)}`, "info", 2500, "hint");
}

// ------------------------------------------------------------------ tribute and settlement
/** Whether the tribute panel shows: reopened, or from the tribute until the first lead and
 * then TRIBUTE_READ_MS after it appeared (bots lead at once: it stayed 1.8 s), but not over the
 * viewer's own turn to play; × closes it. */
function tributeVisible(v) {
  if (!v || !hasTribute(v) || v.is_over) return false;
  const game = gameNo();
  if (S.tributeOpen === game) return true;
  if (S.tributeClosed === game) return false;
  if (!firstLeadMade(v)) {
    if (!S.tributeShown || S.tributeShown.game !== game) S.tributeShown = { game, at: Date.now() };
    return true;
  }
  const shown = S.tributeShown;
  if (!shown || shown.game !== game) return false; // the page came after the first lead
  const playing = ["lead", "respond", "burn_offer", "kou"].includes(v.phase) && v.to_act === S.seat && S.seat !== null;
  const left = shown.at + TRIBUTE_READ_MS - Date.now();
  if (left <= 0 || playing) return false;
  clearTimeout(S.tributeTimer);
  S.tributeTimer = setTimeout(() => {
    renderTribute();
    renderTributeButton();
    renderActions();
  }, left + 20);
  return true;
}

export function renderTributeButton() {
  const b = $("tribute-open");
  const v = S.view;
  b.classList.toggle("hidden", !(v && hasTribute(v) && !tributeVisible(v)));
}

export function renderTribute() {
  const box = $("tribute");
  const v = S.view;
  const show = tributeVisible(v);
  box.classList.toggle("hidden", !show);
  patch(box, show ? [tributePanel(v, naming(), act, closeTribute)] : []);
}

function closeTribute() {
  S.tributeClosed = gameNo();
  S.tributeOpen = null;
  renderTribute();
  renderTributeButton();
}

export function reopenTribute() {
  S.tributeOpen = gameNo();
  S.tributeClosed = null;
  renderTribute();
  renderTributeButton();
}

export function renderSettlement() {
  const box = $("settlement");
  const v = S.view;
  const m = (v && v.match) || {};
  const show = Boolean(v && v.is_over && m.result) && S.settleClosed !== gameNo();
  box.classList.toggle("hidden", !show);
  const on = { act, next: () => send({ type: "next" }), close: closeSettlement };
  patch(box, show ? [settlementPanel(v, naming(), on, replayHref(m.results.length - 1))] : []);
}

function closeSettlement() {
  S.settleClosed = gameNo();
  renderSettlement();
  renderActions();
}

function reopenSettlement() {
  S.settleClosed = null;
  renderSettlement();
  renderActions();
}


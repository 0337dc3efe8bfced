// The tribute step at the start of a game (R16): who pays whom which cards, the 还贡 choices,
// refusals and 买3/买4. Public facts for everyone; the cards only to the two players.
import { cardsText, parseCards } from "./cards.js";
import { el } from "./common.js";
import { miniCards, teamOf } from "./felt.js";
import { actionLabel, getLang, t } from "./i18n.js";
import { eventText } from "./words.js";

const PUBLIC = new Set(["tribute", "huan", "buy"]);
const PRIVATE = new Set(["paid", "received", "returned", "got_back", "refuse", "refused", "accept"]);
const PHASES = new Set(["huan", "huan_check"]);

/** The tribute events of the game, public and the viewer's private ones, in order. */
export function tributeEvents(view) {
  const pub = (view.events || []).filter((e) => PUBLIC.has(e.type)).map((e) => ({ e, key: e.i }));
  const own = (view.private_events || []).filter((e) => PRIVATE.has(e.type)).map((e) => ({ e, key: e.i - 0.5 }));
  return [...pub, ...own].sort((a, b) => a.key - b.key).map((x) => x.e);
}

/** Whether the game in `view` has a tribute step to show. */
export function hasTribute(view) {
  return Boolean(view) && (PHASES.has(view.phase) || tributeEvents(view).length > 0);
}

/** Whether the first lead has been made (the tribute step is over). */
export function firstLeadMade(view) {
  return (view.events || []).some((e) => e.type === "play" || e.type === "burn");
}

/** The payer the viewer (a 落贡 receiver) returns cards to now, and how many are left. */
function owedReturn(view) {
  const owed = new Map();
  for (const e of view.private_events || []) {
    if (e.type === "received") owed.set(e.from, (owed.get(e.from) || 0) + parseCards(e.cards).length);
    if (e.type === "returned") owed.set(e.to, (owed.get(e.to) || 0) - parseCards(e.cards).length);
  }
  for (const [payer, n] of owed) if (n > 0) return { payer, n };
  return null;
}

function choiceButton(a, hint, onAct, label, primary = false) {
  const cls = (primary ? "primary" : "") + (a === hint ? " hinted" : "");
  return el("button", { type: "button", class: cls, dataset: { action: a }, title: actionLabel(a), onclick: () => onAct(a) }, label);
}

/** The 还贡 card offered to the viewer (a payer who may refuse it), in words. */
export function huanCheckText(view, ctx) {
  const offer = view.huan_offer || {};
  return t("huan_check", { by: ctx.name(offer.by), card: cardsText(offer.card || "?", getLang()) });
}

/** 还贡: the receiver picks the card to give back among its legal ones. */
function huanChoice(view, ctx, onAct) {
  const owed = owedReturn(view) || { payer: null, n: 1 };
  const cards = (view.legal_actions || []).filter((a) => a.startsWith("huan "));
  const buttons = cards.map((a) => {
    const b = choiceButton(a, ctx.hint, onAct, miniCards(a.slice(5), "big"));
    b.classList.add("card-choice");
    return b;
  });
  return el(
    "div",
    { class: "trib-ask mine" },
    el("div", { class: "ask-text" }, t("huan_choose", { payer: ctx.name(owed.payer), n: owed.n })),
    el("div", { class: "choices" }, buttons),
  );
}

/** The payer may refuse a returned card of a rank it does not hold. */
function huanCheck(view, ctx, onAct) {
  const buttons = (view.legal_actions || []).map((a) => choiceButton(a, ctx.hint, onAct, actionLabel(a), a === "accept"));
  return el("div", { class: "trib-ask mine" }, el("div", { class: "ask-text" }, huanCheckText(view, ctx)), el("div", { class: "choices" }, buttons));
}

/** The decision of the tribute step, if one is open: what is asked and its answers. */
function decision(view, ctx, onAct) {
  const mine = ctx.me !== null && view.to_act === ctx.me;
  if (view.phase === "huan" && mine) return huanChoice(view, ctx, onAct);
  if (view.phase === "huan_check" && mine) return huanCheck(view, ctx, onAct);
  if (view.phase === "huan" && view.to_act !== null && view.to_act !== undefined) {
    return el("div", { class: "trib-ask" }, t("huan_wait", { who: ctx.name(view.to_act) }));
  }
  if (view.phase === "huan_check") return el("div", { class: "trib-ask" }, t("waiting_private"));
  return null;
}

/** The tribute panel's contents; `onAct(action)` answers a decision, `onClose()` hides it. */
export function tributePanel(view, ctx, onAct, onClose) {
  const lines = tributeEvents(view).map((e) => {
    const mine = PRIVATE.has(e.type);
    return el("li", { class: mine ? "private" : "team-" + teamOf(e.seat) }, eventText(e, ctx));
  });
  return el(
    "div",
    { class: "tribute-inner" },
    el("button", { type: "button", class: "close small", "aria-label": t("close"), onclick: onClose }, "×"),
    el("h3", null, t("tribute_title")),
    decision(view, ctx, onAct),
    lines.length ? el("ol", { class: "trib-lines" }, lines) : el("div", { class: "muted" }, t("tribute_none")),
    el("div", { class: "muted small-note" }, t("tribute_cards_hidden"), " ", t("tribute_ends")),
  );
}

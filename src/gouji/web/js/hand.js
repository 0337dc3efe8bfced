// The player's hand: cards grouped by rank in two rows; a tap takes a whole rank (each further
// tap one card fewer), a drag takes cards one by one.
import { cardWord, faceText } from "./cards.js";
import { el, patch } from "./common.js";

const ONE_ROW = 12; // a hand this small fits one row

/** Sorted cards → groups of one rank: [{code, idx: [card indexes]}]. */
export function groupsOf(cards) {
  const groups = [];
  cards.forEach((c, i) => {
    const g = groups[groups.length - 1];
    if (g && g.code === c) g.idx.push(i);
    else groups.push({ code: c, idx: [i] });
  });
  return groups;
}

/**
 * Two rows of about equal card counts that read in rank order: the first row holds the
 * lowest ranks, the second continues upward. A rank group is never split.
 */
export function handRows(groups) {
  const total = groups.reduce((n, g) => n + g.idx.length, 0);
  if (total <= ONE_ROW) return groups.length ? [groups] : [];
  const rows = [[], []];
  let first = 0;
  for (const g of groups) {
    const n = g.idx.length;
    // stay in row 0 while that brings it closer to half of the cards
    const stay = rows[1].length === 0 && (first === 0 || Math.abs(first + n - total / 2) <= Math.abs(first - total / 2));
    if (stay) {
      rows[0].push(g);
      first += n;
    } else rows[1].push(g);
  }
  return rows.filter((r) => r.length);
}

function cardEl(code, i, selected, lang) {
  return el(
    "div",
    { class: "card card-" + code.toLowerCase() + (selected ? " selected" : ""), dataset: { idx: String(i), code }, title: cardWord(code, lang) },
    el("span", { class: "face" }, faceText(code, lang)),
  );
}

function groupEl(g, selected, lang) {
  return el(
    "div",
    { class: "group", dataset: { rank: g.code } },
    g.idx.map((i) => cardEl(g.code, i, selected.has(i), lang)),
    el("span", { class: "group-n" }, "×" + g.idx.length),
  );
}

/** Fill `box` with the hand `cards` (sorted), marking the `selected` indexes. */
export function drawHand(box, cards, selected, lang) {
  const rows = handRows(groupsOf(cards));
  const nodes = rows.map((row) => el("div", { class: "hand-row" }, row.map((g) => groupEl(g, selected, lang))));
  if (!cards.length) nodes.push(el("div", { class: "muted empty-hand" }, "—"));
  patch(box, nodes);
}

/**
 * A tap on card `i` of `cards` (sorted codes), as the card apps do: with none of its rank
 * selected it takes the whole rank; with some, it gives back one of them (the last), so each
 * further tap takes one fewer, down to none, and the next tap takes the whole rank again.
 * With `single` (还贡: one card) it takes that card alone. Returns the new selection.
 */
export function tapRank(cards, selected, i, single = false) {
  const out = new Set(single ? [] : selected);
  if (single) {
    out.add(i);
    return out;
  }
  const same = [];
  cards.forEach((c, k) => {
    if (c === cards[i]) same.push(k);
  });
  const chosen = same.filter((k) => out.has(k));
  if (!chosen.length) for (const k of same) out.add(k);
  else out.delete(chosen[chosen.length - 1]);
  return out;
}

/**
 * Tap and drag. A tap on a card calls `on.tap(i)` (see tapRank); a drag across cards selects
 * (or, started on a selected card, unselects) each card it passes, one by one, the first too:
 * `on.set(i, mode)`. `on.end()` follows every gesture.
 */
export function setupHandInput(box, on) {
  let drag = null; // {mode, first, last, moved}
  box.addEventListener("pointerdown", (e) => {
    const c = e.target.closest(".card");
    if (!c) return;
    e.preventDefault();
    drag = { mode: !c.classList.contains("selected"), first: c, last: c, moved: false };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const c = under && under.closest && under.closest("#hand .card");
    if (c && c !== drag.last) {
      if (!drag.moved) on.set(Number(drag.first.dataset.idx), drag.mode);
      drag.moved = true;
      drag.last = c;
      on.set(Number(c.dataset.idx), drag.mode);
    }
  });
  const end = () => {
    if (!drag) return;
    const { first, moved } = drag;
    drag = null;
    if (!moved) on.tap(Number(first.dataset.idx));
    on.end();
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", () => {
    drag = null;
    on.end();
  });
}

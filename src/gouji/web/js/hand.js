// The player's hand: cards grouped by rank in two rows, selection by click and drag.
import { faceText } from "./cards.js";
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
    { class: "card card-" + code.toLowerCase() + (selected ? " selected" : ""), dataset: { idx: String(i), code } },
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
 * Click and drag across cards to select. `on.set(i, mode)` selects or unselects card i,
 * `on.end()` follows every gesture, `on.double()` a double click.
 */
export function setupHandInput(box, on) {
  let drag = null; // {mode, last}
  box.addEventListener("pointerdown", (e) => {
    const c = e.target.closest(".card");
    if (!c) return;
    e.preventDefault();
    const mode = !c.classList.contains("selected");
    drag = { mode, last: c };
    on.set(Number(c.dataset.idx), mode);
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const c = under && under.closest && under.closest("#hand .card");
    if (c && c !== drag.last) {
      drag.last = c;
      on.set(Number(c.dataset.idx), drag.mode);
    }
  });
  const end = () => {
    if (!drag) return;
    drag = null;
    on.end();
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);
  box.addEventListener("dblclick", () => on.double());
}

// Cards without suits (docs/notation.md): codes, ordering, canonical text.
export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "LJ"];

/** Full-deck counts per rank: four decks = 16 of each of 3…2, 4 SJ, 4 LJ. */
export const FULL_DECK = RANKS.map((r) => (r === "SJ" || r === "LJ" ? 4 : 16));

/** deck.remove of each preset (src/gouji/engine/rules.py PRESETS). */
export const PRESET_REMOVE = { LAIWU: { 3: 10, 4: 10 } };

export function rankIndex(code) {
  const c = String(code).toUpperCase();
  return RANKS.indexOf(c === "10" ? "T" : c);
}

/** "7 7 2 SJ" → ["7","7","2","SJ"] (upper-cased, 10 → T, brackets/commas dropped). */
export function parseCards(text) {
  if (!text) return [];
  return String(text)
    .replace(/[[\],]/g, " ")
    .split(/\s+/)
    .filter((s) => s)
    .map((s) => {
      const u = s.toUpperCase();
      return u === "10" ? "T" : u;
    });
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => rankIndex(a) - rankIndex(b));
}

/** Canonical text of a multiset of cards: ascending by value. */
export function canon(cards) {
  return sortCards(cards).join(" ");
}

export function countsOf(cards) {
  const v = RANKS.map(() => 0);
  for (const c of cards) {
    const i = rankIndex(c);
    if (i >= 0) v[i] += 1;
  }
  return v;
}

/** The deck of a rules spec {preset, overrides}: counts per rank. */
export function deckOf(rules) {
  const preset = (rules && rules.preset) || "";
  const ov = (rules && rules.overrides) || {};
  const remove = ov["deck.remove"] || PRESET_REMOVE[preset] || {};
  return FULL_DECK.map((n, i) => Math.max(0, n - (Number(remove[RANKS[i]]) || 0)));
}

/** A card in words, as the rules pages name it: "10", "小王" / "small joker", "大王" / "big joker". */
export function cardWord(code, lang) {
  if (code === "T") return "10";
  if (code === "SJ") return lang === "zh" ? "小王" : "small joker";
  if (code === "LJ") return lang === "zh" ? "大王" : "big joker";
  return code;
}

/** What is printed on a card of the hand: its word, but a joker in English reads "JOKER" down
 * the card (too narrow for "small joker"): black for the small one, red for the big one, as
 * printed on real cards; the card's title says which in words. */
export function faceText(code, lang) {
  if ((code === "SJ" || code === "LJ") && lang !== "zh") return "JOKER";
  return cardWord(code, lang);
}

/** Cards as inline text, e.g. "7 7 2 小王", "Q Q Q 2 big joker" (as the rules pages write them). */
export function cardsText(text, lang) {
  return parseCards(text)
    .map((c) => cardWord(c, lang))
    .join(" ");
}

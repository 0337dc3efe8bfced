// The table drawing shared by the live table and the replay: six seats and the centre.
import { cardWord, cardsText, parseCards, sortCards } from "./cards.js";
import { el, patch } from "./common.js";
import { getLang, placeName, t } from "./i18n.js";

export const SEATS = 6;

export function teamOf(seat) {
  return seat % 2 === 0 ? "a" : "b";
}

/** Position 0 (bottom, own seat) … 5 going round the table in turn order (下家 on the right). */
export function posOf(seat, me) {
  const base = me === null || me === undefined ? 0 : me;
  return (seat - base + SEATS) % SEATS;
}

/** The relation of `seat` to `me`: "me", "mate", "duitou" or "opp" (null when spectating). */
export function relation(seat, me) {
  if (me === null || me === undefined) return null;
  if (seat === me) return "me";
  if (seat === (me + 3) % SEATS) return "duitou";
  return teamOf(seat) === teamOf(me) ? "mate" : "opp";
}

/** A small row of face-up mini cards. */
export function miniCards(text, extraClass = "") {
  const lang = getLang();
  return el(
    "span",
    { class: "mini-cards " + extraClass, title: cardsText(text, lang) },
    sortCards(parseCards(text)).map((c) =>
      el("span", { class: "mini card-" + c.toLowerCase(), dataset: { code: c } }, cardWord(c, lang)),
    ),
  );
}

function countText(c) {
  if (c === null || c === undefined || c === "playing") return t("count_hidden");
  return String(c);
}

/** The latest play of each seat in the current round: seat → text. */
function lastPlays(view) {
  const out = {};
  for (const [s, text] of view.round_plays || []) out[s] = text;
  return out;
}

/**
 * One seat's box. `info` = {name, bot, trust, connected, empty, free}; `opts` = {me, deadline,
 * hands, fresh: the seat whose play just came, onSit(seat): a spectator takes a free seat}.
 */
export function seatBox(view, seat, info, opts) {
  const me = opts.me;
  const rel = relation(seat, me);
  const v = view || {};
  const place = v.places ? v.places[seat] : null;
  const status = v.statuses ? v.statuses[seat] : "active";
  const opened = Array.isArray(v.opened) && v.opened[seat];
  const head = v.heads ? v.heads[seat] : "live";
  const turn = v.to_act === seat && !v.is_over;
  const classes = ["seat", "team-" + teamOf(seat), "pos-" + posOf(seat, me)];
  if (rel) classes.push("rel-" + rel);
  if (turn) classes.push("turn");
  if (place) classes.push("finished");
  if (info.empty) classes.push("empty");
  if (status === "passed" || status === "rang") classes.push("st-" + status);

  const badges = [];
  if (rel === "me") badges.push(el("span", { class: "badge me" }, t("you")));
  else if (rel === "duitou") badges.push(el("span", { class: "badge duitou" }, t("opposite")));
  else if (rel === "mate") badges.push(el("span", { class: "badge mate" }, t("teammate")));
  if (place) badges.push(el("span", { class: "badge place place-" + place }, placeName(place)));
  if (opened) badges.push(el("span", { class: "badge opened" }, t("opened")));
  if (v.burner === seat) badges.push(el("span", { class: "badge burner" }, t("burner")));
  if (v.revolutionary === seat) badges.push(el("span", { class: "badge rev" }, t("revolutionary")));
  if (head === "none" && !place) badges.push(el("span", { class: "badge nohead" }, t("no_head")));
  if (status === "passed") badges.push(el("span", { class: "badge passed" }, t("passed")));
  if (status === "rang") badges.push(el("span", { class: "badge rang" }, t("rang")));
  if (info.trust) badges.push(el("span", { class: "badge trust" }, t("trust")));
  if (info.bot) badges.push(el("span", { class: "badge bot" }, t("bot_mark")));
  if (info.connected === false && !info.bot && !info.empty) {
    badges.push(el("span", { class: "badge offline" }, t("offline")));
  }

  const shown = opts.hands && typeof opts.hands[seat] === "string" ? opts.hands[seat] : null;
  const count = shown !== null ? parseCards(shown).length : v.counts ? v.counts[seat] : null;
  const plays = lastPlays(v);
  const name = info.empty ? t("empty_seat") : info.name || t("seat_n", seat + 1);
  const fresh = opts.fresh === seat ? " fresh" : "";
  const box = el(
    "div",
    { class: classes.join(" "), dataset: { seat: String(seat) } },
    el(
      "div",
      { class: "seat-head" },
      el("span", { class: "team-dot" }),
      el("span", { class: "seat-name", title: info.title || name }, name),
      view
        ? el(
            "span",
            { class: "count", title: t("cards_n") },
            el("span", { class: "count-icon" }),
            countText(count),
          )
        : null,
      turn ? el("span", { class: "timer", dataset: { deadline: String(opts.deadline || "") } }) : null,
    ),
    el("div", { class: "badges" }, badges),
    plays[seat] !== undefined ? el("div", { class: "seat-play" + fresh }, miniCards(plays[seat])) : null,
    opts.hands && opts.hands[seat] !== undefined && opts.hands[seat] !== null
      ? el("div", { class: "seat-hand" }, miniCards(opts.hands[seat], "small"))
      : null,
    info.free && opts.onSit ? takeSeatButton(seat, opts.onSit) : null,
  );
  return box;
}

function takeSeatButton(seat, onSit) {
  return el(
    "button",
    {
      type: "button",
      class: "small primary take-seat",
      title: t("take_seat_title"),
      dataset: { sit: String(seat) },
      onclick: (e) => {
        e.stopPropagation();
        onSit(seat);
      },
    },
    t("take_seat"),
  );
}

/** The centre: the standing play, the round's plays and whose turn it is. */
export function centre(view, names, opts) {
  const v = view;
  const nameOf = (s) => (s === null || s === undefined ? "" : names[s] || t("seat_n", s + 1));
  const parts = [];
  const match = v.match || {};
  const top = [match.game ? t("game_n", match.game) : "", v.round ? t("round_n", v.round) : "", v.hui ? v.hui.split(" ").map((r) => "会" + r).join("") : ""];
  parts.push(el("div", { class: "centre-top muted" }, top.filter((x) => x).join(" · ")));
  if (v.standing) {
    const fly = opts.fresh === v.owner ? ` fresh from-pos-${posOf(v.owner, opts.me)}` : "";
    parts.push(
      el(
        "div",
        { class: "standing" + (v.protected ? " protected" : "") + fly },
        el("div", { class: "standing-owner" }, nameOf(v.owner)),
        miniCards(v.standing, "big"),
      ),
    );
  } else {
    parts.push(el("div", { class: "standing empty" }, "—"));
  }
  const rp = v.round_plays || [];
  if (rp.length > 1) {
    parts.push(
      el(
        "div",
        { class: "round-plays" },
        rp.slice(-8).map(([s, text]) =>
          el("span", { class: "rp team-" + teamOf(s) }, el("b", null, nameOf(s) + " "), cardsText(text, getLang())),
        ),
      ),
    );
  }
  let status = "";
  if (v.is_over) status = t("game_over");
  else if (v.to_act !== null && v.to_act !== undefined) {
    status = v.to_act === opts.me ? t("to_act_you") : t("to_act_other", nameOf(v.to_act));
  } else if (v.waiting) status = t("waiting_private");
  parts.push(el("div", { class: "turn-status" + (v.to_act === opts.me && !v.is_over ? " mine" : "") }, status));
  return el("div", { class: "centre" }, parts);
}

/** Fill `felt` with the six seats and the centre. */
export function drawFelt(felt, view, infos, opts) {
  const names = infos.map((i) => (i.empty ? "" : i.name));
  // 挑牌 (R10.2): a claimant's hand lies face up for everybody to see
  const claim = view && view.claim;
  const o = claim && !opts.hands ? { ...opts, hands: { [claim.seat]: claim.cards } } : opts;
  const nodes = [];
  for (let s = 0; s < SEATS; s++) nodes.push(seatBox(view, s, infos[s], o));
  nodes.push(view ? centre(view, names, opts) : el("div", { class: "centre" }, opts.centreContent || ""));
  patch(felt, nodes);
}

/** Seconds left until `deadline` (epoch seconds). */
export function secondsLeft(deadline) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil(Number(deadline) - Date.now() / 1000));
}

export function tickTimers(root = document) {
  for (const e of root.querySelectorAll(".timer")) {
    const left = secondsLeft(e.dataset.deadline);
    e.textContent = left === null ? "" : t("timer_s", left);
    e.classList.toggle("urgent", left !== null && left <= 5);
  }
}

export const BANNER_MS = 1800; // a banner is gone after this (its CSS animation is as long)
const BANNERS_SHOWN = 3;
const GAP = 4;

function rectIn(area, r) {
  return { left: r.left - area.left, top: r.top - area.top, right: r.right - area.left, bottom: r.bottom - area.top };
}

/** Where a banner goes in `box` (over the felt): on the seat it is about, else the middle. */
function bannerSpot(box, seat) {
  const felt = box.parentElement && box.parentElement.querySelector(".felt");
  const seatEl = seat === null || seat === undefined || !felt ? null : felt.querySelector(`.seat[data-seat="${seat}"]`);
  const area = box.getBoundingClientRect();
  if (!seatEl || !area.width) return { x: area.width / 2, y: area.height * 0.4 };
  const r = seatEl.getBoundingClientRect();
  return { x: r.left + r.width / 2 - area.left, y: r.top + r.height / 2 - area.top };
}

/** The play to beat and the round's plays in `box`'s coordinates (null when none is shown). */
function centreRect(box) {
  const felt = box.parentElement && box.parentElement.querySelector(".felt");
  const standing = felt && felt.querySelector(".centre .standing");
  if (!standing) return null;
  return rectIn(box.getBoundingClientRect(), standing.getBoundingClientRect());
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Remove the banners shown (a new state's announcements replace the last one's). */
export function clearBanners(box) {
  if (box) box.replaceChildren();
}

/**
 * A short announcement on the felt that fades, over the seat it is about (`seat`, or the
 * middle of the table for none): `kind` = "gouji", "burn", "place", "info", "note". It never
 * covers the play to beat (it goes above or below it), banners of one seat stack, and no more
 * than three are shown: a new one takes the oldest one's place.
 */
export function showBanner(box, text, kind = "info", seat = null) {
  if (!box || !text) return;
  const b = el("div", { class: "banner kind-" + kind, role: "status", dataset: { seat: seat === null ? "" : String(seat) } }, text);
  box.append(b);
  while (box.children.length > BANNERS_SHOWN) box.firstChild.remove();
  const spot = bannerSpot(box, seat);
  const w = b.offsetWidth;
  const h = b.offsetHeight;
  const room = box.clientWidth;
  const x = Math.max(w / 2 + GAP, Math.min(room - w / 2 - GAP, spot.x));
  const area = box.getBoundingClientRect();
  const taken = [...box.children].filter((o) => o !== b).map((o) => rectIn(area, o.getBoundingClientRect()));
  const avoid = centreRect(box);
  const clamp = (yy) => Math.max(h / 2 + GAP, Math.min(box.clientHeight - h / 2 - GAP, yy));
  const at = (yy) => ({ left: x - w / 2, right: x + w / 2, top: yy - h / 2, bottom: yy + h / 2 });
  // where it may go: on its seat, else just above or below the play to beat or another banner;
  // the nearest place that covers neither the play to beat nor another banner
  const tries = [spot.y];
  for (const r of avoid ? [avoid, ...taken] : taken) tries.push(r.top - GAP - h / 2, r.bottom + GAP + h / 2);
  const cost = (yy) => {
    const r = at(yy);
    const hits = (avoid && overlaps(r, avoid) ? 100 : 0) + taken.filter((o) => overlaps(r, o)).length;
    return hits * 10000 + Math.abs(yy - spot.y);
  };
  const y = tries.map(clamp).reduce((best, yy) => (cost(yy) < cost(best) ? yy : best));
  b.style.left = `${x}px`;
  b.style.top = `${y}px`;
  setTimeout(() => b.remove(), BANNER_MS);
}

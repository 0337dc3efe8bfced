// The settlement (结算) after a game, from view.match.result (docs/engine.md): places, 开点,
// burns, 闷, 串三户, every score item of the scoring system, the declarations, the match
// totals, every hand left; then the between-games question and the next game.
import { el } from "./common.js";
import { miniCards, teamOf } from "./felt.js";
import { actionLabel, placeName, t } from "./i18n.js";
import { teamName } from "./words.js";

const BONUS_SYSTEMS = new Set(["comp2", "audit6"]); // the systems that count 闷, 点 and burns
const BONUS_KINDS = ["men", "dian", "burn"];

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The seats in place order (头科 first). */
function byPlace(places) {
  return [0, 1, 2, 3, 4, 5].sort((a, b) => (places[a] || 9) - (places[b] || 9));
}

function placesTable(res, ctx) {
  const dian = Array.isArray(res.opened);
  const head = el(
    "tr",
    null,
    el("th", null, t("settle_place")),
    el("th", null, t("settle_player")),
    dian ? el("th", null, t("settle_dian")) : null,
    el("th", { class: "num" }, t("settle_points")),
    el("th", null, t("settle_left")),
  );
  const rows = byPlace(res.places).map((s) =>
    el(
      "tr",
      { class: "team-" + teamOf(s) + (s === ctx.me ? " mine" : ""), dataset: { seat: String(s) } },
      el("td", { class: "place" }, placeName(res.places[s])),
      el("td", { class: "who" }, el("span", { class: "team-dot" }), " ", ctx.name(s)),
      dian ? el("td", { class: res.opened[s] ? "opened" : "not-opened" }, res.opened[s] ? t("opened") : t("table.not_opened")) : null,
      el("td", { class: "num" }, signed(res.place_points[s])),
      el("td", { class: "left" }, leftCell(res, s)),
    ),
  );
  return el("table", { class: "settle-places" }, el("thead", null, head), el("tbody", null, rows));
}

/** A seat's cards left; while a duplicate deal is still being played at the other table
 * (`hands_hidden`) only one's own are shown. */
function leftCell(res, s) {
  if (res.hands_hidden && res.hands[s] === null) {
    return el("span", { class: "muted hidden-hand", title: t("settle_hidden_why") }, t("settle_hidden"));
  }
  return res.hands[s] ? miniCards(res.hands[s], "small") : el("span", { class: "muted" }, t("settle_out"));
}

function teamSum(values) {
  const out = [0, 0];
  values.forEach((v, s) => {
    out[s % 2] += v;
  });
  return out;
}

function scoreRow(label, pair, cls = "") {
  return el("tr", { class: cls }, el("th", null, label), el("td", { class: "ta" }, signed(pair[0])), el("td", { class: "tb" }, signed(pair[1])));
}

function scoreTable(res) {
  const rows = [scoreRow(t("settle_points"), teamSum(res.place_points))];
  if (BONUS_SYSTEMS.has(res.scoring)) {
    for (const k of BONUS_KINDS) rows.push(scoreRow(`${t("settle_bonus")}${t("colon")}${t("bonus_" + k)}`, res.bonuses[k]));
  }
  rows.push(scoreRow(t("settle_team_points"), res.team_points));
  rows.push(scoreRow(t("settle_recorded"), res.team_scores, "recorded"));
  return el(
    "table",
    { class: "settle-scores" },
    el("thead", null, el("tr", null, el("th"), el("th", { class: "ta" }, teamName(0)), el("th", { class: "tb" }, teamName(1)))),
    el("tbody", null, rows),
  );
}

function factList(title, items) {
  return el(
    "div",
    { class: "settle-facts" },
    el("b", null, title + t("colon")),
    items.length ? items.join(t("settle_sep")) : t("settle_none"),
  );
}

function declarationText(d, ctx) {
  const p = { who: ctx.name(d.by), target: ctx.name(d.on), n: d.cards };
  const kind = t("decl_" + d.kind);
  return t("decl_row", { who: p.who, kind, target: p.target, outcome: t(d.succeeded ? "decl_ok" : "decl_fail", p) });
}

function facts(res, ctx) {
  const out = [
    factList(t("settle_burns"), res.burns.map(([b, v]) => t("settle_burn_row", { who: ctx.name(b), victim: ctx.name(v) }))),
    factList(t("settle_men"), res.men.map((s) => t("settle_men_row", { who: ctx.name(s) }))),
  ];
  if (res.chuan !== null && res.chuan !== undefined) {
    out.push(el("div", { class: "settle-facts chuan" }, t("settle_chuan_row", { team: teamName(res.chuan) })));
  }
  if (res.declarations && res.declarations.length) {
    out.push(factList(t("settle_decl"), res.declarations.map((d) => declarationText(d, ctx))));
  }
  if (res.swapped) out.push(el("div", { class: "settle-facts" }, t("settle_swapped")));
  return out;
}

/** What a 二落/大落 swap changes in these rules (R16.6, the match's `swap_changes`): 落贡, and
 * the next game's lead only where the 大落 leads it (R3.6), in words. */
function swapChangesKey(changes) {
  const luo = changes.includes("luo");
  const start = changes.includes("start");
  if (luo && start) return "swap_luo_start";
  if (luo) return "swap_luo";
  return start ? "swap_start" : "swap_none";
}

/** The between-games question (swap/skip), explained, with its answers for the asked seat. */
function promptBox(view, ctx, onAct) {
  const m = view.match;
  const res = m.result;
  const asked = m.prompt_to;
  const mine = asked === ctx.me && ctx.me !== null;
  let text = t("prompt_skip");
  if (m.prompt === "swap") {
    const changes = t(swapChangesKey(m.swap_changes || []));
    text = t("prompt_swap", { a: ctx.name(res.places.indexOf(5)), b: ctx.name(res.places.indexOf(6)), changes });
  }
  const acts = mine ? view.legal_actions || [] : [];
  const hinted = (a) => (a === ctx.hint ? " hinted" : "");
  return el(
    "div",
    { class: "settle-prompt" + (mine ? " mine" : "") },
    el("div", { class: "prompt-who" }, mine ? t("prompt_asked_you") : t("prompt_asked", { who: ctx.name(asked) })),
    el("div", { class: "prompt-text" }, text),
    acts.length
      ? el(
          "div",
          { class: "row" },
          acts.map((a) =>
            el(
              "button",
              { type: "button", class: (a.startsWith("no") ? "" : "primary") + hinted(a), dataset: { action: a }, onclick: () => onAct(a) },
              actionLabel(a),
            ),
          ),
        )
      : null,
  );
}

function nextBox(view, ctx, on) {
  const m = view.match;
  if (m.prompt) return promptBox(view, ctx, on.act);
  if (m.is_over) return el("div", { class: "go-winner" }, winnerText(m.totals));
  if (ctx.held) return el("div", { class: "muted event-hold" }, t(ctx.held));
  if (ctx.me === null) return el("div", { class: "muted" }, t("next_wait"));
  return el("div", { class: "row" }, el("button", { type: "button", class: "primary next-btn", dataset: { action: "next" }, onclick: on.next }, t("next_game")));
}

export function winnerText(totals) {
  if (!totals || totals[0] === totals[1]) return t("tie");
  return t("winner", teamName(totals[0] > totals[1] ? 0 : 1));
}

/**
 * The settlement of the finished game in `view`. `on` = {act(action), next(), close()};
 * `replayHref` links the game's replay (null: not yet, a duplicate deal still being played).
 */
export function settlementPanel(view, ctx, on, replayHref) {
  const m = view.match;
  const res = m.result;
  const ruleSentence = t("rule_" + res.score_rule);
  return el(
    "div",
    { class: "settle-inner" },
    el("button", { type: "button", class: "close small", "aria-label": t("close"), onclick: on.close }, "×"),
    el("h2", null, `${m.is_over ? t("match_over") : t("settle_title")} · ${t("game_n", m.game)}`),
    nextBox(view, ctx, on),
    placesTable(res, ctx),
    facts(res, ctx),
    scoreTable(res),
    el("div", { class: "muted score-rule" }, ruleSentence),
    el(
      "div",
      { class: "settle-totals" },
      el("b", null, t("settle_totals") + t("colon")),
      el("span", { class: "tag team-a" }, `${teamName(0)} ${m.totals[0]}`),
      " : ",
      el("span", { class: "tag team-b" }, `${teamName(1)} ${m.totals[1]}`),
    ),
    replayHref
      ? el("div", { class: "row" }, el("a", { class: "button replay-link", href: replayHref, target: "_blank" }, t("replay")))
      : el("div", { class: "muted replay-later" }, t("replay_later")),
  );
}

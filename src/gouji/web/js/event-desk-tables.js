// The tables of the round on the organiser's and referees' page: each table's games, the sheet
// of the next game with its 罚分 column (previewed, then confirmed), corrections and voids of
// registered sheets until the next round is drawn, sanctions (for a registered game too, with
// the player's earlier sanctions and the outline's next step), walkovers, seat links online.
import { getLang, placeName, t } from "./i18n.js";
import { el, patch, toast } from "./common.js";
import { absolute, api, seatPlayers, tablesOf } from "./event-api.js";
import { ARTICLES, SANCTION_KINDS, articleText, num, sheetItems, signed, tableLabel } from "./event-words.js";
import { matchDone, matchScoreText } from "./event-view.js";
import {
  act,
  ask,
  base,
  busy,
  clearError,
  copy,
  covers,
  desk,
  hooks,
  intList,
  isInt,
  isNum,
  isText,
  need,
  organiser,
  proposalFor,
  refusedWords,
  sanctionsOf,
  showError,
  write,
} from "./event-desk.js";

const $ = (id) => document.getElementById(id);
const SEATS = [0, 1, 2, 3, 4, 5];
const drafts = {}; // table id → the next game's sheet: {game, places, notOpened, men, burns, pen}
const fixes = {}; // table id → the correction being made: {game, places, notOpened, men, burns}
const sanctionDrafts = {}; // table id → {seat, article, kind, points, text, game, open}
export const state = { links: {} }; // table id → [{seat, team, player, url}] (online rounds)

const render = () => hooks.render(true);

// ------------------------------------------------------------------ what the JSON tells
function matchOf(ev, t) {
  for (const round of ev.rounds || []) for (const m of round) if (m && m.id === t.match) return m;
  return null;
}

/** The table's games with what the page reads of them checked. */
function gamesOf(t) {
  const games = Array.isArray(t.games) ? t.games : [];
  for (const g of games) need(g && intList(g.places, 6) && Array.isArray(g.team_scores) && g.team_scores.length === 2);
  return games;
}

/** A registered sheet as the form holds it, from the game's `sheet` (as entered). */
function sheetDraft(g, game) {
  const s = g.sheet && typeof g.sheet === "object" ? g.sheet : { places: g.places };
  const seats = (x) => (intList(x) && x.every((v) => v >= 0 && v < 6) ? [...x] : []);
  const burns = Array.isArray(s.burns) ? s.burns.filter((b) => intList(b, 2)).map((b) => [b[0], b[1]]) : [];
  const places = intList(s.places, 6) ? s.places : g.places;
  return { game, places: places.map(String), notOpened: seats(s.not_opened), men: seats(s.men), burns };
}

/** Whether the page may correct the table's registered sheets: a real-card table of the
 * round last drawn, the event going on, at the key's matches. */
function correctable(t) {
  const ev = desk.ev;
  return ev.mode === "paper" && ev.status !== "over" && t.round === ev.round && covers(t.id);
}

/** The team scores of a game as "青岛队 8 : 13 济南队". */
function scoreLine(teams, scores) {
  return `${teams[0]} ${num(scores[0])} : ${num(scores[1])} ${teams[1]}`;
}

// ------------------------------------------------------------------ seats and links
function seatTag(t, seat, names) {
  return el(
    "span",
    { class: "seat-who" },
    el("span", { class: "team-dot" + (seat % 2 ? " b" : " a") }),
    el("b", null, names[seat]),
    el("span", { class: "muted" }, " ", t.teams[seat % 2]),
  );
}

function linksBox(tb, names) {
  const list = state.links[tb.id] || [];
  if (!list.length) return null;
  return el(
    "details",
    { class: "seat-links", open: true },
    el("summary", null, t("seat_links")),
    el(
      "ol",
      null,
      ...list.map((x) => {
        const url = absolute(x.url);
        const seat = Number(x.seat);
        return el(
          "li",
          { class: "seat-link", dataset: { seat: String(seat) } },
          seatTag(tb, seat, names),
          el("input", { readonly: true, value: url, "aria-label": names[seat] }),
          el("button", { type: "button", class: "small", onclick: () => copy(url) }, t("key_copy")),
          el("a", { class: "button small", href: url, target: "_blank", rel: "noopener" }, t("open")),
        );
      }),
    ),
  );
}

// ------------------------------------------------------------------ games played
/** The games entered at a table: game number, places by player, the two team scores; and
 * where they may be corrected, 改正 on each and 作废 on the last. */
function playedGames(tb, names) {
  const games = gamesOf(tb);
  if (!games.length) return null;
  const fixing = correctable(tb);
  const head = el(
    "tr",
    null,
    el("th", null, t("col_game")),
    ...names.map((n, seat) => el("th", { class: seat % 2 ? "tb" : "ta" }, n)),
    el("th", { class: "ta num" }, tb.teams[0]),
    el("th", { class: "tb num" }, tb.teams[1]),
    fixing ? el("th", null, "") : null,
  );
  const rows = games.map((g, i) => {
    const sheet = g.source === "sheet";
    const pens = (g.penalties || []).filter((p) => p && isNum(p.points));
    return el(
      "tr",
      { class: "game-row" + (fixes[tb.id] && fixes[tb.id].game === i ? " fixing" : ""), dataset: { game: String(i) } },
      el("td", { class: "num" }, String(i + 1), g.extra ? el("span", { class: "extra-tag" }, t("game_extra")) : null),
      ...names.map((_, seat) => el("td", null, placeName(g.places[seat]))),
      el("td", { class: "num" }, num(g.team_scores[0]), pens.some((p) => p.seat % 2 === 0) ? el("span", { class: "pen-mark", title: t("penalties") }, "*") : null),
      el("td", { class: "num" }, num(g.team_scores[1]), pens.some((p) => p.seat % 2 === 1) ? el("span", { class: "pen-mark", title: t("penalties") }, "*") : null),
      fixing
        ? el(
            "td",
            { class: "game-tools" },
            sheet
              ? el("button", { type: "button", class: "small correct-game", onclick: () => startFix(tb.id, i) }, t("fix"))
              : null,
            sheet && i === games.length - 1
              ? el(
                  "button",
                  { type: "button", class: "small danger void-game", disabled: busy("void:" + tb.id), onclick: (e) => voidGame(tb.id, i, e.currentTarget) },
                  t("void"),
                )
              : null,
          )
        : null,
    );
  });
  return el(
    "div",
    { class: "played scroll-x" },
    el("table", { class: "ev-table games" }, el("caption", null, t("played")), el("thead", null, head), el("tbody", null, rows)),
  );
}

// ------------------------------------------------------------------ the sheet
function draftOf(t) {
  const game = gamesOf(t).length;
  let d = drafts[t.id];
  if (!d || d.game !== game) {
    d = { game, places: ["", "", "", "", "", ""], notOpened: [], men: [], burns: [], pen: [null, null, null, null, null, null] };
    drafts[t.id] = d;
  }
  return d;
}

function startFix(tid, game) {
  const t = tablesOf(desk.ev).find((x) => x.id === tid);
  const g = t && gamesOf(t)[game];
  if (!g) return;
  fixes[tid] = sheetDraft(g, game);
  clearError();
  render();
  const form = document.querySelector(`form.sheet[data-table="${tid}"]`);
  if (form) form.scrollIntoView({ block: "nearest" });
}

function articleOptions(selected) {
  return [
    el("option", { value: "", selected: selected === "" }, "—"),
    ...ARTICLES.map((a, i) => el("option", { value: String(i), selected: selected === String(i) }, getLang() === "zh" ? a.zh : a.en)),
    el("option", { value: "other", selected: selected === "other" }, t("sanction_other")),
  ];
}

function articleOf(choice, text) {
  if (choice === "other") return text.trim();
  const a = ARTICLES[Number(choice)];
  return choice !== "" && a ? a.zh : "";
}

/** The 罚分 line of a seat on the sheet: points (negative) and the article. */
function penaltyRow(d, seat, n, span) {
  const p = d.pen[seat];
  return el(
    "tr",
    { class: "pen-row " + (seat % 2 ? "tb" : "ta"), dataset: { seat: String(seat) } },
    el(
      "td",
      { colspan: String(span) },
      el(
        "div",
        { class: "pen-fields" },
        el("span", { class: "pen-who" }, t("pen_of", n)),
        el("input", {
          type: "number",
          class: "pen-points",
          min: "-100",
          max: "-1",
          step: "1",
          value: p.points,
          "aria-label": t("pen_points_of", n),
          oninput: (e) => {
            p.points = e.target.value;
          },
        }),
        el(
          "select",
          {
            class: "pen-article",
            "aria-label": t("pen_article_of", n),
            onchange: (e) => {
              p.article = e.target.value;
              render();
            },
          },
          ...articleOptions(p.article),
        ),
        p.article === "other"
          ? el("input", {
              class: "pen-text",
              maxlength: "80",
              value: p.text,
              placeholder: t("sanction_text_ph"),
              "aria-label": t("pen_article_of", n),
              oninput: (e) => {
                p.text = e.target.value;
              },
            })
          : null,
      ),
    ),
  );
}

/** The referee's sheet of a game: a place per player, the items the rule set scores and, for
 * a new game, the 罚分 column. `fix`: the correction of a registered game. */
function sheetForm(tb, names, d, fix) {
  const items = sheetItems(desk.ev.preset);
  const span = 3 + (items.includes("not_opened") ? 1 : 0) + (items.includes("men") ? 1 : 0) + (fix ? 0 : 1);
  const head = el(
    "tr",
    null,
    el("th", null, t("col_seat")),
    el("th", null, t("col_player")),
    el("th", null, t("sheet_place")),
    items.includes("not_opened") ? el("th", null, t("col_not_opened")) : null,
    items.includes("men") ? el("th", null, t("col_men")) : null,
    fix ? null : el("th", null, t("penalties_col")),
  );
  const box = (list, what, n, seat) =>
    el(
      "td",
      { class: "c" },
      el("input", {
        type: "checkbox",
        class: what,
        "aria-label": `${n} ${t(what)}`,
        dataset: { seat: String(seat) },
        checked: list.includes(seat),
        onchange: (e) => {
          const i = list.indexOf(seat);
          if (e.target.checked && i < 0) list.push(seat);
          if (!e.target.checked && i >= 0) list.splice(i, 1);
        },
      }),
    );
  const rows = [];
  for (const seat of SEATS) {
    const n = names[seat];
    const place = el(
      "select",
      {
        class: "place",
        "aria-label": n,
        dataset: { seat: String(seat) },
        onchange: (e) => {
          d.places[seat] = e.target.value;
        },
      },
      el("option", { value: "", selected: d.places[seat] === "" }, "—"),
      ...[1, 2, 3, 4, 5, 6].map((p) => el("option", { value: String(p), selected: d.places[seat] === String(p) }, placeName(p))),
    );
    rows.push(
      el(
        "tr",
        { class: seat % 2 ? "tb" : "ta" },
        el("td", { class: "num" }, String(seat + 1)),
        el("td", null, seatTag(tb, seat, names)),
        el("td", null, place),
        items.includes("not_opened") ? box(d.notOpened, "not_opened", n, seat) : null,
        items.includes("men") ? box(d.men, "men", n, seat) : null,
        fix
          ? null
          : el(
              "td",
              { class: "c" },
              el("input", {
                type: "checkbox",
                class: "pen",
                "aria-label": t("pen_of", n),
                dataset: { seat: String(seat) },
                checked: !!d.pen[seat],
                onchange: (e) => {
                  d.pen[seat] = e.target.checked ? { points: "-2", article: "", text: "" } : null;
                  render();
                },
              }),
            ),
      ),
    );
    if (!fix && d.pen[seat]) rows.push(penaltyRow(d, seat, n, span));
  }
  const slot = (fix ? "fix:" : "sheet:") + tb.id;
  return el(
    "form",
    { class: "sheet" + (fix ? " fixing" : ""), novalidate: true, dataset: { table: tb.id, mode: fix ? "fix" : "next" }, onsubmit: (e) => submitSheet(e, tb.id, d, fix) },
    el("h4", null, t(fix ? "fix_h" : "sheet_h", d.game + 1)),
    fix ? el("p", { class: "hint" }, t("fix_hint")) : null,
    el("div", { class: "scroll-x" }, el("table", { class: "ev-table sheet-grid" }, el("thead", null, head), el("tbody", null, rows))),
    items.includes("burns") ? burnsBox(d, names) : null,
    pendingLine(tb, names, d.game),
    el(
      "div",
      { class: "sheet-buttons" },
      el("button", { type: "submit", class: "primary submit-sheet", disabled: busy(slot) }, t(fix ? "fix_submit" : "sheet_submit")),
      fix
        ? el("button", { type: "button", class: "cancel-fix", onclick: () => { delete fixes[tb.id]; render(); } }, t("fix_cancel"))
        : null,
    ),
  );
}

/** The sanctions that count in this game already (given before its sheet, or kept from a
 * voided sheet): said on the sheet, so that its 罚分 column does not give them twice. */
function pendingLine(tb, names, game) {
  const mine = (desk.ev.sanctions || []).filter(
    (s) => s && s.table === tb.id && (s.game === null || s.game === game) && (s.kind === "penalty" || s.kind === "last_place") && isInt(s.seat),
  );
  if (!mine.length) return null;
  const what = mine.map((s) => `${names[s.seat] || s.player} ${s.kind === "penalty" ? t("pts", signed(s.points)) : t("k_" + s.kind)}`);
  return el("p", { class: "sheet-pending" }, t("sheet_pending", what.join(t("sep"))));
}

function burnsBox(d, names) {
  const who = (seat, list, onchange, label) =>
    el(
      "select",
      { "aria-label": label, onchange },
      ...list.map((s) => el("option", { value: String(s), selected: seat === s }, names[s])),
    );
  const rows = d.burns.map((b, i) =>
    el(
      "li",
      { class: "burn" },
      who(b[0], SEATS, (e) => {
        b[0] = Number(e.target.value);
        if ((b[0] - b[1]) % 2 === 0) b[1] = (b[0] + 1) % 6;
        render();
      }, t("events.burner")),
      " → ",
      who(b[1], SEATS.filter((s) => (s - b[0]) % 2 !== 0), (e) => {
        b[1] = Number(e.target.value);
      }, t("victim")),
      el("button", { type: "button", class: "small", onclick: () => { d.burns.splice(i, 1); render(); } }, t("remove")),
    ),
  );
  return el(
    "div",
    { class: "burns" },
    el("span", { class: "burns-h" }, t("burns"), " "),
    el("span", { class: "muted" }, `(${t("events.burner")} → ${t("victim")})`),
    el("ol", null, ...rows),
    el("button", { type: "button", class: "small add-burn", onclick: () => { d.burns.push([0, 1]); render(); } }, t("burn_add")),
  );
}

/** The sheet's body for the API from the form, or null (and the reason shown) when the form
 * is not a sheet yet. */
function sheetBody(d, fix) {
  const places = d.places.map(Number);
  if ([...places].sort().join() !== "1,2,3,4,5,6") {
    $("admin-error").textContent = t("err_places");
    toast(t("err_places"), "error", 4000, "event");
    return null;
  }
  const body = { game: d.game, places };
  const items = sheetItems(desk.ev.preset);
  if (items.includes("not_opened")) body.not_opened = [...d.notOpened].sort();
  if (items.includes("men")) body.men = [...d.men].sort();
  if (items.includes("burns")) body.burns = d.burns.map((b) => [b[0], b[1]]);
  if (!fix) {
    const penalties = [];
    for (const seat of SEATS) {
      const p = d.pen[seat];
      if (!p) continue;
      const points = Number(String(p.points).trim());
      if (!/^\s*-?\d+\s*$/.test(String(p.points)) || !Number.isInteger(points) || points > -1 || points < -100) {
        $("admin-error").textContent = t("err_pen_points");
        toast(t("err_pen_points"), "error", 4000, "event");
        return null;
      }
      penalties.push({ seat, points, article: articleOf(p.article, p.text) });
    }
    if (penalties.length) body.penalties = penalties;
  }
  return body;
}

/** POST …/games/preview's answer, checked. */
function previewOf(data) {
  need(data && isInt(data.game) && intList(data.places, 6));
  need(Array.isArray(data.team_scores) && data.team_scores.length === 2 && data.team_scores.every(isNum));
  need(Array.isArray(data.penalties) && data.penalties.every((p) => p && isInt(p.seat) && p.seat >= 0 && p.seat < 6 && isNum(p.points)));
  const m = data.match;
  need(m && Array.isArray(m.teams) && m.teams.length === 2 && Array.isArray(m.totals) && m.totals.length === 2 && m.totals.every(isNum));
  need(typeof m.done === "boolean" && (m.winner === null || isText(m.winner)) && isInt(m.needed));
  return data;
}

/** What the match becomes, in words: decided (by lot), drawn, or still on (a tie: one more). */
function matchWords(m, neededBefore) {
  if (m.done && m.winner) return t(m.by_lot ? "pv_won_lot" : "pv_won", m.winner);
  if (m.done) return t("pv_drawn");
  if (m.needed > neededBefore) return t("pv_tie", m.needed);
  return t("pv_more", m.needed);
}

/** The confirmation's body: the game's places and scores, its penalties, the match after it. */
function previewBody(tb, names, pv, before) {
  const penalties = pv.penalties.map((p) =>
    el("li", null, t("who_team", names[p.seat], tb.teams[p.seat % 2]), " ", t("pts", signed(p.points)), p.article ? ` · ${articleText(p.article)}` : ""),
  );
  const rows = SEATS.map((seat) =>
    el(
      "tr",
      { class: (seat % 2 ? "tb" : "ta") + (before && before.places[seat] !== pv.places[seat] ? " changed" : "") },
      el("td", { class: "num" }, String(seat + 1)),
      el("td", null, names[seat]),
      before ? el("td", { class: "was" }, placeName(before.places[seat])) : null,
      el("td", { class: "now" }, placeName(pv.places[seat])),
    ),
  );
  const m = matchOf(desk.ev, tb) || { winner: null, needed: tb.needed };
  const out = [
    el(
      "table",
      { class: "ev-table pv-places" },
      el("thead", null, el("tr", null, el("th", null, t("col_seat")), el("th", null, t("col_player")), before ? el("th", null, t("pv_was")) : null, el("th", null, before ? t("pv_now") : t("sheet_place")))),
      el("tbody", null, rows),
    ),
  ];
  if (before) out.push(el("p", { class: "pv-was" }, t("pv_score_was"), " ", el("b", null, scoreLine(tb.teams, before.team_scores))));
  out.push(el("p", { class: "pv-score" }, t(before ? "pv_score_now" : "pv_score"), " ", el("b", null, scoreLine(tb.teams, pv.team_scores))));
  if (penalties.length) out.push(el("div", { class: "pv-pens" }, t("penalties"), el("ul", null, ...penalties)));
  out.push(el("p", { class: "pv-match" }, t("pv_total"), " ", el("b", null, scoreLine(pv.match.teams, pv.match.totals)), " · ", matchWords(pv.match, m.needed || tb.needed)));
  const now = m.winner || null;
  if (before && now !== (pv.match.winner || null)) {
    out.push(el("p", { class: "pv-change" }, t("pv_winner_change", now || t("pv_nobody"), pv.match.winner || t("pv_nobody"))));
  }
  return out;
}

async function submitSheet(e, tid, d, fix) {
  e.preventDefault();
  clearError();
  const tb = tablesOf(desk.ev).find((x) => x.id === tid);
  if (!tb) return;
  const body = sheetBody(d, fix);
  if (!body) return;
  const names = seatPlayers(desk.ev, tb);
  const slot = (fix ? "fix:" : "sheet:") + tid;
  const button = e.currentTarget.querySelector("button.submit-sheet");
  const path = `/tables/${encodeURIComponent(tid)}/games`;
  let pv;
  if (busy(slot)) return;
  try {
    // the preview changes nothing (no Idempotency-Key); the button waits for it all the same
    const answer = await write(slot, "POST", path + "/preview", fix ? { ...body, correct: true } : body, button, false);
    if (answer === undefined) return;
    pv = previewOf(answer);
  } catch (err) {
    showError(err);
    return;
  }
  const before = fix ? gamesOf(tb)[d.game] : null;
  const game = d.game + 1;
  const sent = fix
    ? () => write(slot, "PUT", `${path}/${d.game}`, { places: body.places, ...(body.not_opened ? { not_opened: body.not_opened } : {}), ...(body.men ? { men: body.men } : {}), ...(body.burns ? { burns: body.burns } : {}) })
    : () => write(slot, "POST", path, body);
  const done = await ask({
    title: t(fix ? "pv_fix_h" : "pv_h", game, tableLabel(tid, !!desk.ev.duplicate)),
    body: previewBody(tb, names, pv, before),
    ok: t(fix ? "pv_fix_ok" : "pv_ok"),
    cancel: t("pv_back"),
    run: async () => {
      try {
        await sent();
        return null;
      } catch (err) {
        return refusedWords(err);
      }
    },
  });
  if (!done) return;
  if (fix) delete fixes[tid];
  else delete drafts[tid]; // registered: a later sheet of this game (after a void) starts blank
  toast(t(fix ? "fix_sent" : "sheet_sent", game), "info", 2500, "event");
  await hooks.reload();
}

async function voidGame(tid, game, button) {
  clearError();
  const tb = tablesOf(desk.ev).find((x) => x.id === tid);
  const g = tb && gamesOf(tb)[game];
  if (!g) return;
  const done = await ask({
    title: t("void_h", game + 1, tableLabel(tid, !!desk.ev.duplicate)),
    body: [el("p", null, t("void_what", scoreLine(tb.teams, g.team_scores))), el("p", { class: "hint" }, t("void_hint"))],
    ok: t("void_ok"),
    danger: true,
    run: async () => {
      try {
        await write("void:" + tid, "DELETE", `/tables/${encodeURIComponent(tid)}/games/${game}`, undefined, button);
        return null;
      } catch (err) {
        return refusedWords(err);
      }
    },
  });
  if (!done) return;
  if (fixes[tid] && fixes[tid].game >= game) delete fixes[tid];
  toast(t("void_sent", game + 1), "info", 2500, "event");
  await hooks.reload();
}

// ------------------------------------------------------------------ sanctions
function sanctionDraft(tid) {
  if (!sanctionDrafts[tid]) sanctionDrafts[tid] = { seat: "", article: "", kind: "warning", points: "-2", text: "", game: "", open: false };
  return sanctionDrafts[tid];
}

/** What the page says of the chosen player: earlier sanctions, and the next step proposed. */
function historyLine(tb, names, s) {
  if (s.seat === "") return null;
  const seat = Number(s.seat);
  const team = tb.teams[seat % 2];
  const player = names[seat];
  const earlier = sanctionsOf(desk.ev, team, player);
  if (!earlier.length) return el("p", { class: "history none" }, t("hist_none", player));
  const kinds = earlier.map((x) => t("k_" + x.kind)).join(t("sep"));
  return el(
    "p",
    { class: "history repeat" },
    el("b", null, t("hist_repeat")),
    " ",
    t("hist_n", player, earlier.length, kinds),
    " ",
    t("hist_propose", t("k_" + proposalFor(desk.ev, team, player))),
  );
}

/** The sanction form of a table: who, in which game it counts, the article (fills the kind
 * and points), the kind, the points. */
function sanctionForm(tb, names) {
  const s = sanctionDraft(tb.id);
  const games = gamesOf(tb);
  const open = !tb.done && desk.ev.status !== "over";
  if (!open && s.game === "") s.game = games.length ? String(games.length - 1) : "";
  if (s.game !== "" && Number(s.game) >= games.length) s.game = open ? "" : String(games.length - 1);
  const named = s.game !== "";
  if (named && !["warning", "penalty"].includes(s.kind)) s.kind = "warning";
  const field = (label, control) => el("label", { class: "field" }, el("span", null, label), control);
  const form = el(
    "form",
    { class: "sanction-form", novalidate: true, dataset: { table: tb.id }, onsubmit: (e) => submitSanction(e, tb.id, s) },
    field(
      t("sanction_who"),
      el(
        "select",
        {
          class: "who",
          onchange: (e) => {
            s.seat = e.target.value;
            if (s.seat !== "") {
              const seat = Number(s.seat);
              const earlier = sanctionsOf(desk.ev, tb.teams[seat % 2], names[seat]);
              if (earlier.length) {
                const next = proposalFor(desk.ev, tb.teams[seat % 2], names[seat]);
                if (!named || ["warning", "penalty"].includes(next)) s.kind = next;
              }
            }
            render();
          },
        },
        el("option", { value: "", selected: s.seat === "" }, "—"),
        ...names.map((n, seat) => el("option", { value: String(seat), selected: s.seat === String(seat) }, `${seat + 1} · ${n} · ${tb.teams[seat % 2]}`)),
      ),
    ),
    historyLine(tb, names, s),
    field(
      t("sanction_game"),
      el(
        "select",
        {
          class: "game",
          onchange: (e) => {
            s.game = e.target.value;
            render();
          },
        },
        open ? el("option", { value: "", selected: s.game === "" }, t("sanction_game_next", games.length + 1)) : null,
        ...games.map((_, i) => el("option", { value: String(i), selected: s.game === String(i) }, t("events.game_n", i + 1))),
      ),
    ),
    field(
      t("sanction_article"),
      el(
        "select",
        {
          class: "article",
          onchange: (e) => {
            s.article = e.target.value;
            const a = ARTICLES[Number(s.article)];
            if (s.article !== "" && a && (!named || ["warning", "penalty"].includes(a.kind))) {
              s.kind = a.kind;
              if (a.points) s.points = String(a.points);
            }
            render();
          },
        },
        ...articleOptions(s.article),
      ),
    ),
    s.article === "other"
      ? field(
          "",
          el("input", {
            class: "article-text",
            maxlength: "80",
            value: s.text,
            placeholder: t("sanction_text_ph"),
            oninput: (e) => {
              s.text = e.target.value;
            },
          }),
        )
      : null,
    field(
      t("sanction_kind"),
      el(
        "select",
        {
          class: "kind",
          onchange: (e) => {
            s.kind = e.target.value;
            render();
          },
        },
        ...SANCTION_KINDS.map((k) =>
          el("option", { value: k, selected: s.kind === k, disabled: named && !["warning", "penalty"].includes(k) }, t("k_" + k)),
        ),
      ),
    ),
    named ? el("p", { class: "hint" }, t("sanction_named_hint")) : null,
    s.kind === "penalty"
      ? field(
          t("sanction_points"),
          el("input", {
            type: "number",
            class: "points",
            min: "-100",
            max: "-1",
            step: "1",
            value: s.points,
            "aria-label": t("sanction_points"),
            oninput: (e) => {
              s.points = e.target.value;
            },
          }),
        )
      : null,
    el("button", { type: "submit", class: "submit-sanction", disabled: busy("sanction:" + tb.id) }, t("sanction_submit")),
  );
  const shown = document.querySelector(`details.sanction-box[data-table="${tb.id}"]`);
  if (shown) s.open = shown.open; // opened or closed a moment ago (its toggle event comes later)
  return el(
    "details",
    { class: "sanction-box", dataset: { table: tb.id }, open: s.open, ontoggle: (e) => { s.open = e.target.open; } },
    el("summary", null, t("sanction_h")),
    form,
  );
}

async function submitSanction(e, tid, s) {
  e.preventDefault();
  clearError();
  if (s.seat === "") {
    $("admin-error").textContent = t("err_who");
    return;
  }
  const body = { kind: s.kind, seat: Number(s.seat), article: articleOf(s.article, s.text) };
  if (s.kind === "penalty") {
    const points = Number(String(s.points).trim());
    if (!/^\s*-?\d+\s*$/.test(String(s.points)) || !Number.isInteger(points) || points > -1 || points < -100) {
      $("admin-error").textContent = t("err_pen_points");
      return;
    }
    body.points = points;
  }
  if (s.game !== "") body.game = Number(s.game);
  const words = s.kind === "penalty" ? `${t("k_penalty")} ${signed(body.points)}` : t("k_" + s.kind);
  const button = e.currentTarget.querySelector("button.submit-sanction");
  const entry = await act("sanction:" + tid, "POST", `/tables/${encodeURIComponent(tid)}/sanctions`, body, button);
  if (!entry) return;
  sanctionDrafts[tid] = { seat: "", article: "", kind: "warning", points: "-2", text: "", game: "", open: true };
  const repeat = isInt(entry.repeat) && entry.repeat > 0 ? entry.repeat : 0;
  toast(repeat ? t("sanction_sent_repeat", words, repeat + 1) : t("sanction_sent", words), "info", 3000, "event");
  render();
}

// ------------------------------------------------------------------ walkovers
/** 弃权 of a match no game of which is entered: which team did not come (or both, not in a
 * knockout). */
async function walkover(m, button) {
  clearError();
  const [a, b] = m.teams;
  const choice = { value: "" };
  const options = [
    [a, t("wo_absent", a)],
    [b, t("wo_absent", b)],
  ];
  if (desk.ev.format !== "knockout") options.push(["both", t("wo_both", a, b)]);
  const radios = el(
    "div",
    { class: "wo-choices" },
    ...options.map(([value, text]) =>
      el(
        "label",
        { class: "check" },
        el("input", { type: "radio", name: "wo-absent", value, onchange: () => { choice.value = value; } }),
        " ",
        text,
      ),
    ),
  );
  const done = await ask({
    title: t("wo_h", tableLabel(m.id, false)),
    body: [el("p", null, t("wo_which")), radios, el("p", { class: "hint" }, t(desk.ev.format === "knockout" ? "wo_hint_ko" : "wo_hint"))],
    ok: t("wo_ok"),
    danger: true,
    run: async () => {
      if (!choice.value) return t("wo_choose");
      const absent = choice.value === "both" ? [a, b] : [choice.value];
      try {
        await write("walkover:" + m.id, "POST", `/matches/${encodeURIComponent(m.id)}/walkover`, { absent }, button);
        return null;
      } catch (err) {
        return refusedWords(err);
      }
    },
  });
  if (!done) return;
  toast(t("wo_sent"), "info", 2500, "event");
  await hooks.reload();
}

function walkoverTool(m, own) {
  const ev = desk.ev;
  if (m.bye || m.done || matchDone(ev, m) || ev.status === "over" || !covers(m.id)) return null;
  if (own.some((t) => (t.games || []).length)) return null;
  return el(
    "div",
    { class: "match-tools" },
    el("button", { type: "button", class: "small walkover", disabled: busy("walkover:" + m.id), onclick: (e) => walkover(m, e.currentTarget) }, t("wo_button")),
  );
}

// ------------------------------------------------------------------ the panel
function tableCard(tb, outcome) {
  const ev = desk.ev;
  const names = seatPlayers(ev, tb);
  const games = gamesOf(tb);
  const sums = [0, 0];
  for (const g of games) for (const k of [0, 1]) sums[k] += Number(g.team_scores[k]) || 0;
  const live = !tb.done && ev.status !== "over";
  const mine = covers(tb.id);
  if (fixes[tb.id] && (!correctable(tb) || fixes[tb.id].game >= games.length)) delete fixes[tb.id];
  const fix = fixes[tb.id];
  let sheet = null;
  if (fix) sheet = sheetForm(tb, names, fix, true);
  else if (ev.mode === "paper" && live && mine) sheet = sheetForm(tb, names, draftOf(tb), false);
  const sanctions = mine && tb.round === ev.round && ev.status !== "over" && (live || games.length);
  return el(
    "div",
    { class: "ev-tablecard" + (tb.done ? " done" : ""), dataset: { table: tb.id } },
    el(
      "div",
      { class: "tc-head" },
      el("b", null, tableLabel(tb.id, !!ev.duplicate)),
      el("span", { class: "tag team-a" }, tb.teams[0]),
      el("b", { class: "live-score" }, `${num(sums[0])} : ${num(sums[1])}`),
      el("span", { class: "tag team-b" }, tb.teams[1]),
      el("span", { class: "spacer" }),
      el("span", { class: tb.done ? "outcome" : "muted" }, tb.done ? outcome || t("decided") : t("games_done", games.length, tb.needed || ev.games || 0)),
      tb.room ? el("a", { class: "button small watch", href: "/r/" + tb.room, target: "_blank", rel: "noopener" }, t("watch")) : null,
    ),
    ev.mode === "online" && live && organiser() ? linksBox(tb, names) : null,
    playedGames(tb, names),
    sheet,
    sanctions ? sanctionForm(tb, names) : null,
  );
}

/** The round's tables (a referee: those of its matches). */
export function tablesPanel() {
  const ev = desk.ev;
  const round = ev.round || 0;
  $("tables-panel").classList.toggle("hidden", !round);
  if (!round) return;
  $("tables-h").textContent = desk.role === "referee" ? t("ref_tables_h", round) : t("tables_h", round);
  const matches = (ev.rounds || [])[round - 1] || [];
  const tables = tablesOf(ev).filter((t) => t.round === round);
  const boxes = [];
  matches.forEach((m, k) => {
    if (desk.role === "referee" && !covers(m.id)) return;
    if (m.bye) {
      boxes.push(el("div", { class: "ev-match bye" }, el("h3", null, t("match_n", k + 1)), el("p", null, m.teams[0], " · ", t("bye"))));
      return;
    }
    const own = tables.filter((t) => t.match === m.id || String(t.id).startsWith(m.id + "t"));
    const absent = Array.isArray(m.walkover) ? m.walkover.filter(isText) : [];
    let outcome = m.winner ? t(m.by_lot ? "m_won_lot" : "won_by", m.winner) : matchDone(ev, m) ? t("draw_result") : "";
    if (absent.length) outcome = t("wo_result", absent.join(t("sep"))) + (m.winner ? " · " + t("won_by", m.winner) : "");
    const head = ev.duplicate || absent.length
      ? el(
          "h3",
          null,
          // after an R17.3 tie the totals restart: say both, as the public page does
          t("match_n", k + 1), " · ", m.teams[0], ` ${matchScoreText(ev, m)} `, m.teams[1],
          outcome ? el("span", { class: "outcome" }, " · ", outcome) : null,
        )
      : null;
    boxes.push(
      el(
        "div",
        { class: "ev-match", dataset: { match: m.id } },
        head,
        ...own.map((t) => tableCard(t, ev.duplicate || absent.length ? "" : outcome)),
        walkoverTool(m, own),
      ),
    );
  });
  if (!boxes.length) boxes.push(el("p", { class: "muted" }, t("ref_none")));
  patch($("tables-box"), boxes);
}

/** The seat links of the round's online tables (organiser). */
export async function loadLinks() {
  try {
    const data = await api("GET", base() + "/links", undefined, desk.key);
    need(data && typeof data === "object" && !Array.isArray(data));
    const links = {};
    for (const [tid, list] of Object.entries(data)) {
      need(Array.isArray(list));
      links[tid] = list.filter((x) => x && isInt(x.seat) && x.seat >= 0 && x.seat < 6 && isText(x.url));
    }
    state.links = links;
    return true;
  } catch (e) {
    if (e.status !== 409 && e.status !== 404) showError(e);
    return false;
  }
}

/** The repeat offenders of the event: who, how often, what, and the next step proposed. */
export function offendersBox() {
  const list = (desk.ev.offenders || []).filter((o) => o && isText(o.team) && isText(o.player) && isInt(o.count) && Array.isArray(o.kinds) && isText(o.next));
  if (!list.length) return null;
  return el(
    "div",
    { class: "offenders", id: "offenders" },
    el("h3", null, t("off_h")),
    el(
      "ul",
      null,
      ...list.map((o) =>
        el(
          "li",
          { class: "offender", dataset: { player: o.player } },
          el("b", null, o.player),
          " ",
          el("span", { class: "muted" }, t("team_of", o.team)),
          " ",
          t("off_n", o.count, o.kinds.map((k) => t("k_" + k)).join(t("sep"))),
          " → ",
          el("span", { class: "proposal" }, t("off_next", t("k_" + o.next))),
        ),
      ),
    ),
  );
}

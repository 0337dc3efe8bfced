// The organiser's page of an event (/e/{code}/admin): register teams, draw rounds (抽签), hand out
// the seat links of online tables or enter each game's sheet at real-card tables, give
// sanctions with their article, close the event. Organiser calls carry the key remembered
// in this browser (event-api.js); every refusal is shown in words.
import { getLang, placeName, setLang } from "./i18n.js";
import { el, patch, toast } from "./common.js";
import { BOT_LEVELS, DEFAULT_BOT, botLevel, pick } from "./presets.js";
import {
  absolute,
  api,
  eventCode,
  loadKey,
  rememberEvent,
  saveKey,
  seatPlayers,
  tablesOf,
  teamsByName,
  teamNames,
} from "./event-api.js";
import {
  ARTICLES,
  SANCTION_KINDS,
  applyWords,
  num,
  setDuplicate,
  sheetItems,
  signed,
  tableLabel,
  w,
} from "./event-words.js";
import { eventHeader, matchDone, sanctionsList, standingsTable } from "./event-view.js";
import { RoundClock, clockText } from "./event-clock.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 4000;
const code = eventCode();
let key = loadKey(code);
let ev = null;
let shown = "";
let links = {}; // table id → [{seat, team, player, url}] (online rounds)
let linksRound = 0;
const drafts = {}; // table id → the sheet being filled in: {game, places, notOpened, men, burns}
const sanctionDrafts = {}; // table id → {seat, article, kind, points, text}
const roundClock = new RoundClock(); // the round clock, counted on the server's time

// ------------------------------------------------------------------ requests
function base() {
  return `/api/events/${encodeURIComponent(code)}`;
}

function showError(e) {
  const text = e && e.message ? e.message : String(e);
  $("admin-error").textContent = text;
  toast(text, "error", 6000, "event");
  if (e && e.status === 403) {  // a wrong key: ask for it again
    key = "";
    saveKey(code, "");
    showKey();
  }
}

/** An organiser call; on success the event is read again and the page redrawn. */
async function act(method, path, body, done) {
  $("admin-error").textContent = "";
  try {
    const data = await api(method, base() + path, body, key);
    if (done) done(data);
    await reload();
    return data;
  } catch (e) {
    showError(e);
    return null;
  }
}

async function reload() {
  try {
    const data = await roundClock.load(code);
    const text = JSON.stringify({ ...data, now: null }); // the server's time changes every time
    if (ev && (ev.round || 0) !== (data.round || 0)) links = {};
    ev = data;
    setDuplicate(data.duplicate);
    if (data.mode === "online" && key && data.round && linksRound !== data.round) await loadLinks();
    if (text !== shown) {
      shown = text;
      rememberEvent(code, data.name);
      render();
    }
  } catch (e) {
    showError(e);
  }
}

async function loadLinks() {
  try {
    links = await api("GET", base() + "/links", undefined, key);
    linksRound = ev.round;
    shown = ""; // redraw with them
  } catch (e) {
    if (e.status !== 409 && e.status !== 404) showError(e);
  }
}

async function poll() {
  await reload();
  if (!ev || ev.status !== "over") setTimeout(poll, POLL_MS);
}

// ------------------------------------------------------------------ the key
function showKey() {
  $("key-form").classList.toggle("hidden", !!key);
  $("key-known").classList.toggle("hidden", !key);
  $("key-show").value = key;
  $("key-panel").classList.toggle("attention", !key);
}

function keyFromHash() {
  const m = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (m) {
    key = decodeURIComponent(m[1]);
    saveKey(code, key);
    history.replaceState(null, "", location.pathname);
  }
}

// ------------------------------------------------------------------ registration
function teamsPanel() {
  const open = (ev.status || "registering") === "registering";
  $("teams-panel").classList.toggle("hidden", !open);
  if (!open) return;
  const teams = teamsByName(ev);
  const items = teamNames(ev).map((name) => {
    const t = teams.get(name);
    const who = t && t.bot ? w("bot_of", botName(t.bot)) : t && t.players.length ? t.players.join(w("sep")) : "";
    return el(
      "li",
      { dataset: { team: name } },
      el("b", null, name),
      who ? el("span", { class: "muted" }, " ", who) : null,
      el("button", { type: "button", class: "small remove", onclick: () => removeTeam(name) }, w("remove")),
    );
  });
  patch($("team-list"), items);
}

function botName(agent) {
  const level = botLevel(agent);
  return level ? pick(level.name) : "";
}

async function addTeam(e) {
  e.preventDefault();
  const name = $("team-name").value.trim();
  const bot = $("team-bot").checked ? $("team-bot-level").value : null;
  let players = [1, 2, 3].map((k) => $("player-" + k).value.trim());
  if (!name) {
    $("admin-error").textContent = w("err_team_name");
    $("team-name").focus();
    return;
  }
  if (bot && players.every((p) => !p)) players = [1, 2, 3].map((k) => `${name} ${k}`);
  if (players.some((p) => !p)) {
    $("admin-error").textContent = w("err_players");
    return;
  }
  const body = { name, players };
  if (bot) body.bot = bot;
  const ok = await act("POST", "/teams", body);
  if (ok) {
    for (const id of ["team-name", "player-1", "player-2", "player-3"]) $(id).value = "";
    $("team-name").focus();
  }
}

function removeTeam(name) {
  act("DELETE", "/teams/" + encodeURIComponent(name));
}

// ------------------------------------------------------------------ the draw
function drawPanel() {
  const st = ev.status || "registering";
  const can = (st === "registering" && teamNames(ev).length >= 2) || st === "between_rounds";
  $("draw-panel").classList.toggle("hidden", st === "over");
  $("draw").textContent = w("draw", (ev.round || 0) + 1);
  $("draw").disabled = !can;
  $("draw-hint").textContent = can ? "" : st === "playing" ? w("draw_wait") : w("draw_need");
}

async function draw() {
  $("draw").disabled = true;
  await act("POST", "/rounds", {}, () => {
    links = {};
    linksRound = 0;
  });
}

// ------------------------------------------------------------------ tables
function seatTag(t, seat, names) {
  return el(
    "span",
    { class: "seat-who" },
    el("span", { class: "team-dot" + (seat % 2 ? " b" : " a") }),
    el("b", null, names[seat]),
    el("span", { class: "muted" }, " ", t.teams[seat % 2]),
  );
}

function linksBox(t, names) {
  const list = links[t.id] || [];
  if (!list.length) return null;
  return el(
    "details",
    { class: "seat-links", open: true },
    el("summary", null, w("seat_links")),
    el(
      "ol",
      null,
      ...list.map((x) => {
        const url = absolute(x.url);
        const seat = Number(x.seat);
        return el(
          "li",
          { class: "seat-link", dataset: { seat: String(seat) } },
          seatTag(t, seat, names),
          el("input", { readonly: true, value: url, "aria-label": names[seat] }),
          el("button", { type: "button", class: "small", onclick: () => copy(url) }, w("key_copy")),
          el("a", { class: "button small", href: url, target: "_blank", rel: "noopener" }, w("open")),
        );
      }),
    ),
  );
}

function copy(text) {
  const done = () => toast(w("copied"), "info", 1500, "event");
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

/** The games entered at a table: game number, places by player, the two team scores. */
function playedGames(t, names) {
  if (!(t.games || []).length) return null;
  const head = el(
    "tr",
    null,
    el("th", null, w("col_game")),
    ...names.map((n, seat) => el("th", { class: seat % 2 ? "tb" : "ta" }, n)),
    el("th", { class: "ta" }, t.teams[0]),
    el("th", { class: "tb" }, t.teams[1]),
  );
  const rows = t.games.map((g, i) =>
    el(
      "tr",
      null,
      el("td", { class: "num" }, String(i + 1)),
      ...names.map((_, seat) => el("td", null, placeName((g.places || [])[seat]))),
      el("td", { class: "num" }, num(g.team_scores[0])),
      el("td", { class: "num" }, num(g.team_scores[1])),
    ),
  );
  return el(
    "div",
    { class: "played scroll-x" },
    el("table", { class: "ev-table games" }, el("caption", null, w("played")), el("thead", null, head), el("tbody", null, rows)),
  );
}

function draftOf(t) {
  const game = (t.games || []).length;
  let d = drafts[t.id];
  if (!d || d.game !== game) {
    d = { game, places: ["", "", "", "", "", ""], notOpened: [], men: [], burns: [] };
    drafts[t.id] = d;
  }
  return d;
}

/** The referee's sheet of the next game: a place per player, the items the rule set scores. */
function sheetForm(t, names) {
  const d = draftOf(t);
  const items = sheetItems(ev.preset);
  const head = el(
    "tr",
    null,
    el("th", null, w("col_seat")),
    el("th", null, w("col_player")),
    el("th", null, w("sheet_place")),
    items.includes("not_opened") ? el("th", null, w("col_not_opened")) : null,
    items.includes("men") ? el("th", null, w("col_men")) : null,
  );
  const rows = names.map((n, seat) => {
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
    const box = (list, what) =>
      el(
        "td",
        { class: "c" },
        el("input", {
          type: "checkbox",
          class: what,
          "aria-label": `${n} ${w(what)}`,
          dataset: { seat: String(seat) },
          checked: list.includes(seat),
          onchange: (e) => {
            const i = list.indexOf(seat);
            if (e.target.checked && i < 0) list.push(seat);
            if (!e.target.checked && i >= 0) list.splice(i, 1);
          },
        }),
      );
    return el(
      "tr",
      { class: seat % 2 ? "tb" : "ta" },
      el("td", { class: "num" }, String(seat + 1)),
      el("td", null, seatTag(t, seat, names)),
      el("td", null, place),
      items.includes("not_opened") ? box(d.notOpened, "not_opened") : null,
      items.includes("men") ? box(d.men, "men") : null,
    );
  });
  const burns = items.includes("burns") ? burnsBox(t, d, names) : null;
  const form = el(
    "form",
    { class: "sheet", dataset: { table: t.id }, onsubmit: (e) => submitSheet(e, t, d) },
    el("h4", null, w("sheet_h", d.game + 1)),
    el("div", { class: "scroll-x" }, el("table", { class: "ev-table sheet-grid" }, el("thead", null, head), el("tbody", null, rows))),
    burns,
    el("button", { type: "submit", class: "primary submit-sheet" }, w("sheet_submit")),
  );
  return form;
}

function burnsBox(t, d, names) {
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
      who(b[0], [0, 1, 2, 3, 4, 5], (e) => {
        b[0] = Number(e.target.value);
        if ((b[0] - b[1]) % 2 === 0) b[1] = (b[0] + 1) % 6;
        render(true);
      }, w("burner")),
      " → ",
      who(b[1], [0, 1, 2, 3, 4, 5].filter((s) => (s - b[0]) % 2 !== 0), (e) => {
        b[1] = Number(e.target.value);
      }, w("victim")),
      el("button", { type: "button", class: "small", onclick: () => { d.burns.splice(i, 1); render(true); } }, w("remove")),
    ),
  );
  return el(
    "div",
    { class: "burns" },
    el("span", { class: "burns-h" }, w("burns"), " "),
    el("span", { class: "muted" }, `(${w("burner")} → ${w("victim")})`),
    el("ol", null, ...rows),
    el("button", { type: "button", class: "small add-burn", onclick: () => { d.burns.push([0, 1]); render(true); } }, w("burn_add")),
  );
}

async function submitSheet(e, t, d) {
  e.preventDefault();
  const places = d.places.map(Number);
  if ([...places].sort().join() !== "1,2,3,4,5,6") {
    $("admin-error").textContent = w("err_places");
    toast(w("err_places"), "error", 4000, "event");
    return;
  }
  const body = { game: d.game, places };
  const items = sheetItems(ev.preset);
  if (items.includes("not_opened")) body.not_opened = [...d.notOpened].sort();
  if (items.includes("men")) body.men = [...d.men].sort();
  if (items.includes("burns")) body.burns = d.burns.map((b) => [b[0], b[1]]);
  const game = d.game + 1;
  await act("POST", `/tables/${encodeURIComponent(t.id)}/games`, body, () => toast(w("sheet_sent", game), "info", 2500, "event"));
}

/** The sanction form of a table: who, the article (fills the kind and points), the kind. */
function sanctionForm(t, names) {
  let s = sanctionDrafts[t.id];
  if (!s) {
    s = { seat: "", article: "", kind: "warning", points: -2, text: "", open: false };
    sanctionDrafts[t.id] = s;
  }
  const pointsBox = el("input", {
    type: "number",
    class: "points",
    step: "1",
    value: String(s.points),
    "aria-label": w("sanction_points"),
    onchange: (e) => {
      s.points = Number(e.target.value);
    },
  });
  const form = el(
    "form",
    { class: "sanction-form", dataset: { table: t.id }, onsubmit: (e) => submitSanction(e, t, s) },
    el(
      "label",
      { class: "field" },
      el("span", null, w("sanction_who")),
      el(
        "select",
        { class: "who", onchange: (e) => { s.seat = e.target.value; } },
        el("option", { value: "", selected: s.seat === "" }, "—"),
        ...names.map((n, seat) => el("option", { value: String(seat), selected: s.seat === String(seat) }, `${n} · ${t.teams[seat % 2]}`)),
      ),
    ),
    el(
      "label",
      { class: "field" },
      el("span", null, w("sanction_article")),
      el(
        "select",
        {
          class: "article",
          onchange: (e) => {
            s.article = e.target.value;
            const a = ARTICLES[Number(s.article)];
            if (a) {
              s.kind = a.kind;
              if (a.points) s.points = a.points;
            }
            render(true);
          },
        },
        el("option", { value: "", selected: s.article === "" }, "—"),
        ...ARTICLES.map((a, i) => el("option", { value: String(i), selected: s.article === String(i) }, getLang() === "zh" ? a.zh : a.en)),
        el("option", { value: "other", selected: s.article === "other" }, w("sanction_other")),
      ),
    ),
    s.article === "other"
      ? el(
          "label",
          { class: "field" },
          el("span", null, ""),
          el("input", {
            class: "article-text",
            maxlength: "80",
            value: s.text,
            placeholder: w("sanction_text_ph"),
            oninput: (e) => { s.text = e.target.value; },
          }),
        )
      : null,
    el(
      "label",
      { class: "field" },
      el("span", null, w("sanction_kind")),
      el(
        "select",
        { class: "kind", onchange: (e) => { s.kind = e.target.value; render(true); } },
        ...SANCTION_KINDS.map((k) => el("option", { value: k, selected: s.kind === k }, w("k_" + k))),
      ),
    ),
    s.kind === "penalty" ? el("label", { class: "field" }, el("span", null, w("sanction_points")), pointsBox) : null,
    el("button", { type: "submit", class: "submit-sanction" }, w("sanction_submit")),
  );
  return el(
    "details",
    { class: "sanction-box", open: s.open, ontoggle: (e) => { s.open = e.target.open; } },
    el("summary", null, w("sanction_h")),
    form,
  );
}

async function submitSanction(e, t, s) {
  e.preventDefault();
  if (s.seat === "") {
    $("admin-error").textContent = w("err_who");
    return;
  }
  const a = ARTICLES[Number(s.article)];
  const article = s.article === "other" ? s.text.trim() : a ? a.zh : "";
  const body = { kind: s.kind, seat: Number(s.seat), article };
  if (s.kind === "penalty") body.points = s.points;
  const words = s.kind === "penalty" ? `${w("k_penalty")} ${signed(s.points)}` : w("k_" + s.kind);
  await act("POST", `/tables/${encodeURIComponent(t.id)}/sanctions`, body, () => {
    sanctionDrafts[t.id] = { seat: "", article: "", kind: "warning", points: -2, text: "", open: true };
    toast(w("sanction_sent", words), "info", 2500, "event");
  });
}

function tableCard(t, outcome) {
  const names = seatPlayers(ev, t);
  const played = (t.games || []).length;
  const sums = [0, 0];
  for (const g of t.games || []) for (const k of [0, 1]) sums[k] += Number(g.team_scores[k]) || 0;
  const live = !t.done && ev.status !== "over";
  return el(
    "div",
    { class: "ev-tablecard" + (t.done ? " done" : ""), dataset: { table: t.id } },
    el(
      "div",
      { class: "tc-head" },
      el("b", null, tableLabel(t.id, !!ev.duplicate)),
      el("span", { class: "tag team-a" }, t.teams[0]),
      el("b", { class: "live-score" }, `${num(sums[0])} : ${num(sums[1])}`),
      el("span", { class: "tag team-b" }, t.teams[1]),
      el("span", { class: "spacer" }),
      el("span", { class: t.done ? "outcome" : "muted" }, t.done ? outcome || w("decided") : w("games_done", played, t.needed || ev.games || 0)),
      t.room ? el("a", { class: "button small watch", href: "/r/" + t.room, target: "_blank", rel: "noopener" }, w("watch")) : null,
    ),
    ev.mode === "online" && live ? linksBox(t, names) : null,
    playedGames(t, names),
    ev.mode === "paper" && live ? sheetForm(t, names) : null,
    live ? sanctionForm(t, names) : null,
  );
}

function tablesPanel() {
  const round = ev.round || 0;
  $("tables-panel").classList.toggle("hidden", !round);
  if (!round) return;
  $("tables-h").textContent = w("tables_h", round);
  const matches = (ev.rounds || [])[round - 1] || [];
  const tables = tablesOf(ev).filter((t) => t.round === round);
  const boxes = matches.map((m, k) => {
    if (m.bye) return el("div", { class: "ev-match bye" }, el("h3", null, w("match_n", k + 1)), el("p", null, m.teams[0], " · ", w("bye")));
    const own = tables.filter((t) => String(t.id).startsWith(m.id + "t"));
    const outcome = m.winner ? w("won_by", m.winner) : matchDone(ev, m) ? w("draw_result") : "";
    // one table: its card says it all; two (duplicate): the match's totals over both first
    const head = ev.duplicate
      ? el(
          "h3",
          null,
          w("match_n", k + 1), " · ", m.teams[0], ` ${num(m.totals[0])} : ${num(m.totals[1])} `, m.teams[1],
          outcome ? el("span", { class: "outcome" }, " · ", outcome) : null,
        )
      : null;
    return el("div", { class: "ev-match", dataset: { match: m.id } }, head, ...own.map((t) => tableCard(t, ev.duplicate ? "" : outcome)));
  });
  patch($("tables-box"), boxes);
}

// ------------------------------------------------------------------ the round clock
function clockPanel() {
  $("clock-panel").classList.toggle("hidden", !(ev.round > 0 && ev.status !== "over"));
  $("clock-stop").classList.toggle("hidden", !ev.clock);
  $("clock-start").textContent = w(ev.clock ? "clock_restart" : "clock_start");
  clockTick();
}

/** The time left, said every second: "第 2 轮剩余 12:34", "时间到". */
function clockTick() {
  if (!ev) return;
  const left = ev.status === "over" ? null : roundClock.left();
  const round = ev.clock ? ev.clock.round : ev.round;
  const text = left === null ? w("clock_none") : left > 0 ? w("clock_running", round, clockText(left)) : w("clock_up", round);
  if ($("clock-now").textContent !== text) $("clock-now").textContent = text;
  $("clock-now").classList.toggle("up", left === 0);
}

async function startClock(e) {
  e.preventDefault();
  const raw = $("clock-minutes").value.trim();
  const minutes = Number(raw);
  if (!/^[0-9]{1,3}$/.test(raw) || minutes < 1 || minutes > 300) {
    $("admin-error").textContent = w("err_minutes");
    return;
  }
  await act("POST", "/clock", { minutes }, () => toast(w("clock_started", minutes), "info", 2500, "event"));
}

function stopClock() {
  act("POST", "/clock", { minutes: null }, () => toast(w("clock_stopped"), "info", 2500, "event"));
}

// ------------------------------------------------------------------ the page
function render(keep) {
  if (keep !== true) applyWords();
  if (!ev) return;
  document.title = w("admin_title", ev.name);
  patch($("head"), [eventHeader(ev)]);
  for (const k of [1, 2, 3]) $(`p${k}-l`).textContent = w("player_n", k);
  const level = $("team-bot-level");
  const keepLevel = level.value || DEFAULT_BOT;
  level.textContent = "";
  for (const b of BOT_LEVELS) level.append(el("option", { value: b.agent }, pick(b.name)));
  level.value = keepLevel;
  teamsPanel();
  drawPanel();
  tablesPanel();
  patch($("standings-box"), [standingsTable(ev)]);
  const sanctions = sanctionsList(ev);
  patch($("sanctions-box"), sanctions ? [sanctions] : []);
  $("sanctions-panel").classList.toggle("hidden", !sanctions);
  $("close-panel").classList.toggle("hidden", ev.status === "over");
  clockPanel();
}

$("public-link").href = `/e/${code}`;
$("print-link").href = `/e/${code}/print`;
$("wall-link").href = `/e/${code}/wall`;
$("clock-form").addEventListener("submit", startClock);
$("clock-stop").addEventListener("click", stopClock);
setInterval(clockTick, 1000);
$("key-form").addEventListener("submit", (e) => {
  e.preventDefault();
  key = $("key-input").value.trim();
  saveKey(code, key);
  showKey();
  shown = "";
  reload();
});
$("key-copy").addEventListener("click", () => copy(key));
$("key-forget").addEventListener("click", () => {
  key = "";
  saveKey(code, "");
  showKey();
});
$("team-form").addEventListener("submit", addTeam);
$("team-bot").addEventListener("change", () => {
  $("team-bot-level").disabled = !$("team-bot").checked;
});
$("draw").addEventListener("click", draw);
$("close").addEventListener("click", () => {
  if (confirm(w("close_confirm"))) act("POST", "/close", {});
});
$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});
window.gouji = { get event() { return ev; }, get links() { return links; } };
keyFromHash();
showKey();
applyWords();
poll();

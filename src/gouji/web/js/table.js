// The live table: websocket client (docs/protocol.md) and rendering of Match.view(seat). Its
// parts beside it: table-room.js reads the room (seats, names, rule links), table-decisions.js
// draws where the player decides (the hand's selection, the action bar, tribute, settlement).
import { RANKS, cardWord, countsOf, deckOf, parseCards } from "./cards.js";
import { dropToasts, el, loadName, loadRoom, patch, saveName, saveRoom, toast } from "./common.js";
import { clearBanners, drawFelt, showBanner, teamOf, tickTimers } from "./felt.js";
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { isMuted, setMuted, sound, unlockOnGesture } from "./sound.js";
import { helpSheet } from "./glossary.js";
import { setTable, table, tell } from "./state.js";
import { applyHint, askHint, checkSelection, clearSelection, legalNow, maybeAutoPass, onlyAutoPass, renderActions, renderHand, renderSettlement, renderTribute, renderTributeButton, reopenTribute, selectedLegal, setupHand } from "./table-decisions.js";
import { code, gameNo, names, namesAt, naming, presetCode, rememberSeatNotes, replayHref, roomConfig, roomSeats, withRule } from "./table-room.js";
import { displayName, errorText, eventText, momentOf, namer, noteText, placesLine, reasonText, setTeamNames, teamName } from "./words.js";
const $ = (id) => document.getElementById(id);
const BANNER_MOMENTS = 3; // at most this many banners for one state (the places make one)
const PLACE_EVENTS = new Set(["place", "ended", "men", "broken_burn", "moved", "punished"]);
const NOTE_BANNERS = new Set(["timeout", "trust"]);

/** A competition seat link (`?seat=1…6&invite=…`, handed out by the event's organiser). */
const INVITE = (() => {
  const q = new URLSearchParams(location.search);
  const seat = Number(q.get("seat"));
  const invite = q.get("invite");
  return invite && Number.isInteger(seat) && seat >= 1 && seat <= 6 ? { seat: seat - 1, invite } : null;
})();
/** Where this page keeps its seat token: a seat link its own, so that two links of one table
 * opened in one browser each keep their player's seat. */
const SLOT = INVITE ? INVITE.seat : null;

const S = {
  ws: null,
  token: null,
  name: "",
  seat: null, // own seat; null = spectator
  joined: false,
  room: null,
  view: null,
  deadline: null,
  version: -1,
  backoff: 500,
  worker: null, // the server process serving the room (a `moved` message names it)
  retryTimer: null,
  pingTimer: null,
  conn: { key: "connecting", arg: null, kind: "wait" },
  everConnected: false,
  selected: new Set(), // indexes into S.hand
  hand: [],
  handKey: null,
  hint: null, // the suggested action
  busy: null, // id of the act in flight
  autoIds: new Set(), // ids of the page's automatic passes (their errors are not shown)
  autoSent: -1, // version at which an automatic pass was sent
  actSeq: 0,
  why: null, // why the selection cannot be played (words)
  checkFor: null, // the action a `check` was sent for
  noteKeys: null, // the room notes seen (JSON texts); null before the first state
  noteLines: [], // [{game, key, note}] notes for the log, placed after the event they came with (worded when shown)
  seatNotes: [], // the room's seat notes with their place in the games (rememberSeatNotes)
  seen: { game: null, i: -1 }, // the last public event announced
  lastPlay: null, // "game:i" of the last play seen
  fresh: null, // the seat whose play just came (animated once)
  wasMyTurn: false,
  tributeOpen: null, // game whose tribute panel was reopened
  tributeClosed: null, // game whose tribute panel was closed
  tributeShown: null, // {game, at}: when the tribute panel of the game first showed
  tributeTimer: null,
  settleClosed: null, // game whose settlement was closed
  log: { sig: "", texts: [] }, // what the log shows
  afterWelcome: null, // what to do once (re)joined: a seat to take after giving a name
  helpOpen: false, // the help sheet (rules page, choosing cards, glossary) is shown
  sent: null, // the type of the last message sent (an error answers it)
  autoSat: false,
  stood: false,
  sitPending: false,
  sitFrom: null,
};

// ------------------------------------------------------------------ websocket
function wsUrl() {
  // the server process that serves the room, once one said so (`moved`): the proxy routes `w`
  const w = S.worker ? "?w=" + encodeURIComponent(S.worker) : "";
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + w;
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(msg));
    if (msg.type !== "ping" && msg.type !== "check") S.sent = msg.type; // what an error answers
    return true;
  }
  toast(t("reconnecting"), "error");
  return false;
}

function newId() {
  S.actSeq += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${Date.now().toString(36)}-${S.actSeq}-${rnd}`;
}

/** Send a decision; `auto` marks one the page made by itself (it does not end 托管). */
function act(action, auto = false) {
  const id = newId();
  const msg = { type: "act", id, action };
  if (auto) msg.auto = true;
  if (send(msg)) {
    S.busy = id;
    if (auto) S.autoIds.add(id);
    S.hint = null;
    S.why = null;
    renderActions();
  }
}

function setConn(key, kind, arg = null) {
  S.conn = { key, kind, arg };
  renderConn();
}

function renderConn() {
  const c = $("conn");
  c.textContent = t(S.conn.key, S.conn.arg);
  c.className = "conn " + S.conn.kind;
}

function connect() {
  clearTimeout(S.retryTimer);
  setConn(S.everConnected ? "reconnecting" : "connecting", "wait");
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  ws.onopen = () => {
    S.everConnected = true;
    S.backoff = 500;
    const msg = { type: "join", room: code };
    if (S.name) msg.name = S.name;
    if (S.token) msg.token = S.token;
    if (INVITE) Object.assign(msg, INVITE); // the invited player comes in however many watch
    ws.send(JSON.stringify(msg));
    clearInterval(S.pingTimer);
    S.pingTimer = setInterval(() => send({ type: "ping" }), 25000);
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    onMessage(msg);
    tell(msg);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.joined = false;
    S.busy = null;
    clearInterval(S.pingTimer);
    scheduleReconnect();
  };
  ws.onerror = () => {
    /* onclose follows */
  };
}

/** Join again (a new name): the old socket is let go, a new one joins. */
function rejoin() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

function scheduleReconnect() {
  const delay = S.backoff;
  S.backoff = Math.min(S.backoff * 2, 10000);
  setConn("conn_lost", "bad", Math.ceil(delay / 1000));
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, delay);
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      onWelcome(msg);
      break;
    case "state":
      onState(msg);
      break;
    case "ack":
      // an applied decision stays "in flight" until the state it made arrives (next)
      if (S.busy === msg.id && msg.duplicate) S.busy = null;
      renderActions();
      break;
    case "hint":
      S.hint = msg.action || null;
      applyHint();
      break;
    case "check":
      onCheck(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "moved":
      // another server process serves the room (or will in a moment): connect to it
      S.worker = msg.worker || null;
      S.backoff = msg.worker ? 100 : 1000;
      break;
    case "replaced":
      // another connection presented this seat's token: it has the seat now, we watch
      S.token = null;
      S.seat = null;
      saveRoom(code, { token: null, name: S.name }, SLOT);
      toast(t(msg.why === "relink" ? "seat_relinked" : "seat_replaced"), "error", 10000);
      render();
      break;
    default:
      break;
  }
}

function onWelcome(msg) {
  S.joined = true;
  S.token = msg.token || S.token;
  S.seat = msg.seat === undefined ? null : msg.seat;
  saveRoom(code, { token: S.token, name: S.name }, SLOT);
  setConn("connected", "ok");
  document.body.classList.toggle("spectating", S.seat === null);
  const then = S.afterWelcome;
  S.afterWelcome = null;
  if (then) then();
  else if (INVITE && S.seat !== INVITE.seat) claimInvitedSeat();
}

/** Take the seat the invitation names (the server checks it and knows the player's name). */
function claimInvitedSeat() {
  if (send({ type: "sit", seat: INVITE.seat, invite: INVITE.invite })) {
    S.sitFrom = S.seat;
    S.seat = INVITE.seat;
    S.sitPending = true;
    S.autoSat = true; // no other seat is taken by itself
    document.body.classList.remove("spectating");
  }
}

function onState(msg) {
  const v = Number(msg.version);
  if (Number.isFinite(v) && S.version >= 0 && v < S.version) return; // stale
  if (Number.isFinite(v) && S.version >= 0 && v > S.version + 1) send({ type: "resync" });
  if (Number.isFinite(v) && v !== S.version) {
    S.hint = null; // a hint answers one decision
    dropToasts("hint");
  }
  if (Number.isFinite(v)) S.version = v;
  S.room = msg.room || S.room;
  setTeamNames(S.room && S.room.event ? S.room.event.teams : null);
  S.view = msg.view || null;
  S.deadline = msg.deadline || null;
  if (S.view && S.view.seat !== undefined && S.view.seat !== null && S.view.seat !== S.seat) S.seat = S.view.seat;
  S.sitPending = false;
  S.busy = null;
  if (S.view && S.view.is_over) S.selected.clear();
  notePlay();
  rememberSeatNotes();
  const notes = newNotes();
  render();
  tellNotes(notes);
  tellMoments();
  turnSound();
  maybeAutoSit();
  maybeAutoPass();
  if (S.selected.size) checkSelection();
}

function onCheck(msg) {
  if (msg.action !== S.checkFor) return;
  S.why = msg.ok ? null : whyOf(msg.reason);
  renderActions();
}

function onError(msg) {
  const auto = msg.id && S.autoIds.has(msg.id);
  if (msg.id && S.busy === msg.id) S.busy = null;
  if (!msg.id && S.busy) S.busy = null;
  if (S.sitPending && ["seat_taken", "started", "illegal"].includes(msg.code)) {
    S.seat = S.sitFrom;
    S.sitPending = false;
    if (msg.code === "seat_taken" && !INVITE) S.autoSat = false; // another came first: try the next free seat
    render();
  } else if (msg.code === "bad_invite") {
    S.seat = null; // the invited seat was not taken: watch, as anybody may
    S.sitPending = false;
    document.body.classList.add("spectating");
    render();
  }
  if (auto) return; // the page's own automatic pass came too late: nothing to tell
  if (msg.reason) S.why = whyOf(msg.reason);
  toast(msg.reason ? el("span", null, withRule(errorWords(msg), msg.reason.rule)) : errorWords(msg), "error", 6000);
  if (msg.code === "no_room") setConn("no_room_conn", "bad");
  renderActions();
}

/** A refusal: its words, and the rule it cites (linked to the rules page: ruleLink). */
function whyOf(reason) {
  return { text: reasonText(reason), rule: (reason && reason.rule) || null };
}

/** An error in words; a start refused for too many empty seats says how many bots fill. */
function errorWords(msg) {
  if (msg.code === "bad_message" && S.sent === "start") {
    const empty = roomSeats().filter((i) => i.empty).length;
    return t("err_start_bots", { empty, bots: roomConfig().bots });
  }
  return errorText(msg);
}

// ------------------------------------------------------------------ the room
function sit(seat) {
  if (!S.name) {
    askName(seat);
    return;
  }
  if (send({ type: "sit", seat })) {
    S.sitFrom = S.seat;
    S.seat = seat; // the server moves this connection; no new welcome comes
    S.sitPending = true;
    document.body.classList.remove("spectating");
  }
}

function stand() {
  if (send({ type: "stand" })) {
    S.seat = null;
    S.stood = true;
  }
}

/** Before the start, take the first empty seat once (unless the player stood up). */
function maybeAutoSit() {
  if (S.autoSat || S.stood || S.seat !== null || S.view || !S.joined || !S.room || !S.name) return;
  if (S.room.status && S.room.status !== "waiting") return;
  const free = roomSeats().findIndex((i) => i.empty);
  if (free >= 0) {
    S.autoSat = true;
    sit(free);
  }
}

/** A name is needed to take a seat: ask for it beside the table (nothing is blocked). */
function askName(seat) {
  const bar = $("name-bar");
  bar.classList.remove("hidden");
  bar.dataset.seat = String(seat);
  applyStatic(bar);
  $("name-input").focus();
}

function onNameGiven(e) {
  e.preventDefault();
  const n = $("name-input").value.trim();
  if (!n) return;
  S.name = n;
  saveName(n);
  const seat = Number($("name-bar").dataset.seat);
  $("name-bar").classList.add("hidden");
  S.afterWelcome = Number.isInteger(seat) && seat >= 0 ? () => sit(seat) : null;
  rejoin(); // the server takes a name at join
}

// ------------------------------------------------------------------ what happened since
/** The room notes that came with this state (the list only grows at the end, trimmed in front). */
function newNotes() {
  const notes = (S.room && S.room.notes) || [];
  const keys = notes.map((n) => JSON.stringify(n));
  const old = S.noteKeys;
  S.noteKeys = keys;
  if (old === null) return []; // the first state: what happened before is not news
  if (!old.length) return notes;
  for (let p = keys.length; p > 0; p--) {
    const m = Math.min(p, old.length);
    let same = true;
    for (let j = 0; j < m && same; j++) same = keys[p - m + j] === old[old.length - m + j];
    if (same) return notes.slice(p);
  }
  return notes;
}

function lastEventIndex() {
  const evs = (S.view && S.view.events) || [];
  return evs.length ? evs[evs.length - 1].i : -1;
}

/** Tell the table the new notes: a line in the log, and a banner or a toast. */
function tellNotes(notes) {
  const ctx = naming();
  let added = false;
  for (const n of notes) {
    const text = noteText(n, ctx);
    if (!text) continue;
    S.noteLines.push({ game: gameNo(), key: lastEventIndex() + 0.5, note: n });
    if (NOTE_BANNERS.has(n.type)) showBanner($("banners"), text, "note", n.seat);
    else toast(text, "info", 4000);
    added = true;
  }
  if (added) renderLog();
}

/** Remember the seat whose play just came, so that it is animated once. */
function notePlay() {
  const evs = (S.view && S.view.events) || [];
  let last = null;
  for (let k = evs.length - 1; k >= 0 && !last; k--) if (evs[k].type === "play" || evs[k].type === "burn") last = evs[k];
  const key = last ? `${gameNo()}:${last.i}` : null;
  S.fresh = key && key !== S.lastPlay && S.lastPlay !== null ? last.seat : null;
  S.lastPlay = key || S.lastPlay;
}

/** The game's moments since the last state: banners on the felt and sounds. */
function tellMoments() {
  const v = S.view;
  if (!v) return;
  const game = gameNo();
  const evs = v.events || [];
  if (S.seen.game !== game) {
    const first = S.seen.game === null; // the page just opened: old news
    S.seen = { game, i: first ? lastEventIndex() : -1 };
    if (first) return;
  }
  const moments = evs.filter((e) => e.i > S.seen.i && momentOf(e));
  S.seen.i = Math.max(S.seen.i, lastEventIndex());
  if (!moments.length) return;
  const ctx = naming();
  const box = $("banners");
  clearBanners(box); // the last state's announcements are old news: they do not pile up
  const places = moments.filter((e) => PLACE_EVENTS.has(e.type));
  const others = moments.filter((e) => !PLACE_EVENTS.has(e.type));
  // every place is told, in one banner (your own first); the latest other moments beside it
  for (const e of others.slice(-(places.length ? BANNER_MOMENTS - 1 : BANNER_MOMENTS))) showBanner(box, eventText(e, ctx), momentOf(e), e.seat);
  if (places.length) showBanner(box, placesLine(places, ctx), "place", places.length === 1 ? places[0].seat : null);
  if (moments.some((e) => momentOf(e) === "gouji")) sound("gouji");
  if (moments.some((e) => momentOf(e) === "burn")) sound("burn");
}

function turnSound() {
  const mine = legalNow().length > 0 && !onlyAutoPass();
  if (mine && !S.wasMyTurn) sound("turn");
  S.wasMyTurn = mine;
}

// ------------------------------------------------------------------ rendering
function render() {
  applyStatic();
  renderTop();
  const infos = roomSeats();
  const nm = names();
  infos.forEach((i, s) => {
    if (!i.empty) i.name = nm[s];
  });
  drawTable(infos);
  S.fresh = null;
  renderPrestart(infos);
  renderHand(); // first: a new hand clears the selection the action bar shows
  renderActions();
  renderScore();
  renderCounter();
  renderLog();
  renderTribute();
  renderSettlement();
  renderHelp();
  tickTimers();
}

/** The felt: nothing but "entering the room" until the room is known (no empty seats shown). */
function drawTable(infos) {
  if (!S.room) {
    patch($("felt"), [el("div", { class: "centre" }, prestartCentre())]);
    return;
  }
  const canSit = S.seat === null && S.joined;
  drawFelt($("felt"), S.view, infos, {
    me: S.seat,
    deadline: S.deadline,
    centreContent: prestartCentre(),
    fresh: S.fresh,
    onSit: canSit && S.view ? sit : null,
  });
}

function renderTop() {
  $("room-code").textContent = code;
  const fixed = Boolean(roomConfig().fixed_deal);
  $("fixed-deal").classList.toggle("hidden", !fixed);
  $("fixed-deal").title = fixed ? t("fixed_deal_title") : "";
  $("mute").textContent = isMuted() ? t("sound_off") : t("sound_on");
  $("mute").classList.toggle("off", isMuted());
  renderConn();
}

function prestartCentre() {
  const waiting = S.room && S.room.status === "waiting";
  if (!S.view && S.room && S.room.event && S.room.event.hidden) {
    return el("div", { class: "turn-status duplicate-hidden" }, t("duplicate_hidden"));
  }
  return el("div", { class: "turn-status" }, waiting ? t("waiting_room") : t("loading_room"));
}

function renderPrestart(infos) {
  const box = $("prestart");
  box.textContent = "";
  const waiting = !S.view && S.room && S.room.status === "waiting";
  box.classList.toggle("hidden", !waiting);
  if (!waiting) return;
  const rows = infos.map((info, s) =>
    el(
      "div",
      { class: "pre-seat team-" + teamOf(s) + (s === S.seat ? " mine" : "") },
      el("span", { class: "team-dot" }),
      `${t("seat_n", s + 1)}: `,
      el("b", null, info.empty ? t("empty_seat") : info.name),
      info.empty && S.joined
        ? el("button", { type: "button", class: "small", dataset: { sit: String(s) }, onclick: () => sit(s) }, t("sit"))
        : null,
    ),
  );
  box.append(el("h3", null, t("waiting_room")), el("div", { class: "pre-seats" }, rows));
  const cfg = roomConfig();
  if (cfg.rated) box.append(el("p", { class: "hint", id: "rated-note" }, t("rated_room")));
  if (cfg.fill_after_s) box.append(el("p", { class: "hint", id: "fill-note" }, t("fill_after", Math.round(cfg.fill_after_s))));
  if (S.seat !== null && S.joined) {
    box.append(
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", id: "start", class: "primary", onclick: () => send({ type: "start" }) }, t("start_bots")),
        el("button", { type: "button", id: "stand", onclick: stand }, t("stand")),
      ),
    );
  }
}

/** Enter plays the selection, Space passes, H asks for a hint. */
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.key === "Escape" && S.helpOpen) {
    toggleHelp();
    return;
  }
  if (e.target.closest && e.target.closest("input, textarea, select, button, a")) return;
  const acts = legalNow();
  if (e.key === "Enter") {
    const a = selectedLegal();
    if (a && !S.busy) {
      e.preventDefault();
      act(a);
    }
  } else if (e.key === " ") {
    if (acts.includes("pass") && !S.busy) {
      e.preventDefault();
      act("pass");
    }
  } else if ((e.key === "h" || e.key === "H") && acts.length) {
    e.preventDefault();
    askHint();
  }
}

// ------------------------------------------------------------------ side panels
/** The score without a view: a spectator of a duplicate table whose deal the other table
 * still plays sees the room's totals (the summary's), nothing of the game. */
function hiddenScore() {
  const r = S.room;
  if (!r || !r.event || !r.event.hidden || !r.totals) return null;
  return { totals: r.totals, game: r.game || 0, results: [] };
}

function renderScore() {
  const v = S.view;
  const m = (v && v.match) || hiddenScore();
  const sc = $("score");
  sc.textContent = "";
  if (m) {
    sc.append(el("span", { class: "tag team-a" }, `${teamName(0)} ${m.totals[0]}`), " : ", el("span", { class: "tag team-b" }, `${teamName(1)} ${m.totals[1]}`));
  }
  const mp = $("match-panel");
  mp.textContent = "";
  mp.append(el("h3", null, t("score")));
  const watchers = (S.room && S.room.watchers) || [];
  if (!m) mp.append(el("div", { class: "muted" }, t("no_game")));
  else {
    mp.append(
      el(
        "div",
        { class: "totals" },
        el("span", { class: "tag team-a" }, `${teamName(0)} ${m.totals[0]}`),
        el("span", { class: "tag team-b" }, `${teamName(1)} ${m.totals[1]}`),
        el("span", { class: "muted" }, t("game_n", m.game)),
      ),
    );
    if (S.room && S.room.status === "expired") mp.append(el("div", { class: "muted expired" }, t("status_expired")));
    if (m.results && m.results.length) mp.append(resultsTable(m.results));
  }
  if (watchers.length) {
    const sep = getLang() === "zh" ? "、" : ", ";
    mp.append(el("div", { class: "watchers" }, t("watchers", watchers.map(displayName).join(sep))));
  }
}

function resultsTable(results) {
  return el(
    "table",
    { class: "results" },
    results.map((r, i) =>
      el(
        "tr",
        null,
        el("td", null, replayHref(i) ? el("a", { href: replayHref(i), target: "_blank" }, t("game_n", i + 1)) : t("game_n", i + 1)),
        el("td", { class: "ta" }, String(r.team_scores[0])),
        el("td", { class: "tb" }, String(r.team_scores[1])),
      ),
    ),
  );
}

function renderCounter() {
  const box = $("counter-panel");
  const cfg = roomConfig();
  const v = S.view;
  if (!v || !cfg.card_counter) {
    box.classList.add("hidden");
    return;
  }
  box.classList.remove("hidden");
  box.textContent = "";
  const deck = deckOf(v.rules);
  const played = (v.state && v.state.played) || RANKS.map(() => 0);
  const inHands = v.card_counter || null; // the server's count of each rank still in hands
  const mine = countsOf(parseCards(v.hand || ""));
  const lang = getLang();
  const cells = RANKS.map((r, i) => {
    const left = inHands ? Number(inHands[r]) || 0 : Math.max(0, deck[i] - (played[i] || 0));
    const out = Math.max(0, left - mine[i]);
    return el(
      "div",
      { class: "cc" + (out === 0 ? " zero" : ""), dataset: { rank: r }, title: `${left}` },
      el("span", { class: "cc-rank" }, cardWord(r, lang)),
      el("span", { class: "cc-n" }, String(out)),
    );
  });
  box.append(el("h3", null, t("counter")), el("div", { class: "counter-grid" }, cells), el("div", { class: "muted small-note" }, t("counter_note")));
}

/** The game's story: public events, the viewer's private ones at their place, room notes;
 * each line with the names the seats had when it happened. */
function logItems(v) {
  const base = naming();
  const byNames = new Map();
  const ctxAt = (i) => {
    const nm = namesAt(i);
    const key = nm.join("\u0000");
    if (!byNames.has(key)) byNames.set(key, { ...base, ...namer(nm, S.seat) });
    return byNames.get(key);
  };
  const evs = v.events || [];
  const first = evs.length ? evs[0].i : 0;
  const items = [];
  for (const e of evs) {
    const text = eventText(e, ctxAt(e.i));
    if (text) items.push({ key: e.i, text, cls: e.seat === null || e.seat === undefined ? "table" : "team-" + teamOf(e.seat) });
  }
  for (const e of v.private_events || []) {
    const text = e.i >= first ? eventText(e, ctxAt(e.i - 0.5)) : null;
    if (text) items.push({ key: e.i - 0.5, text, cls: "private" });
  }
  for (const n of S.noteLines) {
    const text = n.game === gameNo() ? noteText(n.note, ctxAt(n.key)) : null;
    if (text) items.push({ key: n.key, text, cls: "note" });
  }
  return items.sort((a, b) => a.key - b.key);
}

function logLine(item) {
  const li = el("li", { class: item.cls });
  if (item.cls === "private") li.append(el("span", { class: "priv-tag" }, t("private")), " ");
  li.append(item.text);
  return li;
}

function renderLog() {
  const ol = $("log");
  const v = S.view;
  renderTributeButton();
  if (!v) {
    ol.textContent = "";
    S.log = { sig: "", texts: [] };
    return;
  }
  const items = logItems(v);
  const sig = `${gameNo()}|${getLang()}`;
  const old = S.log;
  const keeps = old.sig === sig && old.texts.length <= items.length && old.texts.every((x, k) => x === items[k].text);
  if (!keeps) {
    ol.textContent = "";
    old.texts = [];
  }
  const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 30;
  for (const item of items.slice(old.texts.length)) ol.append(logLine(item));
  S.log = { sig, texts: items.map((x) => x.text) };
  if (atEnd || !keeps) ol.scrollTop = ol.scrollHeight;
}

// ------------------------------------------------------------------ help (规则和术语)
/** The table's rules page in the page's language (规则说明). */
function rulesHref() {
  return `/rules/${encodeURIComponent(presetCode())}?lang=${getLang()}`;
}

function renderHelp() {
  const box = $("help");
  box.classList.toggle("hidden", !S.helpOpen);
  $("help-open").classList.toggle("on", S.helpOpen);
  $("help-open").setAttribute("aria-expanded", String(S.helpOpen));
  patch(box, S.helpOpen ? [helpSheet(rulesHref(), toggleHelp)] : []);
}

function toggleHelp() {
  S.helpOpen = !S.helpOpen;
  renderHelp();
}

// ------------------------------------------------------------------ start
function toggleLang() {
  setLang(getLang() === "zh" ? "en" : "zh");
  $("banners").replaceChildren(); // a banner is worded once: the next one comes in the new language
  render();
}

function toggleMute() {
  setMuted(!isMuted());
  renderTop();
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    toast(t("copied"));
  } catch (e) {
    toast(location.href);
  }
}

function start() {
  applyStatic();
  document.title = `够级 ${code}`;
  const saved = loadRoom(code, SLOT);
  S.token = saved.token || null;
  S.name = saved.name || loadName();
  $("lang").addEventListener("click", toggleLang);
  $("mute").addEventListener("click", toggleMute);
  $("copy-link").addEventListener("click", copyLink);
  $("tribute-open").addEventListener("click", reopenTribute);
  $("help-open").addEventListener("click", toggleHelp);
  $("name-bar").addEventListener("submit", onNameGiven);
  $("felt").addEventListener("click", clearSelection);
  document.addEventListener("keydown", onKey);
  setupHand();
  unlockOnGesture();
  setInterval(() => tickTimers(), 250);
  render();
  connect(); // at once: a running table is shown to a spectator, a name is asked only to sit
}

// the table for its other parts (state.js); for tests and debugging also as window.gouji
setTable({ state: S, send, act });
window.gouji = table;
start();

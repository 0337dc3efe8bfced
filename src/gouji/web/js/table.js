// The live table: websocket client (docs/protocol.md) and rendering of Match.view(seat).
import { RANKS, canon, countsOf, deckOf, faceText, parseCards, sortCards } from "./cards.js";
import { el, loadName, loadRoom, saveName, saveRoom, toast } from "./common.js";
import { SEATS, drawFelt, miniCards, teamOf, tickTimers } from "./felt.js";
import { actionLabel, applyStatic, getLang, logText, placeName, setLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const CARD_KINDS = ["burn", "play", "huan"];
const AUTO_KEY = "gouji.autopass";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();

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
  retryTimer: null,
  pingTimer: null,
  selected: new Set(), // indexes into S.hand
  hand: [],
  handKey: null,
  hint: null, // the suggested action
  busy: null, // id of the act in flight
  autoSent: -1, // version at which auto-pass was sent
  gameoverClosed: null, // game number whose game-over panel was closed
  replayIndex: null,
  actSeq: 0,
  everConnected: false,
};

// ------------------------------------------------------------------ websocket
function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(msg));
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

function act(action) {
  const id = newId();
  if (send({ type: "act", id, action })) {
    S.busy = id;
    S.hint = null;
    renderActions();
  }
}

function setConn(text, kind) {
  const c = $("conn");
  c.textContent = text;
  c.className = "conn " + kind;
}

function connect() {
  clearTimeout(S.retryTimer);
  setConn(S.everConnected ? t("reconnecting") : t("connecting"), "wait");
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
    const msg = { type: "join", room: code, name: S.name };
    if (S.token) msg.token = S.token;
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

function scheduleReconnect() {
  const delay = S.backoff;
  S.backoff = Math.min(S.backoff * 2, 10000);
  setConn(t("conn_lost", Math.ceil(delay / 1000)), "bad");
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, delay);
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.joined = true;
      S.token = msg.token || S.token;
      S.seat = msg.seat === undefined ? null : msg.seat;
      saveRoom(code, { token: S.token, name: S.name });
      setConn(t("connected"), "ok");
      document.body.classList.toggle("spectating", S.seat === null);
      break;
    case "state": {
      const v = Number(msg.version);
      if (Number.isFinite(v) && S.version >= 0 && v < S.version) return; // stale
      if (Number.isFinite(v) && S.version >= 0 && v > S.version + 1) send({ type: "resync" });
      if (Number.isFinite(v) && v !== S.version) S.hint = null; // a hint answers one decision
      if (Number.isFinite(v)) S.version = v;
      S.room = msg.room || S.room;
      S.view = msg.view || null;
      S.deadline = msg.deadline || null;
      if (S.view && S.view.seat !== undefined && S.view.seat !== S.seat && S.view.seat !== null) {
        S.seat = S.view.seat;
      }
      S.sitPending = false;
      S.busy = null;
      render();
      maybeAutoSit();
      maybeAutoPass();
      break;
    }
    case "ack":
      if (S.busy === msg.id) S.busy = null;
      renderActions();
      break;
    case "hint":
      S.hint = msg.action || null;
      applyHint();
      break;
    case "error":
      if (msg.id && S.busy === msg.id) S.busy = null;
      if (!msg.id && S.busy) S.busy = null;
      if (S.sitPending && (msg.code === "seat_taken" || msg.code === "started")) {
        S.seat = S.sitFrom === undefined ? null : S.sitFrom;
        S.sitPending = false;
        render();
      }
      toast(msg.message || msg.code || "error", "error", 6000);
      if (msg.code === "no_room") setConn(msg.message || "no room", "bad");
      renderActions();
      break;
    case "replaced":
      // another connection presented this seat's token: it has the seat now, we watch
      S.token = null;
      S.seat = null;
      saveRoom(code, { token: null, name: S.name });
      toast(t("seat_replaced"), "error", 10000);
      render();
      break;
    case "pong":
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ room summary
/** The room summary's seats: [{name, bot, trust, connected, empty}]. */
function roomSeats() {
  const raw = (S.room && S.room.seats) || [];
  const out = [];
  for (let s = 0; s < SEATS; s++) {
    const x = raw[s] || {};
    const bot = x.bot || null;
    const empty = !x.name && !bot;
    out.push({
      name: bot ? `${t("bot_name")} ${s + 1}` : x.name || "",
      title: x.name || "",
      bot: Boolean(bot),
      trust: Boolean(x.trust),
      connected: x.online === undefined ? undefined : Boolean(x.online),
      empty,
    });
  }
  return out;
}

function sit(seat) {
  const before = S.seat;
  if (send({ type: "sit", seat })) {
    S.sitFrom = before;
    S.seat = seat; // the server moves this connection; no new welcome comes
    S.sitPending = true;
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
  if (S.autoSat || S.stood || S.seat !== null || S.view || !S.joined || !S.room) return;
  if (S.room.status && S.room.status !== "waiting") return;
  const free = roomSeats().findIndex((i) => i.empty);
  if (free >= 0) {
    S.autoSat = true;
    sit(free);
  }
}

function roomConfig() {
  const r = S.room || {};
  return r.config || r;
}

/** Display names; two humans with one name get their seat numbers added. */
function names() {
  const infos = roomSeats();
  const seen = {};
  for (const i of infos) if (i.name) seen[i.name] = (seen[i.name] || 0) + 1;
  return infos.map((i, s) => {
    if (i.empty || !i.name) return `${t("seat")} ${s + 1}`;
    return seen[i.name] > 1 ? `${i.name} #${s + 1}` : i.name;
  });
}

// ------------------------------------------------------------------ rendering
function render() {
  applyStatic();
  $("room-code").textContent = code;
  const fixed = Boolean(roomConfig().fixed_deal);
  $("fixed-deal").classList.toggle("hidden", !fixed);
  $("fixed-deal").title = fixed ? t("fixed_deal_title") : "";
  const infos = roomSeats();
  const nm = names();
  infos.forEach((i, s) => {
    if (!i.empty) i.name = nm[s];
  });
  drawFelt($("felt"), S.view, infos, { me: S.seat, deadline: S.deadline, centreContent: prestartCentre() });
  renderPrestart(infos);
  renderActions();
  renderHand();
  renderScore();
  renderCounter();
  renderLog();
  renderGameOver();
  tickTimers();
}

function prestartCentre() {
  return el("div", { class: "turn-status" }, t("waiting_room"));
}

function renderPrestart(infos) {
  const box = $("prestart");
  box.textContent = "";
  if (S.view) {
    box.classList.add("hidden");
    return;
  }
  box.classList.remove("hidden");
  const rows = infos.map((info, s) =>
    el(
      "div",
      { class: "pre-seat team-" + teamOf(s) + (s === S.seat ? " mine" : "") },
      el("span", { class: "team-dot" }),
      `${t("seat")} ${s + 1}: `,
      el("b", null, info.empty ? t("empty_seat") : info.name),
      info.empty && S.joined
        ? el("button", { type: "button", class: "small", dataset: { sit: String(s) }, onclick: () => sit(s) }, t("sit"))
        : null,
    ),
  );
  box.append(el("h3", null, t("waiting_room")), el("div", { class: "pre-seats" }, rows));
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

function legalNow() {
  const v = S.view;
  if (!v || S.seat === null) return [];
  let acts = (v.legal_actions || []).slice();
  const m = v.match;
  if (!acts.length && m && m.prompt && m.prompt_to === S.seat) acts = [m.prompt, "no" + m.prompt];
  return acts;
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

function renderActions() {
  const box = $("actions");
  box.textContent = "";
  const v = S.view;
  box.classList.toggle("hidden", !v);
  if (S.seat === null) {
    if (v) box.append(el("span", { class: "muted spectator-note" }, t("spectator")));
    return;
  }
  if (!v) return;
  const acts = legalNow();
  const busy = Boolean(S.busy);
  const kinds = new Set(acts.filter((a) => /^(play|burn|huan) /.test(a)).map((a) => a.split(" ")[0]));
  const buttons = [];
  if (acts.length) {
    buttons.push(
      el("button", { type: "button", class: "hint-btn", dataset: { action: "hint" }, disabled: busy, onclick: () => send({ type: "hint" }) }, t("hint")),
    );
  }
  for (const kind of CARD_KINDS) {
    if (!kinds.has(kind)) continue;
    const a = selectedAction(kind);
    const hinted = S.hint && S.hint.startsWith(kind + " ") && S.hint === a;
    buttons.push(
      el(
        "button",
        {
          type: "button",
          class: "primary play-btn" + (hinted ? " hinted" : ""),
          dataset: { action: kind },
          disabled: busy || !a,
          title: a ? actionLabel(a) : "",
          onclick: () => {
            const x = selectedAction(kind);
            if (x) act(x);
          },
        },
        t(kind),
      ),
    );
  }
  for (const a of acts) {
    if (/^(play|burn|huan) /.test(a)) continue;
    buttons.push(
      el(
        "button",
        {
          type: "button",
          class: "act-btn" + (S.hint === a ? " hinted" : "") + (a === "pass" ? " pass-btn" : ""),
          dataset: { action: a },
          disabled: busy,
          onclick: () => act(a),
        },
        actionLabel(a),
      ),
    );
  }
  const shown = new Set(acts.filter((a) => !/^(play|burn|huan) /.test(a)));
  const hk = S.hint ? S.hint.split(" ")[0] : "";
  if (S.hint && !shown.has(S.hint) && !(CARD_KINDS.includes(hk) && kinds.has(hk))) {
    const h = S.hint;
    buttons.push(el("button", { type: "button", class: "act-btn hinted", dataset: { action: h }, disabled: busy, onclick: () => act(h) }, actionLabel(h)));
  }
  if (S.selected.size) {
    buttons.push(el("button", { type: "button", class: "small clear-btn", onclick: clearSelection }, t("clear")));
  }
  const m = v.match || {};
  if (v.is_over && !m.prompt && !m.is_over) {
    buttons.push(el("button", { type: "button", class: "primary next-btn", dataset: { action: "next" }, onclick: () => send({ type: "next" }) }, t("next_game")));
  }
  const status = el("div", { class: "act-status" });
  if (!v.is_over && v.to_act === S.seat) {
    status.append(el("span", { class: "your-turn" }, t("to_act_you")), " ", el("span", { class: "timer", dataset: { deadline: String(S.deadline || "") } }));
    if (v.phase === "huan") status.append(" · ", t("select_card_huan"));
  }
  const info = roomSeats()[S.seat] || {};
  const opts = el(
    "div",
    { class: "act-opts" },
    el(
      "label",
      { class: "check" },
      el("input", { type: "checkbox", id: "autopass", checked: autoPassOn(), onchange: (e) => setAutoPass(e.target.checked) }),
      " ",
      t("auto_pass"),
    ),
    el("button", { type: "button", class: "small trust-btn" + (info.trust ? " on" : ""), id: "trust", onclick: () => send({ type: "trust", on: !info.trust }) }, info.trust ? t("trust_off") : t("trust_on")),
  );
  box.append(status, el("div", { class: "act-buttons" }, buttons), opts);
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

function maybeAutoPass() {
  const v = S.view;
  if (!v || S.seat === null || S.busy || !autoPassOn()) return;
  const acts = v.legal_actions || [];
  if (acts.length === 1 && acts[0] === "pass" && S.autoSent !== S.version) {
    S.autoSent = S.version;
    act("pass");
  }
}

// ------------------------------------------------------------------ hand
function renderHand() {
  const box = $("hand");
  box.textContent = "";
  const v = S.view;
  if (!v || S.seat === null || v.hand === undefined) {
    box.classList.add("hidden");
    S.hand = [];
    return;
  }
  box.classList.remove("hidden");
  const key = v.hand;
  if (key !== S.handKey) {
    S.hand = sortCards(parseCards(v.hand));
    S.handKey = key;
    S.selected.clear();
  }
  const lang = getLang();
  const groups = [];
  S.hand.forEach((c, i) => {
    const g = groups[groups.length - 1];
    if (g && g.code === c) g.idx.push(i);
    else groups.push({ code: c, idx: [i] });
  });
  // two rows of about equal card counts, low ranks first
  const half = S.hand.length / 2;
  const rows = [[], []];
  let n = 0;
  for (const g of groups) {
    const row = n + g.idx.length / 2 <= half || !rows[0].length ? 0 : 1;
    rows[row].push(g);
    if (row === 0) n += g.idx.length;
  }
  for (const row of rows) {
    if (!row.length) continue;
    box.append(
      el(
        "div",
        { class: "hand-row" },
        row.map((g) =>
          el(
            "div",
            { class: "group", dataset: { rank: g.code } },
            g.idx.map((i) =>
              el(
                "div",
                {
                  class: "card card-" + g.code.toLowerCase() + (S.selected.has(i) ? " selected" : ""),
                  dataset: { idx: String(i), code: g.code },
                },
                el("span", { class: "face" }, faceText(g.code, lang)),
              ),
            ),
            el("span", { class: "group-n" }, "×" + g.idx.length),
          ),
        ),
      ),
    );
  }
  if (!S.hand.length) box.append(el("div", { class: "muted empty-hand" }, "—"));
}

function refreshSelection() {
  for (const c of $("hand").querySelectorAll(".card")) c.classList.toggle("selected", S.selected.has(Number(c.dataset.idx)));
  renderActions();
}

function clearSelection() {
  S.selected.clear();
  S.hint = null;
  refreshSelection();
}

function setupHandInput() {
  const box = $("hand");
  let drag = null; // {mode: bool}
  const setCard = (cardEl, mode) => {
    const i = Number(cardEl.dataset.idx);
    if (mode && onlyHuan()) {
      // 还贡 gives back one card: a click picks that card alone
      S.selected.clear();
      for (const c of box.querySelectorAll(".card.selected")) c.classList.remove("selected");
    }
    if (mode) S.selected.add(i);
    else S.selected.delete(i);
    cardEl.classList.toggle("selected", mode);
  };
  box.addEventListener("pointerdown", (e) => {
    const c = e.target.closest(".card");
    if (!c) return;
    e.preventDefault();
    const mode = !S.selected.has(Number(c.dataset.idx));
    drag = { mode, last: c };
    setCard(c, mode);
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const c = under && under.closest && under.closest("#hand .card");
    if (c && c !== drag.last) {
      drag.last = c;
      setCard(c, drag.mode);
    }
  });
  const end = () => {
    if (!drag) return;
    drag = null;
    S.hint = null;
    renderActions();
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);
  box.addEventListener("dblclick", () => {
    const a = selectedAction("play") || selectedAction("burn") || selectedAction("huan");
    if (a && !S.busy) act(a);
  });
}

/** Whether the decision is a 还贡 (only `huan <card>` actions). */
function onlyHuan() {
  const acts = legalNow();
  return acts.length > 0 && acts.every((a) => a.startsWith("huan "));
}

function applyHint() {
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
  }
  refreshSelection();
  toast(`${t("hint")}: ${actionLabel(h)}`, "info", 2500, "hint");
}

// ------------------------------------------------------------------ side panels
function renderScore() {
  const v = S.view;
  const m = (v && v.match) || null;
  const sc = $("score");
  sc.textContent = "";
  if (m) {
    sc.append(
      el("span", { class: "tag team-a" }, `${t("team_a")} ${m.totals[0]}`),
      " : ",
      el("span", { class: "tag team-b" }, `${t("team_b")} ${m.totals[1]}`),
    );
  }
  const mp = $("match-panel");
  mp.textContent = "";
  mp.append(el("h3", null, t("score")));
  if (!m) {
    mp.append(el("div", { class: "muted" }, t("no_game")));
    return;
  }
  mp.append(
    el(
      "div",
      { class: "totals" },
      el("span", { class: "tag team-a" }, `${t("team_a")} ${m.totals[0]}`),
      el("span", { class: "tag team-b" }, `${t("team_b")} ${m.totals[1]}`),
      el("span", { class: "muted" }, t("game_n", m.game)),
    ),
  );
  if (S.room && S.room.status === "expired") mp.append(el("div", { class: "muted expired" }, t("status_expired")));
  if (m.results && m.results.length) {
    mp.append(
      el(
        "table",
        { class: "results" },
        m.results.map((r, i) =>
          el(
            "tr",
            null,
            el("td", null, el("a", { href: replayHref(i), target: "_blank" }, `#${i + 1}`)),
            el("td", { class: "ta" }, String(r.team_scores[0])),
            el("td", { class: "tb" }, String(r.team_scores[1])),
          ),
        ),
      ),
    );
  }
}

function replayHref(i) {
  return `/replay/${code}/${i}`;
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
      el("span", { class: "cc-rank" }, faceText(r, lang)),
      el("span", { class: "cc-n" }, String(out)),
    );
  });
  box.append(el("h3", null, t("counter")), el("div", { class: "counter-grid" }, cells), el("div", { class: "muted small-note" }, t("counter_note")));
}

function renderLog() {
  const ol = $("log");
  ol.textContent = "";
  const v = S.view;
  if (!v) return;
  const nm = names();
  const who = (s) => (s < 0 ? "" : nm[s] || `${t("seat")} ${s + 1}`);
  const entries = (v.log || []).slice(-60);
  for (const [s, text] of entries) {
    ol.append(el("li", { class: s >= 0 ? "team-" + teamOf(s) : "table" }, logText(who(s), text)));
  }
  for (const [, text] of (v.private || []).slice(-5)) {
    ol.append(el("li", { class: "private" }, `(${t("private")}) ` + logText(who(S.seat), text)));
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderGameOver() {
  const box = $("gameover");
  const v = S.view;
  const m = (v && v.match) || {};
  if (!v || !v.is_over || S.gameoverClosed === m.game) {
    box.classList.add("hidden");
    box.textContent = "";
    return;
  }
  box.classList.remove("hidden");
  box.textContent = "";
  const nm = names();
  const order = [0, 1, 2, 3, 4, 5].sort((a, b) => (v.places[a] || 9) - (v.places[b] || 9));
  const last = m.results && m.results.length ? m.results[m.results.length - 1] : null;
  const gameIdx = m.results && m.results.length ? m.results.length - 1 : 0;
  const parts = [
    el("button", { type: "button", class: "close small", "aria-label": "close", onclick: () => { S.gameoverClosed = m.game; renderGameOver(); } }, "×"),
    el("h2", null, m.is_over ? t("match_over") : t("game_over")),
    el(
      "ol",
      { class: "places" },
      order.map((s) =>
        el(
          "li",
          { class: "team-" + teamOf(s) + (s === S.seat ? " mine" : "") },
          el("span", { class: "place" }, placeName(v.places[s])),
          el("span", { class: "team-dot" }),
          nm[s],
        ),
      ),
    ),
    last
      ? el(
          "div",
          { class: "go-scores" },
          el("span", { class: "tag team-a" }, `${t("team_a")} +${last.team_scores[0]}`),
          el("span", { class: "tag team-b" }, `${t("team_b")} +${last.team_scores[1]}`),
        )
      : null,
    el("div", { class: "go-totals" }, `${t("totals")}: ${m.totals ? m.totals[0] : 0} : ${m.totals ? m.totals[1] : 0}`),
    m.is_over ? el("div", { class: "go-winner" }, winnerText(m.totals)) : null,
    el(
      "div",
      { class: "row" },
      el("a", { class: "button replay-link", href: replayHref(gameIdx), target: "_blank" }, t("replay")),
      !m.prompt && !m.is_over && S.seat !== null
        ? el("button", { type: "button", class: "primary next-btn", onclick: () => send({ type: "next" }) }, t("next_game"))
        : null,
    ),
    m.prompt ? el("div", { class: "muted" }, `${t("match_prompt")}: ${actionLabel(m.prompt)}`) : null,
  ];
  box.append(...parts.filter((x) => x));
}

function winnerText(totals) {
  if (!totals || totals[0] === totals[1]) return t("tie");
  return t("winner", totals[0] > totals[1] ? t("team_a") : t("team_b"));
}

// ------------------------------------------------------------------ start
function start() {
  applyStatic();
  $("room-code").textContent = code;
  document.title = `够级 ${code}`;
  const saved = loadRoom(code);
  S.token = saved.token || null;
  S.name = saved.name || loadName();
  $("lang").addEventListener("click", () => {
    setLang(getLang() === "zh" ? "en" : "zh");
    render();
  });
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      toast(t("copied"));
    } catch (e) {
      toast(location.href);
    }
  });
  setupHandInput();
  setInterval(() => tickTimers(), 250);
  render();
  if (!S.name && !S.token) {
    $("name-dialog").classList.remove("hidden");
    $("name-input").focus();
    $("name-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const n = $("name-input").value.trim();
      if (!n) return;
      S.name = n;
      saveName(n);
      $("name-dialog").classList.add("hidden");
      connect();
    });
    return;
  }
  connect();
}

// for tests and debugging
window.gouji = { state: S, send, act };
start();

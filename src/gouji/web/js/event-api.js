// The events HTTP API (docs/competitions.md) for the event pages: requests, the organiser key
// kept per event in localStorage, and what the pages read from an event's JSON.
import { lsGet, lsSet } from "./common.js";
import { refusalText } from "./event-words.js";

/** A refusal of the server, with its words in the page's language as `message`. */
export class ApiRefusal extends Error {
  constructor(status, code, serverMessage) {
    super(refusalText(status, serverMessage || code));
    this.status = status;
    this.code = code;
    this.serverMessage = serverMessage;
  }
}

/** `method path` with a JSON body; the organiser's key when given, and `extra` headers (an
 * Idempotency-Key). Resolves to the JSON answer. */
export async function api(method, path, body, key, extra) {
  const headers = { ...(extra || {}) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = "Bearer " + key;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiRefusal(0, "network", "");
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiRefusal(r.status, data.error, data.message || data.error || r.statusText);
  return data;
}

/** The event code of the page's address: /e/{code}, /e/{code}/admin, /e/{code}/print. */
export function eventCode() {
  const m = location.pathname.match(/\/e\/([A-Za-z0-9]+)/);
  return m ? m[1].toUpperCase() : "";
}

export function loadEvent(code) {
  return api("GET", `/api/events/${encodeURIComponent(code)}`);
}



/** The organiser key of an event remembered in this browser ("" when none). */
/**
 * Read the event with `load` every `ms` until it is over or gone (404), for a page that
 * follows it: `changed(data)` when what it says differs from the last read (the server's
 * time, `now`, changes every time and is not compared), `read(data)` after every read; a
 * failed read is shown in `errorBox` and tried again.
 */
export function pollEvent(load, errorBox, ms, changed, read) {
  let shown = "";
  const step = async () => {
    try {
      const data = await load();
      if (read) read(data);
      errorBox.textContent = "";
      const text = JSON.stringify({ ...data, now: null });
      if (text !== shown) {
        shown = text;
        changed(data);
      }
      if (data.status === "over") return; // nothing changes any more
    } catch (e) {
      errorBox.textContent = e.message;
      if (e.status === 404) return;
    }
    setTimeout(step, ms);
  };
  step();
}

export function loadKey(code) {
  return lsGet("gouji.event." + code + ".key") || "";
}

export function saveKey(code, key) {
  lsSet("gouji.event." + code + ".key", key ? String(key) : null);
}

/** The events this browser created or organised (newest first), for the lobby. */
export function recentEvents() {
  try {
    const v = JSON.parse(lsGet("gouji.engine.gamelog") || "[]");
    return Array.isArray(v) ? v.filter((x) => x && typeof x.code === "string") : [];
  } catch (e) {
    return [];
  }
}

export function rememberEvent(code, name) {
  const list = recentEvents().filter((x) => x.code !== code);
  list.unshift({ code, name: String(name || "") });
  lsSet("gouji.engine.gamelog", JSON.stringify(list.slice(0, 8)));
}

/** The team records of an event by name: {name, players: [3], bot} (what the JSON tells). */
export function teamsByName(ev) {
  const out = new Map();
  const lists = [ev.team_list, ev.registered, ev.teams_detail, ev.teams];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const t of list) {
      if (t && typeof t === "object" && typeof t.name === "string" && !out.has(t.name)) {
        out.set(t.name, {
          name: t.name,
          players: Array.isArray(t.players) ? t.players.map(String) : [],
          bot: t.bot || null,
          disqualified: !!t.disqualified,
        });
      }
    }
  }
  for (const name of teamNames(ev)) if (!out.has(name)) out.set(name, { name, players: [], bot: null });
  return out;
}

/** The registered teams' names in registration order. */
export function teamNames(ev) {
  return (ev.teams || []).map((t) => (typeof t === "string" ? t : t && t.name)).filter(Boolean);
}

/** The six players of a table by seat (seat 0 … 5): the team at seats A sits at 0, 2, 4. */
export function seatPlayers(ev, table) {
  if (Array.isArray(table.players) && table.players.length === 6) return table.players.map(String);
  const teams = teamsByName(ev);
  const names = [];
  for (let seat = 0; seat < 6; seat++) {
    const team = teams.get(table.teams[seat % 2]);
    const k = Math.floor(seat / 2);
    names.push(team && team.players[k] ? team.players[k] : `${table.teams[seat % 2]} ${k + 1}`);
  }
  return names;
}

/** The tables of the event's JSON, each with its round (from its id when not given). */
export function tablesOf(ev) {
  return (ev.tables || []).map((t) => {
    const m = /^r(\d+)m(\d+)/.exec(t.id || "");
    return { ...t, round: t.round || (m ? +m[1] : 0), matchNo: m ? +m[2] : 0 };
  });
}

/** The tables of one match (id "r1m2") of the JSON. */
export function matchTables(ev, matchId) {
  return tablesOf(ev).filter((t) => String(t.id).startsWith(matchId + "t"));
}

/** The round now played or last drawn (0 before the first draw). */
export function currentRound(ev) {
  return ev.round || (ev.rounds ? ev.rounds.length : 0);
}

/** A link the server gave ("/r/…" or absolute) as an absolute address to hand out. */
export function absolute(url) {
  try {
    return new URL(url, location.origin).href;
  } catch (e) {
    return String(url);
  }
}

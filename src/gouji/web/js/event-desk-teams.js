// The organiser's people: teams (registration with substitutes and a seed; six players, two
// trios, at a duplicate event whose tables play at once), the 换人 of a substitute between
// matches, and the referees' keys (issued for match numbers, shown once, revoked).
import { t } from "./i18n.js";
import { el, patch, toast } from "./common.js";
import { absolute, api, teamNames } from "./event-api.js";
import { BOT_LEVELS, DEFAULT_BOT, botLevel } from "./presets.js";
import { matchDone } from "./event-view.js";
import {
  act,
  ask,
  base,
  busy,
  clearError,
  copy,
  desk,
  hooks,
  intList,
  isInt,
  isNum,
  isText,
  localTime,
  matchesText,
  need,
  refusedWords,
  showError,
  write,
} from "./event-desk.js";

const $ = (id) => document.getElementById(id);
const MAX_SUBS = 3;
export const people = { referees: null, issued: null }; // the referee list; a key just issued
const swaps = {}; // team name → {out, in}

// ------------------------------------------------------------------ teams
/** The registered teams as the JSON lists them, checked: {name, players, bot, subs, seed, dq}. */
export function teamList(ev) {
  const list = Array.isArray(ev.team_list) ? ev.team_list : [];
  return list
    .filter((t) => t && isText(t.name) && Array.isArray(t.players) && t.players.every(isText))
    .map((t) => ({
      name: t.name,
      players: t.players,
      bot: isText(t.bot) ? t.bot : null,
      subs: Array.isArray(t.subs) ? t.subs.filter(isText) : [],
      seed: isInt(t.seed) ? t.seed : null,
      dq: !!t.disqualified,
    }));
}

function botName(agent) {
  const level = botLevel(agent);
  return level ? t(level.name) : "";
}

/** Players a team registers: six (two trios) at a duplicate event whose tables play at once. */
function teamSize(ev) {
  return ev.team_size === 6 ? 6 : 3;
}

/** A team's players in words: one trio, or two (the first at seats 1, 3, 5, the other 2, 4, 6). */
function playersText(tb) {
  if (tb.bot) return t("bot_of", botName(tb.bot));
  if (tb.players.length === 6) return t("trios", tb.players.slice(0, 3).join(t("sep")), tb.players.slice(3).join(t("sep")));
  return tb.players.join(t("sep"));
}

function teamLine(tb, tools) {
  return el(
    "li",
    { dataset: { team: tb.name } },
    el("b", null, tb.name),
    tb.seed ? el("span", { class: "seed-tag" }, t("seed_rank", tb.seed)) : null,
    tb.dq ? el("span", { class: "ev-dq" }, t("dq")) : null,
    el("span", { class: "muted players" }, " ", playersText(tb)),
    tb.subs.length ? el("span", { class: "subs" }, t("subs_of", tb.subs.join(t("sep")))) : null,
    ...tools,
  );
}

/** Registration (until the first draw): the list with 删除, and the form. */
export function teamsPanel() {
  const ev = desk.ev;
  const level = $("team-bot-level"); // in the page's language, shown or not
  const keep = level.value || DEFAULT_BOT;
  level.textContent = "";
  for (const b of BOT_LEVELS) level.append(el("option", { value: b.agent }, t(b.name)));
  level.value = keep;
  const open = (ev.status || "registering") === "registering" && desk.role === "organiser";
  $("teams-panel").classList.toggle("hidden", !open);
  if (!open) return;
  const items = teamList(ev).map((tb) =>
    teamLine(tb, [
      el(
        "button",
        { type: "button", class: "small remove", disabled: busy("remove:" + tb.name), onclick: (e) => removeTeam(tb.name, e.currentTarget) },
        t("remove"),
      ),
    ]),
  );
  patch($("team-list"), items);
  const six = teamSize(ev) === 6 && !$("team-bot").checked;
  for (const k of [1, 2, 3, 4, 5, 6]) {
    $(`p${k}-l`).textContent = t("player_n", k);
    $(`player-${k}`).closest(".field").classList.toggle("hidden", k > 3 && !six);
  }
  for (const k of [1, 2, 3]) $(`s${k}-l`).textContent = t("sub_n", k);
  $("six-hint").classList.toggle("hidden", !six);
  $("seed-field").classList.toggle("hidden", ev.format !== "knockout");
  $("subs-h").textContent = t(ev.format === "knockout" ? "subs_seed_h" : "subs_h");
  $("team-add").disabled = busy("team");
}

export async function addTeam(e) {
  e.preventDefault();
  clearError();
  const ev = desk.ev;
  if (!ev || busy("team")) return;
  const name = $("team-name").value.trim();
  const bot = $("team-bot").checked ? $("team-bot-level").value : null;
  const size = bot ? 3 : teamSize(ev);
  const fields = [1, 2, 3, 4, 5, 6].slice(0, size).map((k) => "player-" + k);
  let players = fields.map((id) => $(id).value.trim());
  if (!name) {
    $("admin-error").textContent = t("err_team_name");
    $("team-name").focus();
    return;
  }
  if (bot && players.every((p) => !p)) players = [1, 2, 3].map((k) => `${name} ${k}`);
  if (players.some((p) => !p)) {
    $("admin-error").textContent = t(size === 6 ? "err_players_6" : "err_players");
    return;
  }
  const subs = [1, 2, 3].map((k) => $("sub-" + k).value.trim()).filter(Boolean);
  const body = { name, players };
  if (bot) body.bot = bot;
  if (subs.length) body.subs = subs.slice(0, MAX_SUBS);
  const seedText = $("team-seed").value.trim();
  if (seedText && ev.format === "knockout") {
    const seed = Number(seedText);
    if (!/^\d{1,3}$/.test(seedText) || seed < 1 || seed > 256) {
      $("admin-error").textContent = t("err_seed");
      return;
    }
    body.seed = seed;
  }
  // the form is cleared as soon as the team is registered, before the page re-reads the event:
  // cleared after, it wiped a next team typed while the event was read (seen in a loaded run)
  await act("team", "POST", "/teams", body, $("team-add"), () => {
    for (const id of ["team-name", "team-seed", "sub-1", "sub-2", "sub-3", ...[1, 2, 3, 4, 5, 6].map((k) => "player-" + k)]) $(id).value = "";
    $("team-name").focus();
  });
}

function removeTeam(name, button) {
  act("remove:" + name, "DELETE", "/teams/" + encodeURIComponent(name), undefined, button);
}

// ------------------------------------------------------------------ the teams after the draw
/** Whether the team plays a match of the round now (no 换人 until it is over). */
function playingNow(ev, name) {
  const round = (ev.rounds || [])[(ev.round || 0) - 1] || [];
  return round.some((m) => m && !m.bye && Array.isArray(m.teams) && m.teams.includes(name) && !matchDone(ev, m));
}

function swapTool(ev, tb) {
  if (!tb.subs.length || tb.bot || tb.dq || ev.status === "over") return null;
  const s = swaps[tb.name] || (swaps[tb.name] = { out: tb.players[0], in: tb.subs[0] });
  if (!tb.players.includes(s.out)) s.out = tb.players[0];
  if (!tb.subs.includes(s.in)) s.in = tb.subs[0];
  const playing = playingNow(ev, tb.name);
  const select = (list, key, label) =>
    el(
      "select",
      { class: "swap-" + key, "aria-label": label, disabled: playing, onchange: (e) => { s[key] = e.target.value; } },
      ...list.map((p) => el("option", { value: p, selected: s[key] === p }, p)),
    );
  return el(
    "div",
    { class: "swap" },
    el("span", null, t("swap_out")),
    select(tb.players, "out", t("swap_out")),
    el("span", null, t("swap_in")),
    select(tb.subs, "in", t("swap_in")),
    el(
      "button",
      { type: "button", class: "small swap-go", disabled: playing || busy("swap:" + tb.name), onclick: (e) => substitute(tb.name, s, e.currentTarget) },
      t("swap"),
    ),
    playing ? el("span", { class: "hint" }, t("swap_wait")) : null,
  );
}

async function substitute(name, s, button) {
  const out = s.out;
  const sub = s.in;
  const entry = await act("swap:" + name, "POST", `/teams/${encodeURIComponent(name)}/substitute`, { out, in: sub }, button);
  if (entry) {
    delete swaps[name];
    toast(t("swap_sent", name, out, sub), "info", 3000, "event");
  }
}

/** The teams once registration is closed (organiser): players, substitutes, seed, 换人. */
export function rosterPanel() {
  const ev = desk.ev;
  const show = desk.role === "organiser" && (ev.status || "registering") !== "registering";
  $("roster-panel").classList.toggle("hidden", !show);
  if (!show) return;
  const teams = teamList(ev);
  const names = new Set(teamNames(ev));
  const items = teams.filter((t) => names.has(t.name)).map((t) => teamLine(t, [swapTool(ev, t)]));
  patch($("roster-list"), items);
  $("roster-hint").classList.toggle("hidden", !teams.some((t) => t.subs.length));
}

// ------------------------------------------------------------------ referees
function refereeOf(x) {
  need(x && isText(x.id) && isText(x.name) && (x.matches === null || intList(x.matches)));
  need(isNum(x.created) && (x.revoked === null || isNum(x.revoked)));
  return { id: x.id, name: x.name, matches: x.matches, created: x.created, revoked: x.revoked };
}

export async function loadReferees() {
  try {
    const data = await api("GET", base() + "/referees", undefined, desk.key);
    need(Array.isArray(data));
    people.referees = data.map(refereeOf);
  } catch (e) {
    showError(e);
  }
}

/** "1、2" / "1-3" / "" (every match) → match numbers, or undefined when it is not that. */
function parseMatches(text) {
  const t = text.trim();
  if (!t) return null;
  const out = new Set();
  for (const part of t.split(/[\s,，、;；]+/).filter(Boolean)) {
    const m = /^(\d{1,4})(?:\s*[-–~至到]\s*(\d{1,4}))?$/.exec(part);
    if (!m) return undefined;
    const lo = Number(m[1]);
    const hi = m[2] ? Number(m[2]) : lo;
    if (lo < 1 || hi < lo || hi - lo > 63) return undefined;
    for (let n = lo; n <= hi; n++) out.add(n);
  }
  if (out.size > 64) return undefined;
  return [...out].sort((a, b) => a - b);
}

export async function issueReferee(e) {
  e.preventDefault();
  clearError();
  const name = $("ref-name").value.trim();
  if (!name) {
    $("admin-error").textContent = t("err_ref_name");
    $("ref-name").focus();
    return;
  }
  const matches = parseMatches($("ref-matches").value);
  if (matches === undefined) {
    $("admin-error").textContent = t("err_ref_matches");
    $("ref-matches").focus();
    return;
  }
  const data = await act("referee", "POST", "/referees", { name, matches }, $("ref-add"));
  if (!data) return;
  try {
    const r = refereeOf(data);
    need(isText(data.key) && data.key.length > 0 && isText(data.url));
    people.issued = { ...r, key: data.key, url: absolute(data.url) };
  } catch (err) {
    showError(err);
  }
  $("ref-name").value = "";
  $("ref-matches").value = "";
  await loadReferees();
  hooks.render(true);
}

async function revokeReferee(r, button) {
  clearError();
  const done = await ask({
    title: t("ref_revoke_h", r.name),
    body: [el("p", null, t("ref_revoke_what", r.name, matchesText(r.matches)))],
    ok: t("ref_revoke_ok"),
    danger: true,
    run: async () => {
      try {
        await write("revoke:" + r.id, "DELETE", "/referees/" + encodeURIComponent(r.id), undefined, button);
        return null;
      } catch (err) {
        return refusedWords(err);
      }
    },
  });
  if (!done) return;
  if (people.issued && people.issued.id === r.id) people.issued = null;
  toast(t("ref_revoked_sent", r.name), "info", 2500, "event");
  await loadReferees();
  await hooks.reload();
}

function issuedBox() {
  const k = people.issued;
  if (!k) return null;
  const field = (label, value, cls) =>
    el(
      "div",
      { class: "row issued-field" },
      el("span", { class: "issued-label" }, label),
      el("input", { readonly: true, value, class: cls, "aria-label": label }),
      el("button", { type: "button", class: "small copy-" + cls, onclick: () => copy(value) }, t("key_copy")),
    );
  return el(
    "div",
    { class: "issued", id: "ref-issued" },
    el("p", null, el("b", null, t("ref_issued_h", k.name, matchesText(k.matches)))),
    el("p", { class: "hint" }, t("ref_issued_once")),
    field(t("ref_link"), k.url, "ref-url"),
    field(t("ref_key"), k.key, "ref-key"),
    el("button", { type: "button", class: "small ref-done", onclick: () => { people.issued = null; hooks.render(true); } }, t("ref_done")),
  );
}

/** The referees panel (organiser): issue a key, the one just issued, the list with 收回. */
export function refereesPanel() {
  const show = desk.role === "organiser";
  $("referees-panel").classList.toggle("hidden", !show);
  if (!show) return;
  const list = people.referees || [];
  const rows = list.map((r) =>
    el(
      "li",
      { class: "referee" + (r.revoked ? " revoked" : ""), dataset: { id: r.id } },
      el("b", null, r.name),
      " ",
      el("span", null, matchesText(r.matches)),
      " ",
      el("span", { class: "muted" }, r.revoked ? t("ref_revoked_at", localTime(r.revoked)) : t("ref_since", localTime(r.created))),
      r.revoked
        ? null
        : el(
            "button",
            { type: "button", class: "small danger revoke", disabled: busy("revoke:" + r.id), onclick: (e) => revokeReferee(r, e.currentTarget) },
            t("ref_revoke"),
          ),
    ),
  );
  patch($("ref-box"), [issuedBox(), rows.length ? el("ul", { class: "ref-list" }, ...rows) : el("p", { class: "muted" }, t("ref_empty"))].filter(Boolean));
  $("ref-add").disabled = busy("referee");
}

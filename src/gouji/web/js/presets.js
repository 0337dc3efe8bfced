// The rule sets, bot levels and speeds that rooms and events choose from. Their names are word
// keys (say them with i18n.js's t): a rule set's name and one-line summary are in
// words/presets.json, which gouji.rulesdoc reads too (the rules pages' titles), the bots' in
// words/lobby.js.
import { getLang } from "./i18n.js";

/** The rule sets in the order the lobby lists them. `code` is what the server is sent;
 * `countVisibility` is the set's own card-count rule (shown as "as the rules say"); `games`
 * is the match length when the room sets none (null = open-ended). */
export const PRESETS = [
  {
    code: "OUTLINE_FULL",
    countVisibility: "hidden",
    games: null,
    name: "preset_name.OUTLINE_FULL",
    summary: "preset_summary.OUTLINE_FULL",
  },
  {
    code: "OUTLINE_CLASSIC",
    countVisibility: "le10",
    games: null,
    name: "preset_name.OUTLINE_CLASSIC",
    summary: "preset_summary.OUTLINE_CLASSIC",
  },
  {
    code: "LAIWU",
    countVisibility: "hidden",
    games: null,
    name: "preset_name.LAIWU",
    summary: "preset_summary.LAIWU",
  },
  {
    code: "AUDIT",
    countVisibility: "hidden",
    games: null,
    name: "preset_name.AUDIT",
    summary: "preset_summary.AUDIT",
  },
  {
    code: "LIANG4",
    countVisibility: "le10",
    games: null,
    name: "preset_name.LIANG4",
    summary: "preset_summary.LIANG4",
  },
  {
    code: "MATCH7",
    countVisibility: "le10",
    games: 3,
    name: "preset_name.MATCH7",
    summary: "preset_summary.MATCH7",
  },
  {
    code: "COMP2",
    countVisibility: "hidden",
    games: null,
    name: "preset_name.COMP2",
    summary: "preset_summary.COMP2",
  },
];
export const DEFAULT_PRESET = "OUTLINE_FULL";

/** Bot levels as players know them; `agent` is the bot the server runs (gouji.agents). */
export const BOT_LEVELS = [
  {
    agent: "beginner",
    also: ["random"],
    name: "bot.beginner",
    hint: "bot_hint.beginner",
  },
  {
    agent: "intermediate",
    also: [],
    name: "bot.intermediate",
    hint: "bot_hint.intermediate",
  },
  {
    agent: "expert",
    also: ["heuristic"],
    name: "bot.expert",
    hint: "bot_hint.expert",
  },
  {
    agent: "master",
    also: ["search"],
    name: "bot.master",
    hint: "bot_hint.master",
  },
];
export const DEFAULT_BOT = "intermediate";

/** The level a room's or team's bot plays at (older rooms name the agent itself). */
export function botLevel(agent) {
  return BOT_LEVELS.find((b) => b.agent === agent || b.also.includes(agent)) || null;
}

/** How long bots wait before acting (bot_delay_ms), so that people can follow. */
export const BOT_SPEEDS = [
  { ms: 1200, name: "speed.1200" },
  { ms: 600, name: "speed.600" },
  { ms: 250, name: "speed.250" },
];
export const DEFAULT_SPEED_MS = 600;

export function presetInfo(code) {
  return PRESETS.find((p) => p.code === code) || PRESETS[0];
}

/** The rules page (规则说明) of a rule set, in a language. */
export function rulesUrl(code, lang = getLang()) {
  return `/rules/${encodeURIComponent(code)}?lang=${lang}`;
}

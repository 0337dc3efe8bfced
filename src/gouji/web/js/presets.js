// The lobby's words: rule sets, bot levels and speeds, and the lobby's own strings, in Chinese
// and English. Rule set names and one-line descriptions are the same as the rules pages'
// (gouji.rulesdoc NAMES and SUMMARIES; tests/browser/test_lobby.py compares them).
import { getLang } from "./i18n.js";

/** The rule sets in the order the lobby lists them. `code` is what the server is sent;
 * `countVisibility` is the set's own card-count rule (shown as "as the rules say"); `games`
 * is the match length when the room sets none (null = open-ended). */
export const PRESETS = [
  {
    code: "OUTLINE_FULL",
    countVisibility: "hidden",
    games: null,
    name: { zh: "大纲·全套", en: "Outline, full" },
    summary: {
      zh: "默认规则：够级大纲加憋3、打点和进贡——3 留到最后出，没开点的给对头进贡，大落和二落给头科和二科进贡。",
      en: "The default: the outline with 憋3, 打点 and tribute — 3s go out last, a player who fails to open pays the 对头, the last two places pay the first two.",
    },
  },
  {
    code: "OUTLINE_CLASSIC",
    countVisibility: "le10",
    games: null,
    name: { zh: "大纲·经典", en: "Outline, classic" },
    summary: {
      zh: "老打法，最简单：亮3定先出，以后大落先出；有报牌、挑牌、会3会4，可以革命。",
      en: "The older, simpler form: 亮3 picks the starter, later the 大落 leads; 报牌, 挑牌, 会3/会4 and 革命.",
    },
  },
  {
    code: "LAIWU",
    countVisibility: "hidden",
    games: null,
    name: { zh: "莱芜打法", en: "Laiwu rules" },
    summary: {
      zh: "莱芜：3 和 4 少一些，憋3，开壶后才能出 4，买3买4，2 不能贴，有烧贡，串三户后可以会5。",
      en: "Laiwu: fewer 3s and 4s, 憋3, no 4s before 开壶, buying 3s and 4s, 2s do not attach, burn tribute, 会5 after a 串三户.",
    },
  },
  {
    code: "AUDIT",
    countVisibility: "hidden",
    games: null,
    name: { zh: "审计协会比赛", en: "Audit association contest" },
    summary: {
      zh: "山东省内部审计师协会的比赛规则：憋3、开点、对头明扣，名次计 6 到 1 分，烧牌、不开点、闷各加 1 分。",
      en: "The Shandong internal auditors' contest: 憋3, 开点, 扣 said aloud (明扣), places score 6 down to 1, +1 for each burn, 不开点 and 闷.",
    },
  },
  {
    code: "LIANG4",
    countVisibility: "le10",
    games: null,
    name: { zh: "亮4打法", en: "Show the 4s (亮4)" },
    summary: {
      zh: "4 最多的人先出，第一手出 4；开牌抽到王的人先抓；打点，不开点给对头一张贡；可以革命。",
      en: "Most 4s leads first and must lead 4s; a joker drawn at the opening takes first; 打点 with 点贡; 革命 allowed.",
    },
  },
  {
    code: "MATCH7",
    countVisibility: "le10",
    games: 3,
    name: { zh: "三局比赛", en: "Three-game match" },
    summary: {
      zh: "比赛：一场三局，名次计 7、5、4、3、2、0 分，总分高的赢；亮3，按座位顺序烧牌，扣下的牌不能看。",
      en: "Tournament: three games, places score 7, 5, 4, 3, 2, 0, the higher total wins; 亮3; burns in seat order; finished rounds stay hidden.",
    },
  },
  {
    code: "COMP2",
    countVisibility: "hidden",
    games: null,
    name: { zh: "大纲·比赛计分", en: "Outline, contest scoring" },
    summary: {
      zh: "大纲全套的打法，按比赛计分：名次计 2、1、0、0、−1、−2 分，闷、不开点、烧牌各加 1 分。",
      en: "The full outline with contest scoring: places score 2, 1, 0, 0, −1, −2; +1 for each 闷, 不开点 and burn.",
    },
  },
];
export const DEFAULT_PRESET = "OUTLINE_FULL";

/** Bot levels as players know them; `agent` is the bot the server runs (gouji.agents). */
export const BOT_LEVELS = [
  {
    agent: "beginner",
    also: ["random"],
    name: { zh: "新手", en: "Beginner" },
    hint: {
      zh: "懂规矩，常出错牌，适合刚学的人。",
      en: "Knows the rules but often slips: good for learning the game.",
    },
  },
  {
    agent: "intermediate",
    also: [],
    name: { zh: "普通", en: "Intermediate" },
    hint: { zh: "按老手的路子打，偶尔失手。", en: "Plays like a seasoned player, with the odd slip." },
  },
  {
    agent: "expert",
    also: ["heuristic"],
    name: { zh: "高手", en: "Expert" },
    hint: {
      zh: "按老手的路子打，不失手，出牌很快。",
      en: "Plays like a seasoned player without slips, and quickly.",
    },
  },
  {
    agent: "master",
    also: ["search"],
    name: { zh: "大师", en: "Master" },
    hint: {
      zh: "会记牌、往后算，每步多想一会儿（通常不到一秒，最多三秒）。",
      en: "Remembers the cards and looks ahead; thinks a moment before each move (usually under a second, three at most).",
    },
  },
];
export const DEFAULT_BOT = "intermediate";

/** The level a room's or team's bot plays at (older rooms name the agent itself). */
export function botLevel(agent) {
  return BOT_LEVELS.find((b) => b.agent === agent || b.also.includes(agent)) || null;
}

/** How long bots wait before acting (bot_delay_ms), so that people can follow. */
export const BOT_SPEEDS = [
  { ms: 1200, name: { zh: "慢", en: "Slow" } },
  { ms: 600, name: { zh: "正常", en: "Normal" } },
  { ms: 250, name: { zh: "快", en: "Fast" } },
];
export const DEFAULT_SPEED_MS = 600;

const STRINGS = {
  zh: {
    page_title: "够级 · 大厅",
    lang_toggle: "English",
    name: "昵称",
    name_ph: "你的名字",
    create_h: "创建房间",
    preset: "规则",
    rules_link: "规则说明",
    bot: "电脑水平",
    bot_speed: "电脑出牌速度",
    bots: "电脑玩家（最多）",
    bots_0: "不要电脑",
    bots_hint: "开始时，空位由电脑补上。",
    timer: "出牌时限",
    seconds: "秒",
    no_timer: "不限时",
    count_vis: "别人剩几张",
    formation: "组队",
    formation_seats: "自认联邦（自己选座位）",
    formation_draw: "抽签组邦",
    formation_opposite: "自选对头",
    formation_seats_hint: "坐在 1、3、5 号位的是一家，2、4、6 号位的是另一家，想和谁一家就坐哪边。",
    formation_draw_hint: "开始时抽签：六个人随机分成两家、随机落座。",
    formation_opposite_hint: "面对面坐的两个人（1 和 4、2 和 5、3 和 6）互为对头；开始时抽签决定三对人的位置和各自在哪一家。",
    vis_preset: "按规则（{0}）",
    vis_le10: "10 张以内显示（报牌）",
    vis_always: "总是显示",
    vis_hidden: "不显示",
    card_counter: "记牌器（显示每种牌还剩几张）",
    games: "局数",
    games_ph: "不限",
    games_ph_n: "{0}（平局加赛）",
    create: "创建房间",
    join_h: "加入房间",
    code_ph: "房间号或链接",
    join: "加入",
    recent: "最近的房间",
    err_name: "请先填写昵称",
    err_code: "请填写房间号",
    events_h: "比赛",
    events_hint: "几支队伍的比赛：报名、抽签、计分、积分榜，线上或用实体牌。",
    events_new: "组织比赛",
    events_all: "所有比赛",
  },
  en: {
    page_title: "Gouji · Lobby",
    lang_toggle: "中文",
    name: "Your name",
    name_ph: "name",
    create_h: "New room",
    preset: "Rule set",
    rules_link: "Rules",
    bot: "Bot level",
    bot_speed: "Bot speed",
    bots: "Bots (at most)",
    bots_0: "No bots",
    bots_hint: "Empty seats are filled with bots at the start.",
    timer: "Time to act",
    seconds: "s",
    no_timer: "No timer",
    count_vis: "Others' card counts",
    formation: "Teams",
    formation_seats: "自认联邦: choose your seat",
    formation_draw: "抽签组邦: teams by lot",
    formation_opposite: "自选对头: choose your 对头",
    formation_seats_hint: "Seats 1, 3, 5 are one team and 2, 4, 6 the other: sit on the side of your partners.",
    formation_draw_hint: "At the start the six players are seated by lot: teams and seats at random.",
    formation_opposite_hint: "Players sitting face to face (1 and 4, 2 and 5, 3 and 6) are each other's 对头; at the start the lot places the three pairs and decides which of each pair is in which team.",
    vis_preset: "Default ({0})",
    vis_le10: "Shown at 10 or fewer (报牌)",
    vis_always: "Always shown",
    vis_hidden: "Hidden",
    card_counter: "Card counter (how many of each rank are still out)",
    games: "Games",
    games_ph: "no limit",
    games_ph_n: "{0} (ties played off)",
    create: "Create room",
    join_h: "Join a room",
    code_ph: "Room code or link",
    join: "Join",
    recent: "Recent rooms",
    err_name: "Please enter your name first",
    err_code: "Please enter a room code",
    events_h: "Events",
    events_hint: "A competition of teams: registration, draws, scores and standings, online or with real cards.",
    events_new: "Organise an event",
    events_all: "All events",
  },
};

/** A lobby string in the page's language; {0}, {1} … are replaced by the arguments. */
export function say(key, ...args) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const s = table[key] !== undefined ? table[key] : STRINGS.en[key] !== undefined ? STRINGS.en[key] : key;
  return s.replace(/\{(\d)\}/g, (_, i) => (args[+i] !== undefined ? String(args[+i]) : ""));
}

/** A {zh, en} text in the page's language. */
export function pick(text) {
  return text[getLang()] || text.en;
}

export function presetInfo(code) {
  return PRESETS.find((p) => p.code === code) || PRESETS[0];
}

/** The rules page (规则说明) of a rule set, in a language. */
export function rulesUrl(code, lang = getLang()) {
  return `/rules/${encodeURIComponent(code)}?lang=${lang}`;
}

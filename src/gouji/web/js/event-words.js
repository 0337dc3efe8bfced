// The event pages' words (比赛: create, organise, follow, print) in Chinese and English, and
// the sanctions' articles as the seeds write them. Nothing here shows an engine code: formats,
// modes, sanction kinds, table ids and server messages all come out as players' words.
import { getLang } from "./i18n.js";

const S = {
  zh: {
    lang_toggle: "English",
    sep: "、",
    brand: "够级",
    events: "比赛",
    new_title: "够级 · 创建比赛",
    new_h: "创建比赛",
    lobby_link: "比赛",
    lobby_link_title: "组织一场比赛：报名、抽签、计分",
    back_lobby: "← 大厅",
    ev_name: "比赛名称",
    ev_name_ph: "例如：社区够级赛",
    preset: "规则",
    rules_link: "规则说明",
    format: "赛制",
    fmt_knockout: "淘汰赛",
    fmt_round_robin: "循环赛",
    fmt_swiss: "瑞士制",
    fmt_hint_knockout: "抽签对阵，输的出局，直到剩下一队；队数不是 2 的幂时，第一轮有队轮空。",
    fmt_hint_round_robin: "每两队之间赛一场；队数为单数时每轮有一队轮空。",
    fmt_hint_swiss: "每轮按积分配对，不重复交手；胜 2 分、平 1 分、轮空 2 分。",
    rounds: "轮数",
    rounds_auto: "自动",
    rounds_ko: "打到决出冠军",
    games: "每场局数",
    games_ph: "3（平局加赛）",
    duplicate: "复式（每场两桌，同样的牌，座位互换）",
    mode: "方式",
    mode_online: "线上",
    mode_paper: "实体牌",
    mode_hint_online: "每张桌是本站的一个房间：把座位链接发给队员，电脑队由电脑来打，成绩自动登记。",
    mode_hint_paper: "大家用真牌打，裁判每局结束后在组织者页面登记名次，可以打印计分表。",
    bot: "电脑水平",
    bot_speed: "电脑出牌速度",
    timer: "出牌时限",
    seconds: "秒",
    no_timer: "不限时",
    create: "创建比赛",
    creating: "正在创建…",
    err_ev_name: "请填写比赛名称",
    // status
    st_registering: "报名中",
    st_playing: "第 {0} 轮比赛中",
    st_between_rounds: "第 {0} 轮已结束",
    st_over: "比赛结束",
    champion: "冠军：{0}",
    no_champion: "比赛结束，没有冠军",
    round_n: "第 {0} 轮",
    final: "决赛",
    semi_final: "半决赛",
    tbd: "待定",
    match_n: "第 {0} 场",
    table_n: "{0} 号桌",
    match_table: "第 {0} 场 · {1} 号桌",
    teams_n: "{0} 队",
    games_n: "每场 {0} 局",
    games_n_1: "每场 1 局",
    dup_on: "复式",
    bye: "轮空",
    draw_result: "平局",
    vs: "对",
    won_by: "{0} 胜",
    game_of: "第 {0} 局 / 共 {1} 局",
    games_done: "已赛 {0} 局 / {1} 局",
    decided: "已决出",
    unfinished: "未赛完",
    playing: "进行中",
    waiting: "等待开始",
    watch: "观战",
    // public page
    public_title: "够级 · {0}",
    live_h: "正在进行",
    no_live: "现在没有进行中的桌。",
    bracket_h: "对阵图",
    pairings_h: "各轮对阵",
    standings_h: "积分榜",
    results_h: "各局成绩",
    sanctions_h: "处罚",
    no_rounds: "还没有抽签。",
    no_teams: "还没有队报名。",
    col_place: "名次",
    col_team: "队",
    col_points: "积分",
    col_score: "总分",
    col_matches: "胜场",
    col_games: "胜局",
    col_table: "桌",
    col_game: "局",
    game_n: "第 {0} 局",
    next_game: "下一局",
    col_player: "队员",
    col_sanction: "处罚",
    col_article: "依据",
    col_total: "合计",
    col_seat: "座位",
    col_items: "加分项",
    dq: "取消资格",
    print_link: "打印成绩单",
    csv_standings: "积分榜（表格文件）",
    csv_results: "全部成绩（表格文件）",
    admin_link: "组织者页面",
    public_link: "公开页面",
    updated: "自动刷新",
    loading: "正在读取…",
    // admin page
    admin_title: "够级 · 组织 · {0}",
    key_h: "组织者密钥",
    key_need: "这个页面需要组织者密钥（创建比赛时给出的）。",
    key_ph: "组织者密钥",
    key_save: "确定",
    key_saved: "密钥已记在这个浏览器里。换一台设备时需要它，请另外保存。",
    key_forget: "从这个浏览器删除密钥",
    key_copy: "复制",
    copied: "已复制",
    teams_h: "报名",
    team_name: "队名",
    player_n: "队员 {0}",
    bot_team: "电脑队",
    add_team: "报名",
    remove: "删除",
    players_of: "{0}：{1}",
    bot_of: "电脑（{0}）",
    err_team_name: "请填写队名",
    err_players: "请填写三名队员",
    round_h: "抽签",
    draw: "抽签：第 {0} 轮",
    draw_need: "至少要两队才能抽签。",
    draw_wait: "本轮还没有赛完。",
    tables_h: "第 {0} 轮各桌",
    seat_links: "各座位的链接（发给队员）",
    open: "打开",
    sheet_h: "登记第 {0} 局",
    sheet_place: "名次",
    not_opened: "不开点",
    col_not_opened: "不开点",
    col_men: "闷",
    men: "闷",
    burns: "烧牌",
    burn_add: "加一次烧牌",
    burner: "烧牌人",
    victim: "被烧",
    sheet_submit: "登记成绩",
    sheet_sent: "第 {0} 局已登记",
    err_places: "每个名次（头科到大落）要正好给一个人",
    sanction_h: "处罚",
    sanction_who: "队员",
    sanction_kind: "处罚",
    sanction_points: "分数",
    sanction_article: "依据",
    sanction_other: "其他（自己写）",
    sanction_text_ph: "依据的条款",
    sanction_submit: "处罚",
    err_who: "请选择受处罚的队员",
    sanction_sent: "已处罚：{0}",
    close_h: "结束比赛",
    close: "结束比赛",
    close_confirm: "结束比赛后不能再登记成绩。确定吗？",
    closed: "比赛已结束",
    played: "已赛各局",
    team_total: "{0}：{1}",
    pending: "未计入的罚分会记在下一局里",
    // print page
    print_title: "够级 · 成绩单 · {0}",
    print: "打印",
    sheet_title: "计分表",
    referee: "裁判签字",
    captain_of: "{0} 队长签字",
    penalties: "罚分",
    print_round: "轮次",
    standings_at: "积分榜",
    // kinds
    k_warning: "警告",
    k_cancel_turn: "取消一次出牌权",
    k_penalty: "罚分",
    k_last_place: "罚为大落",
    k_disqualify: "取消资格",
    pts: "{0} 分",
    // errors
    e_403: "组织者密钥不对，或者没有填。",
    e_404: "没有这个比赛。",
    e_409: "现在不能这样做：{0}",
    e_413: "内容太长了。",
    e_429: "操作太频繁，请稍后再试。",
    e_net: "连不上服务器，请稍后再试。",
    e_other: "服务器没有接受：{0}",
    e_unknown: "服务器没有接受这个操作（{0}）。",
  },
  en: {
    lang_toggle: "中文",
    sep: ", ",
    brand: "Gouji",
    events: "Events",
    new_title: "Gouji · New event",
    new_h: "New event",
    lobby_link: "Events",
    lobby_link_title: "Run a competition: registration, draws, scores",
    back_lobby: "← Lobby",
    ev_name: "Event name",
    ev_name_ph: "e.g. Club championship",
    preset: "Rule set",
    rules_link: "Rules",
    format: "Format",
    fmt_knockout: "Knockout",
    fmt_round_robin: "Round robin",
    fmt_swiss: "Swiss",
    fmt_hint_knockout: "Drawn pairings, the loser is out, until one team is left; byes in the first round when the count is not a power of two.",
    fmt_hint_round_robin: "Every team meets every other once; with an odd count one team has a bye each round.",
    fmt_hint_swiss: "Each round pairs teams by standing without rematches; win 2, draw 1, bye 2.",
    rounds: "Rounds",
    rounds_auto: "automatic",
    rounds_ko: "until a winner",
    games: "Games a match",
    games_ph: "3 (ties played off)",
    duplicate: "Duplicate (two tables a match, same cards, seats swapped)",
    mode: "Play",
    mode_online: "Online",
    mode_paper: "Real cards",
    mode_hint_online: "Every table is a room on this server: hand the seat links to the players; bot teams are played by bots; results are recorded by themselves.",
    mode_hint_paper: "Played with real cards; after each game the referee enters the places on the organiser's page; score sheets can be printed.",
    bot: "Bot level",
    bot_speed: "Bot speed",
    timer: "Time to act",
    seconds: "s",
    no_timer: "No timer",
    create: "Create event",
    creating: "Creating…",
    err_ev_name: "Please name the event",
    st_registering: "Registration",
    st_playing: "Round {0} in play",
    st_between_rounds: "Round {0} finished",
    st_over: "Event over",
    champion: "Winner: {0}",
    no_champion: "Event over, no winner",
    round_n: "Round {0}",
    final: "Final",
    semi_final: "Semi-finals",
    tbd: "to come",
    match_n: "Match {0}",
    table_n: "Table {0}",
    match_table: "Match {0} · table {1}",
    teams_n: "{0} teams",
    games_n: "{0} games a match",
    games_n_1: "1 game a match",
    dup_on: "duplicate",
    bye: "bye",
    draw_result: "draw",
    vs: "vs",
    won_by: "{0} wins",
    game_of: "Game {0} of {1}",
    games_done: "{0} of {1} games played",
    decided: "decided",
    unfinished: "not finished",
    playing: "in play",
    waiting: "waiting",
    watch: "Watch",
    public_title: "Gouji · {0}",
    live_h: "Playing now",
    no_live: "No table is playing now.",
    bracket_h: "Bracket",
    pairings_h: "Pairings",
    standings_h: "Standings",
    results_h: "Game results",
    sanctions_h: "Sanctions",
    no_rounds: "No round drawn yet.",
    no_teams: "No team registered yet.",
    col_place: "Place",
    col_team: "Team",
    col_points: "Points",
    col_score: "Score",
    col_matches: "Matches won",
    col_games: "Games won",
    col_table: "Table",
    col_game: "Game",
    game_n: "game {0}",
    next_game: "next game",
    col_player: "Player",
    col_sanction: "Sanction",
    col_article: "Article",
    col_total: "Total",
    col_seat: "Seat",
    col_items: "Items",
    dq: "disqualified",
    print_link: "Print score sheets",
    csv_standings: "Standings (spreadsheet)",
    csv_results: "All results (spreadsheet)",
    admin_link: "Organiser's page",
    public_link: "Public page",
    updated: "updates itself",
    loading: "Loading…",
    admin_title: "Gouji · Organise · {0}",
    key_h: "Organiser key",
    key_need: "This page needs the organiser key (given when the event was created).",
    key_ph: "organiser key",
    key_save: "OK",
    key_saved: "The key is remembered in this browser. Keep a copy for other devices.",
    key_forget: "Forget the key in this browser",
    key_copy: "Copy",
    copied: "Copied",
    teams_h: "Registration",
    team_name: "Team name",
    player_n: "Player {0}",
    bot_team: "Bot team",
    add_team: "Register",
    remove: "Remove",
    players_of: "{0}: {1}",
    bot_of: "bots ({0})",
    err_team_name: "Please name the team",
    err_players: "Please name the three players",
    round_h: "Draw",
    draw: "Draw round {0}",
    draw_need: "A draw needs two teams or more.",
    draw_wait: "This round is still being played.",
    tables_h: "Round {0} tables",
    seat_links: "Seat links (hand them to the players)",
    open: "Open",
    sheet_h: "Enter game {0}",
    sheet_place: "Place",
    not_opened: "not opened",
    col_not_opened: "Not opened",
    col_men: "闷",
    men: "闷",
    burns: "Burns",
    burn_add: "Add a burn",
    burner: "Burner",
    victim: "Burnt",
    sheet_submit: "Enter result",
    sheet_sent: "Game {0} entered",
    err_places: "Each place (头科 to 大落) goes to exactly one player",
    sanction_h: "Sanction",
    sanction_who: "Player",
    sanction_kind: "Sanction",
    sanction_points: "Points",
    sanction_article: "Article",
    sanction_other: "Other (write it)",
    sanction_text_ph: "the article",
    sanction_submit: "Sanction",
    err_who: "Please choose the player",
    sanction_sent: "Sanctioned: {0}",
    close_h: "End the event",
    close: "End the event",
    close_confirm: "No result can be entered after the end. End the event?",
    closed: "The event is over",
    played: "Games played",
    team_total: "{0}: {1}",
    pending: "Penalty points not yet counted go into the next game",
    print_title: "Gouji · Score sheets · {0}",
    print: "Print",
    sheet_title: "Score sheet",
    referee: "Referee",
    captain_of: "Captain of {0}",
    penalties: "Penalties",
    print_round: "Round",
    standings_at: "Standings",
    k_warning: "Warning",
    k_cancel_turn: "Loses one lead",
    k_penalty: "Penalty points",
    k_last_place: "Placed last (大落)",
    k_disqualify: "Disqualified",
    pts: "{0} points",
    e_403: "The organiser key is wrong or missing.",
    e_404: "There is no such event.",
    e_409: "Not now: {0}",
    e_413: "That is too long.",
    e_429: "Too many requests; please try again shortly.",
    e_net: "The server cannot be reached; please try again.",
    e_other: "The server refused: {0}",
    e_unknown: "The server refused this ({0}).",
  },
};

export const FORMATS = ["knockout", "round_robin", "swiss"];
export const MODES = ["online", "paper"];
export const SANCTION_KINDS = ["warning", "cancel_turn", "penalty", "last_place", "disqualify"];

/** A page string in the chosen language; {0}, {1} … are replaced by the arguments. */
export function w(key, ...args) {
  const table = S[getLang()] || S.en;
  const s = table[key] !== undefined ? table[key] : S.en[key] !== undefined ? S.en[key] : key;
  return s.replace(/\{(\d)\}/g, (_, i) => (args[+i] !== undefined ? String(args[+i]) : ""));
}

/** Fill every [data-w] element's text and [data-w-ph] placeholder of the page. */
export function applyWords(root = document) {
  document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
  for (const e of root.querySelectorAll("[data-w]")) e.textContent = w(e.dataset.w);
  for (const e of root.querySelectorAll("[data-w-ph]")) e.placeholder = w(e.dataset.wPh);
  for (const e of root.querySelectorAll("[data-w-title]")) e.title = w(e.dataset.wTitle);
  for (const e of root.querySelectorAll("[data-w-aria]")) e.setAttribute("aria-label", w(e.dataset.wAria));
}

// The items a referee's sheet records besides the places: those the rule set's scoring counts
// (R17.2 comp2 and R17.4 audit6 score 不开点, 闷 and burns; the others score places only).
// tests/browser/test_events_pages.py checks this against the engine.
const SCORED_ITEMS = ["not_opened", "men", "burns"];
export const SHEET_ITEMS = {
  OUTLINE_FULL: [],
  OUTLINE_CLASSIC: [],
  LAIWU: [],
  AUDIT: SCORED_ITEMS,
  LIANG4: [],
  MATCH7: [],
  COMP2: SCORED_ITEMS,
};

export function sheetItems(preset) {
  return SHEET_ITEMS[preset] || [];
}

/** A table id of the engine ("r2m3t1") as numbers: round, match, table. */
export function parseTableId(id) {
  const m = /^r(\d+)m(\d+)(?:t(\d+))?$/.exec(String(id || ""));
  return m ? { round: +m[1], match: +m[2], table: m[3] ? +m[3] : 1 } : null;
}

/** The name of a table as people say it: "第 2 场" or, with two tables a match, "第 2 场 · 1 号桌". */
export function tableLabel(id, duplicate) {
  const p = parseTableId(id);
  if (!p) return "";
  return duplicate ? w("match_table", p.match, p.table) : w("match_n", p.match);
}

// The sanctions' articles: the outline's 第二十九条 (kinds) and 第三十条 (cases), and the
// 够级比赛 rules' fouls (−2 for the team). `zh` is the citation sent to the server and kept in
// the event; `en` is how the English page shows it. `kind` and `points` fill the form.
export const ARTICLES = [
  { kind: "warning", zh: "第三十条：摸牌时将下家牌带出并曝光", en: "Art. 30: exposing the next player's cards while drawing" },
  { kind: "warning", zh: "第三十条：联邦间非法传递信息", en: "Art. 30: passing information between partners" },
  { kind: "cancel_turn", zh: "第三十条：重复带出下家牌或传递信息", en: "Art. 30: exposing cards or signalling again" },
  { kind: "cancel_turn", zh: "第三十条：误发、漏发", en: "Art. 30: a wrong or missed play" },
  { kind: "cancel_turn", zh: "第三十条：声明过牌后又重新发牌", en: "Art. 30: playing again after passing" },
  { kind: "cancel_turn", zh: "第三十条：报户不实", en: "Art. 30: a false card count" },
  { kind: "cancel_turn", zh: "第三十条：隐瞒贡牌（另须补贡）", en: "Art. 30: hiding tribute cards (and pay it)" },
  { kind: "cancel_turn", zh: "第三十条：拒收退回的贡牌", en: "Art. 30: refusing returned tribute cards" },
  { kind: "last_place", zh: "第三十条：多摸牌不报、偷牌或混牌", en: "Art. 30: extra cards, stealing or mixing cards" },
  { kind: "disqualify", zh: "第三十条：重复多摸、偷牌或混牌", en: "Art. 30: extra cards, stealing or mixing again" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（1）：以语言或肢体暗示", en: "Tournament foul (1): signalling by word or gesture" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（2）：扣牌后翻牌查看", en: "Tournament foul (2): turning over 扣 cards" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（3）：偷看他人的牌", en: "Tournament foul (3): looking at another's cards" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（4）：擅离座位", en: "Tournament foul (4): leaving the seat" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（5）：出牌作弊", en: "Tournament foul (5): cheating in play" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（6）：留牌时一把扔", en: "Tournament foul (6): throwing the last cards down at once" },
  { kind: "penalty", points: -2, zh: "够级比赛 犯规（7）：错牌，出牌后反悔收牌", en: "Tournament foul (7): taking back a played card" },
  { kind: "penalty", points: -2, zh: "够级比赛 烧牌规则：假烧牌", en: "Tournament burning rule: a fake burn" },
  { kind: "penalty", points: -2, zh: "够级比赛 烧牌规则：不按顺序烧牌", en: "Tournament burning rule: burning out of turn" },
  { kind: "penalty", points: -2, zh: "够级比赛 烧牌规则：让牌没有让到底", en: "Tournament burning rule: not yielding to the end" },
  { kind: "disqualify", zh: "够级比赛 第4条：弄虚作假、违反竞赛规程", en: "Tournament rule 4: fraud or breaking the rules" },
  { kind: "warning", zh: "第二十九条（一）：警告", en: "Art. 29 (1): warning" },
  { kind: "cancel_turn", zh: "第二十九条（二）：取消一次发牌权", en: "Art. 29 (2): loses one lead" },
  { kind: "penalty", points: -2, zh: "第二十九条（三）：罚分", en: "Art. 29 (3): penalty points" },
  { kind: "last_place", zh: "第二十九条（四）：罚为大落", en: "Art. 29 (4): placed last (大落)" },
  { kind: "disqualify", zh: "第二十九条（五）：取消参赛资格", en: "Art. 29 (5): disqualified" },
];

/** An article as the page's language shows it (a citation we know, or the organiser's text). */
export function articleText(text) {
  const a = ARTICLES.find((x) => x.zh === text);
  return a ? (getLang() === "zh" ? a.zh : a.en) : String(text || "");
}

/** A sanction as words: "罚分 −2 分", "警告" … */
export function sanctionText(s) {
  const kind = w("k_" + s.kind);
  if (s.kind === "penalty" && s.points) return `${kind} ${w("pts", signed(s.points))}`;
  return kind;
}

/** A number with a real minus sign: −2, +1, 0. */
export function signed(n) {
  const v = Number(n) || 0;
  return v < 0 ? "−" + Math.abs(v) : v > 0 ? "+" + v : "0";
}

/** A score as shown (negative with a real minus sign). */
export function num(n) {
  const v = Number(n) || 0;
  return v < 0 ? "−" + Math.abs(v) : String(v);
}

// The server's refusals (EventError and SheetError texts, gouji/competition) as words. Each
// pattern's groups fill the template; table ids inside become table names.
const FIELDS = {
  zh: { games: "每场局数", rounds: "轮数", game: "局数", seat: "座位", places: "名次", points: "罚分", bot_delay_ms: "电脑出牌速度", timer_s: "出牌时限", seed: "种子" },
  en: { games: "number of games a match", rounds: "number of rounds", game: "the game", seat: "the seat", places: "places", points: "points", bot_delay_ms: "bot speed", timer_s: "time to act", seed: "the seed" },
};
const REFUSALS = [
  [/^'(\w+)' must be an integer from (-?\d+) to (-?\d+)/, { zh: "{F1}要填 {2} 到 {3} 的整数。", en: "The {F1} must be a whole number from {2} to {3}." }],
  [/^the event's name must be a non-empty text/, { zh: "请填写比赛名称。", en: "The event needs a name." }],
  [/^(?:the event's name|a team's name|team .*: a player's name) must be printable and at most (\d+) characters/,
    { zh: "名字最多 {1} 个字。", en: "A name has at most {1} characters." }],
  [/^a team's name must be a non-empty text/, { zh: "请填写队名。", en: "The team needs a name." }],
  [/^team (.*): a player's name must be a non-empty text/, { zh: "{1} 队：请填写队员的名字。", en: "Team {1}: please name every player." }],
  [/^team (.*): a team has exactly (\d+) players/, { zh: "{1} 队：一队正好 {2} 人。", en: "Team {1}: a team has exactly {2} players." }],
  [/^team (.*): a player is listed twice/, { zh: "{1} 队：有队员重名。", en: "Team {1}: a player is listed twice." }],
  [/^there is already a team named (.*)$/, { zh: "已经有一队叫 {1}。", en: "There is already a team named {1}." }],
  [/^(.*) already plays in a team$/, { zh: "{1} 已经在别的队里了。", en: "{1} already plays in another team." }],
  [/^an event has at most (\d+) teams/, { zh: "一场比赛最多 {1} 队。", en: "An event has at most {1} teams." }],
  [/^unknown bot/, { zh: "没有这个电脑水平。", en: "There is no such bot level." }],
  [/^no team named '?(.*?)'?$/, { zh: "没有叫 {1} 的队。", en: "There is no team named {1}." }],
  [/^registration is closed/, { zh: "第一轮已经抽签，不能再报名或退出。", en: "Registration closed with the first draw." }],
  [/^an event needs two teams or more/, { zh: "至少要两队才能抽签。", en: "A draw needs two teams or more." }],
  [/^round (\d+) is still being played/, { zh: "第 {1} 轮还没有赛完。", en: "Round {1} is still being played." }],
  [/^the event is over/, { zh: "比赛已经结束。", en: "The event is over." }],
  [/^the event is closed/, { zh: "比赛已经结束。", en: "The event is over." }],
  [/^games per match must be/, { zh: "每场局数是 1 到 20。", en: "Games a match are 1 to 20." }],
  [/^rounds must be/, { zh: "轮数是 1 到 50。", en: "Rounds are 1 to 50." }],
  [/^a knockout plays until one team is left/, { zh: "淘汰赛打到剩下一队，不用填轮数。", en: "A knockout plays until one team is left: leave the rounds empty." }],
  [/^unknown format/, { zh: "没有这种赛制。", en: "There is no such format." }],
  [/^mode is/, { zh: "方式只有线上和实体牌两种。", en: "Play is online or with real cards." }],
  [/^no table '?(r\d+m\d+t\d+)'? in this event/, { zh: "没有这张桌。", en: "There is no such table." }],
  [/^table (r\d+m\d+t\d+) belongs to an earlier round/, { zh: "{T1} 是前一轮的桌。", en: "{T1} belongs to an earlier round." }],
  [/^the match of table (r\d+m\d+t\d+) is decided/, { zh: "{T1} 这一场已经决出胜负。", en: "The match of {T1} is decided." }],
  [/^table (r\d+m\d+t\d+) already has a result for game (\d+)/, { zh: "{T1} 第 {2} 局已经登记过了。", en: "{T1} already has a result for game {2}." }],
  [/^table (r\d+m\d+t\d+) plays game (\d+) next, not (\d+)/, { zh: "{T1} 下一局是第 {2} 局，不是第 {3} 局。", en: "{T1} plays game {2} next, not game {3}." }],
  [/^table (r\d+m\d+t\d+) is not playing now/, { zh: "{T1} 现在没有在比赛。", en: "{T1} is not playing now." }],
  [/^places must/, { zh: "每个名次（头科到大落）要正好给一个人。", en: "Each place (头科 to 大落) goes to exactly one player." }],
  [/plays no 打点/, { zh: "这套规则不打点，没有不开点。", en: "This rule set does not play 开点: nobody is “not opened”." }],
  [/plays no 憋3/, { zh: "这套规则不憋3，没有闷。", en: "This rule set does not play 憋3: nobody is 闷." }],
  [/^a burn that scores is of an opponent's play/, { zh: "只有烧对手的牌才计分（规则 R17.7）。", en: "Only a burn of an opponent's play scores (rule R17.7)." }],
  [/lists a seat twice/, { zh: "同一个人记了两次。", en: "A player is listed twice." }],
  [/^a penalty is a non-zero whole number/, { zh: "罚分要填一个不为 0 的整数。", en: "A penalty is a whole number other than 0." }],
  [/^the article is a text of at most (\d+)/, { zh: "依据最多 {1} 个字。", en: "The article has at most {1} characters." }],
  [/^'article' is one line of at most (\d+)/, { zh: "依据只能写一行，最多 {1} 个字。", en: "The article is one line of at most {1} characters." }],
  [/^unknown sanction/, { zh: "没有这种处罚。", en: "There is no such sanction." }],
  [/^a seat at the table is/, { zh: "请选一名队员。", en: "Please choose a player." }],
  [/^unknown preset|^unknown rule set/i, { zh: "没有这套规则。", en: "There is no such rule set." }],
  [/a name is at most (\d+) characters/, { zh: "名字最多 {1} 个字。", en: "A name has at most {1} characters." }],
  [/a name cannot hold control or invisible characters/, { zh: "名字里不能有看不见的字符。", en: "A name cannot hold invisible characters." }],
  [/^team (.*): 'players' is a list of three names/, { zh: "{1} 队：要填三名队员。", en: "Team {1}: name three players." }],
  [/^the event is closed already/, { zh: "比赛已经结束了。", en: "The event is over already." }],
  [/^an online table's results come from its room/, { zh: "线上的桌由房间自动登记成绩。", en: "An online table's results come from its room." }],
  [/^the match of table (r\d+m\d+t\d+) has not started/, { zh: "{T1} 的比赛还没有开始。", en: "The match of {T1} has not started." }],
  [/^'article' is a text of at most (\d+)/, { zh: "依据最多 {1} 个字。", en: "The article has at most {1} characters." }],
  [/nothing changed, try again/, { zh: "服务器暂时保存不了，什么也没有改，请再试一次。", en: "The server could not save it; nothing changed, please try again." }],
  [/^the server failed on this request/, { zh: "服务器出错了，什么也没有改。", en: "The server failed on this request; nothing changed." }],
];

let duplicate = false; // whether the page's event has two tables a match (for table names)

/** Tell the words whether the event shown is a duplicate one (tables are named by it). */
export function setDuplicate(value) {
  duplicate = !!value;
}

/** A server refusal ({status, error, message}) in the page's language. */
export function refusalText(status, message) {
  const text = String(message || "").trim();
  const lang = getLang() === "zh" ? "zh" : "en";
  for (const [re, tpl] of REFUSALS) {
    const m = re.exec(text);
    if (!m) continue;
    return tpl[lang].replace(/\{([TF]?)(\d)\}/g, (_, kind, i) => {
      const v = m[+i] !== undefined ? m[+i] : "";
      if (kind === "T") return tableLabel(v, duplicate);
      if (kind === "F") return FIELDS[lang][v] || v.replace(/_/g, " ");
      return v;
    });
  }
  if (status === 403) return w("e_403");
  if (status === 404) return w("e_404");
  if (status === 413) return w("e_413");
  if (status === 429) return w("e_429");
  if (status === 0) return w("e_net");
  // an unknown text: shown as it is in English; in Chinese as a refusal with its status
  const clean = text.replace(/\br\d+m\d+t\d+\b/g, (id) => tableLabel(id, duplicate));
  if (lang === "en") return status === 409 ? w("e_409", clean) : w("e_other", clean || status);
  return w("e_unknown", status);
}

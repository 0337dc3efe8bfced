// Chinese and English strings; the chosen language is remembered in localStorage.
import { cardsText } from "./cards.js";

const KEY = "gouji.lang";

const S = {
  zh: {
    title: "够级",
    lang_toggle: "English",
    lobby_create: "创建房间",
    lobby_join: "加入房间",
    name: "昵称",
    name_ph: "你的名字",
    preset: "规则",
    bots: "机器人数",
    bot: "机器人水平",
    bot_random: "随机",
    bot_greedy: "贪心",
    bot_heuristic: "启发式",
    bot_search: "搜索",
    timer: "出牌时限（秒，0 = 不限）",
    count_vis: "牌数显示",
    vis_preset: "按规则",
    vis_le10: "10 张以内显示",
    vis_always: "总是显示",
    vis_hidden: "不显示",
    card_counter: "记牌器",
    games: "局数（空 = 不限）",
    create: "创建",
    join: "加入",
    code: "房间号或链接",
    recent: "最近的房间",
    err_name: "请先填写昵称",
    err_code: "请填写房间号",
    room: "房间",
    seat: "座位",
    empty_seat: "空位",
    sit: "坐下",
    stand: "起身",
    start: "开始",
    start_bots: "用机器人补满空位并开始",
    waiting_room: "等待开始",
    spectator: "观战",
    you: "我",
    teammate: "队友",
    opposite: "对头",
    opponent: "对手",
    team_a: "甲队",
    team_b: "乙队",
    bot_mark: "AI",
    bot_name: "电脑",
    private: "私",
    trust: "托管",
    trust_on: "托管",
    trust_off: "取消托管",
    offline: "离线",
    passed: "过",
    rang: "让",
    opened: "开点",
    burner: "烧",
    no_head: "无头",
    dead_level: "够死级",
    revolutionary: "革命",
    cards_n: "张",
    count_hidden: "?",
    play: "出牌",
    burn: "烧牌",
    huan: "还贡",
    pass: "过",
    hint: "提示",
    auto_pass: "自动过牌",
    clear: "清空",
    next_game: "下一局",
    standing: "桌面",
    round_n: "第 {0} 轮",
    game_n: "第 {0} 局",
    to_act_you: "轮到你了",
    to_act_other: "等待 {0}",
    waiting_private: "等待私下决定…",
    counter: "记牌器",
    counter_note: "别家手里每种牌还剩的张数",
    counter_out: "外面",
    log: "记录",
    score: "比分",
    game_over: "本局结束",
    match_over: "比赛结束",
    places: "名次",
    team_scores: "得分",
    replay: "回放",
    totals: "总分",
    connected: "已连接",
    connecting: "连接中…",
    reconnecting: "重新连接…",
    conn_lost: "连接断开，{0} 秒后重连",
    copy_link: "复制链接",
    copied: "已复制",
    prev: "上一步",
    next: "下一步",
    playpause: "播放",
    pause: "暂停",
    first: "开头",
    last: "结尾",
    step: "第 {0} / {1} 步",
    lobby: "大厅",
    back_lobby: "回大厅",
    no_game: "还没有开始",
    match_prompt: "比赛询问",
    select_card_huan: "选一张牌还贡",
    hand: "手牌",
    place_1: "头科",
    place_2: "二科",
    place_3: "三科",
    place_4: "四科",
    place_5: "二落",
    place_6: "大落",
    winner: "{0} 获胜",
    tie: "平局",
    log_game_over: "本局结束",
    timer_s: "{0}秒",
    fixed_deal: "固定牌局",
    fixed_deal_title: "开房的人指定了发牌，他知道每个人的牌",
    seat_replaced: "你的座位已在另一个连接上用同一凭证接管，这里改为旁观",
    status_expired: "机器人牌桌已到时限，不再继续",
  },
  en: {
    title: "Gouji",
    lang_toggle: "中文",
    lobby_create: "Create a room",
    lobby_join: "Join a room",
    name: "Name",
    name_ph: "your name",
    preset: "Rules",
    bots: "Bots",
    bot: "Bot strength",
    bot_random: "random",
    bot_greedy: "greedy",
    bot_heuristic: "heuristic",
    bot_search: "search",
    timer: "Turn timer (s, 0 = none)",
    count_vis: "Card counts shown",
    vis_preset: "as the rules say",
    vis_le10: "at 10 or fewer",
    vis_always: "always",
    vis_hidden: "never",
    card_counter: "Card counter",
    games: "Games (empty = open-ended)",
    create: "Create",
    join: "Join",
    code: "Room code or link",
    recent: "Recent rooms",
    err_name: "Please enter a name first",
    err_code: "Please enter a room code",
    room: "Room",
    seat: "Seat",
    empty_seat: "empty",
    sit: "Sit",
    stand: "Stand up",
    start: "Start",
    start_bots: "Fill empty seats with bots and start",
    waiting_room: "Waiting to start",
    spectator: "Spectator",
    you: "you",
    teammate: "teammate",
    opposite: "对头 opposite",
    opponent: "opponent",
    team_a: "Team A",
    team_b: "Team B",
    bot_mark: "AI",
    bot_name: "Bot",
    private: "private",
    trust: "托管 auto",
    trust_on: "托管 auto-play",
    trust_off: "Stop auto-play",
    offline: "offline",
    passed: "passed",
    rang: "yielded",
    opened: "opened",
    burner: "burner",
    no_head: "no head",
    dead_level: "dead-level",
    revolutionary: "revolution",
    cards_n: "cards",
    count_hidden: "?",
    play: "Play",
    burn: "Burn",
    huan: "Return",
    pass: "Pass",
    hint: "Hint",
    auto_pass: "Auto-pass",
    clear: "Clear",
    next_game: "Next game",
    standing: "On the table",
    round_n: "Round {0}",
    game_n: "Game {0}",
    to_act_you: "Your turn",
    to_act_other: "Waiting for {0}",
    waiting_private: "Waiting for a private decision…",
    counter: "Card counter",
    counter_note: "cards of each rank still in the other hands",
    counter_out: "out",
    log: "Log",
    score: "Score",
    game_over: "Game over",
    match_over: "Match over",
    places: "Places",
    team_scores: "Scores",
    replay: "Replay",
    totals: "Totals",
    connected: "connected",
    connecting: "connecting…",
    reconnecting: "reconnecting…",
    conn_lost: "connection lost, retrying in {0} s",
    copy_link: "Copy link",
    copied: "copied",
    prev: "Prev",
    next: "Next",
    playpause: "Play",
    pause: "Pause",
    first: "Start",
    last: "End",
    step: "step {0} / {1}",
    lobby: "Lobby",
    back_lobby: "Back to lobby",
    no_game: "not started yet",
    match_prompt: "Match question",
    select_card_huan: "select one card to return",
    hand: "Hand",
    place_1: "1st 头科",
    place_2: "2nd 二科",
    place_3: "3rd 三科",
    place_4: "4th 四科",
    place_5: "5th 二落",
    place_6: "6th 大落",
    winner: "{0} wins",
    tie: "tie",
    log_game_over: "game over",
    timer_s: "{0}s",
    fixed_deal: "Fixed deal",
    fixed_deal_title: "The room's creator chose the deal and knows every hand",
    seat_replaced: "Your seat was taken over by another connection with its token; you are watching here",
    status_expired: "This bot table reached its time limit and plays no more",
  },
};

// Decision words (docs/notation.md "Actions") as button labels.
const ACTIONS = {
  zh: {
    pass: "过",
    rang: "让牌",
    noburn: "不烧",
    kou: "扣",
    geming: "革命",
    nogeming: "不革命",
    renounce: "放弃",
    keep: "保留",
    nohui: "不会",
    "hui 3": "会3",
    "hui 4": "会4",
    "hui 3 4": "会3会4",
    "hui 5": "会5",
    yudian: "预点",
    noyudian: "不预点",
    mingdian: "明点",
    nomingdian: "不明点",
    accept: "接受",
    refuse: "拒收",
    swap: "换位",
    noswap: "不换",
    tiao: "挑牌",
    skip: "免贡",
    noskip: "不免",
  },
  en: {
    pass: "Pass",
    rang: "让 Yield",
    noburn: "Decline burn",
    kou: "扣 Kou",
    geming: "革命 Revolt",
    nogeming: "No revolution",
    renounce: "Renounce",
    keep: "Keep",
    nohui: "No 会",
    "hui 3": "会3",
    "hui 4": "会4",
    "hui 3 4": "会3 + 会4",
    "hui 5": "会5",
    yudian: "预点 Pre-declare",
    noyudian: "No 预点",
    mingdian: "明点 Declare",
    nomingdian: "No 明点",
    accept: "Accept",
    refuse: "Refuse",
    swap: "Swap",
    noswap: "No swap",
    tiao: "Claim the rest (挑牌)",
    skip: "Skip tribute",
    noskip: "No skip",
  },
};

let lang = null;

export function getLang() {
  if (lang) return lang;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch (e) {
    saved = null;
  }
  if (saved === "zh" || saved === "en") lang = saved;
  else lang = (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
  return lang;
}

export function setLang(l) {
  lang = l === "zh" ? "zh" : "en";
  try {
    localStorage.setItem(KEY, lang);
  } catch (e) {
    /* private mode */
  }
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

export function t(key, ...args) {
  const l = getLang();
  let s = S[l][key];
  if (s === undefined) s = S.en[key] !== undefined ? S.en[key] : key;
  return s.replace(/\{(\d)\}/g, (_, i) => (args[+i] !== undefined ? String(args[+i]) : ""));
}

export function placeName(p) {
  return p ? t("place_" + p) : "";
}

/** Label of an action word, e.g. "play 7 7" → "出 7 7", "nogeming" → "不革命". */
export function actionLabel(action) {
  const l = getLang();
  const a = String(action);
  if (ACTIONS[l][a]) return ACTIONS[l][a];
  const [word, ...rest] = a.split(" ");
  const cards = cardsText(rest.join(" "), l);
  if (word === "play") return (l === "zh" ? "出 " : "play ") + cards;
  if (word === "burn") return (l === "zh" ? "烧 " : "burn ") + cards;
  if (word === "huan") return (l === "zh" ? "还 " : "return ") + cards;
  if (word === "hui") return (l === "zh" ? "会" : "会 ") + rest.join("");
  if (word === "order") {
    const plays = rest.join(" ").split("|").map((p) => cardsText(p.trim(), l));
    return (l === "zh" ? "按此顺序出：" : "Play in this order: ") + plays.join(" → ");
  }
  return a;
}

/** A public log event [seat, text] in words (docs/engine.md "Public log events"). */
export function logText(seatName, text) {
  const l = getLang();
  const zh = l === "zh";
  const parts = String(text).split(" ");
  const w = parts[0];
  const rest = parts.slice(1).join(" ");
  const who = seatName;
  switch (w) {
    case "play":
      return zh ? `${who} 出 ${cardsText(rest, l)}` : `${who} plays ${cardsText(rest, l)}`;
    case "burn":
      return zh ? `${who} 烧 ${cardsText(rest, l)}` : `${who} burns with ${cardsText(rest, l)}`;
    case "burning":
      return zh ? `${who} 烧牌成功压过 ${rest}` : `${who} is burning (beat ${rest})`;
    case "burn_success":
      return zh ? `${who} 烧牌成功` : `${who}'s burn succeeded`;
    case "burn_broken":
      return zh ? `${who} 烧牌被破` : `${who}'s burn was broken`;
    case "pass":
      if (rest === "auto") return zh ? `${who} 过（自动）` : `${who} passes (auto)`;
      return zh ? `${who} 过` : `${who} passes`;
    case "rang":
      return zh ? `${who} 让牌` : `${who} yields (让牌)`;
    case "kou":
      return zh ? `${who} 扣` : `${who} kou (扣)`;
    case "opening_draw":
      return zh ? `${who} 抽到 ${cardsText(rest, l)}` : `${who} drew ${cardsText(rest, l)}`;
    case "first_taker":
      return zh ? `${who} 先抓牌` : `${who} takes first`;
    case "starter":
      return zh ? `${who} 先出` : `${who} leads first`;
    case "liang3":
      return zh ? `${who} 亮3：${parts[1]} 张 ${parts[2] || ""}` : `${who} shows ${parts[1]} threes of ${parts[2] || ""}`;
    case "liang4":
      return zh ? `${who} 亮4：${parts[1]} 张` : `${who} shows ${parts[1]} fours`;
    case "void_redeal":
      return zh ? "两家革命，重新发牌" : "two revolutions: redeal";
    case "removed":
      return zh ? `${who} 放下 ${rest} 张` : `${who} sets aside ${rest} cards`;
    case "buy3":
    case "buy4":
      return zh ? `${who} ${w === "buy3" ? "买3" : "买4"} ${rest}` : `${who} ${w} ${rest}`;
    case "round_won":
      return zh ? `${who} 赢得本轮` : `${who} wins the round`;
    case "jiefeng":
      return zh ? `${who} 接风` : `${who} takes the lead (接风)`;
    case "opened":
      return zh ? `${who} 开点` : `${who} opened the point (开点)`;
    case "place":
      return zh ? `${who} 得 ${placeName(+parts[1])}` : `${who} takes ${placeName(+parts[1])}`;
    case "men":
      return zh ? `${who} 被闷，${placeName(+parts[1])}` : `${who} is 闷 (shut out): ${placeName(+parts[1])}`;
    case "broken_burn":
      return zh ? `${who} 烧牌被破，${placeName(+parts[1])}` : `${who} broken burn: ${placeName(+parts[1])}`;
    case "forfeit":
      return zh ? `${who} 弃权 ${rest}` : `${who} forfeits ${rest}`;
    case "game_over":
      return t("log_game_over");
    case "tribute":
      return zh ? `进贡 ${rest}` : `tribute ${rest}`;
    case "huan":
      return zh ? `${who} 还贡 ${cardsText(rest, l)}` : `${who} returns ${cardsText(rest, l)}`;
    case "tiao":
      return zh ? `${who} 挑牌，亮出手牌` : `${who} claims the rest (挑牌) and shows the hand`;
    case "order": {
      const plays = rest.split("|").map((p) => cardsText(p.trim(), l));
      return zh ? `${who} 定出牌顺序：${plays.join(" → ")}` : `${who} sets the order: ${plays.join(" → ")}`;
    }
    case "moved":
      return zh ? `${who} 改为 ${placeName(+parts[1])}` : `${who} moves to ${placeName(+parts[1])}`;
    case "opened_at_end":
      return zh ? `${who} 牌局提前结束，算开点` : `${who} counts as opened (the game ended early)`;
    case "four_unlocked":
      return zh ? "4 解锁" : "fours unlocked";
    default:
      break;
  }
  const label = actionLabel(text);
  return `${who}: ${label}`;
}

export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-ph]")) el.placeholder = t(el.dataset.i18nPh);
  document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
}

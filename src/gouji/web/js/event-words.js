// The event pages' helpers for words (比赛: create, organise, follow, print; the words
// themselves are in words/events.js), and the sanctions' articles as the seeds write them.
// Nothing here shows an engine code: formats, modes, sanction kinds, table ids and server
// messages all come out as players' words.
import { getLang, t } from "./i18n.js";

export const FORMATS = ["knockout", "round_robin", "swiss"];
export const MODES = ["online", "paper"];
export const SANCTION_KINDS = ["warning", "cancel_turn", "penalty", "last_place", "disqualify"];

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
  return duplicate ? t("match_table", p.match, p.table) : t("match_n", p.match);
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
  const kind = t("k_" + s.kind);
  if (s.kind === "penalty" && s.points) return `${kind} ${t("pts", signed(s.points))}`;
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
  zh: { games: "每场局数", rounds: "轮数", game: "局数", seat: "座位", places: "名次", points: "罚分", bot_delay_ms: "电脑出牌速度", timer_s: "出牌时限", seed: "种子", minutes: "计时分钟数" },
  en: { games: "number of games a match", rounds: "number of rounds", game: "the game", seat: "the seat", places: "places", points: "points", bot_delay_ms: "bot speed", timer_s: "time to act", seed: "the seed", minutes: "clock's minutes" },
};
// The places by number (1 = 头科 … 6 = 大落) as the refusals name them.
const PLACES_ZH = ["头科", "二科", "三科", "四科", "二落", "大落"];
const REFUSALS = [
  // organiser and referee (issue 22): first, as they refine older, shorter patterns below
  [/^table (r\d+m\d+t\d+) belongs to an earlier round: its results stand/, { zh: "{T1} 是前一轮的桌：下一轮已经抽签，前一轮的成绩不能再改。", en: "{T1} belongs to an earlier round: once the next round is drawn, its results stand." }],
  [/^table (r\d+m\d+t\d+) is not playing now: name the game it counts in/, { zh: "{T1} 现在没有在打：请选这个处罚算在哪一局。", en: "{T1} is not playing now: choose the game the sanction counts in." }],
  [/^table (r\d+m\d+t\d+): only its last sheet \(game (\d+)\) can be voided; correct game (\d+) instead/, { zh: "{T1} 只能作废最后一局（第 {2} 局）；第 {3} 局请改正。", en: "Only the last game of {T1} (game {2}) can be voided; correct game {3} instead." }],
  [/^table (r\d+m\d+t\d+), game (\d+): 罚为大落: (.*?) must be placed ([\d/]+) \(the last places?\)/, {
    zh: (m) => `${tableLabel(m[1], duplicate)} 第 ${m[2]} 局：${m[3].replace(/seat (\d+)/g, "$1号位").replace(/, /g, "、")} 被罚为大落，计分表上必须排在最后（${m[4].split("/").map((p) => PLACES_ZH[+p - 1] || p).join("、")}）。`,
    en: (m) => `${tableLabel(m[1], duplicate)}, game ${m[2]}: ${m[3]} placed last (大落) must have the last place${m[4].includes("/") ? "s" : ""} (${m[4].split("/").map((p) => PLACES_ZH[+p - 1] || p).join(", ")}) on the sheet.`,
  }],
  [/^team (.*): a team has exactly 6 players/, { zh: "{1} 队：复式每队六人，分两组：前三人坐甲方座位，后三人坐乙方座位（两桌同时打）。", en: "Team {1}: a duplicate team has six players, two trios: the first three sit at seats 1, 3, 5, the other three at seats 2, 4, 6 (both tables play at once)." }],
  [/^team (.*): at most (\d+) substitutes/, { zh: "{1} 队：最多 {2} 名替补。", en: "Team {1}: at most {2} substitutes." }],
  [/^team (.*): a substitute's name must be a non-empty text/, { zh: "{1} 队：请填写替补的名字。", en: "Team {1}: please name the substitute." }],
  [/^team (.*): a substitute's name must be printable and at most (\d+) characters/, { zh: "{1} 队：替补的名字最多 {2} 个字。", en: "Team {1}: a substitute's name has at most {2} characters." }],
  [/^team (.*): a seed \(种子\) is a rank 1…(\d+)/, { zh: "{1} 队：种子要填 1 到 {2} 的整数。", en: "Team {1}: a seed is a rank from 1 to {2}." }],
  [/^team (.*): another team is seed (\d+) already/, { zh: "{1} 队：已经有别的队是第 {2} 种子。", en: "Team {1}: another team is seed {2} already." }],
  [/^team (.*): 'subs' is a list/, { zh: "{1} 队：替补要填名字。", en: "Team {1}: substitutes are given by name." }],
  [/^team (.*): 'bot' is true or one of/, { zh: "{1} 队：没有这个电脑水平。", en: "Team {1}: there is no such bot level." }],
  [/^team (.*): 'players' is a list of three names \(six at a duplicate event\)/, { zh: "{1} 队：要填三名队员（复式两桌同时打时填六名）。", en: "Team {1}: name three players (six at a duplicate event whose tables play at once)." }],
  [/^tables one after the other is a duplicate event's option/, { zh: "两桌先后打只适用于复式比赛。", en: "Tables one after the other is an option of duplicate events." }],
  [/^a match for third place is a knockout's option/, { zh: "季军赛只适用于淘汰赛。", en: "A third-place match is an option of knockouts." }],
  [/^'(.*)' does not play for (.*)$/, { zh: "{1} 不是 {2} 的上场队员。", en: "{1} does not play for {2}." }],
  [/^'(.*)' is not a substitute of (.*)$/, { zh: "{1} 不是 {2} 的替补。", en: "{1} is not a substitute of {2}." }],
  [/^(.*) is playing its match: swap players between matches/, { zh: "{1} 正在比赛：场与场之间才能换人。", en: "{1} is playing its match: swap players between matches." }],
  [/^'(?:out|in)' must be a non-empty text/, { zh: "请选换下和换上的队员。", en: "Choose the player out and the substitute in." }],
  [/^table (r\d+m\d+t\d+) has played the match's (\d+) games/, { zh: "{T1} 已经打完本场的 {2} 局，等另一张桌打完。", en: "{T1} has played the match's {2} games: the match waits for its other table." }],
  [/^table (r\d+m\d+t\d+) plays game (\d+) after table (r\d+m\d+t\d+) has/, { zh: "{T3} 打完第 {2} 局以后，{T1} 才能登记这一局（两桌先后打）。", en: "{T1} plays game {2} after {T3} has played it (tables one after the other)." }],
  [/^table (r\d+m\d+t\d+) has played game (\d+) after it/, { zh: "{T1} 已经打了第 {2} 局：先作废那一局。", en: "{T1} has played game {2} after it: void that first." }],
  [/^table (r\d+m\d+t\d+) has no registered game/, { zh: "{T1} 没有登记过这一局。", en: "{T1} has no such game entered." }],
  [/^table (r\d+m\d+t\d+): an online game's result comes from its room/, { zh: "{T1} 是线上的桌：成绩由房间自动登记，不能改。", en: "{T1} is an online table: its results come from its room." }],
  [/^table (r\d+m\d+t\d+) is between games and game (\d+)'s result is in/, { zh: "{T1} 在两局之间，第 {2} 局的成绩已经登记：请选算在第 {2} 局，或等下一局开始再给。", en: "{T1} is between games and game {2}'s result is in: choose game {2}, or give it once the next game has started." }],
  [/^only a warning or a penalty can be given for a registered game/, { zh: "已登记的局只能给警告或罚分；罚为大落请改正那一局的计分表。", en: "A registered game takes only a warning or penalty points; for placed last (大落), correct its sheet." }],
  [/^a penalty is a negative whole number/, { zh: "罚分要填负数（−1 到 −100，默认 −2）。", en: "Penalty points are a negative whole number (−2 by default)." }],
  [/^the match would be decided after game (\d+), but table (r\d+m\d+t\d+) has more games: void those first/, { zh: "这样本场在第 {1} 局就决出了，可是 {T2} 还登记了后面的局：先作废那些局。", en: "The match would be decided after game {1}, but {T2} has more games: void those first." }],
  [/^match r\d+m(\d+) is not being played now/, { zh: "第 {1} 场现在没有在比赛。", en: "Match {1} is not being played now." }],
  [/^match r\d+m(\d+) is decided/, { zh: "第 {1} 场已经决出胜负。", en: "Match {1} is decided." }],
  [/^match r\d+m(\d+) has begun: results or sanctions decide it now/, { zh: "第 {1} 场已经开始打了，不能再记弃权：由成绩和处罚决定。", en: "Match {1} has begun: its results and sanctions decide it now." }],
  [/^name the absent team\(s\) of match r\d+m(\d+): (.*)$/, { zh: "请选第 {1} 场没有来的队：{2}。", en: "Name the absent team of match {1}: {2}." }],
  [/^in a knockout one team must go on/, { zh: "淘汰赛必须有一队晋级：只能选一队弃权。", en: "In a knockout one team must go on: choose one absent team." }],
  [/^no match '?(.*?)'? in this event/, { zh: "没有这一场。", en: "There is no such match." }],
  [/^'absent' names the team/, { zh: "请选没有来的队。", en: "Choose the team that did not come." }],
  [/^referee (.*) does not referee r\d+m(\d+)/, { zh: "裁判 {1} 不管第 {2} 场。", en: "Referee {1} does not referee match {2}." }],
  [/^referee (.*)'s key is revoked already/, { zh: "裁判 {1} 的密钥已经收回了。", en: "Referee {1}'s key is revoked already." }],
  [/^this is not a key of the event/, { zh: "密钥不对：不是这场比赛的组织者或裁判密钥（裁判密钥可能已经收回）。", en: "This is not a key of this event (a referee's key may have been revoked)." }],
  [/^this is not the organiser key of the event/, { zh: "这不是组织者密钥：只有组织者能做这件事。", en: "This is not the organiser key: only the organiser can do this." }],
  [/^the organiser or a referee key is needed/, { zh: "需要组织者或裁判的密钥。", en: "The organiser's or a referee's key is needed." }],
  [/^the organiser key is needed/, { zh: "需要组织者密钥。", en: "The organiser key is needed." }],
  [/^an event has at most (\d+) referees/, { zh: "一场比赛最多 {1} 名裁判。", en: "An event has at most {1} referees." }],
  [/^'matches' must be an integer from (\d+) to (\d+)/, { zh: "场次号要填 {1} 到 {2} 的整数。", en: "Match numbers are whole numbers from {1} to {2}." }],
  [/^'matches' lists match numbers/, { zh: "场次请填场次号（从 1 起），不填就是全部场次。", en: "Matches are match numbers from 1, or none for every match." }],
  [/^a referee's name must be a non-empty text/, { zh: "请填写裁判的名字。", en: "Please name the referee." }],
  [/^no referee '?(.*?)'?$/, { zh: "没有这个裁判。", en: "There is no such referee." }],
  [/^'penalties' is a list of at most (\d+)/, { zh: "一张计分表最多 {1} 条罚分。", en: "A sheet has at most {1} penalties." }],
  [/^'places' gives each seat/, { zh: "每个座位（1 到 6 号位）都要填名次。", en: "Each seat (1 to 6) needs its place." }],
  [/^(?:not_opened|men|burn): a seat is 1…6 on the sheet/, { zh: "计分表上的座位是 1 到 6 号位。", en: "Seats on the sheet are 1 to 6." }],
  [/^a burn is \[burner, victim\]|^'burns' is a list/, { zh: "烧牌要填烧牌人和被烧的人。", en: "A burn names the burner and the player burnt." }],
  [/^a game number is an integer|^no game .*: games are numbered/, { zh: "没有这一局。", en: "There is no such game." }],
  [/^Idempotency-Key is 1 to 100/, { zh: "操作编号不对，请刷新页面再试。", en: "The request's id is not valid; please reload the page." }],
  [/^this Idempotency-Key was used for another request/, { zh: "这个操作编号已经用过了，请刷新页面再试。", en: "This request's id was used for another change; please reload the page." }],
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
  [/^no round has been drawn yet/, { zh: "还没有抽签：抽签后才能开始计时。", en: "No round has been drawn yet: draw one before starting its clock." }],
  [/^the list of events cannot be read now/, { zh: "比赛列表暂时读不到，稍后再试。", en: "The list of events cannot be read now; please try again shortly." }],
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
    if (typeof tpl[lang] === "function") return tpl[lang](m); // words built from the match
    return tpl[lang].replace(/\{([TF]?)(\d)\}/g, (_, kind, i) => {
      const v = m[+i] !== undefined ? m[+i] : "";
      if (kind === "T") return tableLabel(v, duplicate);
      if (kind === "F") return FIELDS[lang][v] || v.replace(/_/g, " ");
      return v;
    });
  }
  if (status === 403) return t("e_403");
  if (status === 404) return t("e_404");
  if (status === 413) return t("e_413");
  if (status === 429) return t("e_429");
  if (status === 0) return t("e_net");
  // an unknown text: shown as it is in English; in Chinese as a refusal with its status
  const clean = text.replace(/\br\d+m\d+t\d+\b/g, (id) => tableLabel(id, duplicate));
  if (lang === "en") return status === 409 ? t("e_409", clean) : t("e_other", clean || status);
  return t("e_unknown", status);
}

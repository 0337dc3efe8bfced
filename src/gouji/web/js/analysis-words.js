// The words of 复盘 (the analysis of a finished game, docs/protocol.md) on the replay page, in
// Chinese and English; read through i18n.js's wordsOf like every page's own word table.
import { wordsOf } from "./i18n.js";

const S = {
  zh: {
    analyse: "复盘",
    analyse_title: "让电脑复盘这一局：逐一评判每位玩家有选择的决定",
    heading: "复盘",
    intro: "电脑从每位玩家当时能知道的信息出发（只看自己的牌和打出的牌），把每个有选择的决定和其他出法各打很多遍比较。",
    reading: "正在读取这一局…",
    running: "正在复盘：{0} / {1} 个决定",
    queued_next: "排队中：下一个就轮到这一局",
    queued: "排队中：前面还有 {0} 局",
    done: "复盘完成：评判了 {0} 个决定，标出 {1} 个",
    none_flagged: "复盘完成：评判了 {0} 个决定，没有明显的失误",
    failed: "这一局没有复盘完：{0}",
    broken: "服务器的复盘进程中断了。请再点一次「复盘」。",
    not_analysable: "这一局的记录无法复盘。",
    failed_other: "服务器复盘时出错了，请稍后再试。",
    busy_me: "你这边已经有一局在复盘了：等它完成后再试（复盘过的局随时可看）。",
    busy_server: "服务器正在复盘的局已经排满了，请过一会儿再试。",
    hidden: "这一局是复式赛的牌，另一桌还没打完，各桌都打完后才能复盘。",
    missing: "找不到这一局（房间或这一局不存在，或还没打完）。",
    network: "连不上服务器，请稍后再试。",
    class_good: "不错",
    class_inaccuracy: "欠佳",
    class_mistake: "失误",
    class_blunder: "大错",
    mark_title: "第 {0} 步：{1}（{2}）",
    moment_step: "第 {0} 步",
    chose: "的选择：{play}",
    better: "更好的选择：{play}",
    no_better: "没有找到明显更好的出法。",
    worth_head: "本队预期得分",
    worth_line: "{play}：{value}",
    loss: "损失约 {loss} 分（去掉误差，至少 {low} 分）",
    value: "{0} ± {1} 分",
    value_exact: "{0} 分",
    others: "比较过的出法",
    summary: "每位玩家",
    col_player: "玩家",
    col_decisions: "决定",
    col_loss: "平均损失",
    costliest: "损失最大的几步：",
    unit_note: "分：本队减对方的得分（按本局规则的名次分），按当时能知道的信息估计；有标记的是扣除误差后仍然成立的损失。",
    step_n: "第 {0} 步",
  },
  en: {
    analyse: "Analyse",
    analyse_title: "Have the computer analyse this game: every decision of every player that had a choice",
    heading: "Analysis",
    intro: "The computer judges each decision that had a choice from what that player could know at the time (their own cards and what was played), playing it and the alternatives out many times.",
    reading: "Reading the game…",
    running: "Analysing: {0} of {1} decisions",
    queued_next: "Waiting: this game is next",
    queued: "Waiting: {0} games ahead",
    done: "Analysed {0} decisions; {1} flagged",
    none_flagged: "Analysed {0} decisions; no clear mistake",
    failed: "The analysis was not finished: {0}",
    broken: "The server's analysis worker stopped. Press Analyse again.",
    not_analysable: "This game's record cannot be analysed.",
    failed_other: "The server failed on this analysis; please try again later.",
    busy_me: "An analysis of yours is running already: try again once it is done (games analysed already show at once).",
    busy_server: "The server's queue of analyses is full: please try again in a while.",
    hidden: "This duplicate deal is still being played at the other table: it can be analysed once every table has finished it.",
    missing: "This game is not available (no such room or game, or the game is not over).",
    network: "The server cannot be reached; please try again later.",
    class_good: "Good",
    class_inaccuracy: "Inaccuracy",
    class_mistake: "Mistake",
    class_blunder: "Blunder",
    mark_title: "Step {0}: {1} ({2})",
    moment_step: "Step {0}",
    chose: " chose: {play}",
    better: "Better: {play}",
    no_better: "No clearly better play was found.",
    worth_head: "Expected result for the team",
    worth_line: "{play}: {value}",
    loss: "Cost: about {loss} points (at least {low} beyond the noise)",
    value: "{0} ± {1} points",
    value_exact: "{0} points",
    others: "Plays compared",
    summary: "Each player",
    col_player: "Player",
    col_decisions: "Turns",
    col_loss: "Avg. loss",
    costliest: "Costliest moments:",
    unit_note: "Points: the team's score minus the other team's (the rule set's place points), estimated from what the player could know; a mark is a loss that stands beyond the noise.",
    step_n: "step {0}",
  },
};

/** A word of 复盘 in the page's language. */
export const aw = wordsOf(S);

/** The classes, mildest first, with the symbol each mark carries (colour and symbol). */
export const MARKS = { good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A number of points with a real minus sign and one decimal: "−1.2", "+0.8", "0.0". */
export function points(x, signed = true) {
  const v = Math.round(Number(x) * 10) / 10;
  if (!Number.isFinite(v)) return "—";
  if (v < 0) return "−" + (-v).toFixed(1);
  return (signed && v > 0 ? "+" : "") + v.toFixed(1);
}

/** A value and its 95 % interval as "−1.2 ± 0.6 points" (the interval's half width). */
export function valueText(value, ci) {
  if (!Array.isArray(ci) || ci.length !== 2) return aw("value_exact", points(value));
  return aw("value", points(value), points((ci[1] - ci[0]) / 2, false));
}

/** Why an analysis is not shown, in words: the server's status and error text. */
export function refusalText(status, error) {
  if (status === 403) return aw("hidden");
  if (status === 404) return aw("missing");
  if (status === 429) return aw("busy_me");
  if (status === 503) return aw("busy_server");
  if (status === 0) return aw("network");
  return failureText(error);
}

/** A failed analysis's error (the server's English text) in the page's language. */
export function failureText(error) {
  const text = String(error || "");
  if (/worker process of the analyses stopped/.test(text)) return aw("broken");
  if (/cannot be replayed|only a finished game/.test(text)) return aw("not_analysable");
  return aw("failed_other");
}

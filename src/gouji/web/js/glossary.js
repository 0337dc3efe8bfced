// The table's help sheet (规则和术语): the table's rules page, how cards are chosen, and a short
// glossary of the game's words in Chinese and English (from the terms of GOUJI_RULES.md,
// section G, in players' words). The terms stay Chinese in English too: that is how players
// say them.
import { el } from "./common.js";
import { getLang, t } from "./i18n.js";

/** [term, Chinese, English] — what a player meets at the table, in the order a game goes. */
export const GLOSSARY = [
  ["联邦", "队友。六个人分两队，每队三人，隔一个座位坐一个。", "your team: six players in two teams of three, every other seat."],
  ["对头", "坐在你正对面的对手。你的够级牌要过他这一关。", "the opponent sitting opposite you: your 够级 plays are aimed at them."],
  ["上家 / 下家", "在你前面 / 后面出牌的人（逆时针）。", "the player who acts before / after you (counter-clockwise)."],
  ["首发", "一轮的第一手牌；首发不能过。", "the first play of a round; the leader may not pass."],
  ["够级", "大牌：10 五张以上、J 四张、Q 三张、K 或 A 两张以上，只出 2，或者带王。只有对头（还有无头的人、烧牌的人）能管。", "a big play: five or more 10s, four Js, three Qs, two Ks or As, 2s alone, or anything with a joker. Only the 对头 (and a 无头 player, or a burn) may answer it."],
  ["过牌", "不管这手牌；这一轮就不能再出了（对头的够级除外）。", "decline the play: you are out of this round (except against your 对头's 够级)."],
  ["让牌", "对头不管，让给后面两家去管。", "the 对头 lets the next two players answer instead."],
  ["扣牌", "对头最后不管，这一轮结束。", "the 对头's closing decline: the round ends."],
  ["接风", "出完牌的人最后一手没人管，由他的下一位队友接着首发。", "a finisher's last play stood: the next teammate in turn leads on."],
  ["烧", "一个人替对头管够级牌，还要一口气把手里的牌出完（烧牌）；被管住就是解烧。", "burn: beating a 够级 play in the 对头's place and then playing out your whole hand; beaten on the way, the burn is broken (解烧)."],
  ["头科 · 二科 · 三科 · 四科", "第一到第四个出完牌的名次。", "places 1 to 4: the first to go out is 头科."],
  ["二落 · 大落", "第五、第六名；大落是最后一名。", "places 5 and 6; 大落 is the last."],
  ["无头", "对头已经出完（或被闷、被罚下）：你的牌谁都能管，你也能管任何人的牌。", "your 对头 is out (or 闷'd, or put out): anyone may beat your plays and you may beat anyone's."],
  ["够死级", "对头刚出完成了头科或二科：这一轮你还有一次够级，只能被烧。", "your 对头 just went out as 头科 or 二科: one more 够级 this round, which only a burn can answer."],
  ["四人乱缠", "头科、二科都出来以后，剩下四人随便管，不讲够级。", "after 头科 and 二科, the four left play free-for-all: no 够级 protection."],
  ["串三户", "一队拿了头科、二科、三科：另一队被串了。", "one team takes 头科, 二科 and 三科: the other team was 串'd."],
  ["开点", "在期限前出过一手赢了一轮的够级牌。没开点的，按规则给对头进贡（点贡）或扣分。", "you won a round with a 够级 play in time; a player who did not open pays the 对头 a card (点贡) or loses points, as the rules say."],
  ["憋3", "3 只能留到最后一手出，而且要一起出。", "3s go out last, all together."],
  ["闷", "手里只剩 3 又没拿到首发：被闷，直接排到最后。", "left with only 3s and no lead: you are shut out and take the worst place."],
  ["革命", "开局时手里没有 2 也没有王，可以放下不打（一般算四科）。", "a hand with no 2 and no joker may be laid down at the start (it usually holds 四科)."],
  ["进贡", "下一局开始前，上一局输的一方交出大牌（王、2）。", "before the next game, the last game's losers give up their best cards (jokers, 2s)."],
  ["落贡 · 还贡", "大落给头科 2 张、二落给二科 1 张；收到的人还回同样多的牌。", "大落 pays 头科 2 cards, 二落 pays 二科 1; the receivers give back as many."],
  ["明点 · 预点", "押你的对头开不了点：押中他多进贡，押错你进贡。", "a bet that your 对头 will not open: right, they pay you more; wrong, you pay."],
  ["托管", "电脑替你打（超时两次也会进入）；你一操作就取消。", "a bot plays for you (also after two timeouts); it stops as soon as you act."],
];

/** The help sheet; `rulesHref` is the table's rules page, `onClose()` hides it. */
export function helpSheet(rulesHref, onClose) {
  const en = getLang() !== "zh";
  const terms = GLOSSARY.flatMap(([term, zh, eng]) => [el("dt", null, term), el("dd", null, en ? eng : zh)]);
  return el(
    "div",
    { class: "help-inner" },
    el("button", { type: "button", class: "close small", "aria-label": t("close"), onclick: onClose }, "×"),
    el("h3", null, t("help_title")),
    el("p", null, el("a", { class: "button primary rules-page-link", href: rulesHref, target: "_blank", rel: "noopener" }, t("help_rules"))),
    el("h4", null, t("help_select_h")),
    el("p", { class: "help-select" }, t("help_select")),
    el("h4", null, t("help_terms_h")),
    el("dl", { class: "glossary" }, terms),
  );
}

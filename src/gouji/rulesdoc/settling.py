"""The rules document's closing sections: tribute (R16), what a player can see (R10),
scoring and winning (R17) and playing on this site (R19)."""

from __future__ import annotations

from gouji.engine.referee.scoring import PLACE_POINTS
from gouji.rulesdoc.facts import (
    PLACES_EN,
    PLACES_ZH,
    Facts,
    Pick,
    join,
    num,
    olist,
    points,
)


def tribute(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.trib:
        return []
    if r.trib_no_card == "skip":
        short = t("不够就有几张给几张，没有就不给", "a player short of them pays what they have")
    else:
        short = t(
            "不够就用自己最大的牌补上", "a player short of them makes up with their highest cards"
        )
    out = [
        t(
            "**进贡**：从第二局起，每局出牌之前，按上一局的结果进贡。贡牌只能是大王、小王、2，"
            f"从大的给起；{short}。进了几张大家都知道，是什么牌只有双方知道。",
            "**进贡** (tribute): from the second game on, before play, tribute is paid for the "
            "last game. Tribute cards are big jokers, small jokers and 2s, highest first; "
            f"{short}. Everybody sees how many cards go where; only the two players see which.",
        ),
    ]
    kinds: list[str] = []
    for kind in r.trib_order:
        if kind == "dian":
            kinds.append(
                t(
                    "**点贡**：上一局不开点的人给自己的对头一张，不还",
                    "**点贡**: a 不开点 player of the last game pays their 对头 one card, never "
                    "returned",
                )
            )
        elif kind == "shao":
            kinds.append(
                t(
                    "**烧贡**：被对手烧成的人给烧他的人一张，不还",
                    "**烧贡**: the victim of an opponent's successful burn pays the burner one "
                    "card, never returned",
                )
            )
        else:
            kinds.append(
                t(
                    "**落贡**：大落给头科两张，二落给二科一张",
                    "**落贡**: the 大落 pays the 头科 two cards, the 二落 pays the 二科 one",
                )
            )
    if len(kinds) > 1:
        out.append(t("按这个顺序交：", "In this order:"))
        out.append(olist(kinds))
    else:
        out.extend(k + t("。", ".") for k in kinds)
    if f.luo_paid:
        if r.trib_return:
            back = t(
                "**还贡**：收了落贡的人还给对方同样多张牌，牌由自己挑。",
                "**还贡** (the return): a player who received 落贡 gives back as many cards, "
                "of their own choice.",
            )
            if r.trib_return_rank_rule:
                back += t(
                    "还的牌如果是对方手里没有的点数，对方可以拒收，收贡的人要换一张"
                    "（实在没有对方有的点数，就只能收下）。",
                    " The payer may refuse a card of a rank they do not hold, and then another "
                    "card must be chosen (unless no card of a rank the payer holds is left).",
                )
            out.append(back)
        else:
            out.append(t("贡牌都不还。", "No tribute is returned."))
    if not f.luo_paid:
        pass  # 点贡, 烧贡 and the 串 tribute always go to an opponent
    elif r.trib_same_team == "skip":
        out.append(
            t(
                "给的人和收的人是同一队的，就不用给。",
                "Tribute between teammates is not paid.",
            )
        )
    else:
        out.append(t("同一队的人之间也要进贡。", "Tribute is paid between teammates too."))
    out.append(
        t(
            "第一局不进贡；有两个以上的人换人后重新开牌的那一局也不进贡。",
            "There is no tribute in the first game, nor in a game re-opened because two or more "
            "players were replaced.",
        )
    )
    kept = []
    if f.dian_paid:
        kept.append("点贡")
    if f.shao_paid:
        kept.append("烧贡")
    kept_txt = join(kept, zh)
    if r.trib_chuan == "none_reopen":
        skipped = [
            k
            for k in ("落贡", "烧贡")
            if (k == "落贡" and f.luo_paid) or (k == "烧贡" and f.shao_paid)
        ]
        if skipped:
            still = [k for k in kept if k not in skipped]
            line = t(
                f"串三户之后的那一局，不交{join(skipped, zh)}",
                f"After a 串三户, no {join(skipped, zh)} is paid",
            )
            if still:
                line += t(f"，{join(still, zh)}照交", f"; {join(still, zh)} still is")
            out.append(line + t("。", "."))
    else:
        line = t(
            "串三户之后的那一局，被串的三个人每人给自己的对头一张，代替落贡，不还",
            "After a 串三户, each of the three 串'd players pays their own 对头 one card instead "
            "of 落贡, never returned",
        )
        if kept:
            line += t(
                f"；{kept_txt}照交", f"; {kept_txt} {'are' if len(kept) > 1 else 'is'} still paid"
            )
        out.append(line + t("。", "."))
    if r.trib_chuan_agree:
        out.append(
            t(
                "串三户的一局打完，如果六个人都同意，下一局什么贡都不交。",
                "At the end of a 串三户 game, if all six players agree, no tribute at all is "
                "paid in the next game.",
            )
        )
    return out


def information(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    vis = {
        "le10": t(
            "**报牌**：别人剩 10 张或更少时显示张数，多于 10 张只显示“10 张以上”",
            "**报牌** (telling the count): a player's card count is shown once it is 10 or "
            "fewer; above that, only “more than 10”",
        ),
        "always": t("随时看得到每人还剩几张牌", "every player's card count is always shown"),
        "hidden": t(
            "看不到别人还剩几张牌，只知道还在打",
            "other players' card counts are hidden; you only see who is still playing",
        ),
    }[r.info_count_visibility]
    out.append(
        t(
            (f"{vis}。" if r.info_count_visibility == "le10" else f"剩几张：{vis}。")
            + "创建房间时可以另选。",
            (f"{vis}." if r.info_count_visibility == "le10" else f"Card counts: {vis}.")
            + " The room's creator may choose otherwise.",
        )
    )
    if r.info_show_closed_rounds:
        out.append(
            t(
                "打完的轮次，出过的牌可以在记录里查看。",
                "Cards of finished rounds stay visible in the log.",
            )
        )
    else:
        out.append(
            t(
                "扣下的牌（打完的轮次）不能再翻看，只看得到正在打的这一轮。",
                "Cards of finished rounds cannot be looked at again (as in contests); only the "
                "current round is shown.",
            )
        )
    if r.info_tiao:
        out.append(
            t(
                "**挑牌**：轮到你首发时，如果你觉得剩下的牌能一口气出完，可以挑牌："
                "亮出手牌，由你的队友（还在打的第一个，都走了就你自己）定出牌顺序，"
                "系统按顺序替你出，管不了的人自动过。一旦有一手被管住，挑牌就结束，"
                "剩下的牌收回手里，照常打。",
                "**挑牌** (claiming the rest): when you lead and think you can play out all "
                "your cards, you may claim: your hand is shown, your teammate (the first one "
                "still playing, or you when none is) fixes the order of the plays, and the "
                "table plays them for you, passing for players that cannot beat them. The "
                "first play that is beaten ends the claim, and the rest goes back to your hand.",
            )
        )
    return out


def scoring(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    system = r.score_system
    pts = PLACE_POINTS[system]
    places = PLACES_ZH if zh else PLACES_EN
    table = "\n".join(
        [
            "| " + t("名次", "place") + " | " + " | ".join(places) + " |",
            "|---" * (len(places) + 1) + "|",
            "| " + t("分", "points") + " | " + " | ".join(points(p) for p in pts) + " |",
        ]
    )
    out = [
        t(
            "每局按名次得分，每队三个人的分加起来就是这一队的分：",
            "Each place scores points; a team's score is the sum of its three players':",
        ),
        table,
    ]
    if f.rev:
        out.append(
            t(
                "革命的人按他的名次（四科或三科）算分。",
                "A revolutionary scores their place (四科 or 三科).",
            )
        )
    if system == "outline":
        out.append(
            t(
                "**只记正分**：分数为正的一队记分，另一队记 0。串三户时，赢的一队记 12 分"
                "（6 分的两倍），对方记 0。各局的分累加。",
                "**Only a positive score is recorded**: the team with a positive sum records "
                "it, the other records 0. A 串三户 records 12 (twice 6) for the winners and 0 "
                "for the others. Scores add up over the games.",
            )
        )
    elif system == "comp2":
        out.append(
            t(
                "另有奖分，每次加 1 分：每个被闷的人，让对方加 1 分；每个不开点的人，"
                "让对方加 1 分；每次烧成对手的牌，烧牌的一方加 1 分。",
                "Bonuses, +1 each: every 闷 player gives the other team +1; every 不开点 "
                "player gives the other team +1; every successful burn of an opponent gives "
                "the burner's team +1.",
            )
        )
        out.append(
            t(
                "串三户时：赢的一方名次分翻倍，再加上不开点的奖分，闷和烧的奖分都不算；"
                "输的一方记名次分，加上自己得的不开点奖分。连着串三户也不加倍累计。"
                "两队总分比大小，高的赢这一局。",
                "A 串三户: the winners' place points are doubled, plus their 不开点 bonuses; "
                "闷 and burn bonuses are void; the losers keep their place points plus their "
                "own 不开点 bonuses. Repeated 串三户 never escalate. The higher team total wins "
                "the game.",
            )
        )
    elif system == "match7":
        out.append(
            t(
                "没有奖分。一场比赛打三局，三局总分高的一队赢；如果打平，总分清零，"
                "再加打一局，直到分出胜负。",
                "There are no bonuses. A match is three games, and the higher total after "
                "three games wins; on a tie the totals go back to 0 and one more game is "
                "played, again until one team leads.",
            )
        )
    else:  # audit6
        out.append(
            t(
                "另有奖分，每次加 1 分：每次烧成对手的牌，烧牌的一方加 1 分；"
                "每个不开点的人，给他对头的一方加 1 分；每个被闷的人，让对方加 1 分。",
                "Bonuses, +1 each: every successful burn of an opponent gives the burner's "
                "team +1; every 不开点 player gives their 对头's team +1; every 闷 player gives "
                "the other team +1.",
            )
        )
        out.append(
            t(
                "串三户时，赢的一方记 30 分，输的一方记 3 分，烧和闷的奖分不算，"
                "不开点的奖分照加。两队总分比大小，高的赢这一局。",
                "A 串三户 scores 30 for the winners and 3 for the losers; burn and 闷 bonuses "
                "are void, 不开点 bonuses still count. The higher team total wins the game.",
            )
        )
    if system != "match7":
        out.append(
            t(
                "一场打几局，在创建房间时定；不定局数就一直打下去，看累计的总分。",
                "The room's creator sets how many games a match has; without a number the "
                "match goes on and the running totals tell who leads.",
            )
        )
    else:
        out.append(
            t(
                "创建房间时也可以定别的局数，总分打平时同样加赛。",
                "The room's creator may set another number of games; a tie is played off the "
                "same way.",
            )
        )
    return out


def here(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    n = r.sw_autoplay_after
    out = [
        t(
            "出牌的时限在创建房间时设定。超时了，系统替你做最稳妥的选择：能过就过，"
            "首发时出最小的一手。"
            f"连着超时{num(n, zh)}次，就进入**托管**，由电脑替你打，你一操作就取消。",
            "The room's creator sets the time to act. When it runs out, the table makes the "
            "safest choice for you: a pass where you may pass, your lowest play where you must "
            f"lead. After {num(n, zh)} timeouts in a row you are put on **托管** (autoplay): a "
            "bot plays for you until you act again.",
        ),
    ]
    if r.sw_illegal == "reject":
        out.append(
            t(
                "不合规矩的牌出不去，系统会告诉你为什么。",
                "A play the rules do not allow is refused, and the table tells you why.",
            )
        )
    else:
        out.append(
            t(
                "出了不合规矩的牌，这一下就作废，算你过了（错牌不出）。",
                "A play the rules do not allow is void and costs you the turn (错牌不出).",
            )
        )
    return out

"""The rules document's sections on going out: burning (R8), places (R9) and the end of a
game (R9.9–R9.12), written from the rule set's facts."""

from __future__ import annotations

from gouji.rulesdoc.facts import (
    Facts,
    Pick,
    join,
)


def burning(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not r.burn_enabled:
        return []
    out = [
        t(
            "有人出了够级牌，在他的对头回应之前，别人（队友也可以）如果有把握一口气走完，"
            "可以**烧牌**：先用一手牌管住这手够级牌，然后接着自己首发，"
            "除了最后一手，每一手都要挂王。"
            + ("最后一手照样是全部的 3。" if r.bie3_enabled else ""),
            "When a 够级 play is made, before the 对头 of its player answers, another player (a "
            "teammate too) who can run out may **burn** it (烧牌): beat it with one play, then "
            "lead out the rest of the hand, every lead but the last carrying a joker."
            + (" The last play is still all of the burner's 3s." if r.bie3_enabled else ""),
        ),
        t(
            "能烧的条件：这一轮还没过牌、没让牌；自己的对头还在打；管完之后剩下的牌"
            "能这样出完。系统只问真正烧得了的人。"
            + ("另外，只有**开了点**的人才能烧。" if r.burn_requires_opened else ""),
            "Who may burn: a player that has not passed or yielded in this round, whose own "
            "对头 is still playing, and whose cards left after the beating play can be played "
            "out that way. The table offers the burn only to players who really can."
            + (
                " Only a player that has **opened** (开点) may burn."
                if r.burn_requires_opened
                else ""
            ),
        ),
    ]
    if r.burn_priority == "team_first":
        out.append(
            t(
                "几个人都能烧时，先问出牌人的队友，再问对手，各自按逆时针顺序；第一个答应的人烧。",
                "When several players can burn, the player's teammates are asked first, then "
                "their opponents, each in counter-clockwise order; the first to accept burns.",
            )
        )
    else:
        out.append(
            t(
                "几个人都能烧时，从出牌人起按座位顺序（逆时针）问，不分敌我；第一个答应的人烧。",
                "When several players can burn, they are asked in seat order (counter-"
                "clockwise from the player), teammates and opponents alike; the first to "
                "accept burns.",
            )
        )
    broken = t(
        "烧牌的人出的牌也是够级牌，他的对头可以管，别人也可以再烧（**反烧**）。"
        "把牌走完就是**烧成**；还没走完就有一手被人管住，烧牌就**破**了，",
        "The burner's plays are 够级 too: its 对头 may answer them and others may burn them "
        "in turn (**反烧**). Running out is a successful burn (**烧成**); if one of its plays "
        "is beaten before that, the burn is **broken** (破), ",
    )
    if r.burn_broken_penalty == "none":
        broken += t("他接着正常打。", "and the burner plays on as usual.")
    else:
        broken += t(
            "他马上停牌，得当时最差的名次。",
            "and the burner stops at once and takes the worst free place.",
        )
    out.append(broken)
    gains: list[str] = []
    if f.shao_paid:
        gains.append(
            t("下一局被烧的对手给他一张**烧贡**", "the victim pays the burner a **烧贡** next game")
        )
    if f.bonus:
        gains.append(t("他的一方加 1 分", "the burner's team scores +1"))
    if gains:
        out.append(
            t(
                "烧成对手的牌：" + "，".join(gains) + "。烧自己队友不得什么。",
                "A successful burn of an opponent's play: "
                + join(gains, zh)
                + ". Burning a teammate earns nothing.",
            )
        )
    return out


def places(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out = [
        t(
            "先出完牌的人得**头科**，然后是**二科**、**三科**、**四科**、**二落**，"
            "最后是**大落**（落读 là）。争名次叫**争科**。每人的最后一手叫**底牌**，"
            "和别的牌一样可以被管。",
            "The first player out takes **头科** (1st), then **二科**, **三科**, **四科**, "
            "**二落** and last **大落** (落 is read là). Each player's last play is their "
            "**底牌**; it can be beaten like any play.",
        ),
        t(
            "**够死级**：你的对头刚走成头科或二科的那一轮，你有一次够死级：这一轮你出的"
            "够级牌，只有烧牌的人能管。",
            "**够死级**: in the round in which your 对头 went out as 头科 or 二科, you have one "
            "够死级 chance: a 够级 play of yours in that round can be answered only by a "
            "burner.",
        ),
        t(
            "**无头**：你的对头不在了（走了"
            + ("、被闷了" if r.bie3_enabled else "")
            + "），你就**无头**了：你出的牌谁都可以按顺序管；"
            "但你在轮到时也可以管任何牌，包括别人的够级牌（只要这一轮还没过牌）。"
            "无头的人不能烧牌。",
            "**无头** (headless): once your 对头 is gone (out"
            + (" or 闷" if r.bie3_enabled else "")
            + "), your plays are open: anyone may beat them in turn. In return you may beat "
            "any play in your turn, other players' 够级 plays included, as long as you have not "
            "passed in the round. A 无头 player cannot burn.",
        ),
    ]
    chaos = t(
        "**四人乱缠**：头科和二科都出来以后，从下一轮开始就是四人乱缠：够级牌不再受保护，"
        "过牌只是不管这一手，没有让牌"
        + ("，不能烧牌" if r.burn_enabled else "")
        + "；仍按逆时针轮流，大家都不管时，出最后一手的人赢这一轮"
        + ("（死牌照样等对头扣）" if r.round_auto_kou else "（死牌照样等对头明扣）")
        + "。",
        "**四人乱缠** (four-player free-for-all): from the round after both 头科 and 二科 are "
        "out, 够级 plays have no protection, a pass only declines the current play, there is "
        "no 让牌"
        + (" and no burning" if r.burn_enabled else "")
        + "; turns still go counter-clockwise, and the round ends when everybody else has "
        "declined the last play (a dead play still waits for the 对头's 扣).",
    )
    out.append(chaos)
    return out


def end(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.end_remaining_order == "fewest_cards":
        order = t(
            "剩下的人按手里牌的多少排名次，牌少的在前（一样多时按座位顺序）",
            "the players left are placed by the cards they hold, fewest first (on a tie, "
            "in seat order)",
        )
    else:
        order = t("剩下的人由他们的队伍商定名次", "the team left decides the order of its players")
    out.append(
        t(
            f"只剩一个人，或者剩下的人都是一队的，这一局就结束：{order}。",
            f"A game ends when one player is left, or when everybody left is on one team: {order}.",
        )
    )
    out.append(
        t(
            "一队拿下头科、二科和三科，叫**串三户**（也叫圈三户），对方被串了。",
            "When one team takes 头科, 二科 and 三科, it is a **串三户** (the other team was "
            "串'd).",
        )
    )
    if r.end_swap_prompt:
        effects: list[str] = []
        if f.luo_paid:
            effects.append(t("谁交落贡", "who pays 落贡"))
        if r.open_later_start == "da_luo":
            effects.append(t("下一局谁先出", "who leads the next game"))
        what = (
            t("，这会改变" + "和".join(effects), "; it changes " + join(effects, zh))
            if effects
            else ""
        )
        out.append(
            t(
                f"二落和大落是队友时，局后两人都同意，就可以互换名次（分数不变{what}）。",
                "When 二落 and 大落 are teammates, they may swap places after the game if both "
                f"agree (the score does not change{what}).",
            )
        )
    return out

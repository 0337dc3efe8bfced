"""The rules document's sections on the rules that only some rule sets play: 憋3 (R12), 打点
(R11), Laiwu's own rules (R13), 会3/会4 (R14) and revolution (R15)."""

from __future__ import annotations

from gouji.rulesdoc.facts import (
    Facts,
    Pick,
    num,
)


def bie3(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not r.bie3_enabled:
        return []
    if r.bie3_buy_order == "duitou_then_their_team":
        sellers = t(
            "先向对头买；对头的 3 不够，向对头的队友买；再不行向自己的队友买",
            "from their 对头; if the 对头 cannot sell, from the 对头's teammates; failing that, "
            "from their own teammates",
        )
    else:
        sellers = t(
            "先向对头买，再向自己的队友买，最后向其他对手买",
            "from their 对头, then from their own teammates, then from the other opponents",
        )
    after = "抓完牌、进完贡后，" if f.trib else "抓完牌后，"
    after_en = "after the deal and the tribute" if f.trib else "after the deal"
    out = [
        t(
            "**憋3**：3 只能作为你的最后一手（底牌），一次把所有的 3 全部出完，"
            "不能带别的牌，也不能分开出。3 管不了任何牌，所以手里只剩 3 时，"
            "只有自己赢了一轮或者**接风**时才能出。",
            "**憋3** (holding back the 3s): your 3s can only be your last play (底牌), all of "
            "them at once, alone, never split. 3s beat nothing, so a hand of only 3s can go "
            "out only when you lead: after winning a round, or by **接风**.",
        ),
        t(
            f"**买3**：{after}手里没有 3 的人必须买一张 3：{sellers}"
            "（卖的人自己至少留一张 3）。买的人付给卖的人一张自己最小的钱："
            "有 2 给 2，没有 2 给小王，再没有给大王；都没有就白拿。",
            f"**买3** (buying a 3): {after_en}, a player without a 3 must buy one, {sellers} "
            "(a seller keeps at least one 3). The buyer pays the seller their lowest of 2, small "
            "joker, big joker; with none of them, the 3 is free.",
        ),
    ]
    if r.laiwu_buy4:
        out.append(
            t(
                "**买4**：没有 4 的人同样要买一张 4，卖的顺序和付的牌都一样（先买 3，再买 4）。",
                "**买4**: a player without a 4 buys a 4 the same way (3s are bought first, "
                "then 4s).",
            )
        )
    if f.threes == 6 and (f.fours == 6 or not r.laiwu_buy4):
        one = t("一张 3、一张 4", "one 3 and one 4") if r.laiwu_buy4 else t("一张 3", "one 3")
        out.append(
            t(
                f"牌里只有 6 张 3{'、6 张 4' if r.laiwu_buy4 else ''}，所以买完以后每人正好{one}。",
                f"With only six 3s{' and six 4s' if r.laiwu_buy4 else ''} in the deck, every "
                f"player holds exactly {one} after buying.",
            )
        )
    if r.bie3_men == "strict":
        out.append(
            t(
                "**闷**：一轮结束（或接风）时，如果首发的不是你，而你手里只剩 3，你就被闷了："
                "不能再出，直接得当时最差的名次。被闷的人的对头成了无头（没有够死级）。",
                "**闷** (being stifled): when a round ends (or 接风 is awarded) and the new "
                "leader is not you while you hold only 3s, you are 闷: you stop playing and take "
                "the worst free place. The 对头 of a 闷 player becomes 无头 (with no 够死级).",
            )
        )
    else:
        out.append(
            t(
                "**闷**：手里只剩 3 的人只能等接风来解救，没等到就排在最后几名。",
                "**闷**: a player left with only 3s waits; only 接风 can rescue them, "
                "otherwise they end in the last places.",
            )
        )
    return out


def dian(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.dian:
        return []
    alias = t("（莱芜叫**开壶**）", "; Laiwu says **开壶**") if f.kaihu else ""
    qualifier = {
        "outline": t(
            "任何够级牌都算，只是带大王的不算", "any 够级 play, except one with a big joker"
        ),
        "audit": t(
            "不能挂王、不能贴 2；只出 2 的要两张以上（单张 2 和王都不算）",
            "no joker and no attached 2; 2s alone only when two or more (a single 2 and jokers "
            "never count)",
        ),
        "pure": t(
            "只有**纯够级**：10、J、Q、K、A 够了张数，不挂王也不贴 2",
            "only **pure 够级** plays: 10s to As in 够级 numbers, with no joker and no 2",
        ),
        "no_attach": t(
            "不能挂王、不能贴 2：纯够级、只出 2 的、只出小王的都算",
            "nothing attached and no big joker: a pure 够级 play, 2s alone or small jokers alone",
        ),
    }[r.dian_qualifier]
    deadline = {
        "outline": t(
            "头科的对头要在头科走之前开点，其他人要在二科走之前开点（头科、二科自己的最后一手也算）",
            "the 对头 of the 头科 must open before the 头科 goes out, everybody else before the "
            "二科 goes out (their own last plays count)",
        ),
        "erke": t(
            "所有人都要在二科走之前开点（二科自己的最后一手也算）",
            "everybody must open before the 二科 goes out (the 二科's own last play counts)",
        ),
        "touke": t(
            "所有人都要在第一个人走（头科出来）之前开点",
            "everybody must open before the first player goes out (the 头科)",
        ),
    }[r.dian_deadline]
    out = [
        t(
            f"**打点**：每个人都要争取**开点**{alias}：在期限之前，出一手够级牌，"
            "而且这手牌赢下这一轮（叫**活**）。管别人的牌也算，无头的人出的也算。",
            f"**打点**: every player must try to **开点** (open the point{alias}): before their "
            "deadline, make a 够级 play that wins its round (it is **活**, alive). Answers "
            "count as well as leads, and so do plays of a 无头 player.",
        ),
        t(f"哪些牌算：{qualifier}。", f"Which plays count: {qualifier}."),
        t(f"期限：{deadline}。", f"Deadline: {deadline}."),
        t(
            "到期还没开点就是**不开点**。只是有一种例外：牌局提前结束时，"
            "还拿着牌、期限还没到的人算开点。",
            "Whoever has not opened by then is **不开点**. One exception: when the game ends "
            "early, a player still holding cards whose deadline is still open counts as opened.",
        ),
    ]
    consequences: list[str] = []
    if f.dian_paid:
        mutual = (
            t("对头两人都不开点时，互相给", "if both 对头s failed, each pays the other")
            if r.dian_mutual == "exchange"
            else t("对头两人都不开点时，两抵不给", "if both 对头s failed, the two cancel out")
        )
        consequences.append(
            t(
                f"下一局，不开点的人给自己的对头一张**点贡**（{mutual}）",
                f"in the next game a 不开点 player pays their 对头 one card, **点贡** ({mutual})",
            )
        )
    if f.bonus:
        consequences.append(
            t("每个不开点的人让对方加 1 分", "each 不开点 player scores +1 for the other team")
        )
    if r.burn_requires_opened:
        consequences.append(t("没开点的人不能烧牌", "a player that has not opened cannot burn"))
    if r.laiwu_four_rule:
        consequences.append(
            t(
                "没开壶的人不能出 4（见开壶后发4）",
                "a player that has not 开壶'd cannot play 4s (below)",
            )
        )
    if consequences:
        out.append(
            t("不开点的后果：", "What failing costs: ")
            + ("；" if zh else "; ").join(consequences)
            + t("。", ".")
        )
    if r.dian_declare != "off":
        ming, yu = (2, 4)
        over_ming, over_yu = (4, 8) if r.dian_declare == "ming_yu_double" else (2, 4)
        out.append(
            t(
                f"**明点**和**预点**：你可以宣布你的对头开不了点——开牌前宣布叫预点，"
                f"出第一手牌前宣布叫明点，每局一次。说中了，对头给你 {yu} 张（预点）"
                f"或 {ming} 张（明点）点贡，代替平常的一张；对头开了点就是**翻车**，"
                f"你给他 {over_yu} 张或 {over_ming} 张。",
                f"**明点** and **预点**: you may declare that your 对头 will not open — before "
                f"the opening (预点) or before the first lead (明点), once a game. If you are "
                f"right, the 对头 pays you {yu} (预点) or {ming} (明点) cards of 点贡 instead of "
                f"one; if the 对头 opens, the cart overturns (**翻车**) and you pay them "
                f"{over_yu} or {over_ming}.",
            )
        )
    return out


def laiwu(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.laiwu_four_rule:
        first = (
            t("全部的 4", "all of your 4s")
            if r.laiwu_four_lead_all
            else t("4（可以挂王）", "4s (jokers may be attached)")
        )
        stuck = t("除了 3 和 4 ", "but 3s and 4s") if r.bie3_enabled else t("除了 4 ", "but 4s")
        out.append(
            t(
                "**开壶后发4**：还没人走成头科时，没开壶的人不能出 4（烧牌时也一样）。"
                f"你开壶的那手牌赢下一轮，你接着首发，手里有 4 的话，这一手必须出 {first}。"
                "一旦有了头科，谁也不能再开壶，大家都可以出 4。",
                "**开壶后发4** (4s after 开壶): while nobody has gone out as 头科, a player that "
                "has not 开壶'd may not play any 4, not even to burn. The play that opens wins "
                f"you the round, and your next lead must be {first} if you hold any. Once "
                "there is a 头科 nobody can 开壶 any more, and everybody may play 4s.",
            )
        )
        out.append(
            t(
                f"如果轮到你首发，手里{stuck}没有别的牌，这一局这条规矩对你就不算了，"
                "你可以出 4，但也不能再开壶。所以手里有 4 又没开壶的人，一般当不了头科。",
                f"If you must lead and hold nothing {stuck}, the rule lifts for you for the rest "
                "of the game: you may lead your 4s, but you can no longer 开壶. So a player "
                "holding 4s that has not 开壶'd can hardly become 头科.",
            )
        )
    if r.laiwu_hui5:
        out.append(
            t(
                "**会5**：串三户后的下一局，出第一手前，被串的一方可以要求会5："
                "所有人手里的 5 都拿出来不用，对方不能拒绝。",
                "**会5**: in the game after a 串三户, before the first lead, the team that was "
                "串'd may order every 5 out of every hand; the other team cannot refuse.",
            )
        )
    return out


def hui(f: Facts, zh: bool, t: Pick) -> list[str]:
    if not f.hui:
        return []
    if "4" in f.hui:
        what = t(
            "**会3**（所有人手里的 3 都拿出来不用）、**会4**（4 也一样），或者两样都会",
            "**会3** (every 3 leaves every hand and the game), **会4** (the same with 4s), or both",
        )
    else:
        what = t(
            "**会3**：所有人手里的 3 都拿出来不用",
            "**会3**: every 3 leaves every hand and the game",
        )
    return [
        t(
            f"出第一手牌之前，首发的人可以决定{what}。",
            f"Before the first lead, the starter may order {what}.",
        )
    ]


def revolution(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.rev:
        return []
    if r.rev_mode == "outline":
        who = t("手里没有 2、也没有王的人", "a player dealt no 2 and no joker")
    else:
        who = t(
            "手里没有 3、没有 2、也没有王的人（憋3 时只有这样才能革命）",
            "a player dealt no 3, no 2 and no joker (under 憋3 only such a hand may revolt)",
        )
    out = [
        t(
            f"**革命**：抓完牌后，{who}可以革命（也可以不革）。革命的人把牌放到一边，"
            "这一局不再出牌，得**四科**，他的两个队友接着打；如果两个队友拿了头科和二科，"
            "他就升为三科，对方被串三户。两个以上的人革命，这一局作废，重新发牌。",
            f"**革命** (revolution): after the deal, {who} may revolt (or not). Their cards "
            "are set aside, they play no more in this game and hold **四科**; their two "
            "teammates play on. If these take 头科 and 二科, the revolutionary becomes 三科 and "
            "the other team is 串三户. Two or more revolutions void the game: the cards are "
            "dealt again.",
        ),
    ]
    if r.rev_gousiji > 0:
        out.append(
            t(
                f"革命的人的对头有{num(r.rev_gousiji, zh)}次**够死级**的机会"
                "（每次出够级牌用掉一次，只有烧牌的人能管）；他也可以马上放弃，放弃后就是无头。",
                f"The revolutionary's 对头 gets {num(r.rev_gousiji, zh)} **够死级** chances "
                "(each 够级 play uses one; only a burner may answer it); the 对头 may renounce "
                "them at once and is then 无头.",
            )
        )
    if f.dian:
        if r.bie3_enabled:
            out.append(
                t(
                    "打点时，革命的人算开了点，他的对头照常要开点。",
                    "With 打点 the revolutionary counts as opened; their 对头 must open as usual.",
                )
            )
        else:
            out.append(
                t(
                    "打点时，革命的人算不开点；他的对头要打成三次够死级（每次都赢下一轮）才算开点。",
                    "With 打点 the revolutionary counts as 不开点; their 对头 opens only by "
                    "winning three rounds with 够死级 plays.",
                )
            )
    if f.trib:
        out.append(
            t(
                "革命的人这一局不进贡也不收贡。",
                "The revolutionary neither pays nor receives tribute that game.",
            )
        )
    return out

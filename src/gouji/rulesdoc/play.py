"""The rules document's sections on the game itself: at a glance, the order of a game, seats,
cards, the opening, what may be played, beating a play, 够级 plays and a round (R0–R7, R18).

Each section is a function of the rule set's :class:`~gouji.rulesdoc.facts.Facts`, the language
and its word picker; it returns Markdown blocks (none where the rule set lacks the section).
"""

from __future__ import annotations

from gouji.engine.referee.scoring import PLACE_POINTS
from gouji.rulesdoc.facts import (
    Facts,
    Pick,
    join,
    num,
    olist,
    points,
    rank,
)


def glance(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    items: list[str] = []
    if r.deck_remove:
        items.append(
            t(
                f"牌：{f.total} 张，每人 {f.per} 或 {f.per + 1} 张",
                f"Cards: {f.total}, {f.per} or {f.per + 1} each",
            )
        )
    else:
        items.append(t("牌：四副牌 216 张，每人 36 张", "Cards: four packs, 216 cards, 36 each"))
    start = {
        "first_taker": t("第一局先抓牌的人先出", "in the first game the first taker leads"),
        "liang3": t("第一局亮3定先出", "in the first game 亮3 decides who leads"),
        "liang4": t("第一局 4 最多的人先出，先出 4", "in the first game most 4s leads, with 4s"),
    }[r.open_first_start]
    later = {
        "rotate": t("以后开牌人轮换", "later the opener rotates"),
        "da_luo": t("以后上局大落先出", "later the last game's 大落 leads"),
    }[r.open_later_start]
    items.append(t(f"先出：{start}，{later}", f"Leading first: {start}; {later}"))
    extras: list[str] = []
    if r.bie3_enabled:
        extras.append(t("憋3（买3、闷）", "憋3 (买3, 闷)"))
    if r.laiwu_four_rule:
        extras.append(t("开壶后发4", "4s only after 开壶"))
    if r.laiwu_buy4:
        extras.append("买4")
    if not r.play_twos_attach:
        extras.append(t("2 不能贴", "2s do not attach"))
    if f.dian:
        extras.append(t("打点（开点）", "打点 (开点)"))
    if r.burn_enabled:
        extras.append(t("烧牌", "burning (烧牌)"))
    if f.trib:
        extras.append(
            t("进贡、还贡", "tribute (进贡, 还贡)")
            if r.trib_return
            else t("进贡", "tribute (进贡)")
        )
    if f.rev:
        extras.append(t("革命", "revolution (革命)"))
    if f.hui:
        extras.extend(f"会{x}" for x in f.hui)
    if r.laiwu_hui5:
        extras.append("会5")
    if r.info_tiao:
        extras.append("挑牌")
    if r.info_count_visibility == "le10":
        extras.append(t("报牌", "报牌 (counts shown from 10 cards down)"))
    if not r.round_auto_kou:
        extras.append(t("明扣", "扣 said aloud (明扣)"))
    items.append(t("本规则有：", "This rule set has: ") + join(extras, zh))
    pts = PLACE_POINTS[r.score_system]
    sep = "、" if zh else ", "
    score = sep.join(points(p) for p in pts)
    items.append(t(f"计分：名次分 {score}", f"Scoring: places score {score}"))
    return ["\n".join(f"- {x}" for x in items)]


def flow(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    steps: list[str] = []
    if r.dian_declare != "off":
        steps.append(t("开牌前可以**预点**", "before the opening: **预点** may be declared"))
    steps.append(t("**开牌**：定谁先抓牌、谁先出牌", "**the opening**: who takes first, who leads"))
    deal = t("抓牌：一人一张，逆时针轮流", "the deal: one card at a time, counter-clockwise")
    if r.open_first_start == "liang3":
        deal += t("；第一局**亮3**", "; in the first game **亮3**")
    elif r.open_first_start == "liang4":
        deal += t("；第一局**亮4**", "; in the first game **亮4**")
    steps.append(deal)
    if f.rev:
        steps.append(t("**革命**", "**革命** (revolution)"))
    if f.trib:
        steps.append(
            t("从第二局起：**进贡**", "from the second game on: **进贡** (tribute)")
            + (t("，然后**还贡**", ", then **还贡**") if r.trib_return else "")
        )
    if r.bie3_enabled:
        if r.laiwu_buy4:
            steps.append(
                t(
                    "**买3**、**买4**：没有 3 或 4 的人各买一张",
                    "**买3** and **买4**: whoever lacks a 3 or a 4 buys one",
                )
            )
        else:
            steps.append(t("**买3**：没有 3 的人买一张", "**买3**: whoever lacks a 3 buys one"))
    if f.hui:
        steps.append(
            t("首发的人可以**会3**", "the starter may order **会3**")
            + (t("或**会4**", " or **会4**") if "4" in f.hui else "")
        )
    if r.laiwu_hui5:
        steps.append(t("串三户后的一局：被串的一方可以**会5**", "after a 串三户: **会5**"))
    if r.dian_declare != "off":
        steps.append(t("可以**明点**", "**明点** may be declared"))
    steps.append(t("一轮一轮地出牌，直到一局结束", "round after round of play until the game ends"))
    steps.append(t("定名次、算分", "places and scores"))
    return [t("一局按这个顺序进行：", "A game runs in this order:"), olist(steps)]


def seats(f: Facts, zh: bool, t: Pick) -> list[str]:
    return [
        t(
            "六个人分两队，每队三人（叫**联邦**），隔一个座位坐一个：你左右两边都是对手，"
            "坐在你正对面的对手是你的**对头**。出牌按逆时针方向一人一次，谁也不能抢先；"
            "在你后面出牌的是你的**下家**，在你前面的是**上家**。",
            "Six players play in two teams of three (a team is a **联邦**), seated "
            "alternately: both your neighbours are opponents, and the opponent sitting opposite "
            "you is your **对头** (duìtóu). Play goes counter-clockwise, one player at a time, "
            "and nobody may play out of turn; the player after you is your **下家**, the one "
            "before you your **上家**.",
        ),
        t(
            "目标是全队早走：先把手里的牌出完的人名次在前。",
            "The aim is for your team to go out early: whoever plays out their hand first takes "
            "the best place.",
        ),
    ]


def cards(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.deck_remove:
        gone = join(
            [
                t(f"{n} 张 {rank(k, zh)}", f"{n} of the {rank(k, zh)}s")
                for k, n in r.deck_remove.items()
            ],
            zh,
        )
        extra = ""
        if f.extra:
            extra = t(
                f"每人 {f.per} 张，先抓牌的人和他后面的 {f.extra - 1} 个人各多一张"
                f"（{f.per + 1} 张）。",
                f"Each player gets {f.per} cards; the first taker and the next "
                f"{f.extra - 1} players get one more ({f.per + 1}).",
            )
        else:
            extra = t(f"每人 {f.per} 张。", f"Each player gets {f.per} cards.")
        out.append(
            t(
                f"用四副牌（每副 54 张，带大小王），先拿掉 {gone}，剩 {f.total} 张。{extra}",
                f"Four packs of 54 cards (jokers included), without {gone}: {f.total} cards. "
                + extra,
            )
        )
    else:
        out.append(
            t(
                "用四副牌，每副 54 张（带大小王），共 216 张，每人 36 张。",
                "Four packs of 54 cards (jokers included): 216 cards, 36 for each player.",
            )
        )
    out.append(
        t(
            "牌的大小，从小到大：3、4、5、6、7、8、9、10、J、Q、K、A、2、小王、大王。"
            "2 也叫**钱**。",
            "Ranks, low to high: 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2, small joker (小王), "
            "big joker (大王). A 2 is also called **钱** (money).",
        )
    )
    if r.open_first_start == "liang3":
        out.append(
            t(
                "花色不分大小，只在亮3时有用。",
                "Suits never rank; they matter only for 亮3.",
            )
        )
    else:
        out.append(t("花色不分大小，出牌时不看花色。", "Suits never matter."))
    return out


def opening(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    draw = t(
        "第一局先**开牌**：开牌的人（这里随机选）从洗好的牌里抽一张，按点数"
        "（A 算 1，J 算 11，Q 算 12，K 算 13）从自己数起，逆时针数到谁，谁**先抓牌**。",
        "The first game starts with **开牌** (the opening): the opener (chosen at random "
        "here) draws a card from the shuffled packs and counts its value (A = 1, J = 11, "
        "Q = 12, K = 13) counter-clockwise, starting with themselves; the player reached "
        "**takes first** (先抓牌).",
    )
    if r.open_joker_draw == "next_opens":
        draw += t("抽到王时，由下家重新抽。", " A joker passes the draw to the next player.")
    else:
        draw += t("抽到王时，抽牌的人自己先抓。", " A player who draws a joker takes first.")
    draw += t(
        "然后从先抓的人起，逆时针一人一张抓完。",
        " Then the cards are dealt one at a time, counter-clockwise from the first taker.",
    )
    out.append(draw)
    if r.open_first_start == "first_taker":
        out.append(
            t("第一局由先抓牌的人**首发**（出第一手）。", "The first taker **leads** first.")
        )
    elif r.open_first_start == "liang3":
        out.append(
            t(
                "**亮3**：第一局谁先出，看同一花色的 3。抓牌时，谁先凑齐两张同花色的 3，"
                "谁就先出；后来有人同一花色的 3 比他亮的更多，就由这个人**顶班**。"
                "也就是说：同一花色的 3 最多的人先出，一样多时看谁先凑齐；"
                "没有人有两张同花色的 3 时，先抓牌的人先出。亮牌由系统自动完成，"
                "先出的人不一定要出 3。",
                "**亮3** (showing the 3s) decides who leads the first game: during the deal the "
                "first player to hold two 3s of one suit becomes the starter, and a player who "
                "later holds more 3s of one suit than the starter showed takes over (**顶班**). "
                "In the end, whoever holds the most 3s of one suit leads (on a tie, whoever "
                "had them first); if nobody holds two 3s of one suit, the first taker leads. "
                "The table shows the 3s "
                "for you, and the starter need not lead 3s.",
            )
        )
    else:
        out.append(
            t(
                "**亮4**：第一局手里 4 最多的人先出（不分花色；一样多时看谁先凑齐），"
                "而且第一手必须出 4（可以贴 2、挂王）。",
                "**亮4** (showing the 4s): in the first game the player with the most 4s (any "
                "suits; on a tie, whoever had them first) leads, and the first lead must be 4s "
                "(2s and jokers may be attached).",
            )
        )
    if r.open_later_start == "rotate":
        out.append(
            t(
                "以后每局，开牌的人按逆时针轮换一位，照样抽牌定谁先抓，先抓的人首发。",
                "In later games the opener moves one seat counter-clockwise each game and draws "
                "as before; the first taker leads.",
            )
        )
    else:
        later = t(
            "以后每局，由上一局的**大落**（最后一名）先抓牌，也由他首发",
            "In later games the last game's **大落** (last place) takes first and leads",
        )
        if r.open_first_start == "liang4":
            later += t("，不用再出 4", ", with any play")
        elif r.open_first_start == "liang3":
            later += t("，不再亮3", "; there is no 亮3")
        out.append(later + t("。", "."))
    if f.reopen:
        out.append(
            t(
                "出现**串三户**之后，或者有两个以上的人换了人，下一局**重新开牌**，和第一局一样。",
                "After a **串三户**, or when two or more players were replaced, the next game is "
                "**re-opened** (重新开牌) like the first one.",
            )
        )
    return out


def plays(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.play_twos_attach:
        out.append(
            t(
                "每一手牌由**同一点数**的牌组成，张数不限（一张、两张、五张都行），"
                "还可以**贴**上任意张 2（贴钱），**挂**上任意张王（挂花）。"
                "例如：7 7 7；7 7 2；小王 7 7；Q Q Q 2 大王。贴上的 2 当作这一手的点数。",
                "A play is any number of cards of **one rank** (one card, two, five …), to "
                "which you may **attach** any number of 2s (贴钱) and jokers (挂花). For "
                "example: 7 7 7; 7 7 2; small joker 7 7; Q Q Q 2 big joker. Attached 2s count "
                "as the play's rank.",
            )
        )
        out.append(
            t(
                "也可以只出 2（可以挂王），或者只出王。",
                "A play may also be 2s alone (jokers may be attached), or jokers alone.",
            )
        )
    else:
        out.append(
            t(
                "每一手牌由**同一点数**的牌组成，张数不限（一张、两张、五张都行），"
                "还可以**挂**上任意张王（挂彩）。例如：7 7 7；小王 7 7；Q Q Q 大王。",
                "A play is any number of cards of **one rank** (one card, two, five …), to "
                "which you may **attach** any number of jokers (挂彩). For example: 7 7 7; "
                "small joker 7 7; Q Q Q big joker.",
            )
        )
        out.append(
            t(
                "**2 不能贴**在别的牌上：2 只能自己成一手（可以挂王）。也可以只出王。",
                "**2s do not attach** to other cards: 2s make a play of their own (jokers may "
                "be attached). A play may also be jokers alone.",
            )
        )
    out.append(
        t(
            "首发（一轮的第一手）必须出牌，不能过。",
            "The lead (the first play of a round) cannot be passed.",
        )
    )
    rules: list[str] = []
    if r.bie3_enabled:
        rules.append(t("3 要按**憋3**的规矩出", "3s follow **憋3**"))
    if r.laiwu_four_rule:
        rules.append(t("4 要按**开壶后发4**的规矩出", "4s follow **开壶后发4**"))
    if rules:
        out.append(t("另外，" + "，".join(rules) + "（见下文）。", join(rules, zh) + " (below)."))
    return out


def beating(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    higher = "8 8 2" if r.play_twos_attach else "8 8 8"
    return [
        t(
            "管上一手牌（**顺牌**），要**张数相同**、**点数更大**；点数一样不行。"
            + ("贴上的 2 算这一手的点数；" if r.play_twos_attach else "")
            + "只有 2 和王的牌，按 2、小王、大王算。",
            "To beat the standing play, a play needs **the same number of cards** and a "
            "**higher rank**; an equal rank is not enough. "
            + ("Attached 2s count as the play's rank; " if r.play_twos_attach else "")
            + "a play of only 2s and jokers counts as 2, small joker or big joker.",
        ),
        t(
            "带**大王**的牌是**死牌**，谁也管不了。带小王的牌，要带同样多（或更多）"
            "大王的牌才能管。",
            "A play with a **big joker** is **dead** (死牌): nothing beats it. A play with "
            "small jokers can only be beaten by a play with at least as many big jokers.",
        ),
        t(
            f"例如：{higher} 管得了 7 7 7；小王 7 7 管不了 7 7 7（都算 7）；"
            "大王 8 8 8 8 管得了 小王 7 7 7 7，小王 8 8 8 8 就不行。",
            f"For example: {higher} beats 7 7 7; small joker 7 7 does not (both count as "
            "7); big joker 8 8 8 8 beats small joker 7 7 7 7, small joker 8 8 8 8 does not.",
        ),
    ]


def gouji(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    mins = r.play_gouji_min
    parts = [
        t(f"{rank(k, zh)} {num(n, zh)}张以上", f"{n} or more {rank(k, zh)}s")
        for k, n in mins.items()
    ]
    size = (
        t(
            "贴上的 2 也算张数，例如 10 10 10 10 2 够级。",
            " Attached 2s count: 10 10 10 10 2 is 够级.",
        )
        if r.play_twos_attach
        else ""
    )
    out = [
        t(
            f"大牌叫**够级牌**（够级）：{join(parts, zh)}；只出 2 的牌不论几张；"
            "带王的牌不论几张。3 到 9 只有挂了王才够级。" + size,
            f"Big plays are **够级** plays (gòují, “reaching the level”): {join(parts, zh)}; "
            "2s alone, any number; any play with a joker. 3s to 9s are 够级 only with a joker."
            + size,
        ),
        t(
            "有人出了够级牌，只有他的**对头**能管（即使这一轮已经过牌了），另外还有"
            "**无头**的人（见下文）"
            + ("和**烧牌**的人" if r.burn_enabled else "")
            + "。其他人，包括他的队友，都不能管。管够级牌的牌也一定是够级牌，"
            "所以够级总是在两个对头之间你来我往，直到一方不要。",
            "A 够级 play may be answered only by the **对头** of its player (even one that passed "
            "earlier in the round), by a **无头** player (below)"
            + (" and by a **burner** (烧牌)" if r.burn_enabled else "")
            + ". Nobody else, not even the player's teammates. A play that beats a 够级 play "
            "is itself 够级, so the 够级 duel goes back and forth between two 对头s until one "
            "of them gives up.",
        ),
    ]
    return out


def round(f: Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out = [
        t(
            "一轮从首发开始，按逆时针轮流，每人可以管上（出一手更大的），或者**过牌**。",
            "A round begins with a lead; then, counter-clockwise, each player may beat the "
            "standing play or **pass** (过牌).",
        ),
        t(
            "**过牌**：过了以后，这一轮你就不能再出了——只有你的对头出的牌，你还可以管（对头牌）。",
            "**过牌** (passing): once you pass you are out of the round — except that you may "
            "still answer a play made by your own 对头.",
        ),
    ]
    rang = t(
        "**让牌**：对手出的牌不是够级牌时，他的对头可以先不表态，让自己的下两家先管。",
        "**让牌** (yielding): when a play is not 够级, its player's 对头 may yield to the next "
        "two players first.",
    )
    if r.round_rang == "lock_on_beat":
        rang += t(
            "下两家有人管了，你这一轮就算过了（让牌让到底）；",
            " If either of them beats it, you are out of the round (让牌让到底); ",
        )
    else:
        rang += t(
            "下两家有人管了，你以后轮到时仍可以管；",
            " If either of them beats it, you may still answer later plays in your turn; ",
        )
    rang += t(
        "两人都不管，又轮到你，你要么管、要么过，过了这一轮就结束。",
        "if both decline, the turn comes back to you: play or pass, and a pass ends the round.",
    )
    out.append(rang)
    kou = t(
        "**扣牌**：每一手牌都要等出牌人的对头表态，对头不管叫**扣**，对头扣了以后，"
        "没人再管，这一轮才结束。出了死牌（带大王），对头扣了这一轮就结束；",
        "**扣牌**: a round cannot end before the 对头 of the player who made the standing "
        "play has declined it; the 对头's decline is called **扣** (kòu). After a dead play "
        "(with a big joker) the round ends as soon as the 对头 has said 扣; ",
    )
    if r.round_auto_kou:
        kou += t("这一下由系统自动替他扣。", "the table says it for the 对头 automatically.")
    else:
        kou += t(
            "对头要自己按“扣”，这叫**明扣**。",
            "the 对头 must say it, pressing “扣 Kou” (明扣, as contests require).",
        )
    out.append(kou)
    out.append(
        t(
            "没人再管时，出最后那手牌的人赢这一轮，下一轮由他首发。"
            "如果那是他的最后一手（他走了），就由他后面第一个还有牌的人首发，这叫**接风**。",
            "When nobody beats it any more, the player of the last play wins the round and "
            "leads the next. If that was their last play (they went out), the next player "
            "counter-clockwise who still holds cards leads: **接风** (catching the wind).",
        )
    )
    return out

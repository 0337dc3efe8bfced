"""The game's log as structured events: what a front end renders in the player's language.

The engine writes its log as short texts (``(seat, "tribute luo 3>4 2")``, docs/engine.md);
this module is the one place that reads them back into data (``{"type": "tribute", "kind":
"luo", "payer": 3, "receiver": 4, "count": 2}``), so no front end parses engine words. Every
event carries ``i`` (its index in the log; private lines carry the index they come before)
and ``seat`` (None for the table).
"""

from __future__ import annotations

from typing import Any

#: One entry of the game's log read back as data (``Game.events()``; the views' ``events``). Not
#: a competition (``gouji.competition.event.Event``, the server's ``events`` domain).
LogEvent = dict[str, Any]

#: One-word events and actions: the type is the word itself.
_WORDS = {
    "pass",
    "rang",
    "kou",
    "geming",
    "nogeming",
    "renounce",
    "keep",
    "nohui",
    "noyudian",
    "nomingdian",
    "tiao",
    "noburn",
    "accept",
    "first_taker",
    "starter",
    "void_redeal",
    "burn_success",
    "burn_broken",
    "round_won",
    "jiefeng",
    "opened",
    "opened_at_end",
    "game_over",
    "four_unlocked",
    "gousiji",
    "wutou",
    "chaos",
    "yudian",
    "mingdian",
}


def _seat_pair(text: str) -> tuple[int, int]:
    a, b = text.split(">")
    return int(a), int(b)


def parse(seat: int, text: str) -> LogEvent:
    """One log entry as data; an entry this module does not know is ``{"type": "other"}``."""
    who: int | None = seat if seat >= 0 else None
    word, _, rest = text.partition(" ")
    out: LogEvent = {"seat": who, "type": word}
    try:
        if word in _WORDS and not rest:
            return out
        if word in ("play", "burn"):
            out["cards"] = rest
        elif word == "pass" and rest == "auto":
            out["auto"] = True
        elif word == "hui":
            out["ranks"] = rest
        elif word == "order":
            out["plays"] = [p.strip() for p in rest.split("|")]
        elif word == "opening_draw":
            out["card"] = rest
        elif word == "liang3":
            count, suit = rest.split()
            out.update(count=int(count), suit=suit)
        elif word in ("liang4", "removed"):
            out["count"] = int(rest)
        elif word in ("buy3", "buy4"):
            parts = rest.split()  # "from 5" / "from 5 free"
            out.update(type="buy", rank=word[-1], seller=int(parts[1]), free=parts[-1] == "free")
        elif word == "burning":
            victim = int(rest)
            out.update(victim=victim, teammate=victim % 2 == seat % 2)  # 烧联邦
        elif word in ("place", "ended", "men", "broken_burn", "moved", "punished"):
            out["place"] = int(rest)
        elif word == "wutou":  # the 对头 left play otherwise than by going out (R9.11)
            if rest not in ("men", "broken_burn", "punished"):
                raise ValueError(f"wutou {rest}")
            out["how"] = rest
        elif word == "sanction":  # "penalty -2 (第三十条)", "warning", "last_place (…)" (R19.4)
            kind, _, tail = rest.partition(" ")
            if not kind:
                raise ValueError("a sanction names its kind")
            out["kind"] = kind
            if kind == "penalty":
                points, _, tail = tail.partition(" ")
                out["points"] = int(points)
            if tail and not (tail.startswith("(") and tail.endswith(")")):
                raise ValueError("a sanction's article is in parentheses")
            out["article"] = tail[1:-1]
        elif word == "forfeit":
            out["reason"] = rest.strip("()")
        elif word == "tribute":  # "luo 3>4 2" / "luo 3>4 skipped"
            kind, pair, n = rest.split()
            payer, receiver = _seat_pair(pair)
            out.update(kind=kind, payer=payer, receiver=receiver)
            if n == "skipped":
                out["skipped"] = True
            else:
                out["count"] = int(n)
        elif word == "huan":  # the receiver returns one card to the payer
            receiver, payer = _seat_pair(rest)
            out.update(receiver=receiver, payer=payer)
        elif word == "gouji":  # a protected 够级 play and who may answer it (R6.4)
            out["answerers"] = [int(x) for x in rest.split()]
        elif word == "chuan":
            out["team"] = int(rest)
        elif word in ("paid", "returned"):  # private: "<cards> to <seat>"
            cards, _, to = rest.rpartition(" to ")
            out.update(cards=cards, to=int(to))
        elif word == "received":
            cards, _, frm = rest.rpartition(" from ")
            out.update(cards=cards, **{"from": int(frm)})
        elif word == "got":  # "got back <cards> from <seat>"
            cards, _, frm = rest.removeprefix("back ").rpartition(" from ")
            out.update(type="got_back", cards=cards, **{"from": int(frm)})
        elif word in ("refuse", "refused"):
            out["card"] = rest
        else:
            return {"seat": who, "type": "other", "text": text}
    except (ValueError, IndexError):
        return {"seat": who, "type": "other", "text": text}
    return out


def public_events(log: list[tuple[int, str]], start: int = 0) -> list[LogEvent]:
    """The public log from index ``start`` as events."""
    return [{"i": i, **parse(s, t)} for i, (s, t) in enumerate(log[start:], start)]


def private_events(private: list[tuple[int, int, str]], seat: int) -> list[LogEvent]:
    """``seat``'s private lines as events (``i``: the public index they come before)."""
    return [{"i": i, **parse(seat, t)} for i, s, t in private if s == seat]

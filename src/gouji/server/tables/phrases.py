"""快捷语 and emotes (issue 23, item 5): a fixed list, never free text.

A seated player ``say``s one of ``SAY_IDS``; the room's connections (spectators too) get
``said`` with the seat and the id, and each page shows the phrase in its reader's language
(web/js/words/chat.js holds the words; the server knows the ids only). Nothing else can be
said: an unknown id is ``bad_message``, so no name, link or insult ever passes through here.

Chat is not part of the game: a ``said`` is not a room action, not stored, not in the record,
the replay or the room's notes; a page that connects later does not see it (docs/decisions.md
D95). Each seat may speak once every ``Limits.say_gap_s`` seconds and at most
``Limits.says_per_min`` times a minute, on the hub's clock (D97).

R19.5 (partner signalling: no chat in competition presets): no 快捷语 at an event's table, nor
in a room whose rules are scored by a competition's sheet — ``comp2`` (COMP2, the seed 003
够级比赛 sheet), ``match7`` (MATCH7) and ``audit6`` (AUDIT, the audit association's 积分制) —
whatever preset or overrides give that scoring (D96).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from gouji.server.plumbing.clock import SYSTEM, Clock

if TYPE_CHECKING:
    from gouji.engine.rules import Rules
    from gouji.server.tables.protocol import RoomConfig

#: Phrases, in the order the page lists them (web/js/words/chat.js has their words).
QUICK_WORDS: tuple[str, ...] = (
    "hello",
    "hurry",
    "thinking",
    "nice_cards",
    "well_played",
    "nice_burn",
    "teamwork",
    "cheer",
    "thanks",
    "oops",
    "stay",
    "bye",
)
#: Emotes: faces, drawn by the reader's own font (no image is fetched).
EMOTES: tuple[str, ...] = ("smile", "laugh", "love", "cool", "sweat", "shock", "cry", "sleepy")
SAY_IDS: frozenset[str] = frozenset(QUICK_WORDS + EMOTES)

#: Scoring systems of competitions (docs/spec/variants.md §V.3, R17): a rule set scored by one of
#: them is played as a competition, without chat (R19.5).
COMPETITION_SCORING: frozenset[str] = frozenset({"comp2", "match7", "audit6"})


def no_chat(config: RoomConfig, rules: Rules) -> str | None:
    """Why a room has no 快捷语 (R19.5), or None where its players may use them."""
    if config.event is not None or config.seating is not None:
        return "a competition table has no 快捷语 or emotes (R19.5: no signalling between partners)"
    if rules.score_system in COMPETITION_SCORING:
        return (
            f"these rules are scored as a competition ({rules.score_system}): no 快捷语 or "
            "emotes (R19.5: no signalling between partners)"
        )
    return None


class SayLimiter:
    """How often each seat may speak: one ``say`` every ``gap_s`` seconds and at most
    ``per_min`` in any 60 seconds, per key (a room's seat, whichever of its connections
    speaks), on ``clock``'s monotonic time."""

    WINDOW_S = 60.0
    KEYS_KEPT = 10_000  # beyond this many seats, those quiet for a minute are forgotten

    def __init__(self, gap_s: float, per_min: int, clock: Clock = SYSTEM) -> None:
        self.gap_s = gap_s
        self.per_min = per_min
        self.clock = clock
        self._said: dict[str, deque[float]] = {}

    def take(self, key: str) -> str | None:
        """Count one ``say`` of ``key`` if it may speak now; else the refusal's words (and
        nothing counted)."""
        now = self.clock.monotonic()
        q = self._said.setdefault(key, deque())
        while q and q[0] <= now - self.WINDOW_S:
            q.popleft()
        if q and now - q[-1] < self.gap_s:
            wait = self.gap_s - (now - q[-1])
            return f"one 快捷语 every {self.gap_s:g} s: wait {wait:.1f} s"
        if len(q) >= self.per_min:
            wait = q[0] + self.WINDOW_S - now
            return f"at most {self.per_min} 快捷语 a minute: wait {wait:.0f} s"
        q.append(now)
        if len(self._said) > self.KEYS_KEPT:
            for k in [k for k, v in self._said.items() if not v or v[-1] <= now - self.WINDOW_S]:
                del self._said[k]
        return None


__all__ = ["COMPETITION_SCORING", "EMOTES", "QUICK_WORDS", "SAY_IDS", "SayLimiter", "no_chat"]

"""Actions: the decisions a seat can make, with canonical lower-case text (docs/design.md §3).

Actions are interned like plays, so the engine compares them by identity and a legal
action list costs no allocation after warm-up.
"""

from __future__ import annotations

from typing import ClassVar

from gouji.engine.cards import CardError, CompositionError
from gouji.engine.plays import Play
from gouji.engine.reasons import Reason


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message cites the rule. The game is unchanged.

    ``reason`` (a ``gouji.engine.reasons.Reason``, where the engine made one) carries the rule,
    a key and parameters, for front ends that say it in the player's language."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class IllegalPlay(IllegalAction):
    """Well-formed action text whose cards are no single play (R4.2): an illegal decision,
    not unreadable text, so ``sw.illegal = forfeit_turn`` forfeits it (R19.1)."""


# Action kinds. Play-carrying kinds first.
PLAY = "play"
BURN = "burn"
PASS = "pass"
RANG = "rang"
NOBURN = "noburn"
KOU = "kou"
GEMING = "geming"
NOGEMING = "nogeming"
RENOUNCE = "renounce"
KEEP = "keep"
HUI = "hui"
NOHUI = "nohui"
YUDIAN = "yudian"
NOYUDIAN = "noyudian"
MINGDIAN = "mingdian"
NOMINGDIAN = "nomingdian"
TIAO = "tiao"
ORDER = "order"
HUAN = "huan"
ACCEPT = "accept"
REFUSE = "refuse"
SWAP = "swap"
NOSWAP = "noswap"
SKIP = "skip"
NOSKIP = "noskip"

WORDS = (
    PASS,
    RANG,
    NOBURN,
    KOU,
    GEMING,
    NOGEMING,
    RENOUNCE,
    KEEP,
    NOHUI,
    YUDIAN,
    NOYUDIAN,
    MINGDIAN,
    NOMINGDIAN,
    TIAO,
    ACCEPT,
    REFUSE,
    SWAP,
    NOSWAP,
    SKIP,
    NOSKIP,
)
HUI_CHOICES = ("3", "4", "3 4", "5")
# The key to Action's constructor, held by its factories alone (as Play's: plays.py)
_MINT = object()


class Action:
    """One decision. ``str(action)`` is its canonical text.

    Every action except a 挑牌 order is interned, so equal actions are the same object and
    compare by identity (fast membership tests in the engine's hot path).
    """

    __slots__ = ("claim", "hui", "kind", "play", "text")
    _plays: ClassVar[dict[tuple[str, int], Action]] = {}
    _words: ClassVar[dict[str, Action]] = {}

    kind: str
    play: Play | None
    hui: str
    claim: tuple[Play, ...]
    text: str

    def __init__(
        self,
        mint: object,
        kind: str,
        text: str,
        play: Play | None = None,
        hui: str = "",
        claim: tuple[Play, ...] = (),
    ) -> None:
        """Only ``_build`` holds ``_MINT``: actions are interned, so identity is equality."""
        if mint is not _MINT:
            raise TypeError("use Action.of_play, Action.word, Action.of_hui or Action.parse")
        self.kind, self.text, self.play, self.hui, self.claim = kind, text, play, hui, claim

    @classmethod
    def _build(
        cls,
        kind: str,
        text: str,
        play: Play | None = None,
        hui: str = "",
        claim: tuple[Play, ...] = (),
    ) -> Action:
        return cls(_MINT, kind, text, play, hui, claim)

    @classmethod
    def of_play(cls, play: Play, kind: str = PLAY) -> Action:
        """``play <cards>``, ``burn <cards>`` or ``huan <card>`` (还贡, R16.7)."""
        key = (kind, play.code)
        a = cls._plays.get(key)
        if a is None:
            a = cls._plays[key] = cls._build(kind, f"{kind} {play.text}", play=play)
        return a

    @classmethod
    def burn(cls, play: Play) -> Action:
        """``burn <cards>``: accept a burn offer with this beating play (R8.3)."""
        return cls.of_play(play, BURN)

    @classmethod
    def word(cls, kind: str) -> Action:
        """A one-word action such as ``pass``."""
        a = cls._words.get(kind)
        if a is None:
            if kind not in WORDS:
                raise IllegalAction(f"unknown action word {kind!r}")
            a = cls._words[kind] = cls._build(kind, kind)
        return a

    @classmethod
    def of_hui(cls, choice: str) -> Action:
        """``hui 3``, ``hui 4``, ``hui 3 4`` (R14.1) or ``hui 5`` (R13.8)."""
        key = "hui " + choice
        a = cls._words.get(key)
        if a is None:
            if choice not in HUI_CHOICES:
                raise IllegalAction(f"会 choice must be one of {', '.join(HUI_CHOICES)}")
            a = cls._words[key] = cls._build(HUI, key, hui=choice)
        return a

    @classmethod
    def of_claim(cls, plays: tuple[Play, ...]) -> Action:
        """``order <cards> | <cards> …``: the order of a 挑牌 claim's plays, fixed by the
        claimant's first active teammate (R10.2)."""
        if not plays:
            raise IllegalAction("R10.2: a claim's order names at least one play")
        return cls._build(ORDER, "order " + " | ".join(p.text for p in plays), claim=plays)

    @classmethod
    def parse(cls, text: object) -> Action:
        """Parse action text; malformed text raises ``IllegalAction`` saying what is wrong."""
        if not isinstance(text, str):
            raise IllegalAction(f"malformed action: an action is text, not {type(text).__name__}")
        parts = text.strip().split(None, 1)
        if not parts:
            raise IllegalAction("malformed action: the text is empty")
        word = parts[0].lower()
        rest = parts[1] if len(parts) > 1 else ""
        try:
            if word in (PLAY, BURN, HUAN):
                if not rest.strip():
                    raise IllegalAction(
                        f"malformed action: '{word}' needs cards, e.g. '{word} 7 7'"
                    )
                return cls.of_play(Play.parse(rest), word)
            if word == HUI:
                choice = " ".join(sorted(rest.split()))
                return cls.of_hui(choice)
            if word == ORDER:
                return cls.of_claim(tuple(Play.parse(chunk) for chunk in rest.split("|")))
        except CompositionError as e:
            raise IllegalPlay(f"{e} (in {text!r})") from None
        except CardError as bad:  # its own name: compiled, ``e`` holds a CompositionError
            raise IllegalAction(f"malformed action {text!r}: {bad}") from None
        if rest.strip():
            raise IllegalAction(f"malformed action {text!r}: '{word}' takes no cards")
        if word not in WORDS:
            known = "play, burn, huan, order, hui, " + ", ".join(WORDS)
            raise IllegalAction(f"unknown action {text!r}; actions are: {known}")
        return cls.word(word)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self.text,))

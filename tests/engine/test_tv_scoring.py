"""TV-I: scoring systems (R17), one test per vector, through ``gouji.engine.referee.scoring.score``.

Places are given by seat; team A = seats 0, 2, 4 (index 0), team B = seats 1, 3, 5 (index 1).
"A {1, 3, 5}" in the spec means A's three seats hold those places; the seat that holds each
place does not matter to R17, so the tests put A's places on seats 0, 2, 4 in that order.

TV-I09 (a three-game MATCH7 match with a tie-break game) is out of scope here: it belongs to
the match layer (issue 3). Only a single game's ``score("match7", ...)`` could be tested, and
no TV-I vector asks for that alone.
"""

from __future__ import annotations

from gouji.engine.referee.scoring import Events, score


def places_of(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, ...]:
    """Places by seat: team A's places on seats 0, 2, 4 and team B's on seats 1, 3, 5."""
    out = [0] * 6
    for i, p in enumerate(a):
        out[2 * i] = p
    for i, p in enumerate(b):
        out[2 * i + 1] = p
    assert sorted(out) == [1, 2, 3, 4, 5, 6]
    return tuple(out)


def test_TV_I01_outline_positive_only() -> None:
    """R17.1: A {1, 3, 5} = 4 + 0 − 2 = 2, B {2, 4, 6} = −2; only the positive sum is recorded."""
    raw, recorded, _ = score("outline", Events(places=places_of((1, 3, 5), (2, 4, 6))))
    assert raw == [2, -2]
    assert recorded == [2, 0]


def test_TV_I02_outline_chuan_records_12() -> None:
    """R17.1, R9.10: A holds 1, 2, 3 (串三户): A records 12 (double of 6), B records 0."""
    raw, recorded, _ = score("outline", Events(places=places_of((1, 2, 3), (4, 5, 6))))
    assert recorded == [12, 0]
    # The place points themselves (R17.1 table): A = 4 + 2 + 0, B = 0 − 2 − 4.
    assert raw == [6, -6]


def test_TV_I03_outline_no_doubling_without_chuan() -> None:
    """R17.1: A {1, 2, 4} is not 串三户: A records its plain sum 6, B records 0."""
    raw, recorded, _ = score("outline", Events(places=places_of((1, 2, 4), (3, 5, 6))))
    assert raw == [6, -6]
    assert recorded == [6, 0]


def test_TV_I04_outline_revolutionary_and_zero_sums() -> None:
    """R17.1, R15.4, AMB-58: P1 (B) revolted and holds 四科; A {1, 3, 6} = 0, B {2, 4, 5} = 0:
    nobody records a score."""
    places = (1, 4, 3, 2, 6, 5)  # P0 1, P2 3, P4 6 | P1 4 (the revolutionary), P3 2, P5 5
    raw, recorded, _ = score("outline", Events(places=places))
    assert raw == [0, 0]
    assert recorded == [0, 0]


def test_TV_I05_comp2_bonuses() -> None:
    """R17.2, R17.7: A {1, 4, 5}, B {2, 3, 6}; one B player 不开点 (+1 to A), one A player 闷
    (+1 to B): A = 1 + 1 = 2, B = −1 + 1 = 0, A wins."""
    places = places_of((1, 4, 5), (2, 3, 6))  # P0 1, P2 4, P4 5 | P1 2, P3 3, P5 6
    ev = Events(places=places, men=(4,), not_opened=(3,))
    raw, recorded, bonuses = score("comp2", ev)
    assert raw == [2, 0]
    assert recorded == [2, 0]
    assert bonuses["dian"] == [1, 0]
    assert bonuses["men"] == [0, 1]
    assert recorded[0] > recorded[1]


def test_TV_I06_comp2_chuan() -> None:
    """R17.2, AMB-46: A {1, 2, 3} with one successful burn by A and one B player 不开点:
    A = 3 × 2 + 1 = 7 (the burn bonus is cancelled), B keeps its place sum −3."""
    places = places_of((1, 2, 3), (4, 5, 6))
    ev = Events(places=places, not_opened=(1,), burns=((0, 1),))
    raw, recorded, _ = score("comp2", ev)
    assert recorded == [7, -3]
    assert raw == [7, -3]


def test_TV_I07_audit6_bonuses() -> None:
    """R17.4: A {1, 3, 6} = 11, B {2, 4, 5} = 10; one successful burn by A (+1 A), one A player
    不开点 (+1 to the team of its 对头, B): A = 12, B = 11."""
    places = places_of((1, 3, 6), (2, 4, 5))  # P0 1, P2 3, P4 6 | P1 2, P3 4, P5 5
    ev = Events(places=places, not_opened=(2,), burns=((0, 3),))
    raw, recorded, bonuses = score("audit6", ev)
    assert raw == [12, 11]
    assert recorded == [12, 11]
    assert bonuses["burn"] == [1, 0]
    assert bonuses["dian"] == [0, 1]


def test_TV_I08_audit6_chuan() -> None:
    """R17.4, AMB-45: A {1, 2, 3}; one B player 不开点 (+1 A), one B player 闷 (void in 串三户):
    A = 30 + 1 = 31, B = 3."""
    places = places_of((1, 2, 3), (4, 5, 6))  # B: P1 4, P3 5, P5 6
    ev = Events(places=places, men=(5,), not_opened=(1,))
    raw, recorded, _ = score("audit6", ev)
    assert recorded == [31, 3]
    assert raw == [31, 3]

"""Small statistics for the arena: Student-t confidence intervals, paired by deal.

Standard library only. The t quantile is exact (the inverse of the Student-t CDF, written
with the regularized incomplete beta function and bisection) up to 200 degrees of freedom;
beyond, the Cornish-Fisher expansion of Abramowitz & Stegun 26.7.5 (error below 1e-6 there,
and shrinking with the degrees of freedom) replaces it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

_EXACT_DOF = 200


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, dof: int) -> float:
    """P(T <= t) for Student's t with ``dof`` degrees of freedom."""
    tail = 0.5 * betainc(dof / 2.0, 0.5, dof / (dof + t * t))
    return 1.0 - tail if t >= 0 else tail


@lru_cache(maxsize=4096)
def t_quantile(p: float, dof: int) -> float:
    """The ``p`` quantile of Student's t with ``dof`` >= 1 degrees of freedom.

    Exact (bisection on ``t_cdf``) up to 200 degrees of freedom, the Cornish-Fisher
    expansion (A&S 26.7.5) beyond.
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie in (0, 1), not {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, dof)
    if dof > _EXACT_DOF:
        z = NormalDist().inv_cdf(p)
        z2 = z * z
        g1 = (z2 + 1) * z / 4
        g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
        g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
        g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
        return z + g1 / dof + g2 / dof**2 + g3 / dof**3 + g4 / dof**4
    lo, hi = 0.0, 1.0
    while t_cdf(hi, dof) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, dof) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its confidence interval ``mean ± t·sd/√n`` (t for n−1 dof).

    With fewer than two samples the interval is unknown: ``low`` and ``high`` are NaN.
    """

    mean: float
    low: float
    high: float
    n: int
    sd: float

    @property
    def half_width(self) -> float:
        """Half the width of the interval."""
        return (self.high - self.low) / 2.0

    def interval(self) -> list[float | None]:
        """``[low, high]`` for JSON (None where unknown)."""
        return [_finite(self.low), _finite(self.high)]


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def mean_ci(samples: Iterable[float], level: float = 0.95) -> Estimate:
    """The mean of independent ``samples`` with its two-sided Student-t interval."""
    xs = [float(x) for x in samples]
    n = len(xs)
    if n == 0:
        raise ValueError("no samples")
    mean = math.fsum(xs) / n
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n, math.nan)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, sd)


def paired_ci(groups: Iterable[Sequence[float]], level: float = 0.95) -> Estimate:
    """The mean with its interval *paired by deal*: each group (the games of one deal) is
    averaged first, and the interval is that of the group means (n = the number of groups).
    """
    return mean_ci((math.fsum(g) / len(g) for g in groups), level)


def unpaired_ci(groups: Iterable[Sequence[float]], level: float = 0.95) -> Estimate:
    """The same mean with every game treated as an independent sample (for comparison)."""
    return mean_ci((x for g in groups for x in g), level)


def running_ci(samples: Sequence[float], level: float = 0.95) -> list[Estimate]:
    """``mean_ci`` of every prefix of ``samples`` (Welford's update; for plots)."""
    out: list[Estimate] = []
    mean = m2 = 0.0
    for n, x in enumerate(samples, 1):
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
        if n < 2:
            out.append(Estimate(mean, math.nan, math.nan, n, math.nan))
            continue
        sd = math.sqrt(max(m2, 0.0) / (n - 1))
        half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
        out.append(Estimate(mean, mean - half, mean + half, n, sd))
    return out

"""Small statistics for the arena: Student-t confidence intervals, paired by deal.

The t quantile comes from SciPy; the rest is a mean and a standard deviation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scipy.stats import t as student_t


@lru_cache(maxsize=4096)
def t_quantile(p: float, dof: int) -> float:
    """The ``p`` quantile of Student's t with ``dof`` >= 1 degrees of freedom (SciPy)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie in (0, 1), not {p}")
    return float(student_t.ppf(p, dof))


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

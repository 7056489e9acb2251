"""Means with confidence intervals, for scores that are noisy from deal to deal."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, stdev

# Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom; beyond, the normal.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042)
_Z95 = NormalDist().inv_cdf(0.975)


def t95(df: int) -> float:
    return _T95[df - 1] if df <= len(_T95) else _Z95


@dataclass(frozen=True)
class Estimate:
    """A sample mean and its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_json(self) -> dict[str, object]:
        return {"mean": self.mean, "ci95": [self.low, self.high], "n": self.n}

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.half_width:.3f}"


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of independent values with a 95% interval (Student's t; none for one value)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to estimate from")
    mean = fmean(values)
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    half = t95(n - 1) * stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)

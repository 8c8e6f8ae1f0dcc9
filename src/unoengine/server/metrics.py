"""What the server measures of itself: latency histograms read by ``GET /api/stats`` and the load benchmark.

A :class:`Histogram` keeps counts in logarithmic buckets 2 % wide, so it costs the
same at a million samples as at ten, two snapshots subtract (the benchmark reads one
before and one after its measuring window), and a percentile is within 2 % of the
true value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

_WIDTH = math.log(1.02)
_FLOOR = 1e-6


class Histogram:
    """Counts of durations (seconds) in 2 %-wide buckets."""

    def __init__(self, counts: dict[int, int] | None = None) -> None:
        self.counts: dict[int, int] = dict(counts or {})

    def add(self, seconds: float) -> None:
        bucket = int(math.log(max(seconds, _FLOOR) / _FLOOR) / _WIDTH)
        self.counts[bucket] = self.counts.get(bucket, 0) + 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def percentile(self, q: float) -> float:
        """The ``q``-quantile (0..1) in seconds, the upper edge of its bucket; 0 when empty.

        >>> h = Histogram()
        >>> for ms in range(1, 101):
        ...     h.add(ms / 1000)
        >>> [1 <= h.percentile(q) / true <= 1.02 for q, true in ((0.5, 0.050), (0.99, 0.099), (1.0, 0.100))]
        [True, True, True]
        """
        total = self.total
        if total == 0:
            return 0.0
        rank = max(1, math.ceil(q * total))
        seen = 0
        for bucket in sorted(self.counts):
            seen += self.counts[bucket]
            if seen >= rank:
                return _FLOOR * math.exp((bucket + 1) * _WIDTH)
        return 0.0  # pragma: no cover - rank <= total

    def minus(self, earlier: Histogram) -> Histogram:
        """What was added since the snapshot ``earlier``."""
        before = earlier.counts
        return Histogram({b: n - before.get(b, 0) for b, n in self.counts.items() if n > before.get(b, 0)})

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.total,
            "p50_ms": round(1000 * self.percentile(0.5), 2),
            "p99_ms": round(1000 * self.percentile(0.99), 2),
            "max_ms": round(1000 * self.percentile(1.0), 2),
            "buckets": {str(b): n for b, n in sorted(self.counts.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Histogram:
        return cls({int(b): int(n) for b, n in data["buckets"].items()})


@dataclass
class Metrics:
    """The server's own figures."""

    step: Histogram = field(default_factory=Histogram)
    """From an ``act`` frame received to its ``step`` handed to every client's outlet."""
    commit: Histogram = field(default_factory=Histogram)
    """The store's write of one action, until it is durable (and, on PostgreSQL, notified)."""
    conflicts: int = 0
    """Actions that lost the race for their version to another worker."""
    remote_steps: int = 0
    """Steps made on another worker and broadcast here."""

"""Game review: :func:`analyze` rates every decision of a record (docs/REVIEW.md).

Pure Python, no I/O: the ``uno analyze`` command (:mod:`unoengine.cli.analyze`), the
server and the terminal screens build on it.
"""

from __future__ import annotations

from unoengine.analysis.review import (
    DEFAULT_ITERATIONS,
    THRESHOLDS,
    Analysis,
    DecisionReview,
    PlayerReview,
    accuracy_of,
    analyze,
    decisions_of,
    mark_of,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "THRESHOLDS",
    "Analysis",
    "DecisionReview",
    "PlayerReview",
    "accuracy_of",
    "analyze",
    "decisions_of",
    "mark_of",
]

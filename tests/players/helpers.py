"""Small helpers of the players tests."""

from __future__ import annotations


def pairwise(mine: float, others: list[tuple[float, float]], n: int) -> float:
    """The documented rule, written out: K/(N-1) * sum(score - expected)."""
    return (
        32
        / (n - 1)
        * sum(score - 1 / (1 + 10 ** ((theirs - mine) / 400)) for theirs, score in others)
    )

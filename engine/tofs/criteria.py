"""External-agent criteria: how an opponent's node gets its value from its children.

The dissertation (§4.3.4.3) defines an external-agent criterion as any algorithm
``C(u, u1..un)``; bridge uses the weighted average of the children's utilities, weighted by
the probability of each opponent move.  Decision theory offers others, selectable here.

Savage's minimax regret is a comparison *between* a decision maker's alternatives, not a
value of one chance node, so it needs the decision node as well: the criterion exposes
``choose``, which a decision node calls with each alternative's outcome profile -- the
utilities of the opponent moves directly below it, keyed by move label.  The regret of an
alternative in a state (a move label) is how much worse it does there than the best
alternative does; the choice minimises the largest regret.  A label an alternative does not
face counts at that alternative's own value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ExternalCriterion",
    "Hurwicz",
    "Maximin",
    "MinimaxRegret",
    "WeightedAverage",
    "criterion",
]


class ExternalCriterion:
    """Base: a value for an external-agent node, and the decision-node choice rule."""

    name = "criterion"

    def value(self, utilities: Sequence[float], weights: Sequence[float]) -> float:
        raise NotImplementedError

    def choose(self, values: Sequence[float], profiles: Sequence[Mapping[str, float]]) -> int:
        """Index of the alternative a decision node takes: the first with the largest value."""
        best = 0
        for i, v in enumerate(values):
            if v > values[best] + 1e-12 * max(1.0, abs(values[best])):
                best = i
        return best

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


@dataclass(frozen=True, repr=False)
class WeightedAverage(ExternalCriterion):
    """Expected utility under the move probabilities (renormalised over unpruned moves)."""

    name = "weighted-average"

    def value(self, utilities: Sequence[float], weights: Sequence[float]) -> float:
        total = sum(weights)
        if total <= 0:
            return sum(utilities) / len(utilities)
        return sum(u * w for u, w in zip(utilities, weights, strict=True)) / total


@dataclass(frozen=True, repr=False)
class Maximin(ExternalCriterion):
    """Wald: assume the opponent makes the move that is worst for us (minimax)."""

    name = "maximin"

    def value(self, utilities: Sequence[float], weights: Sequence[float]) -> float:
        return min(utilities)


@dataclass(frozen=True)
class Hurwicz(ExternalCriterion):
    """Optimism-pessimism index: ``alpha * best + (1 - alpha) * worst``."""

    alpha: float = 0.5
    name = "hurwicz"

    def __post_init__(self) -> None:
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"Hurwicz alpha must lie in [0, 1], not {self.alpha}")

    def value(self, utilities: Sequence[float], weights: Sequence[float]) -> float:
        return self.alpha * max(utilities) + (1 - self.alpha) * min(utilities)


@dataclass(frozen=True, repr=False)
class MinimaxRegret(ExternalCriterion):
    """Savage: choose the alternative whose largest regret over opponent moves is least.

    Node values stay expected utilities (so they remain comparable and explainable); only
    the decision rule changes.
    """

    name = "minimax-regret"

    def value(self, utilities: Sequence[float], weights: Sequence[float]) -> float:
        return WeightedAverage().value(utilities, weights)

    def choose(self, values: Sequence[float], profiles: Sequence[Mapping[str, float]]) -> int:
        labels = sorted({k for p in profiles for k in p})
        if not labels:
            return super().choose(values, profiles)
        table = [[p.get(s, v) for s in labels] for v, p in zip(values, profiles, strict=True)]
        best_in = [max(row[j] for row in table) for j in range(len(labels))]
        regrets = [max(best_in[j] - row[j] for j in range(len(labels))) for row in table]
        best = 0
        for i, r in enumerate(regrets):
            if r < regrets[best] - 1e-12:
                best = i
        return best


def criterion(name: str, alpha: float = 0.5) -> ExternalCriterion:
    """Look a criterion up by its name, as the CLI and the store spell it."""
    table: dict[str, ExternalCriterion] = {
        "weighted-average": WeightedAverage(),
        "maximin": Maximin(),
        "hurwicz": Hurwicz(alpha),
        "minimax-regret": MinimaxRegret(),
    }
    try:
        return table[name]
    except KeyError:
        raise ValueError(f"unknown criterion '{name}'; choose one of {sorted(table)}") from None

"""Critics: does an actual move count as the move the plan expected?

Tignum 2 attaches one critic to every opponent node; when the card actually played is
"equivalent" to the planned card, execution carries on along the plan, otherwise the
planner re-plans.  Domains register their own critics (bridge: equivalence by relative
rank); the generic ones here need no domain knowledge.
"""

from .base import (
    AnyCritic,
    Critic,
    CriticRegistry,
    CriticRegistryError,
    ExactCritic,
    SameNameCritic,
)

__all__ = [
    "AnyCritic",
    "Critic",
    "CriticRegistry",
    "CriticRegistryError",
    "ExactCritic",
    "SameNameCritic",
]

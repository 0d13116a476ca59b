"""The critic interface, a registry that refuses duplicate names, and generic critics."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, TypeVar

__all__ = [
    "AnyCritic",
    "Critic",
    "CriticRegistry",
    "CriticRegistryError",
    "ExactCritic",
    "SameNameCritic",
]

Move = tuple[str, tuple[Any, ...]]
"""An operator call as the plan holds it: (operator name, argument values)."""


class Critic(ABC):
    """Judges whether ``actual`` is equivalent to ``planned`` in ``state``."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    @abstractmethod
    def accepts(self, state: Any, planned: Move, actual: Move) -> bool: ...

    def handle_error(self, exc: Exception, planned: Move, actual: Move) -> bool:
        """A critic that fails rejects the move, so the planner re-plans (the safe way)."""
        return False

    def judge(self, state: Any, planned: Move, actual: Move) -> bool:
        try:
            return bool(self.accepts(state, planned, actual))
        except Exception as exc:
            return self.handle_error(exc, planned, actual)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ExactCritic(Critic):
    name = "exact"
    description = "Only the planned move itself."

    def accepts(self, state: Any, planned: Move, actual: Move) -> bool:
        return planned == actual


class SameNameCritic(Critic):
    name = "same-operator"
    description = "Any move by the same operator, whatever its arguments."

    def accepts(self, state: Any, planned: Move, actual: Move) -> bool:
        return planned[0] == actual[0]


class AnyCritic(Critic):
    name = "any"
    description = "Every move is equivalent (the plan never needs revising)."

    def accepts(self, state: Any, planned: Move, actual: Move) -> bool:
        return True


class CriticRegistryError(ValueError):
    """A critic name was registered twice or is unknown."""


C = TypeVar("C", bound=type[Critic])


class CriticRegistry:
    """Named critics for one domain, starting with the generic ones."""

    def __init__(self) -> None:
        self._critics: dict[str, Critic] = {}
        for cls in (ExactCritic, SameNameCritic, AnyCritic):
            self._critics[cls.name] = cls()

    def register(self, cls: C) -> C:
        if not cls.name:
            raise CriticRegistryError(f"{cls.__name__} has no name")
        if cls.name in self._critics:
            raise CriticRegistryError(f"critic '{cls.name}' is already registered")
        self._critics[cls.name] = cls()
        return cls

    def get(self, name: str) -> Critic:
        try:
            return self._critics[name]
        except KeyError:
            raise CriticRegistryError(
                f"unknown critic '{name}'; known: {sorted(self._critics)}"
            ) from None

    def names(self) -> list[str]:
        return sorted(self._critics)

    def __contains__(self, name: object) -> bool:
        return name in self._critics

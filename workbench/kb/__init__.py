"""The knowledge store: SQLite-backed domains with history, lint and knowledge tests."""

from .store import (
    EditRejected,
    KnowledgeStore,
    NotAStore,
    Revision,
    StaleRevision,
    StoreError,
    UnknownItem,
)

__all__ = [
    "EditRejected",
    "KnowledgeStore",
    "NotAStore",
    "Revision",
    "StaleRevision",
    "StoreError",
    "UnknownItem",
]

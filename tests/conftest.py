"""Every test session gets its own default knowledge store, never the user's."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_default_store(tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["WORKBENCH_DB"] = str(tmp_path_factory.mktemp("store") / "workbench.db")
    # A cluster named in the caller's environment would take every test's batch jobs.
    os.environ.pop("WORKBENCH_CLUSTER", None)

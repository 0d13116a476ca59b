"""Every test session gets its own default knowledge store, never the user's; property
tests draw the same examples on every run (a failure in CI can be replayed), unless
``HYPOTHESIS_PROFILE=explore`` asks for fresh ones."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(autouse=True, scope="session")
def _private_default_store(tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["WORKBENCH_DB"] = str(tmp_path_factory.mktemp("store") / "workbench.db")
    # A cluster named in the caller's environment would take every test's batch jobs.
    os.environ.pop("WORKBENCH_CLUSTER", None)

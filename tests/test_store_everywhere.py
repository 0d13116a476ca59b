"""Every command reads the same knowledge: ``--db``, else ``$WORKBENCH_DB``, else the user
data directory -- so an edit saved with ``kb set`` (or in the editor) is what ``plan``,
``play`` and ``match`` then use, and ``--bundled`` still plans the shipped files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.bridge import DATA_DIR
from workbench.cli import main

DEALS = Path(__file__).resolve().parents[1] / "knowledge/bridge/deals"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh default store, chosen the way a user would: through ``$WORKBENCH_DB``."""
    path = tmp_path / "kb.db"
    monkeypatch.setenv("WORKBENCH_DB", str(path))
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert status == 0, out
    data: dict = json.loads(out)
    return data


def kb_set(capsys: pytest.CaptureFixture[str], *argv: str) -> None:
    assert main(["kb", "set", *argv, "-m", "test edit"]) == 0
    capsys.readouterr()


def test_plan_uses_the_store_and_bundled_uses_the_files(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = run_json(capsys, "plan", "edaps", "RM1", "--json")["lead_time"]
    assert before == pytest.approx(642.327102)  # the dissertation's RM1
    kb_set(capsys, "edaps", "constant", "spray_minutes", "value=0.1")
    after = run_json(capsys, "plan", "edaps", "RM1", "--json")["lead_time"]
    assert after == pytest.approx(642.027102)  # the flux spray got 0.3 min faster
    bundled = run_json(capsys, "plan", "edaps", "RM1", "--json", "--bundled")["lead_time"]
    assert bundled == before
    # --db names another store, which still has the shipped value.
    other = str(store.with_name("other.db"))
    assert run_json(capsys, "plan", "edaps", "RM1", "--json", "--db", other)["lead_time"] == before


def _play_nodes(capsys: pytest.CaptureFixture[str], *extra: str) -> int:
    data = run_json(
        capsys, "play", "bridge", str(DEALS / "fig5-1.pbn"), "--json", "--explain", *extra
    )
    return sum(d["nodes"] for d in data["decisions"])


def test_play_and_match_use_the_stores_bridge_network(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """How far to plan is knowledge: the match plans ``offer_tricks`` ahead to find the
    cards on offer (0: the whole horizon, larger trees), and an explanation reads plans to
    ``plan_tricks`` (one trick: smaller trees); both commands' node counts show the
    store's values."""
    match = ["match", "bridge", str(DATA_DIR / "dds-list100.pbn"), "--boards", "1"]
    match += ["--declarers", "tofs", "--json"]

    def match_nodes(*extra: str) -> float:
        return float(run_json(capsys, *match, *extra)["declarers"]["tofs"]["nodes_per_deal"])

    play_before, match_before = _play_nodes(capsys), match_nodes()
    kb_set(capsys, "bridge", "constant", "offer_tricks", "value=0")
    assert match_nodes() > match_before
    kb_set(capsys, "bridge", "constant", "plan_tricks", "value=1")
    assert _play_nodes(capsys) < play_before
    assert _play_nodes(capsys, "--bundled") == play_before
    assert match_nodes("--bundled") == match_before


def test_list_shows_problems_saved_in_the_store(
    store: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from workbench.kb.catalog import open_store

    kb = open_store(store)
    try:
        kb.set_problem("edaps", "MYBOARD", "design", kb.problem_text("edaps", "RM1") or "", "mine")
    finally:
        kb.close()
    listing = run_json_list(capsys)
    edaps = next(p for p in listing if p["package"] == "edaps")
    assert {"name": "MYBOARD", "description": "mine"} in edaps["problems"]
    assert main(["list"]) == 0
    assert "  MYBOARD      mine" in capsys.readouterr().out.splitlines()


def run_json_list(capsys: pytest.CaptureFixture[str]) -> list:
    assert main(["list", "--json"]) == 0
    data: list = json.loads(capsys.readouterr().out)
    return data

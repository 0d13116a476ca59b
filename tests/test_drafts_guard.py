"""Drafts cannot hurt: whatever is in the drafts folder, the workbench starts.

The folder is plain files, so a draft is untrusted input.  These tests put there what
the issue found crashing, freezing or blocking the start -- a ``saved`` that is a number,
a 50 MB file, a FIFO -- and more (not UTF-8, not JSON, the wrong shape), and check that
the loader refuses each with a reason, that :meth:`DraftBox.sweep` moves it aside into
``rejected/`` without opening what is not a regular file, and that the app starts, says
so in one line, and still offers the good draft beside them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.notifications import Notify
from textual.pilot import Pilot

from workbench.app import WorkbenchApp
from workbench.kb.catalog import open_store
from workbench.kb.drafts import (
    MAX_DRAFT_BYTES,
    Draft,
    DraftBox,
    DraftRejected,
    read_draft_file,
)
from workbench.screens import PlanScreen
from workbench.screens.draft_offer import DraftOfferScreen

SIZE = (120, 40)


def good(**changes: Any) -> dict[str, Any]:
    """A draft file's data as :meth:`DraftBox.put` writes it, with ``changes``."""
    data: dict[str, Any] = {
        "format": 1,
        "editor": "design",
        "domain": "edaps",
        "kind": "design",
        "name": "RM1",
        "fields": {"text": "P 1"},
        "base": 0,
        "base_digest": "",
        "saved": "2026-05-03T14:05:00+00:00",
        "pid": 2**22 + 12345,  # beyond any pid in use: a left-over draft
        "host": "elsewhere",
    }
    data.update(changes)
    return data


def write(folder: Path, name: str, data: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(DraftRejected) as caught:
        read_draft_file(path)
    return str(caught.value)


# ---------------------------------------------------------------------- the loader


def test_a_draft_put_reads_back_the_same(tmp_path: Path) -> None:
    box = DraftBox(tmp_path / "kb.db")
    written = box.put(Draft("deal", "bridge", "deal", "1", {"hands": ["AK", None], "n": 3}))
    assert read_draft_file(box._file(written.key)) == written


def test_a_saved_time_that_is_a_number_is_refused_naming_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", good(saved=1714745100))
    assert "field 'saved'" in refusal(path)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"fields": "text"}, "fields"),
        ({"fields": {"text": {"deep": ["er"]}}}, "fields"),
        ({"fields": {"hands": [["nested"]]}}, "fields"),
        ({"pid": -1}, "pid"),  # os.kill(-1, 0) would ask about every process
        ({"pid": 10**30}, "pid"),  # would overflow os.kill
        ({"base": "3"}, "base"),  # strict: a string is not a number
        ({"saved": "yesterday"}, "saved"),
        ({"name": None}, "name"),
        ({"extra": 1}, "extra"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_naming_it(
    tmp_path: Path, changes: dict[str, Any], field: str
) -> None:
    path = write(tmp_path, "a.json", good(**changes))
    assert f"field '{field}'" in refusal(path)


def test_a_missing_field_is_refused(tmp_path: Path) -> None:
    data = good()
    del data["editor"]
    assert "field 'editor'" in refusal(write(tmp_path, "a.json", data))


def test_not_json_and_not_an_object_are_refused_with_where(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"format": 1,\n  "editor": }', encoding="utf-8")
    assert refusal(tmp_path / "a.json").startswith("line 2, column 13:")
    assert "not an object" in refusal(write(tmp_path, "b.json", [1, 2]))
    (tmp_path / "c.json").write_text("[" * 100_000, encoding="utf-8")
    assert refusal(tmp_path / "c.json")  # nested past the parser: refused, no RecursionError


def test_a_byte_that_is_not_utf8_is_refused_with_line_and_column(tmp_path: Path) -> None:
    text = json.dumps(good(), indent=1).encode("utf-8")
    bad = text.replace(b'"RM1"', b'"RM\xff"')
    (tmp_path / "a.json").write_bytes(bad)
    line = bad[: bad.index(b"\xff")].count(b"\n") + 1
    column = bad.index(b"\xff") - bad[: bad.index(b"\xff")].rfind(b"\n")
    assert refusal(tmp_path / "a.json") == (f"line {line}, column {column}: byte 0xff is not UTF-8")


def test_a_file_over_the_cap_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.truncate(50_000_000)  # 50 MB of nothing: sparse, so the test stays cheap
    assert "more than the 1,000,000" in refusal(path)
    assert MAX_DRAFT_BYTES == 1_000_000


def test_a_fifo_is_refused_without_being_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert refusal(fifo) == "is not a regular file"  # opening it would block: it returns
    assert time.monotonic() - started < 5
    (tmp_path / "dir.json").mkdir()
    assert refusal(tmp_path / "dir.json") == "is not a regular file"
    (tmp_path / "link.json").symlink_to(fifo)
    assert refusal(tmp_path / "link.json") == "is not a regular file"


def test_a_draft_of_another_format_is_left_for_its_workbench(tmp_path: Path) -> None:
    box = DraftBox(tmp_path / "kb.db")
    path = write(box.folder, "a.json", good(format=2, saved=5))
    assert read_draft_file(path) is None
    assert box.sweep() == [] and path.exists()  # not ours to judge: not moved


def test_putting_a_draft_over_the_cap_fails_as_an_unwritable_folder_does(tmp_path: Path) -> None:
    box = DraftBox(tmp_path / "kb.db")
    with pytest.raises(OSError, match="larger than the 1,000,000 bytes"):
        box.put(Draft("design", "edaps", "design", "RM1", {"text": "x" * MAX_DRAFT_BYTES}))
    assert box.all() == []


def test_sweep_moves_what_is_not_a_draft_aside_and_keeps_the_rest(tmp_path: Path) -> None:
    box = DraftBox(tmp_path / "kb.db")
    kept = box.put(Draft("design", "edaps", "design", "RM1", {"text": "x"}))
    write(box.folder, "number.json", good(saved=3))
    os.mkfifo(box.folder / "fifo.json")
    (box.folder / "other.txt").write_text("not a draft's name: not looked at")
    rejected = box.sweep()
    assert sorted(r.path.name for r in rejected) == ["fifo.json", "number.json"]
    aside = box.folder / "rejected"
    assert sorted(p.name for p in aside.iterdir()) == ["fifo.json", "number.json"]
    assert all(r.moved_to is not None and r.moved_to.parent == aside for r in rejected)
    assert [d.key for d in box.all()] == [kept.key]
    assert (box.folder / "other.txt").exists()
    # A second bad file of the same name does not overwrite the first one moved aside.
    write(box.folder, "number.json", good(saved=4))
    (again,) = box.sweep()
    assert again.moved_to == aside / "number-2.json"
    assert box.sweep() == []


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    key=st.sampled_from(sorted(good())),
    value=_JSON,
    junk=st.binary(max_size=40),
    cut=st.integers(min_value=0, max_value=400),
)
def test_any_damaged_draft_is_a_draft_or_one_refusal_never_a_crash(
    tmp_path: Path, key: str, value: object, junk: bytes, cut: int
) -> None:
    """Mutated drafts -- a field replaced by any JSON, the text cut short, bytes spliced
    in -- each read as a draft or refused with a reason; nothing else escapes."""
    text = json.dumps(good(**{key: value})).encode("utf-8")
    for n, data in enumerate((text, text[:cut], text[:cut] + junk + text[cut:])):
        path = tmp_path / f"m{n}.json"
        path.write_bytes(data)
        try:
            draft = read_draft_file(path)
        except DraftRejected as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert draft is None or isinstance(draft.fields, dict)
            if draft is not None:
                draft.when()


# ---------------------------------------------------------------------- the app


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.02)


def offered(app: WorkbenchApp) -> bool:
    """The draft offer is on screen, drawn (its buttons mounted)."""
    return isinstance(app.screen, DraftOfferScreen) and bool(app.screen.query("#draft-restore"))


async def test_the_app_starts_past_bad_big_and_blocking_drafts(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    open_store(db).close()
    box = DraftBox(db)
    # A good one, offered: its name is shown as written, not read as markup.
    box.put(Draft("design", "edaps", "design", "[/]RM[b]", {"text": "P 1"}))
    for name in os.listdir(box.folder):  # written by this process: make it left over
        path = box.folder / name
        path.write_text(json.dumps({**json.loads(path.read_text()), "pid": 2**22 + 1}))
    write(box.folder, "number.json", good(saved=1714745100))
    with (box.folder / "big.json").open("wb") as fh:
        fh.truncate(50_000_000)
    os.mkfifo(box.folder / "fifo.json")
    seen: list[object] = []
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await until(pilot, lambda: offered(app))
        notes = [m.notification.message for m in seen if isinstance(m, Notify)]
        (line,) = [n for n in notes if "drafts folder" in n]
        assert "\n" not in line
        assert line.startswith("3 files in the drafts folder were not a readable draft")
        assert str(box.folder / "rejected") in line
        offer = app.screen
        assert isinstance(offer, DraftOfferScreen) and offer.draft.name == "[/]RM[b]"
        shown = str(offer.query_one("#draft-text").render())
        assert "design [/]RM[b] in edaps" in shown
        await pilot.press("escape")  # later: kept
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
    aside = box.folder / "rejected"
    assert sorted(p.name for p in aside.iterdir()) == ["big.json", "fifo.json", "number.json"]
    assert len(box.all()) == 1
    # The next start has nothing to say about them: they were moved, not left to refuse again.
    seen.clear()
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await until(pilot, lambda: offered(app))
        notes = [m.notification.message for m in seen if isinstance(m, Notify)]
        assert not [n for n in notes if "drafts folder" in n]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))

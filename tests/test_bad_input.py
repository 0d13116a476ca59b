"""Issue 26's bad input, each case as it was reported: one true line, never a traceback.

Non-UTF-8 files name their file, line and column; a directory, device or FIFO given as a
file is said to be one (and a FIFO is never waited on); nesting past a limit and
expressions past a size are refused with the limit and the field; the EDAPS reader reads
a design with 20,000 extra items (it used to count the earlier items for each).  Every
file a test reads is made by the test.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.tofs import DomainError, SourceError, compile_domain, load_domain_file
from engine.tofs.expressions import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_LENGTH,
    ExpressionError,
    compile_expression,
)
from engine.tofs.source import MAX_TOML_DEPTH, parse_domain_source
from engine.tofs.textfile import TextFileError, decode_utf8, read_text
from knowledge.bridge.pbn import PbnError, read_pbn
from knowledge.edaps.parser import DesignError, load_design, parse_design
from knowledge.hddl import HddlError, parse_domain, read_domain, read_problem
from knowledge.hddl.syntax import MAX_DEPTH as HDDL_MAX_DEPTH
from workbench.cli import main
from workbench.kb.drafts import DraftBox

ROOT = Path(__file__).resolve().parent.parent
HDDL = ROOT / "knowledge/hddl/examples"
DOMAIN = HDDL / "delivery-domain.hddl"
PROBLEM = HDDL / "delivery-p1.hddl"
DESIGN = ROOT / "knowledge/edaps/designs/RM1.txt"
DINNER = ROOT / "knowledge/examples/dinner.toml"


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The whole of stderr, which must be one ``workbench: error:`` line; its message."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("workbench: error: "), err
    assert "Traceback" not in err and "unexpected" not in err
    return err.removeprefix("workbench: error: ").rstrip("\n")


# -- the shared reader ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data,line,column,byte",
    [
        (b"ab\ncd\xff", 2, 3, "0xff"),
        (b"\xc3\xa9t\xc3\xa9 \xfe", 1, 5, "0xfe"),  # columns count characters, not bytes
        (b"\xef\xbb\xbfab\xff", 1, 3, "0xff"),  # the byte-order mark is not a column
        (b"x\n\n\xed\xa0\x80", 3, 1, "0xed"),  # a surrogate is not UTF-8
    ],
)
def test_a_byte_that_is_not_utf8_is_named_with_its_line_and_column(
    data: bytes, line: int, column: int, byte: str
) -> None:
    with pytest.raises(TextFileError) as info:
        decode_utf8(data, "f.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert (
        str(info.value)
        == f"f.txt:{line}:{column}: byte {byte} is not UTF-8 text (save the file as UTF-8)"
    )


def test_a_character_cut_short_at_the_end_is_said_to_be() -> None:
    with pytest.raises(TextFileError, match=r"f:1:4: byte 0xe2 starts a UTF-8 character the file"):
        decode_utf8(b"abc\xe2\x82", "f")


def test_directories_devices_and_missing_files_are_told_apart(tmp_path: Path) -> None:
    said = {}
    for path in (tmp_path, Path(os.devnull), tmp_path / "nope.hddl", tmp_path / "f" / "x"):
        with pytest.raises(TextFileError) as info:
            read_text(path)
        said[path] = info.value.message
    (tmp_path / "f").write_text("x")
    with pytest.raises(TextFileError) as info:
        read_text(tmp_path / "f" / "x")
    assert said[tmp_path] == "is a directory, not a file"
    assert said[Path(os.devnull)] == "is a device, not a regular file"
    assert said[tmp_path / "nope.hddl"] == "no such file"
    assert info.value.message.startswith("no such file (a part of the path is not a directory")


def _finishes(call: Callable[[], object], seconds: float = 10) -> BaseException | None:
    """What ``call`` raised, checking that it returned at all (a FIFO must not block)."""
    caught: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            caught.append(None)
        except BaseException as exc:
            caught.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "reading the FIFO blocked"
    return caught[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_at_once_by_every_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.hddl"
    os.mkfifo(fifo)
    for read, error in (
        (read_domain, HddlError),
        (load_design, DesignError),
        (read_pbn, PbnError),
        (load_domain_file, SourceError),
    ):
        exc = _finishes(lambda read=read: read(fifo))  # type: ignore[misc]
        assert isinstance(exc, error) and "is a FIFO (named pipe), not a regular file" in str(exc)


# -- each reader, through the command line ----------------------------------------------------


def test_hddl_problem_not_utf8_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "p.hddl"
    lines = PROBLEM.read_bytes().split(b"\n")
    lines[4] = lines[4][:6] + b"\xff" + lines[4][6:]
    bad.write_bytes(b"\n".join(lines))
    assert main(["plan", "hddl", str(DOMAIN), str(bad)]) == 1
    assert (
        one_error_line(capsys) == f"{bad}:5:7: byte 0xff is not UTF-8 text (save the file as UTF-8)"
    )


def test_hddl_domain_not_utf8_through_the_reader(tmp_path: Path) -> None:
    bad = tmp_path / "d.hddl"
    bad.write_bytes(DOMAIN.read_bytes().replace(b"vehicles carry", b"vehicles \xe9 carry", 1))
    with pytest.raises(HddlError) as info:
        read_domain(bad)
    (issue,) = info.value.issues
    assert (issue.line, issue.column) == (1, 22) and "byte 0xe9 is not UTF-8" in issue.message


def test_hddl_directory_and_device_are_said_to_be(tmp_path: Path) -> None:
    domain = read_domain(DOMAIN)
    with pytest.raises(HddlError, match=r"is a directory, not a file"):
        read_problem(tmp_path, domain)
    with pytest.raises(HddlError, match=r"/dev/null: is a device, not a regular file"):
        read_domain(os.devnull)


def _nested(depth: int) -> str:
    """The delivery domain with one precondition nested ``depth`` 'and's deep."""
    text = DOMAIN.read_text(encoding="utf-8")
    deep = "(and " * depth + "(at ?p ?to)" + ")" * depth
    assert ":precondition (at ?p ?to)" in text
    return text.replace(":precondition (at ?p ?to)", ":precondition " + deep, 1)


def test_hddl_nested_400_deep_is_refused_where_it_passes_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.hddl"
    deep.write_text(_nested(400), encoding="utf-8")
    assert main(["plan", "hddl", str(deep), str(PROBLEM)]) == 1
    said = one_error_line(capsys)
    line = (
        _nested(400)
        .split("\n")
        .index(next(ln for ln in _nested(400).split("\n") if "(and (and" in ln))
    )
    # define, method: two levels; the 63rd 'and' is the 65th '(' on the way in.
    column = len("    :precondition ") + 62 * len("(and ") + 1
    assert (
        said
        == f"{deep}:{line + 1}:{column}: parentheses nested deeper than {HDDL_MAX_DEPTH} levels"
    )


def test_hddl_nested_just_within_the_limit_still_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The limit refuses nothing a reader, checker, writer or planner can take."""
    within = tmp_path / "within.hddl"
    within.write_text(_nested(HDDL_MAX_DEPTH - 3), encoding="utf-8")
    assert main(["plan", "hddl", str(within), str(PROBLEM)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    with pytest.raises(HddlError):
        parse_domain(_nested(HDDL_MAX_DEPTH - 1))


def test_edaps_design_not_utf8_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "RM1.txt"
    bad.write_bytes(DESIGN.read_bytes().replace(b"I Teflon", b"I Te\xf1flon", 1))
    assert main(["plan", "edaps", str(bad), "--bundled"]) == 1
    assert (
        one_error_line(capsys) == f"{bad}:1:5: byte 0xf1 is not UTF-8 text (save the file as UTF-8)"
    )


@pytest.mark.parametrize("kind", ["directory", "device"])
def test_edaps_and_bridge_say_what_the_path_is(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path) if kind == "directory" else os.devnull
    expected = (
        "is a directory, not a file" if kind == "directory" else "is a device, not a regular file"
    )
    assert main(["plan", "edaps", path, "--bundled"]) == 1
    assert one_error_line(capsys) == f"{path}: {expected}"
    assert main(["play", "bridge", path, "--bundled"]) == 1
    assert one_error_line(capsys).endswith(f": {expected}")


def test_pbn_that_is_not_utf8_is_read_as_windows_1252() -> None:
    """PBN is the one format with a fallback: old tools wrote Windows-1252."""
    text = (ROOT / "knowledge/bridge/deals/fig5-1.pbn").read_bytes()
    boards = read_pbn_bytes(text.replace(b'[Event "Tignum"]', b'[Event "Tign\xfcm"]'))
    assert boards[0].tags["Event"] == "Tign\u00fcm"


def read_pbn_bytes(data: bytes) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.pbn"
        path.write_bytes(data)
        return read_pbn(path)


def test_kb_import_not_utf8_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "dinner.toml"
    bad.write_bytes(DINNER.read_bytes().replace(b"dinner and a movie", b"d\xeenner and a movie", 1))
    db = str(tmp_path / "kb.db")
    assert main(["kb", "import", str(bad), "--db", db]) == 1
    lines = DINNER.read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(lines, 1) if "dinner and a movie" in text)
    column = lines[line - 1].index("dinner and a movie") + 2
    said = one_error_line(capsys)
    assert said == (
        f"{bad}:{line}:{column}: byte 0xee is not UTF-8 text (save the file as UTF-8); "
        "nothing was imported"
    )
    with pytest.raises(SourceError, match=rf"line {line}, column {column}: byte 0xee is not UTF-8"):
        load_domain_file(bad)


def test_toml_nested_too_deep_and_numbers_too_long_are_refused() -> None:
    deep = 'name = "x"\nvalue = ' + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(SourceError) as info:
        parse_domain_source(deep, "kb.toml")
    assert str(info.value) == (
        f"kb.toml: cannot read the domain: line 2, column {len('value = ') + MAX_TOML_DEPTH + 1}: "
        f"arrays and tables nested deeper than {MAX_TOML_DEPTH} levels"
    )
    # Brackets inside strings and comments are text, not nesting.
    quoted = 'name = "x"  # ' + "[" * 200 + '\ndescription = "' + "{" * 200 + '"\n'
    assert parse_domain_source(quoted).name == "x"
    with pytest.raises(SourceError, match=r"line 2, column 13: a number of 5000 digits"):
        parse_domain_source('name = "x"\nconstants = ' + "7" * 5000 + "\n")


# -- expressions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source,refused",
    [
        ("+".join(["1"] * 50_000), f"expression too long: 99999 characters, at most {MAX_LENGTH}"),
        ("1" * 5000, f"number literal of 5000 digits, at most {MAX_DIGITS}"),
        ("x < 0." + "5" * 101, f"number literal of 102 digits, at most {MAX_DIGITS}"),
        ("not " * 25_000 + "True", f"expression too long: 100004 characters, at most {MAX_LENGTH}"),
        ("not " * 150 + "True", f"expression nested deeper than {MAX_DEPTH} levels"),
        ("+".join(["x"] * 150), f"expression nested deeper than {MAX_DEPTH} levels"),
        ("min(" * 120 + "1" + ")" * 120, f"expression nested deeper than {MAX_DEPTH} levels"),
    ],
)
def test_an_expression_past_a_limit_is_refused_with_the_limit(source: str, refused: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(source, variables=["x"])
    assert info.value.message.startswith(refused)
    assert len(info.value.source) <= 60  # the message quotes its start, not all of it


def test_within_the_limits_everything_still_compiles() -> None:
    """Digits in strings and names are not numbers; long but sane expressions pass."""
    assert compile_expression('"' + "9" * 500 + '" + s', variables=["s"]).evaluate(None, {"s": "!"})
    assert compile_expression("x2" + "2" * 150 + " + 1", variables=["x2" + "2" * 150])
    assert (
        compile_expression("+".join(["x"] * (MAX_DEPTH - 1)), variables=["x"]).evaluate(
            None, {"x": 1}
        )
        == MAX_DEPTH - 1
    )
    assert compile_expression("1e5 + .25 + 1_000").evaluate(None, {}) == 101_000.25


@pytest.mark.parametrize(
    "value,refused",
    [
        ("+".join(["1"] * 50_000), "expression too long: 99999 characters"),
        ("1" * 5000, "number literal of 5000 digits"),
        ("not " * 25_000 + "True", "expression too long: 100004 characters"),
    ],
)
def test_kb_set_with_a_huge_expression_names_the_field(
    value: str, refused: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "kb.db")
    assert main(["kb", "import", "dinner", "--db", db]) == 0
    capsys.readouterr()
    status = main(["kb", "set", "dinner", "operator", "Eat", f"precondition={value}", "--db", db])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err and "unexpected" not in err
    assert "operator Eat [precondition" in err and refused in err
    assert len(err) < 1000


def test_compile_domain_reports_the_field_of_a_refused_expression() -> None:
    from knowledge import get_package

    package = get_package("examples")
    spec = load_domain_file(DINNER)
    operator = spec.operators[0].model_copy(update={"precondition": "1" * 5000})
    broken = spec.model_copy(update={"operators": [operator, *spec.operators[1:]]})
    with pytest.raises(DomainError) as info:
        compile_domain(broken, package.registries["dinner"])
    assert f"operator {operator.name}" in str(info.value)
    assert "precondition" in str(info.value) and "number literal of 5000 digits" in str(info.value)


# -- the EDAPS reader is linear ---------------------------------------------------------------


def test_a_design_with_20000_extra_items_reads_with_each_in_its_place() -> None:
    """The case that took quadratic time: items are numbered as they come (the speed is
    measured by benchmarks/parse_scale.py, not here)."""
    extra = "".join(
        f"P {0.1 + (i % 50) * 0.07:.3f} {0.1 + (i // 50 % 80) * 0.07:.3f} 1 0.2 10\n"
        for i in range(20_000)
    )
    design = parse_design(DESIGN.read_text(encoding="utf-8") + extra)
    pths = [index for letter, index in design.order if letter == "P"]
    assert pths == list(range(len(design.pths))) and len(design.pths) == 20_005


# -- drafts ---------------------------------------------------------------------------------


def test_damaged_drafts_are_skipped_not_fatal(tmp_path: Path) -> None:
    from tests.fuzz_inputs import draft_seed

    box = DraftBox(tmp_path / "kb.db")
    box.folder.mkdir()
    good = draft_seed()
    (box.folder / "a.json").write_bytes(good)
    # A time that is a number, a process id that is text: once a crash at start-up.
    (box.folder / "b.json").write_text(json.dumps({**json.loads(good), "saved": 12}))
    (box.folder / "c.json").write_bytes(b"[" * 100_000)  # deeper than json can read
    (box.folder / "d.json").write_text(json.dumps({**json.loads(good), "pid": "x"}))
    drafts = box.left_over()
    assert [d.name for d in drafts] == ["GoToDinner.Eat"]
    assert drafts[0].when() != "an unknown time"


def test_numbers_of_thousands_of_digits_are_bad_values_not_tracebacks(tmp_path: Path) -> None:
    """Found by benchmarks/fuzz.py: ``int`` refuses over 4,300 digits with a ValueError."""
    text = DESIGN.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("Z "))
    fields = line.split()
    fields[7] = "2" * 5000  # the component type number
    with pytest.raises(DesignError, match="expected one of 1 "):
        parse_design(text.replace(line, " ".join(fields), 1))
    pbn = (ROOT / "knowledge/bridge/deals/fig5-1.pbn").read_text(encoding="utf-8")
    for tag, value in (("Board", "7" * 5000), ("Board", "\u00b2")):
        boards = read_pbn_bytes(
            pbn.replace('[Board "Fig5.1"]', f'[{tag} "{value}"]').encode("utf-8")
        )
        assert boards[0].board == value
    damaged = pbn.replace('[Contract "5S"]', '[Contract "5S"]\n[Result "' + "9" * 5000 + '"]')
    (board,) = read_pbn_bytes(damaged.encode("utf-8"))
    assert board.result is None and any("not a trick count" in w for w in board.warnings)


@pytest.mark.parametrize("which", ["domain", "problem"])
def test_plan_hddl_says_a_directory_or_device_is_one(
    which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``plan hddl`` once said "no such file" for a folder or /dev/null given as a file."""
    files = [str(HDDL / "delivery-domain.hddl"), str(HDDL / "delivery-p1.hddl")]
    at = 0 if which == "domain" else 1
    for given, said in ((str(tmp_path), "is a directory"), ("/dev/null", "is a device")):
        argv = list(files)
        argv[at] = given
        assert main(["plan", "hddl", *argv, "--bundled"]) == 1
        assert one_error_line(capsys) == f"{given}: {said}" + (
            ", not a file" if said == "is a directory" else ", not a regular file"
        )

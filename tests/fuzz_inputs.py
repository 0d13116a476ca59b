"""Damaged input for every reader, and the one question asked of each: was it answered?

Used by ``tests/test_fuzz.py`` (a few hundred cases, drawn by hypothesis, on every run) and
``benchmarks/fuzz.py`` (thousands, with the IPC files as extra seeds).  A case is a seed
file of one format (the repository's own examples) damaged by a few random
:data:`MUTATORS` -- bytes flipped, the file cut short, tokens and stray bytes put in, lines
doubled or dropped, a number blown up, a construct nested thousands deep -- and then read
through the workbench's real entry points: the command line's ``main()`` in this process,
and the readers' Python API.

An answer is *clean* when the exit status is one the command line documents for it (0 a
plan, 1 bad input, 2 no plan, 3 gave up) and bad input is told as ``workbench: error: ...``
with no traceback and no "unexpected <exception>" (the command line's last resort for an
exception that escaped a reader).  Anything else is a *traceback*, kept with its text.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import socket
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# -- mutators: bytes -> bytes, each drawing what it needs from a random.Random -------------

Mutator = Callable[[bytes, random.Random, "Format"], bytes]


def flip_bytes(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """One to four bytes with a random bit flipped (often no longer UTF-8)."""
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def truncate(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """The file cut short anywhere (mid-token, mid-character too)."""
    return data[: rng.randint(0, len(data))]


def insert_token(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """A token of the format, or a hostile one, put in at a random place."""
    token = rng.choice([*fmt.tokens, *HOSTILE_TOKENS])
    i = rng.randint(0, len(data))
    return data[:i] + token + data[i:]


def insert_bytes(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """Up to eight random bytes put in at a random place."""
    i = rng.randint(0, len(data))
    return data[:i] + rng.randbytes(rng.randint(1, 8)) + data[i:]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def duplicate_lines(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """A run of lines repeated (a section given twice, an item many times)."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    j = min(len(lines), i + rng.randint(1, 5))
    times = rng.choice([1, 2, 50])
    return b"\n".join(lines[:j] + lines[i:j] * times + lines[j:])


def delete_lines(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """A run of lines dropped."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    return b"\n".join(lines[:i] + lines[i + rng.randint(1, 4) :])


def swap_lines(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """Two lines exchanged (an item before the thing it belongs to)."""
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def blow_up_number(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """A digit replaced by an absurd number: thousands of digits, negative, not finite."""
    digits = [i for i, b in enumerate(data) if 0x30 <= b <= 0x39]
    if not digits:
        return data
    i = rng.choice(digits)
    huge = rng.choice([b"9" * 5000, b"-1", b"0", b"1e999", b"nan", b"-0", b"0.0000001"])
    return data[:i] + huge + data[i + 1 :]


def nest_deep(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """The format's own nesting construct opened and closed hundreds or thousands deep."""
    depth = rng.choice([65, 101, 400, 3000])
    opening, middle, closing = rng.choice(fmt.nesting)
    i = rng.randint(0, len(data))
    return data[:i] + opening * depth + middle + closing * depth + data[i:]


def not_utf8(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """A byte that can never be UTF-8, or half of a character, at a random place."""
    i = rng.randint(0, len(data))
    return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80"]) + data[i:]


def retype_json_field(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """One field of a JSON object (a draft) given a value of another type, or dropped, or
    an unknown field added: still JSON, no longer the schema."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return data
    if not isinstance(value, dict) or not value:
        return data
    key = rng.choice(sorted(value))
    choice = rng.randrange(4)
    if choice == 0:
        del value[key]
    elif choice == 1:
        value[f"unknown_{rng.randrange(9)}"] = 1
    else:
        value[key] = rng.choice(
            [12, -1, 1.5, None, True, [], [1, "a"], {}, {"a": [None]}, "", "x" * 3000, "2026-13-40"]
        )
    return json.dumps(value).encode("utf-8")


MUTATORS: tuple[Mutator, ...] = (
    flip_bytes,
    truncate,
    insert_token,
    insert_bytes,
    duplicate_lines,
    delete_lines,
    swap_lines,
    blow_up_number,
    nest_deep,
    not_utf8,
)

HOSTILE_TOKENS: tuple[bytes, ...] = (
    b"\x00",
    b"\xef\xbb\xbf",
    b"\r",
    b"\t",
    b"\\",
    b'"',
    b"'",
    b"\xc3\xa9",
    b"\xf0\x9f\x82\xa1",
    b"9" * 400,
    b"__import__('os')",
)


def mutate(data: bytes, rng: random.Random, fmt: Format) -> bytes:
    """``data`` damaged by one to three mutators drawn from ``rng`` (the format's own
    among them, as often as all the others together)."""
    for _ in range(rng.randint(1, 3)):
        own = fmt.mutators and rng.random() < 0.5
        data = rng.choice(fmt.mutators if own else MUTATORS)(data, rng, fmt)
    return data


# -- running a case through the command line ------------------------------------------------


class CaseTimeout(BaseException):
    """Raised (by ``benchmarks/fuzz.py``'s alarm) when a case runs too long: a
    BaseException, so that no reader's ``except Exception`` takes it for bad input."""


@dataclass
class Outcome:
    """What one case came to: ``kind`` is plan, error, no plan, gave up or traceback."""

    kind: str
    status: int | None
    text: str = ""


_KINDS = {0: "plan", 1: "error", 2: "no plan", 3: "gave up"}


def run_cli(argv: Sequence[str]) -> Outcome:
    """``workbench.cli.main(argv)`` in this process, its output captured and judged."""
    from workbench.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status: int | None = main(list(argv))
    except SystemExit as exc:  # argparse
        status = exc.code if isinstance(exc.code, int) else 1
    except (KeyboardInterrupt, CaseTimeout):
        raise
    except BaseException:
        return Outcome("traceback", None, traceback.format_exc())
    return judge(status, err.getvalue())


def judge(status: int | None, stderr: str) -> Outcome:
    """Clean: a documented status, and bad input told in a ``workbench: error:`` line."""
    if status not in _KINDS or "Traceback (most recent call last)" in stderr:
        return Outcome("traceback", status, stderr)
    if status == 1:
        first = stderr.splitlines()[0] if stderr.strip() else ""
        said = first.removeprefix("workbench: error: ")
        if said == first or said.startswith("unexpected "):
            return Outcome("traceback", status, stderr)
    assert status is not None
    return Outcome(_KINDS[status], status, stderr)


def run_api(call: Callable[[], Any], clean: tuple[type[BaseException], ...]) -> Outcome:
    """A reader's Python API: a value, or one of the ``clean`` errors, with a message."""
    try:
        call()
    except clean as exc:
        if not str(exc).strip():
            return Outcome("traceback", None, f"{type(exc).__name__} with no message")
        return Outcome("error", 1, str(exc))
    except (KeyboardInterrupt, CaseTimeout):
        raise
    except BaseException:
        return Outcome("traceback", None, traceback.format_exc())
    return Outcome("plan", 0)


# -- the formats ------------------------------------------------------------------------------


@dataclass
class Format:
    """One kind of input file: its seeds, its tokens, how it nests, how it is run."""

    name: str
    seeds: list[Path]
    tokens: tuple[bytes, ...]
    nesting: tuple[tuple[bytes, bytes, bytes], ...]
    # (the mutated file, its seed, a scratch folder) -> what came of it
    run: Callable[[Path, Path, Path], list[Outcome]]
    suffix: str = ".txt"
    mutators: tuple[Mutator, ...] = ()


NODE_BUDGET = "200"
TIME_BUDGET = "5"


def _hddl_run(path: Path, seed: Path, scratch: Path) -> list[Outcome]:
    """The mutated file as the domain (with the seed's problem) or as the problem."""
    db = str(scratch / "fuzz.db")
    budget = ["--node-budget", NODE_BUDGET, "--time-budget", TIME_BUDGET, "--db", db]
    if _is_hddl_domain(seed):
        problem = _hddl_problem_for(seed)
        if problem is None:
            return [run_cli(["plan", "hddl", str(path), str(path), *budget])]
        return [run_cli(["plan", "hddl", str(path), str(problem), *budget])]
    return [run_cli(["plan", "hddl", str(_hddl_domain_for(seed)), str(path), *budget])]


def _is_hddl_domain(path: Path) -> bool:
    head = path.read_bytes()[:4000].lower()
    return b"(domain " in head and b"(problem " not in head


def _hddl_domain_for(problem: Path) -> Path:
    """The domain file beside a problem: ``domain.hddl``, ``<stem>-domain.hddl`` or the
    examples' ``<name>-domain.hddl``."""
    for candidate in (
        problem.with_name("domain.hddl"),
        problem.with_name(problem.stem + "-domain.hddl"),
        problem.with_name(problem.stem.split("-")[0] + "-domain.hddl"),
    ):
        if candidate.is_file():
            return candidate
    return problem


def _hddl_problem_for(domain: Path) -> Path | None:
    stem = domain.stem.removesuffix("-domain")
    for candidate in sorted(domain.parent.glob("*.hddl")):
        if candidate == domain or _is_hddl_domain(candidate):
            continue
        if stem == "domain" or candidate.stem.startswith(stem):
            return candidate
    return None


def _edaps_run(path: Path, seed: Path, scratch: Path) -> list[Outcome]:
    from knowledge.edaps.parser import DesignError, load_design

    db = str(scratch / "fuzz.db")
    return [
        run_api(lambda: load_design(path), (DesignError,)),
        run_cli(
            ["plan", "edaps", str(path), "--bundled", "--node-budget", NODE_BUDGET, "--db", db]
        ),
    ]


def _pbn_run(path: Path, seed: Path, scratch: Path) -> list[Outcome]:
    from knowledge.bridge.pbn import PbnError, read_pbn_lenient

    db = str(scratch / "fuzz.db")
    return [
        run_api(lambda: read_pbn_lenient(path), (PbnError,)),
        run_cli(["play", "bridge", str(path), "--bundled", "--declarer", "heuristic", "--db", db]),
    ]


def _toml_run(path: Path, seed: Path, scratch: Path) -> list[Outcome]:
    from engine.tofs import DomainError, SourceError, compile_domain, load_domain_file
    from knowledge import get_package

    registries = get_package("examples").registries

    def compile_it() -> None:
        spec = load_domain_file(path)
        registry = registries.get(spec.name) or registries[seed.stem]
        compile_domain(spec, registry)

    db = str(scratch / "fuzz.db")
    return [
        run_api(compile_it, (SourceError, DomainError)),
        run_cli(["kb", "import", str(path), "--db", db]),
    ]


def _draft_run(path: Path, seed: Path, scratch: Path) -> list[Outcome]:
    """The drafts folder of a store holding the mutated draft: read as a start-up does."""
    from workbench.kb.drafts import DraftBox

    box = DraftBox(scratch / "drafts-store.db")
    box.folder.mkdir(parents=True, exist_ok=True)
    for old in box.folder.iterdir():
        old.unlink()
    # Beside a good draft, as a start-up finds them: the two are read, sorted and shown.
    (box.folder / "0123456789abcdef01234567.json").write_bytes(path.read_bytes())
    (box.folder / "76543210fedcba9876543210.json").write_bytes(seed.read_bytes())

    def start_up() -> None:  # what the workbench shows of each draft it offers
        for draft in box.left_over():
            _ = (draft.title, draft.when(), draft.key)

    return [run_api(start_up, (ValueError, OSError))]


def draft_seed() -> bytes:
    """A draft as the knowledge editor writes one (the format of ``DraftBox.put``)."""
    from dataclasses import asdict

    from workbench.kb.drafts import FORMAT, Draft

    draft = Draft(
        editor="knowledge",
        domain="dinner",
        kind="method",
        name="GoToDinner.Eat",
        fields={"precondition": "time <= 1320", "subtasks": ["Eat(R)"], "weight": 1.5},
        base=3,
        saved="2026-05-03T12:05:00+00:00",
        pid=2**22 + 1,  # above Linux's pid_max: no such process, so the draft is offered
        host=socket.gethostname(),
    )
    return json.dumps({"format": FORMAT, **asdict(draft)}, indent=1).encode("utf-8")


def formats(scratch: Path) -> dict[str, Format]:
    """Every format, with the repository's own files as seeds (the draft seed is written
    into ``scratch``)."""
    draft = scratch / "draft-seed.json"
    draft.write_bytes(draft_seed())
    hddl = ROOT / "knowledge/hddl/examples"
    return {
        "hddl": Format(
            "hddl",
            sorted(hddl.glob("*.hddl")),
            (
                b"(",
                b")",
                b"(and ",
                b"(not ",
                b"(or ",
                b"?x",
                b"- object",
                b":parameters",
                b":task",
                b"(either ",
                b"(forall (?y) ",
                b";",
                b"(= ?x ?x)",
            ),
            ((b"(and ", b"(p)", b")"), (b"(not ", b"(p)", b")"), (b"(", b"", b")")),
            _hddl_run,
            ".hddl",
        ),
        "edaps": Format(
            "edaps",
            sorted((ROOT / "knowledge/edaps/designs").glob("*.txt")),
            (
                b"P ",
                b"H ",
                b"Z ",
                b"Y ",
                b"T ",
                b"C ",
                b"M ",
                b"D ",
                b"E\n",
                b"N\n",
                b"\nP 1 1 1 0.2 10\n",
                b"\nY 0 0\n",
                b" 0 ",
                b"-",
            ),
            ((b"\nH 1 1 1 0.2 10", b"", b"\nT 40"), (b"\nP 1 1 1 0.2 10", b"", b"")),
            _edaps_run,
        ),
        "pbn": Format(
            "pbn",
            sorted((ROOT / "knowledge/bridge/deals").glob("*.pbn")),
            (
                b"[",
                b"]",
                b'"',
                b"{",
                b"}",
                b";",
                b"%",
                b"*",
                b'[Play "W"]\n',
                b'[Deal "N:',
                b"AKQJ",
                b" - ",
                b"#",
                b"\n\n",
            ),
            ((b"{", b"x", b"}"), (b"[", b"", b"]")),
            _pbn_run,
            ".pbn",
        ),
        "toml": Format(
            "toml",
            sorted((ROOT / "knowledge/examples").glob("*.toml")),
            (
                b"[",
                b"]",
                b"{",
                b"}",
                b"=",
                b'"',
                b"'''",
                b"[[tasks]]\n",
                b"[[methods]]\n",
                b'precondition = "',
                b"not ",
                b" and ",
                b"(",
                b")",
                b"+",
                b"min(",
                b"#",
            ),
            ((b"[", b"", b"]"), (b"{a=", b"1", b"}"), (b"not ", b"x", b""), (b"(", b"1", b")")),
            _toml_run,
            ".toml",
        ),
        "draft": Format(
            "draft",
            [draft],
            (
                b"{",
                b"}",
                b"[",
                b"]",
                b'"saved": 12',
                b'"fields": []',
                b"null",
                b"1e999",
                b'"format": 2',
                b",",
            ),
            ((b"[", b"", b"]"), (b'{"a":', b"1", b"}")),
            _draft_run,
            ".json",
            (retype_json_field,),
        ),
    }


def run_case(fmt: Format, seed: Path, rng: random.Random, scratch: Path) -> list[Outcome]:
    """One damaged copy of ``seed`` read through every entry point of ``fmt``."""
    data = mutate(seed.read_bytes(), rng, fmt)
    # The seed's own name (its stem names a design, a domain's file its problems'); the
    # other file of an HDDL pair is read unmutated from beside the seed.
    case = scratch / "case"
    case.mkdir(exist_ok=True)
    path = case / seed.name
    path.write_bytes(data)
    limit = sys.getrecursionlimit()
    try:
        return fmt.run(path, seed, scratch)
    finally:
        sys.setrecursionlimit(limit)

"""Damaged input of every kind is answered, never a traceback (issue 26).

Each test draws seeds for :func:`tests.fuzz_inputs.run_case`: one of the repository's own
files of a format, damaged by one to three random mutators (bytes flipped, cut short,
tokens and stray bytes put in, lines doubled, dropped or swapped, a number blown up, a
construct nested hundreds or thousands deep, a byte that is not UTF-8), then read through
the command line's ``main()`` and the reader's Python API.  Every answer must be a
documented exit status, with bad input told in a ``workbench: error:`` line -- the same
judgement ``benchmarks/fuzz.py`` applies to thousands of cases.  Draws are derandomized
(the same cases on every run) and few enough that the file runs in well under a minute.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_inputs import Format, Outcome, formats, judge, mutate, run_case

EXAMPLES = {"hddl": 200, "edaps": 80, "pbn": 120, "toml": 200, "draft": 300}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def all_formats(scratch: Path) -> dict[str, Format]:
    return formats(scratch)


def _check(outcomes: list[Outcome]) -> None:
    for outcome in outcomes:
        assert outcome.kind != "traceback", outcome.text


def _fuzz(name: str):
    @settings(
        max_examples=EXAMPLES[name],
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 99))
    def test(seed: int, pick: int, all_formats: dict[str, Format], scratch: Path) -> None:
        fmt = all_formats[name]
        source = fmt.seeds[pick % len(fmt.seeds)]
        _check(run_case(fmt, source, random.Random(seed), scratch))

    test.__name__ = f"test_damaged_{name}_is_answered"
    test.__doc__ = f"Damaged {name} input: a plan, a clean error, no plan or gave up."
    return test


test_damaged_hddl_is_answered = _fuzz("hddl")
test_damaged_edaps_is_answered = _fuzz("edaps")
test_damaged_pbn_is_answered = _fuzz("pbn")
test_damaged_toml_is_answered = _fuzz("toml")
test_damaged_draft_is_answered = _fuzz("draft")


def test_every_format_has_seeds(all_formats: dict[str, Format]) -> None:
    """The fuzzing above is only as wide as its seeds: each format has some, all readable."""
    assert set(all_formats) == set(EXAMPLES)
    for fmt in all_formats.values():
        assert fmt.seeds and all(p.is_file() and p.stat().st_size > 0 for p in fmt.seeds)


def test_mutation_changes_the_input_and_is_repeatable(all_formats: dict[str, Format]) -> None:
    fmt = all_formats["hddl"]
    data = fmt.seeds[0].read_bytes()
    first = [mutate(data, random.Random(n), fmt) for n in range(20)]
    again = [mutate(data, random.Random(n), fmt) for n in range(20)]
    assert first == again
    assert sum(m != data for m in first) >= 18


@pytest.mark.parametrize(
    "status,stderr,kind",
    [
        (0, "", "plan"),
        (2, "", "no plan"),
        (3, "", "gave up"),
        (1, "workbench: error: f.hddl:3:4: byte 0xff is not UTF-8 text\n", "error"),
        (1, "Traceback (most recent call last):\n  ...\nValueError: x\n", "traceback"),
        (1, "workbench: error: unexpected RecursionError: (set WORKBENCH_DEBUG=1)\n", "traceback"),
        (1, "", "traceback"),
        (4, "", "traceback"),
        (None, "", "traceback"),
    ],
)
def test_the_judge_tells_clean_answers_from_tracebacks(
    status: int | None, stderr: str, kind: str
) -> None:
    """What the fuzz tests count as clean, pinned down, since everything rests on it."""
    assert judge(status, stderr).kind == kind

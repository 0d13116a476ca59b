"""Fuzz every reader at scale: damaged files through the real entry points, answers counted.

Run: ``.venv/bin/python benchmarks/fuzz.py --count 500`` (cases per format), with
``--seed N`` for another draw (the same seed gives the same cases), ``--formats hddl,pbn``
for some formats only, and ``--extra DIR`` for more seed files: every ``*.hddl`` under DIR
joins the HDDL seeds (the IPC 2020 total-order domains:
``--extra /path/to/ipc2020-total-order``), ``*.pbn`` the PBN ones, ``*.txt`` the EDAPS
ones, ``*.toml`` the KB ones.

Cases are made and judged exactly as in ``tests/test_fuzz.py`` (``tests/fuzz_inputs.py``):
a seed damaged by one to three mutators, read through ``workbench.cli.main()`` and the
reader's Python API.  Printed per format: cases tried, the answers (plans, clean errors,
no plan, gave up), the tracebacks -- the first few shown in full -- and cases stopped at
``--case-seconds`` (a hang is not an answer either; the run goes on).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz_inputs import CaseTimeout, Format, Outcome, formats, run_case

EXTRA_SUFFIX = {"hddl": ".hddl", "pbn": ".pbn", "edaps": ".txt", "toml": ".toml"}


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise CaseTimeout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="cases per format")
    parser.add_argument("--seed", type=int, default=1, help="the draw (same seed, same cases)")
    parser.add_argument("--formats", default="hddl,edaps,pbn,toml,draft")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="seed folder")
    parser.add_argument("--show", type=int, default=3, help="tracebacks shown per format")
    parser.add_argument("--case-seconds", type=int, default=60, help="stop a case after this")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    total_tracebacks = 0
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        every = formats(scratch)
        for folder in args.extra:
            for name, suffix in EXTRA_SUFFIX.items():
                every[name].seeds += sorted(folder.rglob(f"*{suffix}"))
        print(
            f"{'format':<7} {'seeds':>6} {'cases':>6} {'answers':>8} {'plans':>6} "
            f"{'errors':>7} {'no plan':>8} {'gave up':>8} {'tracebacks':>11} {'hung':>5} "
            f"{'seconds':>8}",
            flush=True,
        )
        for name in args.formats.split(","):
            fmt = every[name]
            tracebacks, hung = _run_format(fmt, args, scratch)
            total_tracebacks += len(tracebacks) + hung
            for text in tracebacks[: args.show]:
                print(f"--- {name} traceback ---\n{text.rstrip()}\n---", flush=True)
    return 1 if total_tracebacks else 0


def _run_format(fmt: Format, args: argparse.Namespace, scratch: Path) -> tuple[list[str], int]:
    rng = random.Random(f"{args.seed}-{fmt.name}")
    kinds: Counter[str] = Counter()
    tracebacks: list[str] = []
    hung = 0
    start = time.perf_counter()
    for _ in range(args.count):
        seed = rng.choice(fmt.seeds)
        case_rng = random.Random(rng.getrandbits(64))
        signal.alarm(args.case_seconds)
        try:
            outcomes: list[Outcome] = run_case(fmt, seed, case_rng, scratch)
        except CaseTimeout:
            hung += 1
            continue
        finally:
            signal.alarm(0)
        for outcome in outcomes:
            kinds[outcome.kind] += 1
            if outcome.kind == "traceback":
                tracebacks.append(f"seed file {seed}\n{outcome.text}")
    seconds = time.perf_counter() - start
    answers = sum(kinds.values())
    print(
        f"{fmt.name:<7} {len(fmt.seeds):>6} {args.count:>6} {answers:>8} {kinds['plan']:>6} "
        f"{kinds['error']:>7} {kinds['no plan']:>8} {kinds['gave up']:>8} "
        f"{kinds['traceback']:>11} {hung:>5} {seconds:>8.1f}",
        flush=True,
    )
    return tracebacks, hung


if __name__ == "__main__":
    raise SystemExit(main())

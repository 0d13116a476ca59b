"""Do the readers stay linear?  Time each on inputs of growing size and print the ratios.

Run: ``.venv/bin/python benchmarks/parse_scale.py`` (options: ``--sizes 1,2,4`` as
multiples of the base sizes, ``--repeat N`` runs per size, the best one kept).

Inputs are generated here, nothing is read from outside the repository:

* **EDAPS**: the bundled ``RM1`` design with extra ``P`` (plated through-hole), ``H``
  (with a ``T`` tap) and ``Z`` (with two ``Y`` pins) lines appended until it has
  25,000 x size lines -- 100,000 lines at size 4.  This is the case issue 26 found
  quadratic: the reader counted the items already read for every new item.
* **HDDL**: the bundled ``delivery`` domain's problem blown up with cities, packages,
  roads and packages' places until the file is about 1.25 MB x size -- 5 MB at size 4 --
  read with ``read_problem`` against the domain (parse, build, check).
* **PBN**: a board of the bundled deals repeated under new board numbers, 1,000 x size
  boards.

A linear reader takes about the same seconds per megabyte at every size: the last column
(time per unit divided by the smallest size's) stays near 1.0; a quadratic one doubles it
each time the size doubles.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from knowledge.bridge.pbn import read_pbn
from knowledge.edaps.parser import load_design
from knowledge.hddl import read_domain, read_problem

ROOT = Path(__file__).resolve().parent.parent
EDAPS_BASE_LINES = 25_000
HDDL_BASE_BYTES = 1_250_000
PBN_BASE_BOARDS = 1_000


def edaps_design(lines: int) -> str:
    """RM1 with P, H+T and Z+Y+Y lines appended up to ``lines`` lines in all."""
    base = (ROOT / "knowledge/edaps/designs/RM1.txt").read_text(encoding="utf-8").splitlines()
    out = list(base)
    i = 0
    while len(out) < lines:
        x, y = 0.1 + (i % 50) * 0.07, 0.1 + (i // 50 % 80) * 0.07
        kind = i % 3
        if kind == 0:
            out.append(f"P {x:.3f} {y:.3f} 1 0.2 10")
        elif kind == 1:
            out += [f"H {x:.3f} {y:.3f} 1 0.15 2.5", "T 40"]
        else:
            out += [
                f"Z {x:.3f} {y:.3f} 0 0.35 0.3 0.2 2 1 C{i} 1 1 0 0",
                "Y 0.175 0",
                "Y 0.175 0.3",
            ]
        i += 1
    return "\n".join(out[:lines]) + "\n"


def hddl_problem(size_bytes: int) -> str:
    """A delivery problem of about ``size_bytes``: many cities, roads and packages."""
    objects: list[str] = ["t1 - truck"]
    init: list[str] = ["(at t1 hq)", "(padded t1)"]
    tasks: list[str] = []
    n = 0
    length = 0
    while length < size_bytes:
        city, package = f"city{n}", f"package{n}"
        objects.append(f"{city} - city {package} - package")
        facts = [
            f"(road hq {city})",
            f"(road {city} hq)",
            f"(at {package} {city})",
        ]
        if n:
            facts += [f"(road city{n - 1} {city})", f"(road {city} city{n - 1})"]
        if n % 7 == 0:
            facts.append(f"(fragile {package})")
        init.extend(facts)
        if n < 50:
            tasks.append(f"(task{n} (deliver {package} hq))")
        length += sum(len(f) + 5 for f in facts) + len(objects[-1]) + 5
        n += 1
    return (
        "(define (problem delivery-big)\n  (:domain delivery)\n  (:objects\n    "
        + "\n    ".join(objects)
        + ")\n  (:htn\n    :parameters ()\n    :ordered-subtasks (and\n      "
        + "\n      ".join(tasks)
        + "))\n  (:init\n    "
        + "\n    ".join(init)
        + "))\n"
    )


def pbn_file(boards: int) -> str:
    """The first board of a bundled deal file, repeated as boards 1..``boards``."""
    text = (ROOT / "knowledge/bridge/deals/353021.pbn").read_text(encoding="utf-8")
    games = [g for g in text.split("\n\n") if '[Board "' in g]
    first = games[0]
    start = first.index('[Board "')
    head, rest = first[:start], first[start:]
    rest = rest[rest.index("\n") :]
    return head + "\n\n".join(f'[Board "{i}"]{rest}' for i in range(1, boards + 1)) + "\n"


def best_time(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4", help="multiples of the base sizes")
    parser.add_argument("--repeat", type=int, default=2, help="runs per size (best kept)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    domain = read_domain(ROOT / "knowledge/hddl/examples/delivery-domain.hddl")
    print(f"{'reader':<8} {'input':>22} {'MB':>7} {'seconds':>9} {'s/MB':>7} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases: list[tuple[str, Callable[[int], str], Callable[[Path], object], str]] = [
            ("EDAPS", lambda k: edaps_design(EDAPS_BASE_LINES * k), load_design, "lines"),
            (
                "HDDL",
                lambda k: hddl_problem(HDDL_BASE_BYTES * k),
                lambda p: read_problem(p, domain),
                "lines",
            ),
            ("PBN", lambda k: pbn_file(PBN_BASE_BOARDS * k), read_pbn, "boards"),
        ]
        for name, make, read, unit in cases:
            first: float | None = None
            for k in sizes:
                text = make(k)
                path = folder / f"{name.lower()}-{k}.txt"
                path.write_text(text, encoding="utf-8")
                mb = len(text.encode("utf-8")) / 1e6
                count = text.count('[Board "') if unit == "boards" else text.count("\n")
                seconds = best_time(functools.partial(read, path), args.repeat)
                per = seconds / mb
                first = per if first is None else first
                print(
                    f"{name:<8} {f'{count:,} {unit}':>22} {mb:7.2f} {seconds:9.2f} "
                    f"{per:7.3f} {per / first:6.2f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

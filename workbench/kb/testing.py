"""Knowledge tests: does the knowledge base still conclude what an expert expects?

A test names a problem and expected facts of its run (a lead time, the alternative chosen
at a named choice point, "unmanufacturable because of the hole at (0.20, 2.40)").  The
package computes the facts; this module compares them and says, for each failed
expectation, what was expected and what the run concluded.
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.tofs import DomainSpec, KnowledgeTest
from knowledge import (
    PackageError,
    PlanRequest,
    default_memory_budget,
    get_package,
    package_names,
)
from knowledge.batch import BatchExecutor, in_process

from ..places import Place, blame_lines, places
from .catalog import domain_owner
from .store import KnowledgeStore

__all__ = [
    "TestJob",
    "TestOutcome",
    "check",
    "jobs_for_tests",
    "render_report",
    "run_test_job",
    "run_test_jobs",
    "run_tests",
]


@dataclass
class TestOutcome:
    test: KnowledgeTest
    passed: bool
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    traceback: str | None = None  # set when running the test raised: a fault, not a failure
    places: list[Place] = field(default_factory=list)
    """Where to look, when the test failed and its run found no plan: the deepest failure's
    blame and the suspects (:func:`workbench.places.places`); ``failures`` ends with them
    in words."""


def _same(expected: Any, actual: Any, tolerance: float) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(expected, actual, rel_tol=0.0, abs_tol=tolerance)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            _same(e, a, tolerance) for e, a in zip(expected, actual, strict=True)
        )
    return bool(expected == actual)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)


def check(test: KnowledgeTest, facts: dict[str, Any]) -> list[str]:
    """Each unmet expectation, in words."""
    failures = []
    for key, expected in test.expect.items():
        if key not in facts:
            failures.append(
                f"'{key}' is not something this domain reports "
                f"(it reports: {', '.join(sorted(facts))})"
            )
            continue
        actual = facts[key]
        if key == "chosen" and isinstance(expected, dict):
            for task, label in expected.items():
                got = actual.get(task)
                if got is None:
                    failures.append(
                        f"no choice point '{task}' on the plan (choice points: "
                        f"{', '.join(sorted(actual)) or 'none'})"
                    )
                elif got != label:
                    failures.append(f"at '{task}' expected {label}, the plan chose {got}")
            continue
        if not _same(expected, actual, test.tolerance):
            failures.append(f"{key}: expected {_show(expected)}, got {_show(actual)}")
    return failures


@dataclass(frozen=True)
class TestJob:
    """One knowledge test to run, with all it needs as data: the domain as edited (its
    spec) and the problem's stored text travel with it, so that a worker on another
    machine needs only the installed project, never this machine's store."""

    __test__ = False  # not a pytest test class, whatever its name

    domain: str
    package: str | None  # None: no package can run the domain
    test: KnowledgeTest
    spec: DomainSpec
    problem_text: str | None = None


def jobs_for_tests(
    domain: str,
    spec: DomainSpec,
    store: KnowledgeStore | None = None,
    names: list[str] | None = None,
) -> list[TestJob]:
    """A domain's knowledge tests (all, or those named) as jobs, read from ``store``."""
    owner = domain_owner(domain)
    # A domain no package bundles (one imported in a package's own language) runs with the
    # package the store says it belongs to.
    package = owner[0] if owner is not None else None
    if package is None and store is not None and store.has_domain(domain):
        package = store.package_of(domain) or None
    if package is not None and package not in package_names():
        package = None
    jobs = []
    for test in spec.tests:
        if names and test.name not in names:
            continue
        text = (
            store.problem_text(domain, test.problem)
            if store is not None and package is not None
            else None
        )
        jobs.append(TestJob(domain, package, test, spec, text))
    return jobs


def run_test_job(job: TestJob) -> TestOutcome:
    """Run one knowledge test and check its facts: a failed expectation is a failure, bad
    input an error, and a bug in a package or a primitive an error with its traceback --
    never an exception, so one test's fault does not stop the rest."""
    t0 = time.perf_counter()
    if job.package is None:
        return TestOutcome(job.test, False, error=f"no package can run '{job.domain}'")
    pkg = get_package(job.package)
    test = job.test
    options = dict(test.options)
    try:
        request = PlanRequest(
            problem=test.problem,
            spec=job.spec,
            problem_text=job.problem_text,
            full_tree=bool(options.get("full_tree", False)),
            prune=bool(options.get("prune", True)),
            mode=options.get("mode"),
            node_budget=options.get("node_budget"),
            time_budget=options.get("time_budget"),
            # Every run has a memory budget, as `plan` gives one: a test that blows up
            # stops with what it found instead of taking the machine down with the batch.
            memory_budget=options.get("memory_budget") or default_memory_budget(),
        )
        from knowledge.pipeline import outcome_facts, run_plan

        # ``run_facts`` without throwing the run away: a failed test whose run found no
        # plan says where the knowledge went wrong, as the planning screen does.
        outcome = run_plan(pkg, request)
        facts = outcome_facts(outcome)
    except (PackageError, ValueError, OSError) as exc:
        return TestOutcome(test, False, seconds=time.perf_counter() - t0, error=str(exc))
    except Exception as exc:  # a bug in a package or a primitive: report it, run the rest
        return TestOutcome(
            test,
            False,
            seconds=time.perf_counter() - t0,
            error=f"{type(exc).__name__}: {exc}",
            traceback="".join(traceback.format_exception(exc)),
        )
    failures = check(test, facts)
    found: list[Place] = []
    if failures:
        found = places(outcome.result)
        failures += blame_lines(outcome.result)
    return TestOutcome(test, not failures, failures, time.perf_counter() - t0, places=found)


def _could_not_run(job: TestJob, error: str, traceback_text: str | None) -> TestOutcome:
    """A test whose job never ran to the end on a cluster (its worker kept dying)."""
    return TestOutcome(job.test, False, error=error, traceback=traceback_text)


def run_test_jobs(
    jobs: Sequence[TestJob],
    executor: BatchExecutor | None = None,
    progress: Callable[[int, int, TestOutcome], None] | None = None,
) -> list[TestOutcome]:
    """Every job's outcome, in job order: in this process, or on ``executor`` (a Dask
    cluster's, :mod:`workbench.cluster`) with the same outcomes."""
    run = executor if executor is not None else in_process
    return run(run_test_job, jobs, failed=_could_not_run, progress=progress)


def run_tests(
    domain: str,
    spec: DomainSpec,
    store: KnowledgeStore | None = None,
    names: list[str] | None = None,
) -> list[TestOutcome]:
    """Run a domain's knowledge tests (all, or those named) against ``spec``."""
    return run_test_jobs(jobs_for_tests(domain, spec, store, names))


def render_report(domain: str, outcomes: list[TestOutcome]) -> str:
    lines = []
    for o in outcomes:
        mark = "PASS" if o.passed else "FAIL"
        lines.append(f"{mark}  {domain}: {o.test.name}  [{o.test.problem}, {o.seconds:.2f} s]")
        if o.error:
            lines.append(f"      error: {o.error}")
        lines.extend(f"      {f}" for f in o.failures)
    passed = sum(o.passed for o in outcomes)
    lines.append(f"{domain}: {passed} passed, {len(outcomes) - passed} failed")
    return "\n".join(lines)

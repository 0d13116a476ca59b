"""The package contract: every package is one typed subclass, found by name or through the
entry-point group; a package written elsewhere (``tests/toy_package``) plans, explains and
takes its own ``plan`` flag with no generic code knowing of it; and the command line, the
workbench's runner and ``kb test`` plan through the one pipeline to the same result."""

from __future__ import annotations

import importlib.metadata
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.tofs import KnowledgeTest
from knowledge import KnowledgePackage, PackageError, get_package, package_names, pipeline
from knowledge import registry as registry_module
from knowledge.registry import ENTRY_POINT_GROUP, SHIPPED
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
HDDL = ROOT / "knowledge" / "hddl" / "examples"


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy package, installed as another distribution would install it: an entry point
    in the ``tofs_workbench.packages`` group naming its class."""
    real = importlib.metadata.entry_points
    toy = importlib.metadata.EntryPoint(
        name="toy", value="tests.toy_package:ToyPackage", group=ENTRY_POINT_GROUP
    )

    def entry_points(**selection: Any) -> Any:
        if selection.get("group") == ENTRY_POINT_GROUP:
            return importlib.metadata.EntryPoints([toy])
        return real(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry_module.reset()
    yield
    monkeypatch.undo()
    registry_module.reset()


def test_every_shipped_package_is_one_subclass() -> None:
    for name in SHIPPED:
        pkg = get_package(name)
        assert isinstance(pkg, KnowledgePackage) and type(pkg) is not KnowledgePackage
        assert pkg.name == name
    assert {type(get_package(n)).__name__ for n in SHIPPED} == {
        "ExamplesPackage",
        "EdapsPackage",
        "BridgePackage",
        "HddlPackage",
    }


def test_the_shipped_packages_are_declared_in_the_entry_point_group() -> None:
    """pyproject.toml declares them too, so an installed distribution lists all four."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["entry-points"][ENTRY_POINT_GROUP]
    assert declared == SHIPPED


def test_an_unknown_package_lists_those_there_are() -> None:
    with pytest.raises(PackageError, match="no knowledge package 'nope'; packages: bridge"):
        get_package("nope")


def test_the_base_class_hooks_default_to_no_effect() -> None:
    base = KnowledgePackage()
    assert base.phrasing(None) is None  # type: ignore[arg-type]
    assert base.findings(None, None, None) == []  # type: ignore[arg-type]
    assert base.analysis(None, None, None) is None  # type: ignore[arg-type]
    assert base.output_formats() == {} and base.refused_modes == {}
    assert not base.reads_stored_problems


def test_a_package_from_another_distribution_plans_explains_and_takes_its_flag(
    toy_installed: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "toy" in package_names()
    db = str(tmp_path / "kb.db")
    assert main(["plan", "toy", "errand", "--json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["operator"] for s in data["plan"]] == ["DriveToTown"] and data["value"] == 10
    # Its own flag, parsed by its own parser and carried in the request's options.
    assert main(["plan", "toy", "errand", "--no-car", "--json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["operator"] for s in data["plan"]] == ["WalkToTown"] and data["value"] == 30
    assert main(["plan", "toy", "errand", "--no-car", "--explain", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Get to town: walk." in out and "needs `has_car()`" in out
    assert main(["list", "--db", db]) == 0
    assert "toy: A toy package from the tests" in capsys.readouterr().out
    # The flag is the toy's alone: another package refuses it, in one line.
    with pytest.raises(SystemExit) as refused:
        main(["plan", "examples", "dinner", "--no-car"])
    assert refused.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "package 'examples' takes no argument '--no-car'" in err


def test_no_generic_code_names_the_toy_package() -> None:
    generic = [ROOT / "knowledge" / "__init__.py", *(ROOT / "workbench").rglob("*.py")]
    for path in generic:
        text = path.read_text(encoding="utf-8")
        assert "toy_package" not in text and "errand" not in text, path


# ------------------------------------------------------- one pipeline behind three front ends


def _problems(db: str) -> list[tuple[str, str, str | None, list[str]]]:
    """(package, problem, stored domain, the CLI's arguments) of one problem per package."""
    assert main(["kb", "import", str(HDDL / "delivery-domain.hddl"),
                 str(HDDL / "delivery-p1.hddl"), "--db", db]) == 0  # fmt: skip
    return [
        ("examples", "dinner", None, ["dinner"]),
        ("edaps", "RM1", None, ["RM1"]),
        ("bridge", "353021-trick5", None, ["353021-trick5"]),
        ("hddl", "delivery-p1", "delivery", ["delivery", "delivery-p1"]),
    ]


def test_the_command_line_the_workbench_and_kb_test_give_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from workbench.kb.catalog import open_store
    from workbench.kb.testing import TestJob, run_test_job
    from workbench.runner import ProblemRef, RunSettings, execute

    db = str(tmp_path / "kb.db")
    problems = _problems(db)
    capsys.readouterr()
    seen: list[dict[str, Any]] = []
    real = pipeline.run_plan

    def recording(*args: Any, **kwargs: Any) -> pipeline.PlanOutcome:
        outcome = real(*args, **kwargs)
        seen.append(outcome.record())
        return outcome

    monkeypatch.setattr(pipeline, "run_plan", recording)
    for package, problem, domain, argv in problems:
        seen.clear()
        assert main(["plan", package, *argv, "--db", db]) == 0
        execute(ProblemRef(package, problem, domain), None, None, Path(db), RunSettings())
        store = open_store(Path(db))
        try:
            name = domain or get_package(package).domain_of(problem)
            spec, text = store.load(name), store.problem_text(name, problem)
        finally:
            store.close()
        test = KnowledgeTest(name="same", problem=problem, expect={"found": True})
        assert run_test_job(TestJob(name, package, test, spec, text)).passed
        assert len(seen) == 3, (package, seen)
        cli, workbench, kb_test = seen
        assert cli == workbench == kb_test, package
        assert cli["plan"] and cli["package"] == package

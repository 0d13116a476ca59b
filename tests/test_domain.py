"""Compiling domains and reading KB source files: every problem reported, with its place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.tofs import (
    ConstantDef,
    DomainError,
    DomainSpec,
    EvaluationError,
    MethodDef,
    OperatorDef,
    Problem,
    Registry,
    SearchOptions,
    SourceError,
    TaskDef,
    compile_domain,
    parse_domain_source,
    plan,
)
from engine.tofs.domain import make_task

ROOT = Path(__file__).resolve().parent.parent


def test_compile_reports_every_problem_with_its_place() -> None:
    spec = DomainSpec(
        name="broken",
        tasks=[TaskDef(name="T", params=["x"])],
        methods=[
            MethodDef(name="A", task="T", precondition="x > ", subtasks=[]),
            MethodDef(name="B", task="T", precondition="y == 1", subtasks=["Nope(x)"]),
            MethodDef(name="C", task="T", subtasks=["T(x, x)"]),
            MethodDef(name="D", task="Missing", subtasks=[]),
            MethodDef(name="E", task="T", operator="Op(x.real)"),
        ],
        operators=[
            OperatorDef(name="Op", params=["v"], effect="not_registered", costs={"run": "v ** 2"})
        ],
    )
    with pytest.raises(DomainError) as info:
        compile_domain(spec, Registry("broken"))
    problems = [str(p) for p in info.value.problems]
    text = "\n".join(problems)
    assert (
        "method T.A [precondition, column 4]: syntax error: the expression ends too early" in text
    )
    assert "method T.B [precondition, column 1]: unknown name 'y'" in text
    assert "'Nope' is neither a task nor an operator" in text
    assert "'T' takes 1 argument(s), 2 given" in text
    assert "method Missing.D [task]: no task named 'Missing'" in text
    assert "attribute access is not allowed" in text
    assert "power operator (**) is not allowed" in text
    assert "no effect function 'not_registered'" in text
    assert len(problems) == 8


@pytest.mark.parametrize(
    ("rule", "value", "message"),
    [
        ({"kind": int, "minimum": 0}, 12, None),
        ({"kind": int, "minimum": 0}, 12.0, None),  # TOML and JSON may write a whole number so
        ({"kind": int, "minimum": 0}, 1.5, "expected a whole number of at least 0, got 1.5"),
        ({"kind": int, "minimum": 0}, -1, "expected a whole number of at least 0, got -1"),
        (
            {"kind": int, "minimum": 1, "maximum": 13},
            14,
            "expected a whole number from 1 to 13, got 14",
        ),
        ({"kind": float, "minimum": 0}, True, "expected a number of at least 0, got True"),
        ({"kind": float, "minimum": 0}, "twenty", "expected a number of at least 0, got 'twenty'"),
        ({"kind": float, "maximum": 1}, 0.5, None),
        ({"kind": str, "choices": ("a", "b")}, "c", "expected one of a, b, got 'c'"),
        ({"kind": str, "choices": ("a", "b")}, 3, "expected one of a, b, got 3"),
        ({"kind": str}, "anything", None),
    ],
)
def test_constant_rules(rule: dict, value: object, message: str | None) -> None:
    reg = Registry("rules")
    reg.constant("c", **rule)
    assert reg.constant_rules["c"].problem(value) == message


def test_a_constant_the_code_reads_is_checked_when_the_domain_compiles() -> None:
    """A registered rule -- and the engine's own, for the likelihood cutoff -- turns a bad
    value into a compile problem naming the constant's value field."""
    reg = Registry("rules")
    reg.constant("samples", int, minimum=0)
    spec = DomainSpec(
        name="rules",
        constants=[
            ConstantDef(name="samples", value="many"),
            ConstantDef(name="likelihood_cutoff", value=2),
            ConstantDef(name="free", value="any word at all"),
        ],
        tasks=[TaskDef(name="T")],
        methods=[MethodDef(name="M", task="T", subtasks=[])],
    )
    with pytest.raises(DomainError) as info:
        compile_domain(spec, reg)
    assert [str(p) for p in info.value.problems] == [
        "constant samples [value]: expected a whole number of at least 0, got 'many'",
        "constant likelihood_cutoff [value]: expected a number from 0 to 1, got 2",
    ]
    with pytest.raises(ValueError, match="kind must be int, float or str"):
        reg.constant("flag", bool)


def test_model_rejects_bad_shapes() -> None:
    with pytest.raises(ValueError, match="exactly one of 'subtasks'"):
        MethodDef(name="M", task="T")
    with pytest.raises(ValueError, match="agent 'Z' is not one of the parameters"):
        TaskDef(name="T", params=["P"], agent="Z")
    with pytest.raises(ValueError, match="defined twice"):
        DomainSpec(name="d", tasks=[TaskDef(name="T"), TaskDef(name="T")])


def test_toml_syntax_error_names_line_and_column() -> None:
    with pytest.raises(SourceError) as info:
        parse_domain_source('name = "x"\n[[tasks]]\nname = \n', "kb.toml")
    msg = str(info.value)
    assert msg.startswith("kb.toml: cannot read the domain")
    assert "line 3" in msg and "column" in msg


def test_structure_error_names_the_field() -> None:
    with pytest.raises(SourceError) as info:
        parse_domain_source(
            'name = "x"\n[[tasks]]\nname = "T"\n[[methods]]\nname = "M"\n'
            'task = "T"\nsubtasks = "not a list"\n',
            "kb.toml",
        )
    assert "methods[0] (M).subtasks" in str(info.value)


def test_runtime_error_in_an_expression_names_the_method_and_field() -> None:
    reg = Registry("zero")
    spec = DomainSpec(
        name="zero",
        tasks=[TaskDef(name="T")],
        methods=[MethodDef(name="M", task="T", operator="Op(0)")],
        operators=[OperatorDef(name="Op", params=["n"], costs={"run": "1 / n"})],
    )
    d = compile_domain(spec, reg)
    with pytest.raises(EvaluationError) as info:
        plan(d, Problem("p", None, (make_task(d, "T"),)))
    assert "operator Op(0) [costs.run]: `1 / n` raised ZeroDivisionError" in str(info.value)


def test_no_plan_is_a_result_with_the_deepest_failure() -> None:
    reg = Registry("fail")
    spec = DomainSpec(
        name="fail",
        constants=[],
        tasks=[TaskDef(name="T"), TaskDef(name="U", params=["k"])],
        methods=[
            MethodDef(name="Go", task="T", subtasks=["U(1)"]),
            MethodDef(name="Small", task="U", precondition="k > 2 and k < 9", subtasks=[]),
        ],
    )
    d = compile_domain(spec, reg)
    r = plan(d, Problem("p", None, (make_task(d, "T"),)), SearchOptions())
    assert r.value is None and r.status.value == "no plan"
    assert r.failure is not None and r.failure.field == "no method"
    (cause,) = r.failure.causes
    assert cause.method == "Small" and cause.failing == "k > 2"
    assert [(v.text, v.value) for v in cause.values] == [("k", 1)]
    assert r.failure.message == "U(1): no method applies (Small needs `k > 2` (k = 1))"


def test_engine_imports_no_textual_sqlite_or_domain_code() -> None:
    banned = ("textual", "sqlite3", "sqlite_utils", "knowledge", "workbench", "endplay")
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for n in names:
                assert n.split(".")[0] not in banned, f"{path} imports {n}"


def test_knowledge_imports_no_textual_or_sqlite() -> None:
    for path in (ROOT / "knowledge").rglob("*.py"):
        text = path.read_text()
        tree = ast.parse(text, str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                for m in mods:
                    assert m.split(".")[0] not in (
                        "textual",
                        "sqlite3",
                        "sqlite_utils",
                        "workbench",
                    ), f"{path} imports {m}"

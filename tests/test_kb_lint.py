"""The knowledge linter: each rule fires on a small domain made to break it, and only there.

Every rule has a domain that triggers exactly that rule (the exact rule, name and field
are asserted) and a clean variant; the shipped domains lint clean with their registries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.tofs import (
    ConstantDef,
    DomainSpec,
    MethodDef,
    OperatorDef,
    Registry,
    TaskDef,
    load_domain_file,
)
from workbench.kb.lint import RULES, Finding, lint_domain

ROOT = Path(__file__).resolve().parent.parent


def domain(**changes: Any) -> DomainSpec:
    """A clean one-task domain; keyword arguments replace or extend its parts."""
    data: dict[str, Any] = {
        "name": "d",
        "roots": ["Root"],
        "tasks": [TaskDef(name="Root", label="Do it")],
        "methods": [MethodDef(name="Only", task="Root", subtasks=["Act()"])],
        "operators": [OperatorDef(name="Act")],
    }
    extras = {
        key: changes.pop(f"extra_{key}", [])
        for key in ("tasks", "methods", "operators", "constants")
    }
    data.update(changes)
    for key, extra in extras.items():
        data[key] = [*data.get(key, []), *extra]
    return DomainSpec(**data)


def found(spec: DomainSpec, registry: Registry | None = None) -> list[tuple[str, str, str]]:
    return [(f.rule, f.name, f.field) for f in lint_domain(spec, registry)]


def test_the_base_domain_is_clean_with_and_without_a_registry() -> None:
    assert found(domain()) == []
    assert found(domain(), Registry("d")) == []


# ---------------------------------------------------------------------------- compile


def test_compile_reports_syntax_and_unknown_names_without_a_registry() -> None:
    spec = domain(
        methods=[
            MethodDef(name="Only", task="Root", precondition="x >", subtasks=["Act()"]),
            MethodDef(name="Other", task="Root", precondition="y == 1", subtasks=["Act()"]),
        ],
        tasks=[TaskDef(name="Root", params=["x"], label="Do {x}")],
        roots=["Root"],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("compile", "error", "method", "Root.Only", "precondition"),
        ("compile", "error", "method", "Root.Other", "precondition"),
    ]
    assert "syntax error" in findings[0].message and "(column 4)" in findings[0].message
    assert "unknown name 'y'" in findings[1].message and "(column 1)" in findings[1].message


def test_compile_without_a_registry_assumes_called_primitives_and_effects() -> None:
    spec = domain(
        methods=[
            MethodDef(name="Only", task="Root", precondition="ready(3) > 1", subtasks=["Act()"])
        ],
        operators=[OperatorDef(name="Act", effect="do_it", costs={"run": "minutes()"})],
    )
    assert found(spec) == []
    # With the (empty) registry those names are checked.
    assert found(spec, Registry("d")) == [
        ("compile", "Act", "costs.run"),
        ("compile", "Act", "effect"),
        ("compile", "Root.Only", "precondition"),
    ]


def test_compile_without_a_registry_still_refuses_calling_a_constant_and_arity() -> None:
    spec = domain(
        constants=[ConstantDef(name="limit", value=3, type="integer")],
        methods=[
            MethodDef(name="Only", task="Root", precondition="limit(1) > 0", subtasks=["Act(1)"])
        ],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.name, f.field) for f in findings] == [
        ("compile", "Root.Only", "precondition"),
        ("compile", "Root.Only", "subtasks[0]"),
    ]
    assert "cannot call 'limit': a constant" in findings[0].message
    assert "'Act' takes 0 argument(s), 1 given" in findings[1].message


def test_a_broken_call_is_compile_only_and_still_uses_its_operator() -> None:
    spec = domain(methods=[MethodDef(name="Only", task="Root", subtasks=["Act("])])
    findings = lint_domain(spec)
    assert [(f.rule, f.name, f.field) for f in findings] == [
        ("compile", "Root.Only", "subtasks[0]")
    ]
    assert "syntax error" in findings[0].message


def test_compile_checks_whitelist_and_templates_without_a_registry() -> None:
    spec = domain(
        tasks=[TaskDef(name="Root", params=["x"], label="Do {x.real}")],
        operators=[OperatorDef(name="Act", costs={"run": "2 ** 3"})],
    )
    assert found(spec) == [("compile", "Act", "costs.run"), ("compile", "Root", "label")]


def test_a_registered_primitive_compiles_clean() -> None:
    reg = Registry("d")

    @reg.primitive
    def ready(state: Any, n: int) -> int:
        return n

    spec = domain(
        methods=[
            MethodDef(name="Only", task="Root", precondition="ready(3) > 1", subtasks=["Act()"])
        ]
    )
    assert found(spec, reg) == []


# ---------------------------------------------------------------------- undefined-task


def test_undefined_task_calls_method_tasks_and_roots() -> None:
    spec = domain(
        roots=["Root", "Act", "Rot"],
        methods=[MethodDef(name="Only", task="Root", subtasks=["Act()", "Actt()"])],
        extra_methods=[
            MethodDef(name="Lost", task="Ghost", subtasks=[]),
            MethodDef(name="Call", task="Root", operator="Nothing()"),
        ],
        tasks=[TaskDef(name="Root", label="Do it")],
    )
    expected = [
        ("undefined-task", "Ghost.Lost", "task"),
        ("undefined-task", "Root.Call", "operator"),
        ("undefined-task", "Root.Only", "subtasks[1]"),
        ("undefined-task", "d", "roots[1]"),
        ("undefined-task", "d", "roots[2]"),
    ]
    assert found(spec) == expected
    # With a registry compile_domain finds the same calls; they are reported once.
    assert found(spec, Registry("d")) == expected
    messages = {(f.name, f.field): f.message for f in lint_domain(spec)}
    assert messages["Root.Only", "subtasks[1]"] == (
        "'Actt' is neither a task nor an operator; did you mean 'Act'?"
    )
    assert "it is an operator" in messages["d", "roots[1]"]
    assert "did you mean 'Root'?" in messages["d", "roots[2]"]


# -------------------------------------------------------------- unreachable / no-roots


def test_unreachable_task_and_the_operators_only_it_calls() -> None:
    spec = domain(
        extra_tasks=[TaskDef(name="Orphan")],
        extra_methods=[MethodDef(name="Do", task="Orphan", subtasks=["Lonely()"])],
        extra_operators=[OperatorDef(name="Lonely")],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("unreachable-task", "warning", "operator", "Lonely", ""),
        ("unreachable-task", "warning", "task", "Orphan", ""),
    ]
    assert str(findings[1]) == (
        "warning [unreachable-task] task Orphan: not reachable from the roots (Root)"
    )
    assert found(spec.model_copy(update={"roots": ["Root", "Orphan"]})) == []


def test_no_roots_replaces_reachability() -> None:
    spec = domain(
        roots=[],
        extra_tasks=[TaskDef(name="Orphan")],
        extra_methods=[MethodDef(name="Do", task="Orphan", subtasks=["Act()"])],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("no-roots", "warning", "domain", "d", "roots")
    ]


# ---------------------------------------------------------------- task-without-methods


def test_task_without_methods() -> None:
    spec = domain(
        methods=[MethodDef(name="Only", task="Root", subtasks=["Act()", "Empty()"])],
        extra_tasks=[TaskDef(name="Empty")],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("task-without-methods", "error", "task", "Empty", "")
    ]
    clean = spec.model_copy(
        update={"methods": [*spec.methods, MethodDef(name="Nothing", task="Empty", subtasks=[])]}
    )
    assert found(clean) == []


# --------------------------------------------------------------------- unused-operator


def test_unused_operator_is_not_also_unreachable() -> None:
    spec = domain(extra_operators=[OperatorDef(name="Spare")])
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in lint_domain(spec)] == [
        ("unused-operator", "warning", "operator", "Spare", "")
    ]
    clean = spec.model_copy(
        update={"methods": [MethodDef(name="Only", task="Root", subtasks=["Act()", "Spare()"])]}
    )
    assert found(clean) == []


# -------------------------------------------------------------------- never-applicable


def _pre(*preconditions: str, **extra: Any) -> DomainSpec:
    return domain(
        tasks=[TaskDef(name="Root", params=["x"], label="Do {x}")],
        constants=[
            ConstantDef(name="max_x", value=5, type="integer"),
            ConstantDef(name="mode", value="slow", type="text"),
        ],
        methods=[
            MethodDef(name=f"M{i}", task="Root", precondition=p, subtasks=["Act()"])
            for i, p in enumerate(preconditions)
        ],
        **extra,
    )


def test_never_applicable_folds_constants_and_false_conjuncts() -> None:
    spec = _pre(
        "x > 3 and max_x < 0",
        "False",
        "x > 3 and False",
        "mode == 'fast'",
        "x > 1 and (x < 9 and max(max_x, 2) > 7)",
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("never-applicable", "warning", "method", f"Root.M{i}", "precondition") for i in range(5)
    ]
    msg = {f.name: f.message for f in findings}
    assert (
        msg["Root.M0"]
        == "'x > 3 and max_x < 0' can never hold: 'max_x < 0' is always false (max_x = 5)"
    )
    assert msg["Root.M1"] == "'False' can never hold"
    assert msg["Root.M2"] == "'x > 3 and False' can never hold: 'False' is always false"
    assert msg["Root.M3"] == "'mode == 'fast'' can never hold (mode = 'slow')"
    assert "'max(max_x, 2) > 7' is always false (max_x = 5)" in msg["Root.M4"]


def test_never_applicable_leaves_state_and_variables_alone() -> None:
    assert (
        found(_pre("x > 3 and max_x > 0", "max_x == 5", "now() > 99 or False", "x > 1 or False"))
        == []
    )


def test_never_applicable_folds_pure_registered_primitives_only() -> None:
    reg = Registry("d")

    @reg.primitive(uses_state=False)
    def double(n: int) -> int:
        return 2 * n

    @reg.primitive
    def now(state: Any) -> int:
        return 0

    spec = _pre("double(2) > max_x", "now() > max_x")
    assert found(spec, reg) == [("never-applicable", "Root.M0", "precondition")]
    # Without the registry nothing is known about double(), so nothing is folded.
    assert found(spec) == []


# -------------------------------------------------------------- cycle-without-operator


def test_cycle_through_a_nullable_prefix() -> None:
    spec = domain(
        methods=[MethodDef(name="Only", task="Root", subtasks=["B()", "Loop()"])],
        extra_tasks=[
            TaskDef(name="A"),
            TaskDef(name="B"),
            TaskDef(name="Skip"),
            TaskDef(name="Loop"),
        ],
        extra_methods=[
            MethodDef(name="First", task="A", subtasks=["B()", "Act()"]),
            MethodDef(name="Around", task="B", subtasks=["Skip()", "A()"]),
            MethodDef(name="Nothing", task="Skip", subtasks=[]),
            MethodDef(name="Again", task="Loop", subtasks=["Loop()", "Act()"]),
        ],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("cycle-without-operator", "error", "task", "A", ""),
        ("cycle-without-operator", "error", "task", "Loop", ""),
    ]
    assert findings[0].message == (
        "A -> B -> A can repeat without applying an operator (via A.First, B.Around)"
    )
    assert findings[1].message == (
        "Loop -> Loop can repeat without applying an operator (via Loop.Again)"
    )


def test_right_recursion_after_an_operator_is_not_a_cycle() -> None:
    spec = domain(
        tasks=[TaskDef(name="Root", params=["i"], label="Step {i}")],
        methods=[
            MethodDef(
                name="Next",
                task="Root",
                precondition="i < n()",
                subtasks=["Skip()", "Act()", "Root(i + 1)"],
            ),
            MethodDef(name="Done", task="Root", precondition="i >= n()", subtasks=[]),
        ],
        extra_tasks=[TaskDef(name="Skip")],
        extra_methods=[MethodDef(name="Nothing", task="Skip", subtasks=[])],
    )
    assert found(spec) == []


def test_edaps_drilling_left_recursive_would_be_caught() -> None:
    spec = load_domain_file(ROOT / "knowledge/edaps/edaps.toml")
    methods = [
        m.model_copy(update={"subtasks": ["DrillPths(i + 1)", "SetupAndDrill(pth(i))"]})
        if (m.task, m.name) == ("DrillPths", "DrillNextPth")
        else m
        for m in spec.methods
    ]
    findings = lint_domain(spec.model_copy(update={"methods": methods}))
    assert [(f.rule, f.name) for f in findings] == [("cycle-without-operator", "DrillPths")]


# ------------------------------------------------------------- uncontrolled-incomplete


def _game(methods: list[MethodDef], agent: str | None = "P") -> DomainSpec:
    return domain(
        tasks=[TaskDef(name="Root", params=["P"], agent=agent, label="{P} moves")],
        methods=methods,
    )


def test_uncontrolled_methods_need_weight_critic_company_and_an_agent() -> None:
    spec = _game(
        [
            MethodDef(name="Good", task="Root", operator="Act()", weight="0.5", critic="exact"),
            MethodDef(
                name="NoCritic",
                task="Root",
                operator="Act()",
                weight="0.5",
                assumption="it happens",
            ),
            MethodDef(name="NoWeight", task="Root", operator="Act()", critic="exact"),
            MethodDef(name="Plain", task="Root", subtasks=["Act()"]),
        ],
        agent=None,
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("uncontrolled-incomplete", "warning", "task", "Root", "agent"),
        ("uncontrolled-incomplete", "warning", "method", "Root.NoCritic", "critic"),
        ("uncontrolled-incomplete", "warning", "method", "Root.NoWeight", "weight"),
        ("uncontrolled-incomplete", "warning", "method", "Root.Plain", ""),
    ]
    msg = {(f.name, f.field): f.message for f in findings}
    assert msg["Root.NoCritic", "critic"] == (
        "an uncontrolled-agent method (it has weight, assumption) needs a critic"
    )


def test_complete_uncontrolled_methods_are_clean() -> None:
    spec = _game(
        [
            MethodDef(
                name="Rise",
                task="Root",
                operator="Act()",
                weight="0.1",
                critic="exact",
                assumption="East rises",
            ),
            MethodDef(
                name="Duck",
                task="Root",
                operator="Act()",
                weight="0.9",
                critic="same-operator",
                belief_view="east",
            ),
        ]
    )
    assert found(spec) == []


def test_a_belief_view_alone_marks_our_own_scheme_not_an_opponents_move() -> None:
    """Tignum 2's schemes pick the view their opponents are weighed by (§5.4.3)."""
    spec = _game(
        [
            MethodDef(name="Discard", task="Root", operator="Act()", belief_view="ruff"),
            MethodDef(name="Cash", task="Root", operator="Act()"),
        ]
    )
    assert found(spec) == []


# ---------------------------------------------------------------------- missing-label


def test_missing_label_on_choice_points_only() -> None:
    spec = domain(
        methods=[
            MethodDef(
                name="Only", task="Root", subtasks=["Choose()", "Pick()", "Branch(1)", "Flag()"]
            )
        ],
        extra_tasks=[
            TaskDef(name="Choose"),
            TaskDef(name="Pick"),
            TaskDef(name="Branch", params=["i"]),
            TaskDef(name="Flag"),
        ],
        extra_methods=[
            # two methods that can both apply: a choice point
            MethodDef(name="A", task="Choose", subtasks=["Act()"]),
            MethodDef(name="B", task="Choose", precondition="ok()", subtasks=["Act()"]),
            # one method, but bindings give one alternative per value
            MethodDef(name="Each", task="Pick", bindings=["v in things()"], subtasks=["Act()"]),
            # mutually exclusive by their preconditions: never a choice point
            MethodDef(
                name="More", task="Branch", precondition="x() and i < n()", subtasks=["Act()"]
            ),
            MethodDef(name="Less", task="Branch", precondition="n() <= i", subtasks=[]),
            MethodDef(name="Set", task="Flag", precondition="not flag()", subtasks=["Act()"]),
            MethodDef(name="Unset", task="Flag", precondition="flag()", subtasks=[]),
        ],
    )
    findings = lint_domain(spec)
    assert [(f.rule, f.severity, f.kind, f.name, f.field) for f in findings] == [
        ("missing-label", "warning", "task", "Choose", "label"),
        ("missing-label", "warning", "task", "Pick", "label"),
    ]
    assert findings[0].message == (
        "a choice point (2 methods that can apply together) has no label, so explanations "
        "show it as Choose()"
    )
    labelled = spec.model_copy(
        update={"tasks": [t.model_copy(update={"label": f"{t.name}!"}) for t in spec.tasks]}
    )
    assert found(labelled) == []


def test_missing_label_on_a_shipped_choice_point() -> None:
    spec = load_domain_file(ROOT / "knowledge/edaps/edaps.toml")
    tasks = [
        t.model_copy(update={"label": ""}) if t.name == "ApplyPhotoresist" else t
        for t in spec.tasks
    ]
    assert found(spec.model_copy(update={"tasks": tasks})) == [
        ("missing-label", "ApplyPhotoresist", "label")
    ]


# ---------------------------------------------------------------- the table and order


def test_rule_table_lists_every_rule_once_in_order() -> None:
    assert [r.name for r in RULES] == [
        "compile",
        "constant-type",
        "untyped-constant",
        "undefined-task",
        "no-roots",
        "unreachable-task",
        "task-without-methods",
        "unused-operator",
        "never-holds",
        "method-never-applies",
        "slip",
        "never-applicable",
        "cycle-without-operator",
        "uncontrolled-incomplete",
        "missing-label",
    ]
    assert all(r.description and "\n" not in r.description for r in RULES)
    assert {r.severity for r in RULES} == {"error", "warning"}


def test_findings_sorted_errors_first_then_rule_then_name_and_stable() -> None:
    spec = domain(
        roots=["Root"],
        methods=[MethodDef(name="Only", task="Root", subtasks=["Act()", "Empty()"])],
        extra_tasks=[TaskDef(name="Empty"), TaskDef(name="Zed"), TaskDef(name="Alpha")],
        extra_operators=[OperatorDef(name="Spare")],
    )
    findings = lint_domain(spec)
    assert [(f.severity, f.rule, f.name) for f in findings] == [
        ("error", "task-without-methods", "Alpha"),
        ("error", "task-without-methods", "Empty"),
        ("error", "task-without-methods", "Zed"),
        ("warning", "unreachable-task", "Alpha"),
        ("warning", "unreachable-task", "Zed"),
        ("warning", "unused-operator", "Spare"),
    ]
    shuffled = spec.model_copy(
        update={"tasks": list(reversed(spec.tasks)), "operators": list(reversed(spec.operators))}
    )
    assert lint_domain(shuffled) == findings
    assert str(findings[0]) == (
        "error [task-without-methods] task Alpha: has no methods, so it can never be accomplished"
    )


def test_rules_can_be_selected() -> None:
    spec = domain(extra_tasks=[TaskDef(name="Zed")], extra_operators=[OperatorDef(name="Spare")])
    assert {f.rule for f in lint_domain(spec, rules={"unused-operator"})} == {"unused-operator"}
    with pytest.raises(ValueError, match="unknown lint rule"):
        lint_domain(spec, rules={"no-such-rule"})


def test_finding_str_shows_the_field() -> None:
    f = Finding("missing-label", "warning", "task", "Pick", "label", "needs one")
    assert str(f) == "warning [missing-label] task Pick (label): needs one"


# ------------------------------------------------------------------ shipped domains

SHIPPED = [
    ("knowledge/examples/dinner.toml", "knowledge.examples.dinner"),
    ("knowledge/examples/finesse.toml", "knowledge.examples.finesse"),
    ("knowledge/edaps/edaps.toml", "knowledge.edaps.shop"),
]


@pytest.mark.parametrize(("path", "module"), SHIPPED, ids=[p for p, _ in SHIPPED])
def test_shipped_domains_lint_clean(path: str, module: str) -> None:
    """No errors and, after review, no warnings either (see the linter report)."""
    import importlib

    registry = importlib.import_module(module).registry
    spec = load_domain_file(ROOT / path)
    assert lint_domain(spec, registry) == []
    assert lint_domain(spec) == []

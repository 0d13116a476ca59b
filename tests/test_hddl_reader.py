"""Reading and writing HDDL: the model of small examples, messages that point at the mistake,
and a writer whose output reads back to an equal model.

Only files of this project are read (the examples under ``knowledge/hddl/examples/`` and the
broken files under ``tests/data/hddl/``); the IPC domains are for the benchmark.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.hddl import (
    HddlError,
    Issue,
    parse_domain,
    parse_problem,
    read_domain,
    read_problem,
    write_domain,
    write_problem,
)
from knowledge.hddl.model import (
    Action,
    And,
    Atom,
    Const,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    EffectForall,
    Equals,
    Exists,
    Forall,
    Formula,
    Imply,
    Method,
    Not,
    Or,
    Pos,
    Predicate,
    Problem,
    Subtask,
    Task,
    TaskCall,
    TaskNetwork,
    Term,
    Typed,
    TypeDef,
    Var,
    When,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "knowledge" / "hddl" / "examples"
BROKEN = Path(__file__).resolve().parent / "data" / "hddl"

# (domain file, its problem files)
EXAMPLE_SETS = [
    ("delivery-domain.hddl", ["delivery-p1.hddl", "delivery-unsolvable.hddl"]),
    ("lights-domain.hddl", ["lights-p1.hddl"]),
]


@pytest.fixture(scope="module")
def delivery() -> Domain:
    return read_domain(EXAMPLES / "delivery-domain.hddl")


@pytest.fixture(scope="module")
def lights() -> Domain:
    return read_domain(EXAMPLES / "lights-domain.hddl")


def method(domain: Domain, name: str) -> Method:
    return next(m for m in domain.methods if m.name == name)


def action(domain: Domain, name: str) -> Action:
    return next(a for a in domain.actions if a.name == name)


def issues(text: str, *, problem: bool = False, domain: Domain | None = None) -> list[Issue]:
    """What reading ``text`` reports; it must be refused."""
    with pytest.raises(HddlError) as caught:
        if problem:
            parse_problem(text, domain, path="t.hddl")
        else:
            parse_domain(text, path="t.hddl")
    assert isinstance(caught.value, ValueError)
    assert "Traceback" not in str(caught.value)
    return list(caught.value.issues)


def one(text: str, **kwargs: object) -> Issue:
    found = issues(text, **kwargs)  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0]


# -- the model of the examples --------------------------------------------------------------


def test_a_typed_hierarchy_with_either_and_constants(delivery: Domain) -> None:
    assert delivery.name == "delivery"
    assert delivery.types == (
        TypeDef("truck", ("vehicle",)),
        TypeDef("van", ("vehicle",)),
        TypeDef("vehicle", ("locatable",)),
        TypeDef("package", ("locatable",)),
        TypeDef("depot", ("location",)),
        TypeDef("city", ("location",)),
        # Named only as parents: declared by that use, under object.
        TypeDef("locatable", ("object",)),
        TypeDef("location", ("object",)),
    )
    assert delivery.ancestors("truck") == ("truck", "vehicle", "locatable", "object")
    assert delivery.constants == (Typed("hq", ("depot",)),)
    padded = next(p for p in delivery.predicates if p.name == "padded")
    assert padded.params == (Typed("?v", ("truck", "van")),)


def test_subtasks_with_an_ordering_are_held_in_their_total_order(delivery: Domain) -> None:
    m = method(delivery, "deliver-by-vehicle")
    # Listed drop, go1, take, go2; the :ordering says go1 < take < go2 < drop.
    assert [s.id for s in m.subtasks] == ["go1", "take", "go2", "drop"]
    assert m.subtasks[1] == Subtask("load", (Var("?v"), Var("?p"), Var("?from")), "take")
    assert m.task == TaskCall("deliver", (Var("?p"), Var("?to")))


def test_bare_subtasks_and_recursion(delivery: Domain) -> None:
    m = method(delivery, "drive-on")
    assert m.subtasks == (
        Subtask("drive", (Var("?v"), Var("?from"), Var("?next"))),
        Subtask("get-to", (Var("?v"), Var("?to"))),
    )
    assert m.subtasks[-1].name == m.task.name  # the method calls its own task
    assert all(s.id is None for s in m.subtasks)
    assert method(delivery, "arrived").subtasks == ()


def test_equality_imply_and_exists_in_a_precondition(delivery: Domain) -> None:
    pre = method(delivery, "deliver-by-vehicle").precondition
    assert pre == And(
        (
            Atom("at", (Var("?p"), Var("?from"))),
            Not(Equals(Var("?from"), Var("?to"))),
            Imply(Atom("fragile", (Var("?p"),)), Atom("padded", (Var("?v"),))),
            Exists((Typed("?l", ("location",)),), Atom("road", (Var("?l"), Var("?to")))),
        )
    )


def test_effects_add_and_delete(delivery: Domain) -> None:
    assert action(delivery, "drive").effect == EffectAnd(
        (Delete(Atom("at", (Var("?v"), Var("?from")))), Atom("at", (Var("?v"), Var("?to"))))
    )


def test_forall_and_when_in_an_effect(lights: Domain) -> None:
    switch = action(lights, "switch-all")
    assert switch.effect == EffectForall(
        (Typed("?l", ("lamp",)),),
        When(Atom("in", (Var("?l"), Var("?r"))), Atom("on", (Var("?l"),))),
    )
    assert method(lights, "already-lit").precondition == Forall(
        (Typed("?l", ("lamp",)),),
        Imply(Atom("in", (Var("?l"), Var("?r"))), Atom("on", (Var("?l"),))),
    )


def test_mixed_case_and_sections_in_any_order(lights: Domain) -> None:
    # Names are lower case; declarations keep the file's spelling for messages and views.
    assert lights.name == "lights" and lights.spelling == "Lights"
    assert lights.tasks == (Task("light-room", (Typed("?r", ("room",)),)),)
    assert lights.tasks[0].spelling == "Light-Room"
    assert [t.name for t in lights.types] == ["lamp", "room"]
    assert [p.name for p in lights.predicates] == ["on", "in", "powered"]
    # :ordered-tasks, and a named subtask whose id is lower case too.
    assert method(lights, "switch-them-on").subtasks == (Subtask("switch-all", (Var("?r"),), "t1"),)


def test_problems(delivery: Domain, lights: Domain) -> None:
    p1 = read_problem(EXAMPLES / "delivery-p1.hddl", delivery)
    assert (p1.name, p1.domain) == ("delivery-p1", "delivery")
    assert p1.objects[:2] == (Typed("north", ("city",)), Typed("south", ("city",)))
    assert p1.htn == TaskNetwork(
        (),
        (
            Subtask("deliver", (Const("books"), Const("south")), "task0"),
            Subtask("deliver", (Const("glasses"), Const("north")), "task1"),
        ),
    )
    assert Atom("at", (Const("t1"), Const("hq"))) in p1.init
    assert p1.goal == And(
        (
            Atom("at", (Const("books"), Const("south"))),
            Atom("at", (Const("glasses"), Const("north"))),
        )
    )
    # No road reaches the island: a problem with no plan (for the planner to come) still reads.
    stuck = read_problem(EXAMPLES / "delivery-unsolvable.hddl", delivery)
    assert stuck.htn is not None
    assert stuck.htn.subtasks == (Subtask("deliver", (Const("parcel"), Const("island"))),)
    assert stuck.goal is None
    # :init before :htn, :objects last, upper-case keywords, a :goal with forall.
    lit = read_problem(EXAMPLES / "lights-p1.hddl", lights)
    assert lit.domain == "lights"
    assert [o.name for o in lit.objects][-2:] == ["study", "hall"]
    assert isinstance(lit.goal, Forall)


def test_positions_point_at_the_construct_and_take_no_part_in_equality(delivery: Domain) -> None:
    m = method(delivery, "deliver-by-vehicle")
    assert m.pos == Pos(34, 12)  # its name, after "(:method "
    assert m.subtasks[0].pos == Pos(43, 8)  # "go1"
    # The same domain without its comments: other positions, an equal model.
    text = (EXAMPLES / "delivery-domain.hddl").read_text(encoding="utf-8")
    squeezed = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(";"))
    other = parse_domain(squeezed)
    assert other == delivery
    assert method(other, "deliver-by-vehicle").pos != m.pos


def test_a_problem_without_its_domain_is_read_unchecked() -> None:
    problem = parse_problem("(define (problem p) (:domain d) (:init (f a)) (:htn :tasks (t a)))")
    assert problem.init == (Atom("f", (Const("a"),)),)
    assert problem.htn == TaskNetwork((), (Subtask("t", (Const("a"),)),))


def test_keywords_may_name_things_where_no_keyword_can_stand() -> None:
    domain = parse_domain(
        "(define (domain domain) (:predicates (task ?x) (domain ?x))"
        " (:task problem :parameters (?x)) (:action define :parameters (?x)"
        " :precondition (and (task ?x) (domain ?x))))"
    )
    assert [p.name for p in domain.predicates] == ["task", "domain"]
    assert domain.tasks[0].name == "problem" and domain.actions[0].name == "define"


# -- the writer -----------------------------------------------------------------------------


@pytest.mark.parametrize(("domain_file", "problem_files"), EXAMPLE_SETS)
def test_round_trip_of_the_examples(domain_file: str, problem_files: list[str]) -> None:
    domain = read_domain(EXAMPLES / domain_file)
    text = write_domain(domain)
    assert parse_domain(text) == domain
    assert write_domain(parse_domain(text)) == text  # a fixed point
    for name in problem_files:
        problem = read_problem(EXAMPLES / name, domain)
        written = write_problem(problem)
        assert parse_problem(written, domain) == problem
        assert write_problem(parse_problem(written, domain)) == written


def test_the_writer_puts_subtasks_in_order_as_ordered_subtasks(delivery: Domain) -> None:
    text = write_domain(delivery)
    assert ":subtasks" not in text and ":ordering" not in text
    assert (
        ":ordered-subtasks (and\n"
        "      (go1 (get-to ?v ?from))\n"
        "      (take (load ?v ?p ?from))\n"
        "      (go2 (get-to ?v ?to))\n"
        "      (drop (unload ?v ?p ?to))))"
    ) in text
    assert "(:task deliver :parameters (?p - package ?to - location))" in text
    assert "(padded ?v - (either truck van))" in text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_the_writer_refuses_names_hddl_cannot_spell() -> None:
    with pytest.raises(ValueError, match="no HDDL name"):
        write_domain(Domain("two words"))
    with pytest.raises(ValueError, match="keyword"):
        write_domain(Domain("d", predicates=(Predicate("and"),)))
    with pytest.raises(ValueError, match="not lower case"):
        write_domain(Domain("Delivery"))
    with pytest.raises(ValueError, match="no HDDL variable"):
        write_domain(Domain("d", tasks=(Task("t", (Typed("x"),)),)))


# Random formulas and effects over one small signature, written and read back.
_terms: st.SearchStrategy[Term] = st.sampled_from([Var("?a"), Var("?b"), Const("k")])
_atoms: st.SearchStrategy[Atom] = st.builds(
    lambda name, arg: Atom(name, (arg,)), st.sampled_from(["p", "q"]), _terms
) | st.builds(lambda a, b: Atom("r", (a, b)), _terms, _terms)
# Quantifiers bind ?c, which the random trees may also use outside them: the method and the
# action declare it as well, so that only the round trip is under test, not the scopes.
_bound = st.just((Typed("?c", ("thing",)),))


def _formulas() -> st.SearchStrategy[Formula]:
    leaves: st.SearchStrategy[Formula] = _atoms | st.builds(Equals, _terms, _terms)

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return (
            st.builds(Not, inner)
            | st.builds(lambda ps: And(tuple(ps)), st.lists(inner, max_size=3))
            | st.builds(lambda ps: Or(tuple(ps)), st.lists(inner, max_size=3))
            | st.builds(Imply, inner, inner)
            | st.builds(Exists, _bound, inner)
            | st.builds(Forall, _bound, inner)
        )

    return st.recursive(leaves, extend, max_leaves=8)


def _effects() -> st.SearchStrategy[Effect]:
    literals: st.SearchStrategy[Effect] = _atoms | st.builds(Delete, _atoms)

    def extend(inner: st.SearchStrategy[Effect]) -> st.SearchStrategy[Effect]:
        return (
            st.builds(lambda ps: EffectAnd(tuple(ps)), st.lists(inner, max_size=3))
            | st.builds(EffectForall, _bound, inner)
            | st.builds(When, _formulas(), literals)
        )

    return st.recursive(literals, extend, max_leaves=6)


_THING = (TypeDef("thing"),)
_PREDICATES = (
    Predicate("p", (Typed("?x", ("thing",)),)),
    Predicate("q", (Typed("?x", ("thing",)),)),
    Predicate("r", (Typed("?x", ("thing",)), Typed("?y", ("thing",)))),
)


@settings(max_examples=60, deadline=None)
@given(precondition=_formulas(), effect=_effects())
def test_round_trip_of_random_formulas_and_effects(precondition: Formula, effect: Effect) -> None:
    params = tuple(Typed(v, ("thing",)) for v in ("?a", "?b", "?c"))
    call = TaskCall("t", tuple(Var(p.name) for p in params))
    domain = Domain(
        "random",
        types=_THING,
        constants=(Typed("k", ("thing",)),),
        predicates=_PREDICATES,
        tasks=(Task("t", params),),
        methods=(Method("m", params, call, precondition),),
        actions=(Action("act", params, precondition, effect),),
    )
    assert parse_domain(write_domain(domain)) == domain


@settings(max_examples=30, deadline=None)
@given(
    objects=st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4, unique=True),
    order=st.permutations(range(4)),
)
def test_round_trip_of_random_problems(objects: list[str], order: list[int]) -> None:
    subtasks = tuple(Subtask("t", (Const(objects[i % len(objects)]),), f"n{i}") for i in order)
    problem = Problem(
        "p",
        "random",
        objects=tuple(Typed(o, ("thing",)) for o in objects),
        htn=TaskNetwork((), subtasks),
        init=tuple(Atom("p", (Const(o),)) for o in objects),
        goal=Atom("q", (Const(objects[0]),)),
    )
    domain = Domain(
        "random",
        types=_THING,
        predicates=_PREDICATES,
        tasks=(Task("t", (Typed("?x", ("thing",)),)),),
    )
    assert parse_problem(write_problem(problem), domain) == problem


# -- syntax errors: one message, where and what was expected ---------------------------------


def test_an_unclosed_list() -> None:
    with pytest.raises(HddlError) as caught:
        read_domain(BROKEN / "unclosed.hddl")
    (issue,) = caught.value.issues
    assert issue.path == str(BROKEN / "unclosed.hddl")
    assert (issue.line, issue.column) == (6, 5)
    assert issue.message == "found ':precondition' where HDDL expects ')', '-' or a variable"
    assert str(caught.value) == f"{BROKEN / 'unclosed.hddl'}:6:5: {issue.message}"


def test_a_type_inside_an_atom() -> None:
    with pytest.raises(HddlError) as caught:
        read_domain(BROKEN / "dash-in-atom.hddl")
    (issue,) = caught.value.issues
    assert (issue.line, issue.column) == (6, 29)
    assert issue.message == "found '-' where HDDL expects ')' or a term"


def test_the_end_of_the_file_before_the_last_parenthesis() -> None:
    issue = one("(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)")
    assert (issue.line, issue.column) == (3, 30)
    assert issue.message == (
        "the file ends early (the '(' at line 3, column 3 is not closed): expected ')', "
        "':effect', ':parameters' or ':precondition'"
    )


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "the file ends early: expected '('"),
        ("(define (problem p))", 1, 10, "found 'problem' where HDDL expects 'domain'"),
        (
            "(define (domain d)\n  (:action a :parameter (?x)))",
            2,
            14,
            "found ':parameter' where HDDL expects ')', ':effect', ':parameters' or "
            "':precondition'",
        ),
        (
            "(define (domain d) (:task t) (:method m :task (t)\n"
            "  :subtasks (a (t)) :ordering (> a a)))",
            2,
            32,
            "found '>' where HDDL expects ')', '<' or 'and'",
        ),
        (
            "(define (domain d) (:types a - (either)))",
            1,
            39,
            "found ')' where HDDL expects a name",
        ),
    ],
)
def test_syntax_errors_in_plain_words(text: str, line: int, column: int, message: str) -> None:
    issue = one(text)
    assert (issue.line, issue.column, issue.message) == (line, column, message)


def test_a_misspelt_section_gets_a_suggestion() -> None:
    issue = one("(define (domain d)\n  (:predicate (p)))")
    assert (issue.line, issue.column) == (2, 4)
    assert issue.message == "unknown section '(:predicate ...)'; did you mean ':predicates'?"


# -- semantic errors: every one, with the construct and its place --------------------------


def test_undeclared_names_and_arities_all_reported() -> None:
    with pytest.raises(HddlError) as caught:
        read_domain(BROKEN / "undeclared.hddl")
    found = [(i.line, i.column, i.message) for i in caught.value.issues]
    assert found == [
        (6, 18, "parameter '?r' of method 'visit-it' has the undeclared type 'hall'"),
        (8, 33, "undeclared predicate 'dark' in the precondition of method 'visit-it'"),
        (9, 29, "action 'enter' takes 1 argument, given 2 in the subtasks of method 'visit-it'"),
        (9, 38, "undeclared variable '?x' in the subtasks of method 'visit-it'"),
        (
            9,
            43,
            "method 'visit-it' has a subtask 'switch-on' that is no declared task or action",
        ),
        (12, 12, "method 'tidy-it' is for an undeclared task 'tidy'"),
    ]


# Each case: the domain's body, the text the message points at (its first occurrence), the
# message.
@pytest.mark.parametrize(
    ("body", "at", "message"),
    [
        (
            "(:predicates (p ?x)) (:action a :parameters (?x) :precondition (p ?x ?x))",
            "p ?x ?x",
            "predicate 'p' takes 1 argument, given 2 in the precondition of action 'a'",
        ),
        (
            "(:predicates (p ?x)) (:action a :parameters (?x) :effect (p ?y))",
            "?y",
            "undeclared variable '?y' in the effect of action 'a'",
        ),
        (
            "(:predicates (p ?x)) (:action a :parameters () :effect (p k))",
            "k)",
            "undeclared constant 'k' in the effect of action 'a'",
        ),
        (
            "(:task t :parameters (?x)) (:method m :parameters (?x) :task (t))",
            "t))",
            "task 't' takes 1 argument, given 0 in the :task of method 'm'",
        ),
        (
            "(:action a) (:method m :parameters () :task (a))",
            "a))",
            "method 'm' decomposes 'a', which is an action; methods decompose tasks",
        ),
        (
            "(:predicates (p ?x - place))",
            "?x",
            "parameter '?x' of predicate 'p' has the undeclared type 'place'",
        ),
        ("(:constants k - place)", "k -", "constant 'k' has the undeclared type 'place'"),
        (
            "(:task t) (:task u) (:task t)",
            "t))",
            "task 't' is declared twice (first at line 1, column 27)",
        ),
        ("(:task t) (:action t)", "t))", "'t' is declared both as a task and as an action"),
        (
            "(:types a - b b - a)",
            "a -",
            "the types 'a', 'b' are their own ancestors (a cycle)",
        ),
        (
            "(:task t :parameters (?x)) (:method m :parameters (?x ?y) :task (t ?x)"
            " :constraints (and (not (= ?x ?y)) (t ?x)))",
            "t ?x))",
            "the :constraints of method 'm' may hold only (= a b) and (not (= a b))",
        ),
    ],
)
def test_semantic_errors(body: str, at: str, message: str) -> None:
    text = f"(define (domain d) {body})"
    found = issues(text)
    assert [(i.line, i.column, i.message) for i in found] == [(1, text.index(at) + 1, message)]


def test_the_problem_against_its_domain(delivery: Domain) -> None:
    found = issues(
        "(define (problem p) (:domain shipping)\n"
        " (:objects a - city b - harbour)\n"
        " (:htn :ordered-subtasks (and (deliver a) (fly a b)))\n"
        " (:init (at a a) (road a c))\n"
        " (:goal (at ?x a)))",
        problem=True,
        domain=delivery,
    )
    assert [(i.line, i.column, i.message) for i in found] == [
        (1, 22, "the problem is for domain 'shipping', not 'delivery'"),
        (2, 21, "object 'b' has the undeclared type 'harbour'"),
        (3, 32, "task 'deliver' takes 2 arguments, given 1 in the subtasks of the :htn"),
        (3, 44, "the :htn has a subtask 'fly' that is no declared task or action"),
        (4, 26, "undeclared constant 'c' in the :init"),
        (5, 13, "undeclared variable '?x' in the :goal"),
    ]


# -- orderings that are not total -----------------------------------------------------------


def test_an_ordering_that_is_not_total() -> None:
    with pytest.raises(HddlError) as caught:
        read_domain(BROKEN / "not-total.hddl")
    (issue,) = caught.value.issues
    assert (issue.line, issue.column) == (7, 5)  # its :ordering
    assert issue.message == (
        "the ordering of method 'serve-both' is not total: 't1' and 't2' are not ordered "
        "(add (< t1 t2) or (< t2 t1), or use :ordered-subtasks)"
    )


@pytest.mark.parametrize(
    ("network", "message"),
    [
        (
            ":subtasks (and (a (t)) (b (t)))",
            "method 'm' lists 2 subtasks with no :ordering: the total-order fragment needs one "
            "sequence (use :ordered-subtasks, or add an :ordering)",
        ),
        (
            ":subtasks (and (a (t)) (b (t))) :ordering (and (< a b) (< b a))",
            "the ordering of method 'm' has a cycle among 'a', 'b'",
        ),
        (
            ":subtasks (and (a (t)) (b (t))) :ordering (< a c)",
            "the ordering of method 'm' names 'c', which is none of its subtasks",
        ),
        (
            ":subtasks (and (a (t)) (t)) :ordering (and)",
            "the ordering of method 'm' is not total: subtask '(t ...)' has no id, so no "
            "ordering can place it",
        ),
        (
            ":ordered-subtasks (and (a (t)) (b (t))) :ordering (< b a)",
            "the ordering of method 'm' puts 'b' before 'a', against the order of its "
            ":ordered-subtasks",
        ),
        (
            ":ordered-subtasks (and (a (t)) (a (t)))",
            "method 'm' names two subtasks 'a'",
        ),
        (
            ":subtasks (a (t)) :ordering (< a a)",
            "the ordering of method 'm' puts 'a' before itself",
        ),
    ],
)
def test_orderings_that_give_no_one_sequence(network: str, message: str) -> None:
    found = issues(f"(define (domain d) (:task t) (:method m :task (t) {network}))")
    assert [i.message for i in found] == [message]


def test_findings_of_every_kind_come_together() -> None:
    found = issues(
        "(define (domain d) (:requirements :fluents) (:task t)\n"
        " (:method m :task (t) :precondition (ready)\n"
        "  :subtasks (and (a (t)) (b (t)))))"
    )
    assert [(i.line, i.column, i.message) for i in found] == [
        (
            1,
            35,
            "requirement ':fluents' is outside the total-order HDDL fragment (numeric fluents)",
        ),
        (2, 38, "undeclared predicate 'ready' in the precondition of method 'm'"),
        (
            3,
            3,
            "method 'm' lists 2 subtasks with no :ordering: the total-order fragment needs one "
            "sequence (use :ordered-subtasks, or add an :ordering)",
        ),
    ]


def test_a_total_ordering_given_as_pairs_in_any_order() -> None:
    domain = parse_domain(
        "(define (domain d) (:task t) (:method m :task (t)"
        " :subtasks (and (c (t)) (a (t)) (b (t))) :ordering (and (< b c) (< a b) (< a c))))"
    )
    assert [s.id for s in domain.methods[0].subtasks] == ["a", "b", "c"]


# -- outside the total-order fragment -------------------------------------------------------


def test_durative_and_numeric_constructs_are_named_and_placed() -> None:
    with pytest.raises(HddlError) as caught:
        read_domain(BROKEN / "durative.hddl")
    found = [(i.line, i.column, i.message) for i in caught.value.issues]
    assert found == [
        (
            2,
            37,
            "requirement ':durative-actions' is outside the total-order HDDL fragment "
            "(durative actions)",
        ),
        (3, 4, "'(:functions ...)' is outside the total-order HDDL fragment (numeric fluents)"),
        (
            4,
            4,
            "'(:durative-action ...)' is outside the total-order HDDL fragment (durative actions)",
        ),
        (
            11,
            14,
            "the numeric effect 'increase' is outside the total-order HDDL fragment "
            "(numeric fluents)",
        ),
    ]


@pytest.mark.parametrize(
    ("body", "at", "message"),
    [
        (
            "(:constraints (always (p)))",
            ":constraints",
            "'(:constraints ...)' is outside the total-order HDDL fragment "
            "(PDDL3 trajectory constraints)",
        ),
        (
            "(:task t :parameters (?x)) (:method m :parameters (?x) :task (t ?x)"
            " :precondition (sort-of ?x - thing))",
            "sort-of",
            "'sort-of' is outside the total-order HDDL fragment (types belong in the parameter "
            "list)",
        ),
        (
            "(:action a :precondition (> (fuel) 1))",
            ">",
            "the comparison '>' is outside the total-order HDDL fragment (numeric fluents)",
        ),
        (
            "(:action a :precondition (= (fuel) 1))",
            "=",
            "a function term in '=' is outside the total-order HDDL fragment (numeric fluents)",
        ),
        (
            "(:requirements :typing :hierachy)",
            ":hierachy",
            "unknown requirement ':hierachy'; did you mean ':hierarchy'?",
        ),
    ],
)
def test_outside_the_fragment(body: str, at: str, message: str) -> None:
    text = f"(define (domain d) {body})"
    issue = one(text)
    assert (issue.line, issue.column, issue.message) == (1, text.index(at) + 1, message)


def test_a_numeric_init_is_outside_the_fragment() -> None:
    issue = one("(define (problem p) (:domain d)\n (:init (= (fuel) 3)))", problem=True)
    assert (issue.line, issue.column) == (2, 10)
    assert "numeric fluents" in issue.message

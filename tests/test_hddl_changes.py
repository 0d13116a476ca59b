"""What a step can change, to the types of the arguments (``knowledge/hddl/changes.py``),
and the needs of compound steps it lets a method check early (``planning.start_needs``).

The domain is Transport's, as ``tests.test_hddl_why_not`` writes it: packages and vehicles
are both locatable, ``drive`` moves a vehicle, ``pick_up`` and ``drop`` move a package
into and out of one.  Every expectation below was worked out by hand from that text.
"""

from __future__ import annotations

from knowledge.hddl import parse_domain
from knowledge.hddl.changes import Changes, domain_overlap
from knowledge.hddl.conditions import TypeIs
from knowledge.hddl.model import OBJECT, Atom, Domain, TypeDef, Var
from knowledge.hddl.needs import WILD, Need
from knowledge.hddl.planning import pulled_up, start_needs, static_needs
from knowledge.hddl.writer import formula_text
from tests.test_hddl_why_not import DOMAIN

P0, P1, P2 = ("p", "0"), ("p", "1"), ("p", "2")
AT_PL = Atom("at", (Var("?p"), Var("?l")))
TYPES = {"?p": ("package",), "?v": ("vehicle",), "?x": ("locatable",), "?l": ("location",)}


def changes() -> Changes:
    return Changes.of(parse_domain(DOMAIN))


def test_driving_changes_where_vehicles_are_not_where_packages_are() -> None:
    """drive's effects are (at ?v ?l1) and (at ?v ?l2), ?v a vehicle: a package's place is
    none of them, a vehicle's or any locatable's may be; pick_up moves the package."""
    c = changes()
    assert not c.can_change(["drive"], AT_PL, TYPES)
    assert c.can_change(["drive"], Atom("at", (Var("?v"), Var("?l"))), TYPES)
    assert c.can_change(["drive"], Atom("at", (Var("?x"), Var("?l"))), TYPES)
    assert c.can_change(["drive"], Atom("at", (Var("?free"), Var("?l"))), TYPES)  # untyped
    assert c.can_change(["drive", "pick_up"], AT_PL, TYPES)
    assert not c.can_change(["drive", "noop"], Atom("road", (Var("?l"), Var("?l"))), TYPES)


def test_a_task_changes_what_its_methods_steps_change() -> None:
    """get_to drives (or does nothing): a vehicle's place only; load picks up, which
    changes a package's place, what is in the vehicle, and its capacity."""
    c = changes()
    assert c.predicates["get_to"] == {"at"}
    assert not c.can_change(["get_to"], AT_PL, TYPES)
    assert c.predicates["load"] == {"at", "in", "capacity"}
    assert c.can_change(["load"], AT_PL, TYPES)


def test_two_types_overlap_where_a_type_is_below_both() -> None:
    """Declared types alone: ``both`` is below ``a`` and ``b`` (either), so an object of
    it is of both; ``c`` is below neither.  Everything overlaps ``object``."""
    domain = Domain(
        "d",
        types=(TypeDef("a"), TypeDef("b"), TypeDef("both", ("a", "b")), TypeDef("c")),
    )
    overlap = domain_overlap(domain)
    assert overlap(("a",), ("b",)) and overlap(("both",), ("a",))
    assert not overlap(("a",), ("c",)) and not overlap(("both",), ("c",))
    assert overlap((OBJECT,), ("c",)) and overlap(("c", "a"), ("b",))


def test_each_task_needs_what_its_methods_check_whatever_the_predicate() -> None:
    """load's one method's one step is pick_up: all its literals, its own ?s1 ?s2 left
    free.  get_to needs nothing: m_drive_to_via's only literal about the vehicle's place
    would come through its own get_to step (its drive's (at ?v ?l2) comes after get_to,
    which can change it), and the fixed point starts from nothing known, so a recursive
    method never derives a need from itself.  deliver's one method: from step 2, load's
    (at ?p ?l1) -- step 1 drives, which cannot move a package -- and its capacity
    literals (driving changes neither), but not (at ?v ?l1), which driving changes;
    nothing from steps 3 and 4 that steps before them can change."""
    needs = start_needs(parse_domain(DOMAIN))
    capacity_step = Need("atom", "capacity_predecessor", (WILD, WILD))
    assert needs["load"] == {
        Need("atom", "at", (P0, P1)),
        Need("atom", "at", (P2, P1)),
        capacity_step,
        Need("atom", "capacity", (P0, WILD)),
    }
    assert "get_to" not in needs
    # deliver (?p ?l): the package is somewhere and some vehicle has some capacity (?v and
    # ?l1 are m_deliver's own).
    assert needs["deliver"] == {
        Need("atom", "at", (P0, WILD)),
        capacity_step,
        Need("atom", "capacity", (WILD, WILD)),
    }
    # Static needs only: capacity_predecessor is the one static predicate.
    static = static_needs(parse_domain(DOMAIN))
    assert static["load"] == static["deliver"] == {capacity_step}
    assert "get_to" not in static


def test_m_deliver_checks_the_packages_place_when_it_is_chosen() -> None:
    """What m_deliver pulls up, each blamed on the step that needs it."""
    domain = parse_domain(DOMAIN)
    actions = {a.name: a for a in domain.actions}
    method = next(m for m in domain.methods if m.name == "m_deliver_ordering_0")
    pulled = pulled_up(method, actions, changes(), "domain.hddl", start_needs(domain))
    some_step = "(exists (?any1 ?any2 - object) (capacity_predecessor ?any1 ?any2))"
    assert not any(isinstance(c, TypeIs) for c, _ in pulled)  # no action among its steps
    assert sorted(
        (formula_text(c), o.step, o.owner) for c, o in pulled if not isinstance(c, TypeIs)
    ) == [
        ("(at ?p ?l1)", 2, "load"),
        ("(exists (?any1 - object) (capacity ?v ?any1))", 2, "load"),
        (some_step, 2, "load"),
        (some_step, 4, "unload"),  # static: nothing before step 4 can change it either
    ]

"""The seeded one-place faults of knowledge/hddl/faults.py and the benchmark's scoring.

The expected broken domains are written here by hand, as an author would edit the text, and
compared with the generator's models; the counts of each kind are counted from the domain
below by hand (see each test).  No IPC file is read.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from knowledge.hddl import Domain, parse_domain, write_domain
from knowledge.hddl.faults import KINDS, Fault, all_faults, seeded_faults

MINI = """
(define (domain mini)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types truck package place)
  (:predicates (at ?t - truck ?l - place) (pkg-at ?p - package ?l - place)
               (in ?p - package ?t - truck))
  (:task deliver :parameters (?p - package ?to - place))
  (:method by-truck
    :parameters (?p - package ?from ?to - place ?t - truck)
    :task (deliver ?p ?to)
    :precondition (and (pkg-at ?p ?from) (at ?t ?from))
    :ordered-subtasks (and (load ?t ?p ?from) (drive ?t ?from ?to) (unload ?t ?p ?to)))
  (:method already-there
    :parameters (?p - package ?to - place)
    :task (deliver ?p ?to)
    :precondition (pkg-at ?p ?to)
    :ordered-subtasks ())
  (:action load :parameters (?t - truck ?p - package ?l - place)
    :precondition (and (at ?t ?l) (pkg-at ?p ?l))
    :effect (and (not (pkg-at ?p ?l)) (in ?p ?t)))
  (:action drive :parameters (?t - truck ?from ?to - place)
    :precondition (at ?t ?from)
    :effect (and (not (at ?t ?from)) (at ?t ?to)))
  (:action unload :parameters (?t - truck ?p - package ?l - place)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (not (in ?p ?t)) (pkg-at ?p ?l))))
"""


@pytest.fixture(scope="module")
def mini() -> Domain:
    return parse_domain(MINI)


def _edited(old: str, new: str) -> Domain:
    """MINI with one hand edit of its text, read: what the fault should equal."""
    assert MINI.count(old) == 1, old
    return parse_domain(MINI.replace(old, new))


def _find(domain: Domain, description: str) -> Fault:
    found = [f for f in all_faults(domain) if f.description == description]
    assert len(found) == 1, [f.description for f in all_faults(domain)]
    return found[0]


def test_every_kind_is_counted_as_by_hand(mini: Domain) -> None:
    """lose-add: one atom in each of 3 effects.  negate: 5 action literals; by-truck's
    (pkg-at ?p ?from) (its ?from is bound by (at ?t ?from)) but not (at ?t ?from) (?t only
    it binds), and already-there's one: 7.  delete-method: 2.  swap: 3 pairs of by-truck's
    3 steps.  wrong-variable: ?from<->?to in load, drive (twice), unload; ?t and ?p have no
    other variable of their type: 4."""
    counts = dict.fromkeys(KINDS, 0)
    for fault in all_faults(mini):
        counts[fault.kind] += 1
    assert counts == {
        "lose-add": 3,
        "negate": 7,
        "delete-method": 2,
        "swap": 3,
        "wrong-variable": 4,
    }


@pytest.mark.parametrize(
    ("description", "old", "new", "named"),
    [
        (
            "action load loses (in ?p ?t)",
            "(and (not (pkg-at ?p ?l)) (in ?p ?t))",
            "(and (not (pkg-at ?p ?l)))",
            ("load", "", "in"),
        ),
        (
            "action unload: precondition (in ?p ?t) becomes (not (in ?p ?t))",
            "(and (at ?t ?l) (in ?p ?t))",
            "(and (at ?t ?l) (not (in ?p ?t)))",
            ("unload", "", "in"),
        ),
        (
            "method by-truck: precondition (pkg-at ?p ?from) becomes (not (pkg-at ?p ?from))",
            "(and (pkg-at ?p ?from) (at ?t ?from))",
            "(and (not (pkg-at ?p ?from)) (at ?t ?from))",
            ("by-truck", "deliver", "pkg-at"),
        ),
        (
            "method already-there of task deliver deleted (1 other method left)",
            """  (:method already-there
    :parameters (?p - package ?to - place)
    :task (deliver ?p ?to)
    :precondition (pkg-at ?p ?to)
    :ordered-subtasks ())""",
            "",
            ("already-there", "deliver", ""),
        ),
        (
            "method by-truck: subtasks 1 (load ?t ?p ?from) and 3 (unload ?t ?p ?to) swapped",
            "(and (load ?t ?p ?from) (drive ?t ?from ?to) (unload ?t ?p ?to))",
            "(and (unload ?t ?p ?to) (drive ?t ?from ?to) (load ?t ?p ?from))",
            ("by-truck", "deliver", ""),
        ),
        (
            "method by-truck: subtask 2 (drive ?t ?from ?to) calls ?from for ?to",
            "(drive ?t ?from ?to)",
            "(drive ?t ?from ?from)",
            ("by-truck", "deliver", ""),
        ),
    ],
)
def test_each_kind_makes_the_edit_it_describes_and_reads_back(
    mini: Domain, description: str, old: str, new: str, named: tuple[str, str, str]
) -> None:
    fault = _find(mini, description)
    assert fault.domain == _edited(old, new)
    assert parse_domain(write_domain(fault.domain)) == fault.domain
    assert (fault.place, fault.task, fault.predicate) == named
    assert fault.line("Mini") == f"Mini: {description}"


def test_a_negated_literal_that_alone_binds_a_variable_is_not_made() -> None:
    """(not (at ?t ?from)) would leave by-truck's ?t unbound: the planner would refuse it."""
    descriptions = [f.description for f in all_faults(parse_domain(MINI))]
    assert "method by-truck: precondition (at ?t ?from) becomes (not (at ?t ?from))" not in (
        descriptions
    )


def test_the_same_seed_gives_the_same_faults_and_the_first_cover_every_kind(
    mini: Domain,
) -> None:
    once = [f.description for f in seeded_faults(mini, 1)]
    again = [f.description for f in seeded_faults(parse_domain(MINI), 1)]
    other = [f.description for f in seeded_faults(mini, 2)]
    assert once == again
    assert sorted(once) == sorted(other) == sorted(f.description for f in all_faults(mini))
    assert once != other
    assert {f.kind for f in seeded_faults(mini, 1)[:5]} == set(KINDS)
    assert [f.kind for f in seeded_faults(mini, 1, kinds=("swap",))] == ["swap"] * 3


def test_the_shipped_example_breaks_in_every_kind_and_reads_back() -> None:
    path = Path(__file__).resolve().parents[1] / "knowledge/hddl/examples/delivery-domain.hddl"
    domain = parse_domain(path.read_text(encoding="utf-8"))
    faults = list(all_faults(domain))
    assert {f.kind for f in faults} == set(KINDS)
    for fault in faults:
        assert parse_domain(write_domain(fault.domain)) == fault.domain, fault.description
        assert fault.domain != domain


# -- the benchmark's scoring ----------------------------------------------------------------


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "fault_finding.py"
    spec = importlib.util.spec_from_file_location("fault_finding_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


PICK_UP = Fault("lose-add", Domain("transport"), "action pick_up loses (in ?p ?v)", "pick_up",
                predicate="in")  # fmt: skip
TODAY = """gave up: pfile01 (domain_htn)
(deliver package_0 city_loc_0) could not be done; its deepest failure was reached by:
    (deliver package_0 city_loc_0) -> m_deliver_ordering_0(?l1=city_loc_1, ?v=truck_0)
deepest failure: (unload truck_0 city_loc_0 package_0): no method applies \
(m_unload_ordering_0 needs `(in ?p ?v)` (?p = package_0, ?v = truck_0))"""


def test_todays_transport_answer_names_the_predicate_but_does_not_pin_the_action(
    bench: ModuleType,
) -> None:
    """The issue's example: the literal is there, pick_up is nowhere."""
    assert bench.score(TODAY, PICK_UP) == (True, False)


def test_a_line_with_the_action_and_the_literal_pins_it(bench: ModuleType) -> None:
    text = "no plan exists\n`in` is added by no action: pick_up no longer adds (in ?p ?v)"
    assert bench.score(text, PICK_UP) == (True, True)


def test_the_english_word_and_a_longer_name_do_not_count(bench: ModuleType) -> None:
    """Transport's predicate is `in`: "failed in drop" is prose; pick_up_all is not pick_up."""
    text = "gave up: failed in drop\npick_up_all ran in the middle"
    assert bench.score(text, PICK_UP) == (False, False)


def test_only_the_first_40_lines_count(bench: ModuleType) -> None:
    text = "\n".join(["nothing"] * 40 + ["pick_up no longer adds (in ?p ?v)"])
    assert bench.score(text, PICK_UP) == (False, False)


def test_a_deleted_method_is_pinned_by_its_task_with_no_method(bench: ModuleType) -> None:
    fault = Fault("delete-method", Domain("d"), "method m2 of task get-to deleted", "m2",
                  task="get-to")  # fmt: skip
    assert bench.score("(get-to t1 south): no method applies", fault) == (True, True)
    assert bench.score("(get-to t1 south) could not be done", fault) == (True, False)
    assert bench.score("(get-to-all t1): no method applies", fault) == (False, False)


def test_a_swap_is_pinned_by_the_method_with_a_swapped_step(bench: ModuleType) -> None:
    fault = Fault("swap", Domain("d"), "method m: subtasks 1 (a) and 2 (b) swapped", "m",
                  task="t", subtasks=("load", "drive"))  # fmt: skip
    assert bench.score("step 2 of m, load, needs (at t1 north)", fault) == (True, True)
    assert bench.score("m was tried", fault) == (True, False)


def test_the_benchmark_refuses_a_missing_folder_in_one_line(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's refusal: usage, then one line
        bench.main([str(tmp_path / "nowhere")])
    assert stop.value.code == 2
    (line,) = [x for x in capsys.readouterr().err.splitlines() if "error:" in x]
    assert "is not a folder" in line and "ipc2020-domains" in line


def test_a_repair_counts_only_when_the_validator_accepted_it(bench: ModuleType) -> None:
    """The --repair --json answer the benchmark expects: ``repairs`` with ``valid``."""
    child = bench.Child
    accepted = '{"repairs": [{"diff": "+ (in ?p ?v)", "plan": [], "valid": true}]}\nnote'
    assert bench._repaired(child(0, accepted, 1.0))
    assert not bench._repaired(child(0, '{"repairs": [{"valid": false}]}', 1.0))
    assert not bench._repaired(child(3, '{"repairs": []}', 1.0))
    refused = "workbench: error: plan: package 'hddl' takes no argument '--repair'"
    assert not bench._repaired(child(1, refused, 0.2))

"""EDAPS planning against the dissertation's published results (Smith 1997, Chapter 7).

Golden values come from the dissertation: the RM1 plan (Figures 7.20-7.33, in
``golden/rm1_plan.txt``), the worked operator times (reference note §7.5.7), the RUM1 error
(Figure 7.35) and the node counts of Figure 7.2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.tofs import Reason
from knowledge import get_package
from knowledge.edaps.critique import critique
from knowledge.edaps.design import MillingFeature
from knowledge.edaps.generate import stuck_together
from knowledge.edaps.output import render_plan
from knowledge.edaps.parser import load_design, parse_design
from knowledge.edaps.report import plan_design
from knowledge.edaps.shop import Shop, edaps_problem
from workbench.cli import main

HERE = Path(__file__).parent
DESIGNS = HERE.parent / "knowledge" / "edaps" / "designs"


@pytest.fixture(scope="module")
def domain():
    return get_package("edaps").domain("edaps")


@pytest.fixture(scope="module")
def rm1():
    return load_design(DESIGNS / "RM1.txt")


@pytest.fixture(scope="module")
def rm1_run(domain, rm1):
    return plan_design(domain, rm1)


def test_rm1_plan_is_the_published_plan(rm1_run) -> None:
    expected = [
        line
        for line in (HERE / "golden" / "rm1_plan.txt").read_text().splitlines()
        if not line.startswith("#")
    ]
    text = render_plan(rm1_run.result, rm1_run.nodes, rm1_run.seconds).splitlines()
    assert text[: len(expected)] == expected
    assert text[len(expected)].startswith("Total planning time: ")
    assert text[-1] == "Bye!"


def test_rm1_lead_time(rm1_run) -> None:
    assert rm1_run.manufacturable
    assert round(rm1_run.setup_time, 2) == 319.70
    assert round(rm1_run.run_time, 2) == 322.63
    assert round(rm1_run.setup_time + rm1_run.run_time, 2) == 642.33


@pytest.mark.parametrize(
    ("name", "prune", "nodes"),
    [("RM1", True, 3732), ("RM1", False, 11078), ("RUM1", True, 148), ("RUM1", False, 148)],
)
def test_published_node_counts_with_the_full_tree(domain, name, prune, nodes) -> None:
    run = plan_design(domain, load_design(DESIGNS / f"{name}.txt"), full_tree=True, prune=prune)
    assert run.nodes == nodes


@pytest.mark.parametrize(
    ("copies", "pruned", "unpruned"), [(2, 12684, 37864), (3, 35595, 106527), (4, 91546, 274310)]
)
def test_urm_node_counts(domain, rm1, copies, pruned, unpruned) -> None:
    """URM1-URM3: 2, 3, 4 copies of RM1 stuck together (Figure 7.2)."""
    design = stuck_together(rm1, copies)
    a = plan_design(domain, design, full_tree=True)
    b = plan_design(domain, design, full_tree=True, prune=False)
    c = plan_design(domain, design)
    assert (a.nodes, b.nodes) == (pruned, unpruned)
    lead = a.setup_time + a.run_time
    assert b.setup_time + b.run_time == pytest.approx(lead)
    assert c.setup_time + c.run_time == pytest.approx(lead)
    assert c.nodes < a.nodes


def test_design_n_command_switches_the_pruner_off(domain) -> None:
    text = (DESIGNS / "RM1.txt").read_text() + "N\n"
    run = plan_design(domain, parse_design(text, name="RM1"), full_tree=True)
    assert run.nodes == 11078


# --------------------------------------------------------------- operator times (§7.5.7)


def _cost(domain, state, op: str, *args) -> dict[str, float]:
    operator = domain.operators[op]
    env = dict(zip(operator.params, args, strict=True))
    return {k: ce.evaluate(state, env) for k, ce in operator.costs}


@pytest.mark.parametrize(
    ("op", "args", "setup", "run"),
    [
        ("OrientFor", (), 0.5, None),
        ("ClampFor", (), 1.0, None),
        ("EstablishDatumPointFor", (), 0.5, None),
        ("InstallDrillBitFor", ("P5",), 0.1, None),
        ("RoughDrill", ("P5",), None, 2.4 * 0.09),
        ("FinishDrill", ("P1",), None, 2.4 * 0.04),
        ("RoughDrill", ("H1",), None, 2.4 * 0.16),
        ("FinishDrill", ("H5",), None, 2.4 * 0.0225),
        ("RoughSideMill", ("M1",), None, 0.25 * 0.5 * (0.12 - math.pi / 4 * 0.0225) / 0.15),
        ("FinishSideMill", ("M1",), None, 0.25 * 0.5 * (0.12 - math.pi / 4 * 0.0225) / 0.15),
        ("RoughEndMill", ("M1",), None, 0.5 * (0.12 - math.pi / 4 * 0.0225) / 0.15),
        ("RoughEndMill", ("M3",), None, 0.5 * (0.12 - math.pi / 4 * 0.005625) / 0.075),
        ("RoughSlotMill", ("M5",), None, 0.5 * 0.5 * (0.375 - math.pi / 4 * 0.005625) / 0.075),
        ("Conditioning", (), None, 10),
        ("Pickling", (), None, 10),
        ("Activating", (), None, 10),
        ("Depositing", (), None, 15),
        ("PlateResist", (), None, 0.5),
        ("Electroplating", (), None, 25.0),
        ("TinLeadPlating", (), None, 15.0),
        ("RemovePlateResist", (), None, 5),
        ("PrecleanForArtwork", (), None, 2 / 21 * 24),
        ("DryBoard", (), None, 30),
        ("SpreadPhotoresist", (), None, math.sqrt(52) / 15),
        ("SpindlePhotoresist", (), None, 0.40),
        ("SprayPhotoresist", (), None, 0.5),
        ("PaintPhotoresist", (), None, 24 / 300),
        ("ArtworkLithography", (), None, 2.2),
        ("Etching", (), None, 28.0),
        ("GenericSetup", (), 30, None),
        ("PrecleanForSoldering", (), None, 5 / 21 * 24),
        ("ScreenprintSolderResist", (), None, 2 / 7),
        ("ManualSolderPasteAtLocation", ("Z1.1",), None, 0.25),
        ("SetupForAutomaticSolderPaste", (), 29.5, None),
        ("AutomaticSolderPasteAtLocation", ("Z1.1",), None, 1 / 24),
        ("RunAutomaticSolderPaste", (), None, 0.5),
        ("DrySolderPaste", (), None, 5 / 21 * 24),
        ("AdherePart", ("Z13",), None, 0.5),
        ("HeatCureAdhesive", (), None, 10),
        ("SetupForAutomaticPickAndPlace", (), 60, None),
        ("ManualPickAndPlacePart", ("Z1",), None, 0.5),
        ("AutomaticPickAndPlacePart", ("Z1",), None, 0.01),
        ("ReflowSoldering", (), None, 5),
        ("SetupForHandSoldering", (), 15, None),
        ("HandSolderPart", ("Z14",), 0, 3),
        ("BrushFluxCleaning", (), None, 37),
        ("SprayWithVaporFluxCleaning", (), None, 10 / 21 * 24),
        ("PreCapTesting", (), None, 35),
        ("HermeticallySealing", (), None, 0.0776 * 24),
        ("PostCapTesting", (), None, 35),
        ("FinalInspection", (), None, 89 / 3),
    ],
)
def test_operator_times_match_the_worked_numbers(domain, rm1, op, args, setup, run) -> None:
    state = edaps_problem(domain, rm1).state
    costs = _cost(domain, state, op, *args)
    assert costs.get("setup", 0.0) == pytest.approx(setup or 0.0)
    assert costs.get("run", 0.0) == pytest.approx(run or 0.0)


@pytest.mark.parametrize(
    ("op", "args", "setup", "run"),
    [
        ("InstallEndMillingToolFor", ("M3",), 0.1, None),
        ("InstallSlotMillingToolFor", ("M5",), 0.1, None),
        ("InstallSideMillingToolFor", ("M1",), 0.1, None),
        ("FinishEndMill", ("M3",), None, 0.5 * (0.12 - math.pi / 4 * 0.005625) / 0.075),
        ("FinishSlotMill", ("M5",), None, 0.5 * 0.5 * (0.375 - math.pi / 4 * 0.005625) / 0.075),
        ("PutSolderPasteAtLocation", ("Z1.2",), None, 0.125),
        ("ScreenprintSolderPaste", (), None, 1 / 60),
        ("ImmerseInLiquidSolventFluxCleaning", (), None, 5),
        ("WashInAlcoholFluxCleaning", (), None, 20),
        ("UltrasonicInLiquidSolventFluxCleaning", (), None, 3),
    ],
)
def test_operator_times_not_used_by_rm1_follow_the_formula_table(
    domain, rm1, op, args, setup, run
) -> None:
    """Figures 6.17-6.24 (reference note §6.3) for the operators RM1's plan never uses."""
    state = edaps_problem(domain, rm1).state
    costs = _cost(domain, state, op, *args)
    assert costs.get("setup", 0.0) == pytest.approx(setup or 0.0)
    assert costs.get("run", 0.0) == pytest.approx(run or 0.0)


def test_tap_time_is_drilling_time_times_threads(domain) -> None:
    text = (
        (DESIGNS / "RM1.txt")
        .read_text()
        .replace("H 0.5 0.25 1 0.4 10\n", "H 0.5 0.25 1 0.4 10\nT 5\n")
    )
    design = parse_design(text, name="TAPPED")
    state = edaps_problem(domain, design).state
    assert _cost(domain, state, "Tap", "H1")["run"] == pytest.approx(2.4 * 0.16 * 1 * 5)
    run = plan_design(domain, design)
    ops = [s.operator for s in run.result.plan]
    assert ops.count("Tap") == 1 and run.manufacturable


def test_every_operator_has_a_time_test() -> None:
    """Together the two tables above cover every operator of the knowledge base."""
    import inspect

    module = inspect.getmodule(test_every_operator_has_a_time_test)
    assert module is not None
    src = inspect.getsource(module)
    domain = get_package("edaps").domain("edaps")
    missing = [name for name in domain.operators if f'("{name}",' not in src]
    assert missing == ["Tap"]  # covered by test_tap_time_is_drilling_time_times_threads


def test_worked_subtotals_of_the_published_plan(rm1_run) -> None:
    """Figures 7.20-7.33 through §7.5.7: paste 30 x 0.25, automatic would be 31.25 + 30."""
    by_op: dict[str, float] = {}
    for s in rm1_run.result.plan:
        by_op[s.operator] = by_op.get(s.operator, 0.0) + s.cost
    assert by_op["ManualSolderPasteAtLocation"] == pytest.approx(7.5)
    assert by_op["ManualPickAndPlacePart"] == pytest.approx(7.5)
    assert by_op["HandSolderPart"] == pytest.approx(7.0)
    assert by_op["RoughSideMill"] + by_op["FinishSideMill"] == pytest.approx(4 * 0.0853, abs=1e-3)


# --------------------------------------------------------------- unmanufacturable designs

RUM1_ERROR = """ERROR: Tolerance of 1.5000 mils is not achievable
for the hole of diameter 0.1500 at (0.20, 2.40).
Smallest achievable tolerance for a hole of diameter 0.1500
is 2.0000 mils."""


def test_rum1_gives_the_published_error(domain) -> None:
    run = plan_design(domain, load_design(DESIGNS / "RUM1.txt"))
    assert not run.manufacturable
    text = run.text()
    body = text[text.index("ERROR") :]
    assert body.startswith(RUM1_ERROR + "\nTotal planning time: ")
    assert body.rstrip().endswith("Total nodes: 148.")
    (d,) = run.diagnostics
    assert (d.feature, d.requested, d.achievable) == ("H5", 1.5, 2.0)


def test_every_unmanufacturable_feature_is_reported(domain) -> None:
    text = (DESIGNS / "RUM1.txt").read_text()
    text = text.replace("H 3.25 5.75 1 0.4 10", "H 3.25 5.75 1 0.4 3")  # 0.4": finish 3.43
    text = text.replace("M 1.6 4.2 0 0.5 0.3 0.4 0.075 4", "M 1.6 4.2 0 0.5 0.3 0.4 0 4")
    text = text.replace("M 3.1 1 0 0.5 0.5 0.75 0.075 10", "M 3.1 1 0 0.5 0.5 0.75 0.075 1.25")
    run = plan_design(domain, parse_design(text, name="MULTI"))
    assert not run.manufacturable
    got = [(d.feature, d.kind, d.requested, d.achievable) for d in run.diagnostics]
    # Making order: milling features by decreasing corner radius, then holes by diameter.
    assert got == [
        ("M5", "milling feature", 1.25, 1.25),
        ("M4", "milling feature", 0.0, None),
        ("H4", "hole", 3.0, pytest.approx(2 + 0.25 * 40 / 7)),
        ("H5", "hole", 1.5, 2.0),
    ]
    out = run.text()
    assert out.count("ERROR:") == 4
    assert "The milling feature at (1.60, 4.20) has no corner radius." in out
    assert "Every milling method needs a tolerance above 1.2500 mils." in out


def test_critique_is_empty_for_a_manufacturable_design(domain, rm1) -> None:
    assert critique(domain, edaps_problem(domain, rm1)) == []


def test_every_node_with_children_is_expanded_in_the_trace(domain, rm1) -> None:
    """The partial plan pruner works each alternative down on its own (``_segment``); its
    nodes must say what they expand like every other node, or a replay shows them bare."""
    from engine.tofs import EventKind, SearchOptions, Trace, plan
    from knowledge.edaps.shop import edaps_problem

    problem = edaps_problem(domain, rm1)
    trace = Trace()
    plan(domain, problem, SearchOptions(**{**problem.options, "mode": "optimise", "trace": trace}))
    parents = {
        e.data["parent"]
        for e in trace.of_kind(EventKind.NODE_CREATED)
        if e.data.get("parent") is not None
    }
    expanded = list(trace.of_kind(EventKind.NODE_EXPANDED))
    assert parents <= {e.node for e in expanded}
    pruned = {e.node for e in trace.of_kind(EventKind.NODE_PRUNED)}
    assert pruned  # the pruner ran
    assert all(e.data["g"] >= 0 for e in expanded)


# --------------------------------------------------------------- explanations


def test_choice_points_explain_every_alternative(rm1_run) -> None:
    cps = {cp.task: cp for cp in rm1_run.result.choice_points}
    photo = cps["Apply the photoresist"]
    reasons = {a.label: a for a in photo.alternatives}
    assert reasons["Spindle"].reason is Reason.CHOSEN
    assert reasons["Spread"].reason is Reason.PARTIAL_PLAN_PRUNED
    assert reasons["Spread"].compared_with == pytest.approx(30.4)
    assert reasons["Spray"].reason is Reason.PARTIAL_PLAN_PRUNED
    paint = reasons["Paint"]
    assert paint.reason is Reason.PRECONDITION_FAILED
    assert {v.text: v.value for v in paint.failure.values} == {
        "min_gap()": 0.015,
        "paint_min_gap": 0.02,
    }
    mill = cps["Mill the milling feature at (0.00, 2.25)"]
    end = next(a for a in mill.alternatives if a.label == "EndMilling")
    # Chosen: one side tool (0.1) and rough + finish side-milling of both 2-mil side pockets
    # (4 x 0.0853).  Forcing end-milling for the first: end tool 0.1 + 2 x 0.3411, and the
    # second is still best side-milled: side tool 0.1 + 2 x 0.0853.  Nothing else changes.
    side = 0.25 * 0.5 * (0.12 - math.pi / 4 * 0.0225) / 0.15
    end_cut = 4 * side
    chosen = 0.1 + 4 * side
    forced = 0.1 + 2 * end_cut + 0.1 + 2 * side
    assert end.reason is Reason.LOWER_VALUE
    assert end.value - mill.value == pytest.approx(forced - chosen)
    kinds = {cp.task for cp in rm1_run.result.choice_points}
    assert {"Apply solder paste", "Pick and place the components", "Clean the flux"} <= kinds


def test_full_tree_explanations_have_exact_values(domain, rm1) -> None:
    run = plan_design(domain, rm1, full_tree=True)
    for cp in run.result.choice_points:
        for a in cp.alternatives:
            assert a.reason not in (Reason.BOUND_PRUNED, Reason.TRANSPOSED)
            if a.reason in (Reason.LOWER_VALUE, Reason.TIE, Reason.CHOSEN):
                assert a.value is not None and not a.value_is_bound


# --------------------------------------------------------------- modes agree (property)


@st.composite
def variants(draw):
    """RM1 with its milling features redrawn: tolerance, corner radius, edge or middle."""
    base = load_design(DESIGNS / "RM1.txt")
    n = draw(st.integers(1, 5))
    milling = []
    for k in range(n):
        edge = draw(st.booleans())
        milling.append(
            MillingFeature(
                x=0.0 if edge else 1.0 + 0.5 * k,
                y=0.5 + 0.9 * k,
                rotation=0.0,
                depth=draw(st.sampled_from([0.05, 0.5])),
                length=0.4,
                width=0.3,
                corner_radius=draw(st.sampled_from([0.075, 0.1, 0.15])),
                tolerance=draw(st.sampled_from([2.0, 2.5, 4.0, 5.0, 10.0, 12.0])),
            )
        )
    gap = draw(st.sampled_from([0.005, 0.015, 0.025]))
    return base.model_copy(
        update={
            "milling": tuple(milling),
            "min_gap": gap,
            "order": tuple(o for o in base.order if o[0] != "M"),
        }
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants())
def test_optimum_is_the_same_in_every_mode(domain, design) -> None:
    exact = plan_design(domain, design)
    dissertation = plan_design(domain, design, full_tree=True)
    exhaustive = plan_design(domain, design, full_tree=True, prune=False)
    leads = [r.setup_time + r.run_time for r in (exact, dissertation, exhaustive)]
    assert leads[0] == pytest.approx(leads[1]) == pytest.approx(leads[2])
    assert [s.operator for s in exact.result.plan] == [s.operator for s in dissertation.result.plan]
    assert exact.nodes <= dissertation.nodes <= exhaustive.nodes


# --------------------------------------------------------------- CLI and JSON


def test_cli_exit_statuses(tmp_path, capsys) -> None:
    assert main(["plan", "edaps", "RM1"]) == 0
    assert "999  T        319.70  322.63" in capsys.readouterr().out
    assert main(["plan", "edaps", "RUM1"]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("D 4 6 1\nQ 1 2\n")
    assert main(["plan", "edaps", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:1:" in err and "Traceback" not in err


def test_cli_full_tree_prints_the_published_node_count(capsys) -> None:
    assert main(["plan", "edaps", "RM1", "--full-tree"]) == 0
    assert "Total nodes: 3732." in capsys.readouterr().out


def test_json_form(capsys) -> None:
    assert main(["plan", "edaps", "RM1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["manufacturable"] is True
    assert round(data["lead_time"], 2) == 642.33
    assert round(data["setup_time"], 2) == 319.70 and round(data["run_time"], 2) == 322.63
    ops = data["operations"]
    assert {"operator", "args", "setup", "run", "work_center"} <= set(ops[0])
    assert sum(o["setup"] + o["run"] for o in ops) == pytest.approx(data["lead_time"])
    assert ops[0] == {
        "operator": "OrientFor",
        "args": [],
        "setup": 0.5,
        "run": 0.0,
        "work_center": "VMC1",
        "description": "Orient board",
    }
    assert all(o["work_center"] for o in ops)  # GenericSetup takes its successor's
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)
    assert data["diagnostics"] == []
    photo = next(c for c in data["choice_points"] if c["task"] == "Apply the photoresist")
    assert [a["reason"] for a in photo["alternatives"]] == [
        "partial-plan pruned",
        "chosen",
        "partial-plan pruned",
        "precondition failed",
    ]
    assert main(["plan", "edaps", "RUM1", "--json"]) == 2
    bad = json.loads(capsys.readouterr().out)
    assert bad["manufacturable"] is False and bad["lead_time"] is None
    (diag,) = bad["diagnostics"]
    assert {"feature", "message", "requested", "achievable"} <= set(diag)
    assert diag["requested"] == 1.5 and diag["achievable"] == 2.0


def test_state_key_is_the_cost_relevant_state(domain, rm1) -> None:
    state = edaps_problem(domain, rm1).state
    assert isinstance(state, Shop)
    assert state.key() == (False, None, None, None, None)


def test_force_by_node_fixes_that_node_only(domain, rm1) -> None:
    """A node id forces the alternative at that very node -- here the second side pocket's
    choice, a later MakeSlotOrPocket than the first pocket's -- and nowhere else.

    (It does not make the plan pass through that node: a branch avoiding it may be as good.
    A why-not comparison re-plans *from* the choice point instead:
    ``engine.tofs.why_not.replan_at``.)"""
    from engine.tofs import SearchOptions, Trace, plan
    from engine.tofs.trace import EventKind

    problem = edaps_problem(domain, rm1)
    base = plan(domain, problem, SearchOptions(**problem.options))
    cp = next(c for c in base.choice_points if c.task == "Mill the milling feature at (0.00, 4.00)")
    trace = Trace(kinds={EventKind.NODE_CREATED})
    plan(
        domain,
        problem,
        SearchOptions(**problem.options, force={cp.node: "EndMilling"}, trace=trace),
    )
    children = [e.data["alternative"] for e in trace if e.data.get("parent") == cp.node]
    assert children == ["EndMilling"]
    first = next(c for c in base.choice_points if c.task.endswith("(0.00, 2.25)"))
    first_children = [e.data["alternative"] for e in trace if e.data.get("parent") == first.node]
    assert first_children == ["EndMilling", "SideMilling"]  # the other pocket is untouched

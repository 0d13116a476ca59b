"""``workbench play bridge`` and ``workbench match bridge``: boards played headless.

``play`` plays one board of a PBN file with one declarer against one defence and prints the
play trick by trick with the declarer's scheme annotations ("[Draw trump]"); ``--explain``
adds, for every decision the TOFS declarer planned, declarer's analysis of the position
after Lo 1987 (:mod:`knowledge.bridge.analysis`), each alternative it considered with
its value, the assumptions it rests on and why it lost -- and, clearly labelled as a check
that sees all four hands rather than the planner's reason, the double-dummy tricks and
score of every legal card (:mod:`knowledge.bridge.dd_check`).  ``match`` plays every
board with each declarer against the same defence (duplicate style) and prints the comparison of
:mod:`knowledge.bridge.match`.  Bad input (an unreadable file, a board that is not there,
a board with no contract) is one line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from knowledge import EXIT_BAD_INPUT, EXIT_PLAN
from workbench.batch import interrupted, progress_bar, report_failures
from workbench.cluster import ClusterError, add_cluster_option, batch_executor

__all__ = ["add_parsers", "run_match_command", "run_play_command"]


def add_parsers(
    sub: Any, common: argparse.ArgumentParser, bundled: argparse.ArgumentParser
) -> None:
    p = sub.add_parser("play", parents=[common, bundled], help="play one bridge board headless")
    p.add_argument("package", choices=["bridge"], help="the bridge package")
    p.add_argument(
        "problem",
        metavar="PROBLEM",
        help="a board name, as plan takes it (353021: the store's board of that name, or "
        "the package's with --bundled), or a PBN file",
    )
    p.add_argument("--board", help="the [Board] tag of the board to play (default: the first)")
    p.add_argument(
        "--declarer",
        default="tofs",
        help="tofs, tofs-plan (re-plans as Tignum 2 did), tofs-first (close "
        "plans go to the first considered, as in Tignum 2), mcdd, heuristic "
        "or dd (default: tofs)",
    )
    p.add_argument(
        "--defense",
        "--defence",
        default="heuristic",
        choices=["heuristic", "dd", "scripted"],
        help="who defends (scripted replays the file's [Play], then heuristic; a [Play] "
        "that breaks the rules is refused)",
    )
    p.add_argument(
        "--model",
        default="vacant-places",
        choices=["vacant-places", "dissertation"],
        help="the TOFS declarer's belief model",
    )
    p.add_argument(
        "--explain",
        nargs="?",
        const="reader",
        default="",
        choices=["reader", "full"],
        metavar="full",
        help="explain each planned decision as a player reads it: the card, its plan in the "
        "knowledge's words, what it rests on, the next best plans, declarer's analysis "
        "when it changes; --explain=full: every alternative at every decision and why it "
        "lost, with the analysis at each",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")

    m = sub.add_parser(
        "match",
        parents=[common, bundled],
        help="play every board of a PBN file with several declarers",
    )
    m.add_argument("package", choices=["bridge"], help="the bridge package")
    m.add_argument("file", help="PBN file")
    m.add_argument(
        "--declarers",
        default="tofs,mcdd,heuristic",
        help="comma-separated: tofs, tofs-plan, tofs-first, mcdd, heuristic, dd",
    )
    m.add_argument("--defense", "--defence", default="heuristic", choices=["heuristic", "dd"])
    m.add_argument("--jobs", type=int, default=1, help="worker processes")
    add_cluster_option(m)
    from workbench.cli import positive_seconds

    m.add_argument(
        "--timeout", type=positive_seconds, default=120.0, help="seconds per board (above 0)"
    )
    m.add_argument("--boards", type=int, help="only the first N boards")
    m.add_argument(
        "--samples",
        type=int,
        default=20,
        help="layouts sampled per decision (mcdd, and the tofs tie-break)",
    )
    m.add_argument("--json", action="store_true", help="print JSON instead of text")


def _fail(message: str) -> int:
    print(f"workbench: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _network(args: argparse.Namespace) -> dict[str, Any]:
    """The declarers' options that carry the method network: the store's, unless
    ``--bundled`` asks for the file shipped with the package."""
    if args.bundled:
        return {}
    from workbench.kb.catalog import stored_knowledge

    spec, _ = stored_knowledge(args.db, "bridge")
    return {"spec": spec}


def _records(path: str) -> list[Any]:
    from knowledge.bridge.pbn import read_pbn

    return read_pbn(Path(path))


def _play_records(args: argparse.Namespace) -> list[Any]:
    """The boards ``play`` was given, as ``plan`` reads them: a PBN file when one exists at
    that path, else the board of that name -- the store's text of it (what the deal editor
    saved), or the package's file with ``--bundled``."""
    from knowledge import get_package
    from knowledge.bridge.pbn import parse_pbn
    from knowledge.bridge.problems import names_a_file
    from workbench.kb.catalog import stored_knowledge

    if names_a_file(args.problem):
        return _records(args.problem)
    pkg = get_package("bridge")
    text: str | None = None
    if args.bundled:
        if args.problem in pkg.problem_files:
            text = pkg.problem_files[args.problem].read_text("utf-8")
    else:
        _, text = stored_knowledge(args.db, "bridge", args.problem)
    if text is None:
        raise ValueError(
            f"package 'bridge' has no problem '{args.problem}', and no PBN file of that name "
            f"exists; problems: {', '.join(sorted(pkg.problems))}"
        )
    return parse_pbn(text, source=args.problem)


def run_play_command(args: argparse.Namespace) -> int:
    from knowledge.bridge.declarers import make_declarer
    from knowledge.bridge.match import play_problem, problem_from_record, recorded_play_fault
    from knowledge.bridge.pbn import PbnError
    from knowledge.bridge.problems import pick_board
    from workbench.kb import StoreError

    try:
        record = pick_board(_play_records(args), args.problem, args.board)
        if args.defense == "scripted" and (fault := recorded_play_fault(record)):
            # Replaying a play that breaks the rules would quietly stop replaying it.
            return _fail(f"{args.problem}: {fault}")
        problem = problem_from_record(record)
        player = make_declarer(
            args.declarer,
            model=args.model,
            board=problem.board,
            vulnerable=problem.declarer_vulnerable,
            **_network(args),
        )
        rec = play_problem(problem, player, args.defense)
    except (PbnError, ValueError, StoreError) as exc:
        return _fail(str(exc))
    data = _play_data(problem, rec, player, args.explain)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(_play_text(data, args.explain))
    return EXIT_PLAN


def _play_data(problem: Any, rec: Any, player: Any, explain: str) -> dict[str, Any]:
    from knowledge.bridge.cards import CARD_NAMES, Seat
    from knowledge.bridge.deal import PlayState
    from knowledge.bridge.network import card_text
    from knowledge.bridge.players import log_notes
    from knowledge.bridge.scoring import score

    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    tricks: list[dict[str, Any]] = []
    notes = log_notes(player, rec.notes)  # every card's plan named, where made on demand
    side = rec.declarer & 1
    for i, c in enumerate(rec.cards):
        state.play(c)
        if len(state.trick) == 0:
            t = state.history[-1]
            first = i - 3
            ours = [
                notes[k] for k in range(first, i + 1) if (rec.seats[k] & 1) == side and notes[k]
            ]
            tricks.append(
                {
                    "trick": len(tricks) + 1,
                    "leader": Seat(t.leader).letter,
                    "cards": [card_text(x) for x in t.cards],
                    "winner": Seat(t.winner).letter,
                    "note": ours[0] if ours else None,
                }
            )
    vulnerable = problem.declarer_vulnerable
    data: dict[str, Any] = {
        "board": problem.board,
        "contract": str(rec.contract),
        "declarer": Seat(rec.declarer).letter,
        "declarer_player": rec.declarer_name,
        "defense": rec.defender_name,
        "tricks": rec.declarer_tricks,
        "made": rec.made,
        "score": score(rec.contract, vulnerable, rec.declarer_tricks),
        "play": "".join(CARD_NAMES[c] for c in rec.cards),
        "trick_by_trick": tricks,
        "seconds": round(rec.declarer_seconds, 3),
    }
    if explain:
        data["decisions"] = _decisions(player, rec, vulnerable)
    return data


def _decisions(player: Any, rec: Any = None, vulnerable: bool = False) -> list[dict[str, Any]]:
    """Every planned decision: the choice at the deciding seat and the alternatives that
    applied (methods whose preconditions failed here are counted, not listed).

    With the play record ``rec``, each decision also carries ``double_dummy_check``: every
    legal card's double-dummy tricks and score on the real four hands -- a check beside the
    planner's values, not its reason (:mod:`knowledge.bridge.dd_check`); ``{"error": ...}``
    when the position cannot be checked.
    """
    from engine.tofs import Reason
    from engine.tofs.render import issue_lines
    from knowledge.bridge.cards import Seat
    from knowledge.bridge.network import card_text
    from knowledge.bridge.play_reader import decision_view, explained_decisions
    from knowledge.bridge.safety import holding_text

    NOT_APPLICABLE = (Reason.PRECONDITION_FAILED, Reason.NO_BINDING)
    kept = explained_decisions(player)
    checks = _dd_checks(rec, [d for d, _, _ in kept], vulnerable) if rec is not None else {}
    out: list[dict[str, Any]] = []
    for d, cp, explanation in kept:
        phrasing = explanation.phrasing
        result = d.result
        explained = next(c for c in explanation.choices if c.choice.node == cp.node)
        tie = getattr(d, "tiebreak", None)
        safety = getattr(d, "safety", None)
        view = decision_view(explanation, cp.node, tie, safety)
        played = tie.labels.get(d.card) if tie is not None else None
        out.append(
            {
                "trick": d.cards_played // 4 + 1,
                "seat": Seat(d.seat).letter,
                "nodes": result.nodes,
                "value": cp.value,
                "verdict": (
                    safety.text()
                    if safety is not None
                    else tie.text()
                    if tie is not None
                    else explained.verdict
                ),
                "alternatives": [
                    {
                        "label": a.label,
                        "method": a.record.method,
                        "value": a.record.value,
                        "reason": _tie_reason(a, tie) or str(a.reason),
                        "detail": a.record.detail,
                        "chosen": (
                            a.label == played
                            if played is not None or (tie is not None and not tie.offered)
                            else a.chosen
                        ),
                        "summary": a.summary,
                        "magnitude": a.magnitude,
                        "why": issue_lines(a.issues, "game", phrasing) if a.issues else [],
                    }
                    for a in explained.alternatives
                    if a.reason not in NOT_APPLICABLE
                ],
                "not_applicable": sum(a.reason in NOT_APPLICABLE for a in cp.alternatives),
                "reader": view.lines() if view is not None else [],
            }
        )
        if tie is not None:
            out[-1]["tiebreak"] = {
                "samples": tie.samples,
                "played": card_text(tie.card),
                "label": played,
                "offered": tie.offered,
                "tricks": {card_text(c): round(v, 3) for c, v in tie.tricks.items()},
            }
        if safety is not None:
            out[-1]["safety"] = {
                "need": safety.need,
                "played": card_text(safety.card),
                "instead": card_text(safety.instead),
                "chance": round(safety.chance, 4),
                "instead_chance": round(safety.instead_chance, 4),
                "guards": [
                    {
                        "seat": Seat(seat).letter,
                        "cards": holding_text(safety.suit, cards, vague),
                        "chance": p,
                    }
                    for seat, cards, p, vague in safety.guards
                ],
            }
        if rec is not None:
            out[-1]["analysis"] = _analysis_at(rec, d, player, vulnerable)
            out[-1]["double_dummy_check"] = _dd_check_data(
                checks.get(d.cards_played), rec, d.cards_played, d.seat
            )
    return out


def _analysis_at(rec: Any, decision: Any, player: Any, vulnerable: bool) -> dict[str, Any]:
    """Declarer's analysis (after Lo 1987) where ``decision`` was taken, from declarer's
    information set there, with the planner's own card, value and count beside it
    (:mod:`knowledge.bridge.analysis`)."""
    from knowledge.bridge.analysis import analyse, planner_values
    from knowledge.bridge.beliefs import get_model
    from knowledge.bridge.deal import PlayState
    from knowledge.bridge.information import declarer_info
    from knowledge.bridge.position import Table, position_of

    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    for c in rec.cards[: decision.cards_played]:
        state.play(c)
    model = get_model(getattr(player, "model", "vacant-places"))
    table = Table(rec.contract, int(rec.declarer), vulnerable, model)
    pos = position_of(declarer_info(state), table)
    return analyse(pos, planner_values(pos, decision.result, decision.card)).to_dict()


def _tie_reason(a: Any, tie: Any) -> str | None:
    """What a tied alternative's line says once the tie was settled by sampled layouts
    (the planner's own words would name its first-considered card as chosen)."""
    from knowledge.bridge.network import card_text

    if tie is None:
        return None
    card = next((c for c, label in tie.labels.items() if label == a.label), None)
    if card is None:
        return None
    if card == tie.card:
        return (
            f"chosen: the most tricks on the sampled layouts ({tie.tricks[card]:.2f}) "
            f"of the cards {tie.close}"
        )
    if tie.tricks[card] == tie.tricks[tie.card]:
        taken = (
            f"{tie.ranked} was taken"
            if tie.ranked
            else f"the equal {card_text(tie.card)} was played"
        )
        return f"close: as many tricks on the sampled layouts ({tie.tricks[card]:.2f}); {taken}"
    return (
        f"close: fewer tricks on the sampled layouts ({tie.tricks[card]:.2f} against "
        f"{tie.tricks[tie.card]:.2f} for {card_text(tie.card)})"
    )


def _dd_checks(rec: Any, decisions: list[Any], vulnerable: bool) -> dict[int, Any]:
    """One double-dummy solve per decision, from the board's start along the real play."""
    from knowledge.bridge.dd_check import checks_for
    from knowledge.bridge.deal import PlayState

    start = PlayState.start(rec.deal, rec.contract, rec.declarer)
    return checks_for(rec.cards, start, [d.cards_played for d in decisions], vulnerable=vulnerable)


def _dd_check_data(check: Any, rec: Any, n: int, seat: int) -> dict[str, Any]:
    from knowledge.bridge.cards import Seat
    from knowledge.bridge.dd_check import LABEL, DDCheck

    if not isinstance(check, DDCheck):
        return {"label": LABEL, "error": str(check) if check is not None else "not checked"}
    if check.seat != seat:
        return {
            "label": LABEL,
            "error": f"the play record has {Seat(check.seat).title} to "
            f"play after {n} cards, not {Seat(seat).title}",
        }
    played = rec.cards[n] if n < len(rec.cards) else None
    return check.to_dict(played)


def _play_text(data: dict[str, Any], explain: str) -> str:
    from knowledge.bridge.dd_check import format_check
    from knowledge.bridge.play_reader import deal_reader_lines

    lines = [
        f"Board {data['board']}: {data['contract']} by {data['declarer']} "
        f"({data['declarer_player']} against {data['defense']} defence)"
    ]
    for t in data["trick_by_trick"]:
        note = f"  {t['note']}" if t["note"] else ""
        lines.append(
            f"{t['trick']:3d}. {t['leader']} led: {' '.join(t['cards'])}  "
            f"won by {t['winner']}{note}"
        )
    verdict = "made" if data["made"] else "down"
    lines.append(
        f"Declarer took {data['tricks']} tricks: {verdict}, {data['score']:+d} "
        f"({data['seconds']:.2f} s thinking)"
    )
    decisions = data.get("decisions") or []
    if explain and not decisions:
        lines.append("(this declarer keeps no decision trees to explain)")
    if explain == "reader":
        lines += deal_reader_lines(decisions)
    if explain == "full":
        for d in decisions:
            lines.append(
                f"\nTrick {d['trick']}, {d['seat']} to play "
                f"(value {d['value']:+.1f}; {d['nodes']} nodes):"
            )
            if "analysis" in d:
                lines.extend(f"  {line}" for line in d["analysis"]["text"])
            lines.append(f"  {d['verdict']}")
            if d["not_applicable"]:
                lines.append(f"  ({d['not_applicable']} methods did not apply here)")
            for a in d["alternatives"]:
                mark = "*" if a["chosen"] else " "
                value = "" if a["value"] is None else f"{a['value']:+.1f}"
                word = (
                    f", {a['magnitude']} worse"
                    if a["magnitude"] not in (None, "about the same")
                    else ""
                )
                detail = f" ({a['detail']})" if a["detail"] else ""
                lines.append(f"  {mark} {a['label']:28s} {value:>8s}  {a['reason']}{word}{detail}")
                lines.extend(f"      why: {w}" for w in a["why"])
            if "double_dummy_check" in d:
                lines.extend(format_check(d["double_dummy_check"], indent="  "))
    return "\n".join(lines)


def run_match_command(args: argparse.Namespace) -> int:
    from knowledge.bridge.match import run_match
    from knowledge.bridge.pbn import PbnError
    from workbench.kb import StoreError

    names = [n.strip() for n in args.declarers.split(",") if n.strip()]
    if args.jobs < 1:
        return _fail("--jobs must be at least 1")
    try:
        records = _records(args.file)
        if args.boards:
            records = records[: args.boards]
        options = {"samples": args.samples, **_network(args)}
        with batch_executor(args.cluster) as executor:
            report = run_match(
                records,
                names,
                args.defense,
                jobs=args.jobs,
                timeout=args.timeout,
                progress=progress_bar(lambda r: f"board {r.board} {r.declarer}"),
                options=options,
                executor=executor,
            )
    except (PbnError, ValueError, StoreError, ClusterError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return interrupted()
    print(report.to_json() if args.json else report.to_text(title=Path(args.file).name))
    return report_failures(
        [(f"board {r.board} ({r.declarer})", r.error, r.traceback) for r in report.failures],
        "board",
    )

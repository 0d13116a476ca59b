"""A played board explained for players: the reader's view at each decision of the deal.

``plan --explain`` explains one position; a played board has a decision at nearly every
card of declarer's side, each with its own planning run.  Said in full (the audit,
``play --explain=full``) that is hundreds of lines, the same analysis repeated at every
card and the alternatives named by their methods.  A player reads, at each decision:

* the card and the plan behind it in the knowledge's words (its method's label template
  filled in, :attr:`~engine.tofs.AlternativeRecord.title`: "North leads ♠5, to set up a
  spade ruff") with its value;
* why this card rather than the next best (the engine's verdict), or -- when plans close in
  value were settled on layouts sampled from what declarer knows -- those cards' average
  tricks;
* what it rests on: the defenders' answers the plan does not bank on, with their chances
  (at most :data:`MAX_RISKS`), and the next best plans (at most :data:`MAX_OTHERS`) with
  the issue that sank each;
* one count of everything not shown, which the full audit lists.

Declarer's analysis (after Lo 1987) is said once, at the first decision, and again only
when its outline changed (:func:`analysis_outline`: the tricks still to build and where
from, the threat) -- not at every card because a card was played.

Every word and number is the engine's reader view's or the analysis's own
(:mod:`engine.tofs.reader`); nothing is judged anew here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.tofs.explanation import Explanation, Phrasing
    from engine.tofs.reader import ReaderChoice, ReaderOption, ReaderPlan

    from .safety import SafetyPlay
    from .tofs_player import TieBreak

__all__ = [
    "MAX_OTHERS",
    "MAX_RISKS",
    "DecisionView",
    "analysis_outline",
    "deal_reader_lines",
    "decision_notes",
    "decision_view",
    "explained_decisions",
]

MAX_RISKS = 2
"""Answers the played plan does not bank on, named at a decision; more are counted."""
MAX_OTHERS = 2
"""Next best plans named at a decision, each with the issue that sank it; more are counted."""
AUDIT = "--explain=full"


@dataclass(frozen=True)
class DecisionView:
    """One decision of a played board as a player reads it (see the module docstring)."""

    head: str
    """The card and its plan: "North leads ♠5, to set up a spade ruff (+626.53)"."""
    verdict: str
    """Why this card: the engine's verdict, or how a tie was settled."""
    rests_on: tuple[str, ...]
    """The answers the plan does not bank on ("Risk: if ...: +620."), or that none is."""
    others: tuple[tuple[str, str], ...]
    """The next best plans: (the plan and its value, the issue that sank it or "")."""
    rest: str | None
    """The count of what is not shown, pointing at the full audit."""

    def lines(self, indent: str = "  ") -> list[str]:
        out = [self.head, f"{indent}{self.verdict}"]
        out += [f"{indent}{r}" for r in self.rests_on]
        for line, why in self.others:
            out.append(f"{indent}- {line}")
            if why:
                out.append(f"{indent}    {why}")
        if self.rest:
            out.append(f"{indent}{self.rest}")
        return out

    def note(self) -> str:
        """The decision in one line, for a play log: the plan and the first thing it
        rests on."""
        plan = self.head.split(", ", 1)[1] if ", " in self.head else self.head
        risk = self.rests_on[0] if self.rests_on else ""
        return f"{plan.rstrip('.')}; {risk}" if risk else plan


def explained_decisions(player: Any) -> list[tuple[Any, Any, Explanation]]:
    """Each planned decision of a played board (``player.decisions``: the TOFS declarer's
    :class:`~knowledge.bridge.tofs_player.Decision`), with its choice point -- the first
    where the deciding seat plays -- and its run explained in bridge's words with the
    domain's thresholds.  Other declarers keep no decisions: an empty list."""
    from engine.tofs.explanation import explain
    from engine.tofs.magnitude import Thresholds

    from .cards import Seat
    from .phrasing import phrasing as bridge_phrasing
    from .tofs_player import bridge_domain

    domain = getattr(player, "domain", None) or bridge_domain()
    phrasing, thresholds = bridge_phrasing(domain), Thresholds.from_constants(domain.constants)
    out = []
    for d in getattr(player, "decisions", []):
        task = f"{Seat(d.seat).title} to play"
        points = [cp for cp in d.result.choice_points if cp.task == task]
        if points:
            cp = min(points, key=lambda c: c.node)
            out.append((d, cp, explain(d.result, phrasing=phrasing, thresholds=thresholds)))
    return out


def decision_notes(player: Any) -> dict[int, str]:
    """The play log's note for each card a decision chose, by the number of cards played
    before it in the deal: the plan in the knowledge's words and the first thing it rests
    on (:meth:`DecisionView.note`), as ``play --explain`` says it."""
    notes = {}
    for d, cp, e in explained_decisions(player):
        view = decision_view(e, cp.node, getattr(d, "tiebreak", None), getattr(d, "safety", None))
        if view is not None:
            notes[d.cards_played] = view.note()
    return notes


def _option_of(c: ReaderChoice, label: str) -> tuple[ReaderOption, ReaderPlan] | None:
    """The option and plan of ``c`` with the alternative whose label is ``label``."""
    for option in ([c.chosen] if c.chosen is not None else []) + list(c.others):
        for plan in option.plans:
            if any(a.record.label == label for a in plan.alternatives):
                return option, plan
    return None


def _settled(tie: TieBreak, shown: int = 3) -> str:
    """How plans close in value were settled, in one sentence, naming cards not methods."""
    from .network import card_text

    cards = sorted(tie.tricks, key=lambda c: -tie.tricks[c])  # stable: the network's order
    each = ", ".join(f"{card_text(c)} {tie.tricks[c]:.2f}" for c in cards[:shown])
    more = f" and {len(cards) - shown} more" if len(cards) > shown else ""
    level = f"; {tie.ranked} of {len(tie.level) + 1} cards level played" if tie.ranked else ""
    found = f" {tie.discovery.text()}." if tie.discovery is not None else ""
    return (
        f"{len(cards)} cards {tie.close}, settled on {tie.samples} layouts sampled from "
        f"{tie.drawn_from}, solved double dummy (average tricks from here: {each}{more}"
        f"{tie.reading_text()}){level}."
        f"{found}"
    )


def decision_view(
    e: Explanation, node: int, tie: TieBreak | None = None, safety: SafetyPlay | None = None
) -> DecisionView | None:
    """The reader's view of the decision at ``node`` of ``e``'s run, following the card a
    tie-break played when there was one (else the planner's choice); None when the run
    has no such decision.  A safety play that replaced the samples' card is the verdict,
    the samples' averages after it: the reader sees why the card was not theirs."""
    from engine.tofs.reader import plan_risks, plan_words, reader_view
    from engine.tofs.render import plan_line, plan_why, risk_line

    view = reader_view(e)
    c = next((c for c in view.choices if c.choice.choice.node == node), None)
    if c is None or c.chosen is None:
        return None
    p: Phrasing = e.phrasing
    option, plan = c.chosen, c.chosen.best
    played = safety.card if safety is not None else tie.card if tie is not None else None
    if tie is not None and played in tie.labels:
        found = _option_of(c, tie.labels[played])
        if found is not None:
            option, plan = found
    value = f" ({p.value(plan.value)})" if plan.value is not None else ""
    head = f"{plan_words(option, plan)}{value}."
    verdict = _settled(tie) if tie is not None else c.verdict
    if safety is not None:
        verdict = f"{safety.text()}. {verdict}"
    unoffered = tie is not None and safety is None and not tie.offered
    if unoffered:  # the samples' card: no plan played it, so none is the one followed
        from .network import card_text

        assert tie is not None
        head = f"{card_text(tie.card)}, a card no plan offered: the samples' best."
        verdict = tie.text()
        risks, more, sure = [], 0, False
    elif plan is c.chosen.best:
        risks, more, sure = list(c.risks), c.more_risks, c.sure
    else:
        found_risks, branched = plan_risks(e, plan)
        risks, more, sure = found_risks, 0, branched and not found_risks
    rests = [risk_line(r, p) for r in risks[:MAX_RISKS]]
    more += max(0, len(risks) - MAX_RISKS)
    if more:
        rests.append(f"... and {more} more answers the plan does not bank on.")
    if sure and plan.value is not None:
        rests.append(
            f"No risk in the planner's tree: every answer planned for gives {p.value(plan.value)}."
        )
    candidates = [
        (o, pl)
        for o in [c.chosen, *c.others]
        for pl in o.plans
        if (unoffered or pl is not plan) and pl.value is not None
    ]
    candidates.sort(key=lambda op: -(op[1].value or 0.0))
    others = tuple(
        (
            f"{plan_words(o, pl)}: {p.value(pl.value or 0.0)} in the planner's tree"
            if pl.chosen
            else plan_line(o, pl, p),
            plan_why(pl, "game", p) or "",
        )
        for o, pl in candidates[:MAX_OTHERS]
    )
    return DecisionView(
        head, verdict, tuple(rests), others, _rest(c, len(candidates) - len(others), p)
    )


def _rest(c: ReaderChoice, unshown: int, p: Phrasing) -> str | None:
    parts = []
    if unshown:
        parts.append(f"{unshown} other plan{'s' if unshown != 1 else ''} in contention")
    if c.not_applied:
        noun = p.alternatives[0 if c.not_applied == 1 else 1]
        parts.append(f"{c.not_applied} {noun} did not apply here")
    if not parts:
        return None
    return f"{'; '.join(parts)} ({AUDIT} lists them)."


_PARENS = re.compile(r"\s*\([^()]*\)")
_SURE = re.compile(r"^Total: \d+ sure tricks?, ")


def analysis_outline(analysis: dict[str, Any]) -> tuple[str, ...]:
    """What declarer's plan rests on in an analysis (:meth:`Analysis.to_dict`): the tricks
    still to build and where from, and the threat -- without the chances and counts that
    move with every card seen (36 % becoming 41 %, a sure trick cashed).  When it changes
    the analysis is worth reading again."""
    text: list[str] = analysis.get("text", [])
    keep = []
    for line in text[1:]:
        line = line.strip()
        if line.startswith("Total:"):
            keep.append(_SURE.sub("Total: ", _PARENS.sub("", line)))
        elif line.startswith("The defenders threaten"):
            keep.append(line.split(":")[0])
    return tuple(keep)


def analysis_lines(analysis: dict[str, Any]) -> list[str]:
    """The analysis as a player reads it here: without its last line, the planner's own
    card and value, which the decision below says."""
    text: list[str] = analysis.get("text", [])
    return [line for line in text if not line.strip().startswith("The planner plays")]


def deal_reader_lines(decisions: Sequence[dict[str, Any]]) -> list[str]:
    """Every decision of a played board at the reader's level: ``decisions`` as
    ``play --json --explain`` gives them, each with its ``reader`` lines and, when the
    board's analysis was made, its ``analysis``."""
    lines: list[str] = []
    outline: tuple[str, ...] | None = None
    for d in decisions:
        lines.append("")
        analysis = d.get("analysis")
        if analysis is not None:
            now = analysis_outline(analysis)
            if outline is None or now != outline:
                if outline is not None:
                    lines.append("Declarer's analysis has changed:")
                lines += analysis_lines(analysis)
                outline = now
        reader = d.get("reader") or []
        if reader:
            lines.append(f"Trick {d['trick']}: {reader[0]}")
            lines += reader[1:]
        check = d.get("double_dummy_check")
        if check is not None:
            lines.append(f"  {dd_summary(check)}")
    return lines


def dd_summary(check: dict[str, Any]) -> str:
    """The double-dummy check of one decision in a line, as a check beside the planner's
    reason (it sees all four hands), not as the reason."""
    head = "Double-dummy check (sees all four hands; not the planner's reason)"
    if "error" in check or "played" not in check:
        return f"{head}: not available ({check.get('error', 'no card to check')})."
    lost = check["played_tricks_lost"]
    if lost == 0:
        return f"{head}: {check['played']} is a best card ({check['best_tricks']} tricks)."
    best = " ".join(check["best_cards"])
    return (
        f"{head}: {check['played']} is {lost} trick{'s' if lost > 1 else ''} short of the "
        f"best ({best}: {check['best_tricks']} tricks)."
    )

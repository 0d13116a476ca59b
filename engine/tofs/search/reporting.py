"""The run's public records, written from the search's working records: plan steps,
failures with why they failed, choice points with every alternative's fate, and the
:class:`~engine.tofs.results.RunResult` itself.

Written only for what a run reports, so that the search proper never formats text.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..domain import Task
from ..results import (
    AlternativeRecord,
    Blame,
    ChoicePoint,
    Expansion,
    Failure,
    PlanStep,
    PolicyNode,
    Reason,
    RunResult,
    Status,
)
from .expansion import EvaluationError, Expander
from .records import NO_METHOD, Alternative, PendingChoice, PendingFailure, flatten

__all__ = ["SUSPECTS_KEPT", "Reporter"]

# The run keeps more suspects than are shown (``results.SUSPECTS_SHOWN``), for the
# knowledge's own analysis (``KnowledgePackage.settle``) to pick from.
SUSPECTS_KEPT = 12


class Reporter(Expander):
    """Turns what the search kept into the records a run reports."""

    # ------------------------------------------------------------------ results
    def make_step(self, alt: Alternative) -> PlanStep:
        """The plan step ``alt`` took; a description that reads no state is written once
        per operator and arguments, since a plan repeats its steps."""
        name, args, costs, state = alt.operator, alt.args, alt.costs, alt.applied_in
        assert name is not None and costs is not None and alt.node is not None
        desc = self.descriptions.get((name, args))
        if desc is None:
            desc = self.domain.operator_description(name, args, state)
            template = self.domain.operators[name].description
            if template is None or not template.uses_state:  # same text every time
                self.descriptions[(name, args)] = desc
        return PlanStep(name, args, costs, desc, self.domain.operators[name].spec.group, alt.node)

    def failure(self, p: PendingFailure | None) -> Failure | None:
        """The failure's record, with the way down to it (``via``) if it lies below an
        alternative."""
        if p is None:
            return None
        found = self.explain_failure(p)
        if found is None or p.via is None:
            return found
        via = tuple((self.domain.task_label(t), label) for t, label in flatten(p.via))
        return replace(found, via=via)

    def suspects(self, limit: int = 5) -> list[Blame]:
        """The conditions that cut the most branches (alternatives that failed them), most
        first (ties: the deeper first), each said as its deepest failure's blame, and last
        the task that most often had no method that applied: where a run with no plan was
        cut most often is where an author looks first.  The task's line has ``detail``
        :data:`NO_METHOD`."""
        ranked = sorted(self.cuts.items(), key=lambda c: (-c[1][0], -c[1][1].depth, c[1][1].node))
        out: list[Blame] = []
        task: Blame | None = None
        seen: set[str] = set()
        for key, (count, pending) in ranked:
            if (len(out) == limit - 1 and task is not None) or self.late():
                break
            if key[0] == NO_METHOD:
                times = f"at {count} dead end{'' if count == 1 else 's'}"
                if task is None:
                    label = self.domain.task_label(pending.task, pending.state)
                    task = Blame(f"{label}: no method applies ({times})", detail=NO_METHOD)
                continue
            if len(out) == limit - 1:
                continue
            times = f"cut {count} branch{'' if count == 1 else 'es'}"
            found = self.explain_failure(pending)
            if found is None:
                continue
            blame = found.blame
            if blame is None:
                blame = Blame(f"{found.task}: {found.method or 'it'} needs `{found.failing}`")
            if blame.text in seen:
                continue
            seen.add(blame.text)
            out.append(replace(blame, text=f"{blame.text} ({times})"))
        return out + ([task] if task is not None else [])

    def explain_failure(self, p: PendingFailure) -> Failure | None:
        """Why ``p`` failed: the smallest failing part of its condition and the values it
        read (only the condition's text when the run is well past its time budget)."""
        label = "the goal" if p.field == "goal" else self.domain.task_label(p.task, p.state)
        method = p.method.label if isinstance(p.method, Alternative) else p.method
        if p.expr is None:
            causes = tuple(f for f in map(self.failure, p.causes) if f is not None)
            return Failure(label, method, p.field, "", "", (), p.depth, p.node, causes)
        if self.late():  # well past the time budget: say where, not why in detail
            return Failure(
                label, method, p.field, p.expr.source, p.expr.source, (), p.depth, p.node
            )
        explain_blame = getattr(p.expr, "explain_blame", None)
        if explain_blame is not None:
            # The condition says where its failing part was written (HDDL's pulled-up
            # literals): the same answer as below, with the blame kept.
            failing, values, blame = self._explain(explain_blame, p, label, method)
            field = "precondition" if p.field == "bindings" else p.field
            return Failure(
                label,
                method,
                field,
                p.expr.source,
                failing,
                tuple(values),
                p.depth,
                p.node,
                blame=blame,
            )
        if p.field == "bindings":
            explain_empty = getattr(p.expr, "explain_empty", None)
            if explain_empty is not None:
                failing, values = explain_empty(p.state, p.env)
                return Failure(
                    label,
                    method,
                    "precondition",
                    p.expr.source,
                    failing,
                    tuple(values),
                    p.depth,
                    p.node,
                )
            return Failure(
                label, method, "binding", p.expr.source, p.expr.source, (), p.depth, p.node
            )
        failing, values = self._explain(p.expr.explain_false, p, label, method)
        return Failure(
            label, method, p.field, p.expr.source, failing, tuple(values), p.depth, p.node
        )

    @staticmethod
    def _explain(explain: Any, p: PendingFailure, label: str, method: str | None) -> Any:
        """``explain(p.state, p.env)``, a condition's own account of why it failed."""
        assert p.expr is not None
        try:
            return explain(p.state, p.env)
        except Exception as exc:
            # The condition evaluated to false without raising, so an explanation that
            # raises is a broken condition class: an error naming where, never a guess.
            raise EvaluationError(
                f"{label} / {method}" if method else label, p.field, p.expr.source, exc
            ) from exc

    def title(self, a: Alternative, task: Task, state: Any) -> str:
        """The method's label filled in with this alternative's bindings: empty when it has
        none, with its fields left open for a method whose generator gave no binding.  A
        label that cannot be filled in otherwise is an error naming its method."""
        m = a.method
        if m is None or m.label is None:
            return ""
        if a.reason is Reason.NO_BINDING:
            # No binding to fill it in with: the label with its fields left open still says
            # what the method would have done.
            return "".join(lit + ("…" if e is not None else "") for lit, e, _ in m.label.parts)
        info = self.domain.tasks.get(task[0])
        env: dict[str, Any] = dict(zip(info.params, task[1], strict=True)) if info else {}
        env.update(a.bindings)
        env["view"] = m.spec.belief_view
        env["assumptions"] = ()
        try:
            return m.label.render(state, env, self.format_value)
        except Exception as exc:
            raise EvaluationError(
                f"method {m.spec.task}.{a.label}", "label", m.label.text, exc
            ) from exc

    def move(self, a: Alternative) -> str:
        """What ``a``'s operator step does, in the domain's words (game moves)."""
        if a.operator is None:
            return ""
        return self.domain.operator_description(a.operator, a.args, a.applied_in)

    def choice_point(self, pc: PendingChoice, chosen: int | None = None) -> ChoicePoint:
        """The choice point's record: every alternative with its fate and why."""
        recs = []
        task = pc.tasks[0]
        for i, e in enumerate(pc.entries):
            a = e.alt
            m = a.method
            reason = e.reason or Reason.NOT_EXPANDED
            recs.append(
                AlternativeRecord(
                    label=a.label,
                    method=m.name if m else a.label,
                    reason=reason,
                    chosen=(reason is Reason.CHOSEN) if chosen is None else (i == chosen),
                    bindings=a.bindings,
                    value=e.value,
                    value_is_bound=e.bound,
                    probability=a.weight if pc.kind == "external" else None,
                    assumption=m.spec.assumption if m else None,
                    critic=m.spec.critic if m else None,
                    failure=self.failure(e.failure),
                    compared_with=e.compared,
                    detail=e.detail,
                    node=a.node,
                    title=self.title(a, task, pc.state),
                    move=self.move(a),
                )
            )
        agent = pc.agent
        return ChoicePoint(
            pc.node,
            pc.depth,
            self.domain.task_label(task, pc.state),
            task[0],
            pc.kind,
            agent,
            pc.value,
            tuple(recs),
            state=pc.state,
            tasks=pc.tasks,
        )

    def expansion(self, node: int, task: Task, alt: Alternative) -> Expansion:
        """How the plan's path expanded ``task`` at ``node`` (the stepper's record)."""
        if alt.method is None or alt.method.subtasks is None:  # an operator, or a method
            name = alt.method.name if alt.method is not None else None  # doing one operator
            op = alt.operator
            subtasks: tuple[Task, ...] = ((op, alt.args),) if alt.method and op else ()
            return Expansion(node, task, name, alt.bindings, subtasks)
        subtasks = alt.tasks[: len(alt.method.subtasks)]  # alt.tasks is subtasks + the rest
        return Expansion(node, task, alt.method.name, alt.bindings, subtasks)

    def result(
        self,
        status: Status,
        value: float | None,
        steps: list[PlanStep],
        choices: list[ChoicePoint],
        policy: PolicyNode | None,
        failure: Failure | None,
    ) -> RunResult:
        """The run's result, with its counts and options."""
        return RunResult(
            domain=self.domain.spec.name,
            problem=self.problem.name,
            mode=self.mode,
            status=status,
            value=value,
            plan=steps,
            choice_points=choices,
            nodes=self.nodes,
            tree_nodes=self.nodes - self.discarded,
            seconds=time.perf_counter() - self.started,
            policy=policy,
            failure=failure,
            diagnostics=self.diagnostics,
            stats=dict(
                self.stats, max_depth=self.max_depth, transposition_entries=len(self.transpositions)
            ),
            options=self.options.summary(),
            trace=self.trace,
        )

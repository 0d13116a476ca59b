"""Game mode: a decision tree, backed up by value.

Decision nodes (tasks of an agent the domain controls, or of none) take the best move by
the criterion; external-agent nodes combine their moves' values by the external-agent
criterion over the moves' probabilities; leaves get the domain's evaluation.  The plan is
the policy: our chosen move at decision nodes, every planned-for move at the others.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..domain import Task
from ..results import ChoicePoint, PlanStep, PolicyEdge, PolicyNode, Reason, RunResult, Status
from ..trace import EventKind
from .records import Alternative, Entry, PendingChoice, Subtree, close
from .reporting import Reporter

__all__ = ["GameSearch"]


class Backup(NamedTuple):
    """A node's value backed up from its moves: the value, the entry chosen (or planned
    for), and the profile a parent's criterion may compare."""

    value: float
    chosen: int
    profile: dict[str, float]


class GameSearch(Reporter):
    """Searches the decision tree of a game."""

    def visit_game(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
        pending: dict[int, PendingChoice],
    ) -> Subtree:
        """The value of the game from this node on, and its policy; choice points go to
        ``pending`` by node, written only for the nodes the policy reaches."""
        trace = self.trace
        label = self.task_label(tasks[0]) if tasks else "(end)"
        if not tasks:
            return self.leaf(state, node, label, "all tasks done")
        if depth > 0 and self.horizon is not None and self.horizon(state, tasks, depth):
            self.stats["not_expanded"] += 1
            return self.leaf(
                state, node, label, "not expanded because planning stops", horizon=True
            )
        if trace is not None:
            trace.emit(EventKind.NODE_EXPANDED, node, task=tasks[0], depth=depth, tasks=len(tasks))
        alts = self.expand(state, tasks, depth, node, assumptions)
        info = self.domain.tasks.get(tasks[0][0])
        agent = None
        if info is not None and info.agent_index is not None:
            agent = tasks[0][1][info.agent_index]
        external = (
            agent is not None and self.controlled is not None and not self.controlled(state, agent)
        )
        kind = "external" if external else "decision"
        forced = self.forced(tasks[0], alts, node)
        entries = [Entry(a) for a in alts]
        usable = [i for i, a in enumerate(alts) if a.ok]
        if external and usable:
            unweighted = [i for i in usable if alts[i].weight is None]
            for i in unweighted:  # no weight given: equally likely among the moves
                alts[i].weight = 1.0 / len(usable)
        if not usable:
            return self.leaf(state, node, label, "no method applies")
        values: list[float] = []
        weights: list[float] = []
        visited: list[int] = []
        children: list[PolicyEdge] = []
        profiles: list[dict[str, float]] = []
        incomplete = False
        # Two methods proposing the same move (a card that is both a winner to cash and the
        # top of a sequence) lead to the same state and tasks: search it once.
        same_as: dict[int, int] = {}
        first_of: dict[tuple[Any, tuple[Task, ...]], int] = {}
        for i, (alt, ent) in enumerate(zip(alts, entries, strict=True)):
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                continue
            if forced is not None and i not in forced:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "another alternative was forced"
                continue
            if not external:
                key = (self.state_key(alt.state), alt.tasks)
                if key in first_of:
                    same_as[i] = first_of[key]
                    continue
                first_of[key] = i
            if (
                external
                and alt.weight is not None
                and (alt.weight < self.cutoff or alt.weight <= 0)
            ):
                ent.reason, ent.detail = Reason.LIKELIHOOD_PRUNED, f"p = {alt.weight:.3g}"
                ent.compared = self.cutoff
                self.stats["likelihood_pruned"] += 1
                if trace is not None:
                    trace.emit(
                        EventKind.NODE_PRUNED,
                        node,
                        alternative=alt.label,
                        reason=str(Reason.LIKELIHOOD_PRUNED),
                        probability=alt.weight,
                        cutoff=self.cutoff,
                    )
                continue
            if self.stop is not None:
                self.mark_stopped(ent)
                incomplete = True
                continue
            child = self.new_node(depth + 1)
            alt.node = child
            if trace is not None:
                trace.emit(
                    EventKind.NODE_CREATED,
                    child,
                    parent=node,
                    alternative=alt.label,
                    probability=alt.weight if external else None,
                )
            out = self.visit_game(
                alt.state, alt.tasks, depth + 1, child, self.assume(assumptions, alt), pending
            )
            incomplete = incomplete or out.incomplete
            assert out.value is not None and out.policy is not None
            ent.value = out.value
            values.append(out.value)
            weights.append(alt.weight if alt.weight is not None else 1.0)
            visited.append(i)
            profiles.append(out.profile)
            step = None
            if alt.operator is not None:
                step = self.make_step(alt)
            m = alt.method
            children.append(
                PolicyEdge(
                    alt.label,
                    m.name if m else alt.label,
                    alt.weight if external else None,
                    out.policy,
                    step,
                    m.spec.assumption if m else None,
                    alt.bindings,
                )
            )
        if not visited:
            out = self.leaf(state, node, label, "every move was pruned or not expanded")
            out.incomplete = incomplete
            return out
        pnode = PolicyNode(node, kind, label, agent, 0.0, children)
        if external:
            value, chosen_entry, profile = self.weigh(
                pnode, alts, entries, visited, values, weights
            )
        else:
            value, chosen_entry, profile = self.choose(pnode, entries, visited, values, profiles)
        if same_as:
            self.twins(alts, entries, same_as)
        pnode.value = value
        if trace is not None:
            trace.emit(EventKind.VALUE_BACKED_UP, node, value=value, node_kind=kind)
            if not external:
                trace.emit(
                    EventKind.CHOICE_MADE, node, alternative=alts[chosen_entry].label, value=value
                )
        if len(usable) > 1:  # a real choice: two or more moves applied
            pending[node] = PendingChoice(node, depth, state, tasks, kind, agent, value, entries)
            self.chosen_index[node] = chosen_entry
        return Subtree(value=value, policy=pnode, incomplete=incomplete, profile=profile)

    def weigh(
        self,
        pnode: PolicyNode,
        alts: list[Alternative],
        entries: list[Entry],
        visited: list[int],
        values: list[float],
        weights: list[float],
    ) -> Backup:
        """An external agent's node: its moves' values combined by the external-agent
        criterion over their probabilities; the most likely move is the one planned for."""
        value = self.options.criterion.value(values, weights)
        planned = max(range(len(visited)), key=lambda j: (weights[j], -j))
        pnode.planned = planned
        m = alts[visited[planned]].method
        pnode.critic = m.spec.critic if m is not None else None
        for i in visited:
            entries[i].reason = Reason.WEIGHTED
            entries[i].compared = value
        profile = {alts[i].label: values[j] for j, i in enumerate(visited)}
        return Backup(value, visited[planned], profile)

    def choose(
        self,
        pnode: PolicyNode,
        entries: list[Entry],
        visited: list[int],
        values: list[float],
        profiles: list[dict[str, float]],
    ) -> Backup:
        """A decision node: the move the criterion chooses; the others tie or are worse."""
        j = self.options.criterion.choose(values, profiles)
        value = values[j]
        pnode.chosen = j
        for jj, i in enumerate(visited):
            ent = entries[i]
            if jj == j:
                ent.reason = Reason.CHOSEN
            elif close(values[jj], value):
                ent.reason = Reason.TIE
            else:
                ent.reason = Reason.LOWER_VALUE
            ent.compared = value
        return Backup(value, visited[j], profiles[j])

    @staticmethod
    def twins(alts: list[Alternative], entries: list[Entry], same_as: dict[int, int]) -> None:
        """Moves not searched because another method proposed the same one: they share its
        fate (a tie where it was chosen)."""
        for i, j in same_as.items():
            ent, twin = entries[i], entries[j]
            ent.reason = (
                Reason.TIE if twin.reason is Reason.CHOSEN else twin.reason or Reason.NOT_EXPANDED
            )
            ent.value, ent.compared = twin.value, twin.compared
            ent.detail = f"the same move as {alts[j].label}, so it was not searched again"

    def leaf(self, state: Any, node: int, label: str, note: str, horizon: bool = False) -> Subtree:
        """A node valued by the domain's evaluation, not searched below."""
        value = float(self.evaluate(state))
        if self.trace is not None:
            self.trace.emit(EventKind.LEAF_VALUED, node, value=value, note=note)
        return Subtree(value=value, policy=PolicyNode(node, "leaf", label, None, value, note=note))

    def run_game(self, root: int) -> RunResult:
        """Search the game from ``root`` and report its policy and principal variation."""
        pending: dict[int, PendingChoice] = {}
        if not self.problem.tasks:
            out = self.leaf(self.problem.state, root, "(end)", "no tasks")
        else:
            out = self.visit_game(self.problem.state, self.problem.tasks, 0, root, (), pending)
        policy = out.policy
        assert policy is not None
        choices: list[ChoicePoint] = []
        # The plan is the policy: our chosen move at decision nodes, every planned-for move
        # at external-agent nodes; each of those choice points is explained.
        stack = [policy]
        while stack:
            pn = stack.pop()
            if pn.node in pending:
                choices.append(self.choice_point(pending[pn.node], self.chosen_index.get(pn.node)))
            if pn.kind == "decision" and pn.chosen is not None:
                stack.append(pn.children[pn.chosen].node)
            else:
                stack.extend(edge.node for edge in pn.children)
        # The linear plan is the principal variation: chosen moves, and the opponents'
        # planned (most likely) moves.
        steps: list[PlanStep] = []
        pn = policy
        while pn.children:
            index = pn.chosen if pn.kind == "decision" else pn.planned
            edge = pn.children[index if index is not None else 0]
            if edge.step is not None:
                steps.append(edge.step)
            pn = edge.node
        choices.sort(key=lambda c: c.node)
        status = self.stop if self.stop is not None else Status.OK
        return self.result(status, out.value, steps, choices, policy, None)

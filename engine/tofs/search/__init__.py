"""Total-Order Forward Search: one search core, three modes.

A node holds a state and a totally ordered task list; expansion always takes the *first*
task (Smith 1997, Ch. 3-4).  A compound task is replaced by the subtasks of each applicable
method instance; an operator is applied.  Every method instance -- applicable or not -- is
an *alternative* of the node, and every alternative ends the run with exactly one reason
(:class:`~engine.tofs.results.Reason`).

* ``optimise`` minimises the summed operator costs by depth-first branch and bound, with a
  transposition table keyed on (remaining tasks, cost-relevant state) and the
  dissertation's partial plan pruner on flagged tasks.  ``full_tree`` switches branch and
  bound and transpositions off and reproduces the dissertation's exhaustive search.
* ``game`` builds a decision tree: decision nodes take the max, external-agent nodes an
  external-agent criterion over move probabilities, leaves the domain's evaluation.
* ``first`` returns the first complete plan found depth-first (SHOP style).

The three share expansion, node accounting, budgets, tracing and the explanation records;
they differ only in how values are backed up.

The search is split by concern, one module each:

* :mod:`.options` -- how to search (:class:`SearchOptions`, :class:`CancelToken`,
  :class:`Progress`);
* :mod:`.budgets` -- budgets, cancel and interrupt seen from anywhere (:class:`Watch`,
  :func:`watching`, :func:`checkpoint`, :class:`SearchStopped`, :func:`resident_mb`);
* :mod:`.records` -- the working records kept until a run's results are written, and the
  tolerance with which costs compare;
* :mod:`.core` -- the run's state and node accounting;
* :mod:`.expansion` -- a node's alternatives and the loop checks;
* :mod:`.reporting` -- the run's public records;
* :mod:`.optimise` and :mod:`.game` -- the modes;
* :mod:`.planner` -- :func:`plan`, and iterative deepening.
"""

from __future__ import annotations

from ..domain import Mode
from .budgets import SearchStopped, Watch, checkpoint, resident_mb, watching
from .expansion import EvaluationError
from .options import CancelToken, Progress, SearchOptions
from .planner import plan

__all__ = [
    "CancelToken",
    "EvaluationError",
    "Mode",
    "Progress",
    "SearchOptions",
    "SearchStopped",
    "Watch",
    "checkpoint",
    "plan",
    "resident_mb",
    "watching",
]

"""The TOFS declarer with one of issue 19's or 31's changes taken out, for the bridge benchmark.

Each factory is a declarer for ``benchmarks/bridge_match.py --declarers`` (as
``benchmarks.bridge_ablations:NAME``), so what each change is worth is measured side by
side with the shipped declarer on the same deals, in one run::

    .venv/bin/python benchmarks/bridge_match.py --boards 0 --tune 0 --report 300 \\
        --defenses dd --declarers tofs,benchmarks.bridge_ablations:before,\\
    benchmarks.bridge_ablations:margin_20,benchmarks.bridge_ablations:kept_tree,\\
    benchmarks.bridge_ablations:no_partner_ruff

The network change is undone on a copy of the shipped network (the Ruff method's old
precondition), not by keeping an old file.

Issue 31's (the time a deal): ``plan_ahead`` plans ``plan_tricks`` ahead at every
decision, as before; ``rank_offer`` and ``rank_plan`` rank the cards the samples leave
level by the one-trick plans or by plans of those cards to the horizon, not by rank;
``every_layout`` solves the whole budget where the cards agree early; ``planned_first``
plans at every decision before the samples (the shipped declarer plans only where the
samples leave cards level), ``samples_only`` never::

    .venv/bin/python benchmarks/bridge_match.py --boards 0 --tune 40 --report 0 \
        --defenses dd --jobs 1 --declarers tofs,benchmarks.bridge_ablations:plan_ahead,\
    benchmarks.bridge_ablations:rank_offer,mcdd

Issue 31's reading of the defenders: ``unread_lead`` draws the samples as ``mcdd`` does,
whatever the opening lead; ``unread_play`` counts every layout alike, whatever the
defenders' cards since (docs/reference/performance.md, "The defenders' cards read")::

    .venv/bin/python benchmarks/bridge_match.py --boards 0 --tune 0 --report 300 \
        --defenses dd --jobs 2 --where --declarers tofs,\
    benchmarks.bridge_ablations:unread_play,mcdd
"""

from __future__ import annotations

from functools import cache

from engine.tofs.model import DomainSpec
from engine.tofs.source import load_domain_file
from knowledge.bridge.declarers import _tofs
from knowledge.bridge.players import Player
from knowledge.bridge.tofs_player import SOURCE


@cache
def _partner_ruff_off() -> DomainSpec:
    """The shipped network with Ruff refused when partner is winning the trick."""
    spec = load_domain_file(SOURCE)
    methods = [
        m.model_copy(update={"precondition": f"{m.precondition} and not partner_winning(P)"})
        if m.name == "Ruff"
        else m
        for m in spec.methods
    ]
    return spec.model_copy(update={"methods": methods})


def before(**o: object) -> Player:
    """All three out: plans within 20 points settled on samples, the kept tree within a
    trick, Ruff only when partner is not winning."""
    return _tofs(
        "trick",
        **{**o, "spec": _partner_ruff_off(), "tie_margin": 20, "replan_on_ties": False},
        name="tofs-before",
    )


def margin_20(**o: object) -> Player:
    return _tofs("trick", **{**o, "tie_margin": 20}, name="tofs-margin-20")


def kept_tree(**o: object) -> Player:
    return _tofs("trick", **{**o, "replan_on_ties": False}, name="tofs-kept-tree")


def no_partner_ruff(**o: object) -> Player:
    return _tofs("trick", **{**o, "spec": _partner_ruff_off()}, name="tofs-no-partner-ruff")


def plan_ahead(**o: object) -> Player:
    """Issue 31's speed-up out: plan ``plan_tricks`` ahead at every decision, as before,
    instead of one trick for the cards on offer."""
    return _tofs("trick", **{**o, "offer_tricks": 0}, name="tofs-plan-ahead")


def rank_offer(**o: object) -> Player:
    """Cards the samples leave level go by the one-trick plans' values (no deeper plan)."""
    return _tofs("trick", **{**o, "tie_rank": "offer"}, name="tofs-rank-offer")


def rank_plan(**o: object) -> Player:
    """Cards the samples leave level go by the plans of those cards to the horizon (the
    default before open cards), not to the lowest."""
    return _tofs("trick", **{**o, "tie_rank": "plan"}, name="tofs-rank-plan")


def no_safety(**o: object) -> Player:
    """Issue 31's safety play out: the samples' card even where another card of its suit
    is surer of the tricks the contract needs from the suit."""
    return _tofs("trick", **{**o, "safety": False}, name="tofs-no-safety")


def no_discovery(**o: object) -> Player:
    """Issue 31's discovery play out: among level cards, the plans' choice even where it
    starts a guess and a sure winner could be cashed first."""
    return _tofs("trick", **{**o, "discovery": False}, name="tofs-no-discovery")


def samples_20(**o: object) -> Player:
    """mcdd's sample budget: 20 layouts settle the cards instead of ``tie_samples`` (12)."""
    return _tofs("trick", **{**o, "tie_samples": 20}, name="tofs-samples-20")


def closed_cards(**o: object) -> Player:
    """Only the cards the plans offer are solved on the samples (none where one is offered),
    as before issue 31's open cards."""
    return _tofs("trick", **{**o, "open_cards": False}, name="tofs-closed-cards")


def every_layout(**o: object) -> Player:
    """Every layout of the budget solved at every decision, as ``mcdd`` (no agreement)."""
    return _tofs("trick", **{**o, "stop_when_agreed": False}, name="tofs-every-layout")


def extended(**o: object) -> Player:
    """Twice the budget where distinct cards stay within a tenth of a trick, paid for by the
    layouts agreements left unsolved."""
    return _tofs("trick", **{**o, "extend_close": True}, name="tofs-extended")


def planned_first(**o: object) -> Player:
    """The plans before the samples at every decision (the default before plans were made
    lazily): the samples then settle the cards the plans offered."""
    return _tofs("trick", **{**o, "plan_lazily": False}, name="tofs-planned-first")


def samples_only(**o: object) -> Player:
    """No plan at any decision: the samples, a discovery play among level cards, the
    safety play; the plans are made only for an explanation."""
    return _tofs(
        "trick", **{**o, "plan_lazily": True, "plan_level": False}, name="tofs-samples-only"
    )


def unread_lead(**o: object) -> Player:
    """The samples drawn uniformly over what declarer has seen, as ``mcdd``'s, not in
    proportion to how well the opening lead agrees with each layout."""
    return _tofs("trick", **{**o, "read_lead": False}, name="tofs-unread-lead")


def unread_play(**o: object) -> Player:
    """Every layout weighed alike where the layouts disagree, as ``mcdd``'s, not by whether
    the defenders' latest cards would have given a trick away in it."""
    return _tofs("trick", **{**o, "read_play": False}, name="tofs-unread-play")

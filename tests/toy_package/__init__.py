"""A knowledge package written outside ``knowledge/``, as another distribution would write
one: ``tests/test_package_contract.py`` installs it through the entry-point group and plans
it with no line of ``workbench/`` or ``knowledge/__init__.py`` knowing of it.

It adds one flag of its own to ``workbench plan``: ``--no-car``, which takes the car away
(so the plan walks).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.tofs import Domain, Problem, Registry, make_task
from knowledge.contract import KnowledgePackage, Read
from knowledge.request import PlanRequest

HERE = Path(__file__).parent

registry = Registry("errand")


@dataclass(frozen=True)
class Trip:
    car: bool
    in_town: bool = False


@registry.primitive
def has_car(state: Trip) -> bool:
    """Whether there is a car to drive."""
    return state.car


@registry.effect
def arrive(state: Trip) -> Trip:
    return replace(state, in_town=True)


def errand(domain: Domain, car: bool = True) -> Problem:
    return Problem("errand", Trip(car=car), (make_task(domain, "GetToTown"),), mode="optimise")


class ToyPackage(KnowledgePackage):
    """One domain, one problem, one flag of its own."""

    name = "toy"
    description = "A toy package from the tests: get to town."

    def __init__(self) -> None:
        super().__init__()
        self.sources = {"errand": HERE / "errand.toml"}
        self.registries = {"errand": registry}
        self.problems = {"errand": errand}
        self.problem_domain = {"errand": "errand"}
        self.problem_descriptions = {"errand": "get to town"}

    def add_plan_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--no-car", action="store_true", help="there is no car")

    def plan_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"car": not args.no_car}

    def read(self, request: PlanRequest) -> Read:
        domain = self.domain("errand", request.spec)
        return Read(domain, errand(domain, car=bool(request.options.get("car", True))))

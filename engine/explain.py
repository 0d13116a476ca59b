"""Explanations, in one import: ``engine.explain.contrast(run, choice, alternative, ...)``.

The pieces live in :mod:`engine.tofs` (the explanation object, the relevant issues, the
magnitude words, why-not re-planning and the renderers); this module only gathers what a
caller outside the engine needs.
"""

from engine.tofs.contrast import Contrast, compare, contrast
from engine.tofs.explain import Anchor, plan_why_not, replan_at
from engine.tofs.explanation import (
    AlternativeExplanation,
    ChoiceExplanation,
    Explanation,
    Phrasing,
    explain,
)
from engine.tofs.issues import Issue, Issues, policy_issues, step_issues
from engine.tofs.magnitude import Thresholds, magnitude_word
from engine.tofs.reader import ReaderView, reader_view
from engine.tofs.render import (
    contrast_text,
    explanation_markdown,
    explanation_text,
    reader_markdown,
    reader_text,
)

__all__ = [
    "AlternativeExplanation",
    "Anchor",
    "ChoiceExplanation",
    "Contrast",
    "Explanation",
    "Issue",
    "Issues",
    "Phrasing",
    "ReaderView",
    "Thresholds",
    "compare",
    "contrast",
    "contrast_text",
    "explain",
    "explanation_markdown",
    "explanation_text",
    "magnitude_word",
    "plan_why_not",
    "policy_issues",
    "reader_markdown",
    "reader_text",
    "reader_view",
    "replan_at",
    "step_issues",
]

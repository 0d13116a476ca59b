"""Explanations, in one import: ``engine.explain.contrast(run, choice, alternative, ...)``.

The pieces live in :mod:`engine.tofs`, one layer each: the explanation object
(:mod:`~engine.tofs.explanation`, whose :func:`explain` is what "explain" names), the
reader's view (:mod:`~engine.tofs.reader`), the relevant issues, the magnitude words,
why-not re-planning (:mod:`~engine.tofs.why_not`), the comparison of two runs
(:mod:`~engine.tofs.contrast`) and the renderers (:mod:`~engine.tofs.render`); this module
only gathers what a caller outside the engine needs.
"""

from engine.tofs.contrast import Contrast, compare, contrast
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
    render_text,
)
from engine.tofs.why_not import Anchor, plan_why_not, replan_at

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
    "render_text",
    "replan_at",
    "step_issues",
]

"""Autocomplete for expression inputs: complete the identifier being typed at the end.

Textual's ``SuggestFromList`` completes the *whole* value, which is useless in the middle of
``min_gap() > paint_m``; this suggester completes only the last word and keeps the rest, so
the Input shows the completion greyed after the cursor and right-arrow accepts it.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.suggester import Suggester

from workbench.widgets.kb_fields import word_at_end

__all__ = ["WordSuggester"]


class WordSuggester(Suggester):
    """Suggest the first of ``words`` (in priority order) that extends the last word typed."""

    def __init__(self, words: Iterable[str]) -> None:
        # Case-sensitive: names in the knowledge language are, and the Input only shows a
        # suggestion that starts with exactly what was typed.
        super().__init__(use_cache=True, case_sensitive=True)
        self.words = list(dict.fromkeys(words))

    async def get_suggestion(self, value: str) -> str | None:
        found = word_at_end(value)
        if found is None:
            return None
        start, prefix = found
        for word in self.words:
            if word.startswith(prefix) and word != prefix:
                return value[:start] + word
        return None

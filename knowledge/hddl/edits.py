"""One-place edits of an HDDL domain's own text, so that a repair reads as a small diff.

A repair (:mod:`knowledge.hddl.repair`) is found on the parsed model, but an author reads it
against the file they wrote: rewriting the whole domain with the writer would show every
line as changed.  So each edit is made in the original text -- a literal added before the
``)`` of an effect's ``and``, a literal wrapped in ``(not ...)``, two subtask calls
exchanged, a method inserted after its task's last method -- and the result is parsed
again, so that what is planned is exactly what the diff shows.

:class:`Source` indexes the text's s-expressions by offset; the model's positions (``Pos``,
the line and column of a construct's first name) find the form an edit is about.
Comments and the author's layout are kept; a new line copies the indentation of the line
beside it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from .model import Pos

__all__ = ["Edit", "Node", "Source", "apply_edits", "unified_diff"]


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``new`` (an insertion when ``start == end``)."""

    start: int
    end: int
    new: str


@dataclass
class Node:
    """A token (``children`` None) or a parenthesised list, by its offsets in the text:
    ``start`` at the token or the ``(``, ``end`` just after the token or the ``)``."""

    start: int
    end: int
    word: str = ""  # a token's text, lower case
    children: list[Node] | None = None
    parent: Node | None = field(default=None, repr=False)

    @property
    def is_list(self) -> bool:
        return self.children is not None

    @property
    def head(self) -> str:
        """A list's first word (lower case), "" when it has none."""
        if self.children and self.children[0].children is None:
            return self.children[0].word
        return ""

    def after(self, keyword: str) -> Node | None:
        """In a list of keyword/value pairs (``:effect (and ...)``), the value after
        ``keyword``; None when it is not there."""
        kids = self.children or []
        for i, kid in enumerate(kids[:-1]):
            if kid.children is None and kid.word == keyword:
                return kids[i + 1]
        return None


class Source:
    """A domain's text with its s-expressions indexed: which list a model's position (its
    first name) heads, where a line starts and how it is indented."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.tokens: dict[int, Node] = {}
        self.root = self._parse()

    def _parse(self) -> Node:
        text = self.text
        root = Node(0, len(text), children=[])
        stack = [root]
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch == ";":
                while i < n and text[i] != "\n":
                    i += 1
            elif ch == "(":
                node = Node(i, i, children=[], parent=stack[-1])
                assert stack[-1].children is not None
                stack[-1].children.append(node)
                stack.append(node)
                i += 1
            elif ch == ")":
                if len(stack) > 1:
                    stack.pop().end = i + 1
                i += 1
            else:
                j = i
                while j < n and not text[j].isspace() and text[j] not in "();":
                    j += 1
                token = Node(i, j, text[i:j].lower(), parent=stack[-1])
                assert stack[-1].children is not None
                stack[-1].children.append(token)
                self.tokens[i] = token
                i = j
        return root

    # ------------------------------------------------------------------ finding

    def offset(self, pos: Pos) -> int:
        """The offset of a model position (1-based line and column)."""
        return self.line_starts[pos.line - 1] + pos.column - 1

    def line_of(self, offset: int) -> int:
        """The 1-based line of an offset."""
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def token(self, pos: Pos | None) -> Node | None:
        """The token a model position points at (a name, a variable, a keyword)."""
        if pos is None or pos.line > len(self.line_starts):
            return None
        return self.tokens.get(self.offset(pos))

    def form(self, pos: Pos | None) -> Node | None:
        """The list whose first word is at ``pos``: ``(in ?p ?v)`` for an atom's position,
        ``(:action pick_up ...)`` for an action's (whose position is its name, the second
        word: the list holding the token is returned either way)."""
        token = self.token(pos)
        return token.parent if token is not None and token.parent is not self.root else None

    def indent(self, offset: int) -> str:
        """The whitespace that starts the line holding ``offset``."""
        start = self.line_starts[self.line_of(offset) - 1]
        end = start
        while end < len(self.text) and self.text[end] in " \t":
            end += 1
        return self.text[start:end]

    def own_line(self, node: Node) -> bool:
        """Whether ``node`` is the only thing on its line (comments aside)."""
        start = self.line_starts[self.line_of(node.start) - 1]
        if self.text[start : node.start].strip():
            return False
        rest = self.text[node.end :].split("\n", 1)[0]
        return not rest.split(";", 1)[0].strip()

    def slice(self, node: Node) -> str:
        return self.text[node.start : node.end]

    # ------------------------------------------------------------------ editing

    def delete(self, node: Node) -> Edit:
        """Remove a form; with its whole line when it stood alone on it."""
        if self.own_line(node):
            line = self.line_of(node.start)
            start = self.line_starts[line - 1]
            end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
            return Edit(start, end, "")
        start = node.start
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1
        return Edit(start, node.end, "")

    def starts_line(self, node: Node) -> bool:
        """Whether only whitespace comes before ``node`` on its line."""
        start = self.line_starts[self.line_of(node.start) - 1]
        return not self.text[start : node.start].strip()

    def append(self, into: Node, text: str) -> Edit:
        """Add ``text`` as the last element of the list ``into``: on a line of its own,
        indented as the last element, when that one starts its line."""
        kids = into.children or []
        last = kids[-1] if kids else None
        if last is not None and len(kids) > 1 and self.starts_line(last):
            return Edit(last.end, last.end, "\n" + self.indent(last.start) + text)
        return Edit(into.end - 1, into.end - 1, (" " if last is not None else "") + text)


def apply_edits(text: str, edits: list[Edit] | tuple[Edit, ...]) -> str:
    """``text`` with the edits made (they must not overlap)."""
    out = text
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: edit.start] + edit.new + out[edit.end :]
    return out


def unified_diff(old: str, new: str, name: str, context: int = 2) -> str:
    """The change as ``diff -u`` shows it, ``a/NAME`` against ``b/NAME``."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        f"a/{name}",
        f"b/{name}",
        n=context,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

"""The form of one knowledge item, checked as the user types.

Each field is a compact ``Input`` (a ``Checkbox`` for flags) with a line under it that says
what is wrong and at which column, computed by :func:`kb_fields.check_form` with the
engine's own compiler on every keystroke.  List fields (bindings, subtasks, costs) show one
input per entry and grow a fresh empty entry whenever the last one is typed into; an entry
left empty is dropped on save.

The form never saves: it tells its screen what state it is in (``StateChanged``), that the
user changed something (``Edited``, so the screen can keep a draft), and which primitive
the focused input is about (``HintChanged``), and hands over its texts on request.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import HorizontalGroup, VerticalGroup, VerticalScroll
from textual.message import Message
from textual.widgets import Checkbox, Input, Label, Static

from workbench.widgets.kb_fields import (
    EditContext,
    FieldError,
    FieldSpec,
    FormValues,
    ItemRef,
    check_form,
    fields_for,
    item_values,
    placeholder_for,
    primitive_near,
    scope_of,
)
from workbench.widgets.kb_suggest import WordSuggester
from workbench.widgets.tick_box import TickBox

__all__ = ["FieldCheckbox", "FieldInput", "ItemForm"]

_LIST_FIELD = re.compile(r"^(\w+)\[(\d+)\]$")


def _dom_id(key: str, index: int | None, prefix: str = "f") -> str:
    return f"{prefix}-{key}" if index is None else f"{prefix}-{key}-{index}"


class FieldInput(Input):
    """The input of one field, or of one entry of a list field."""

    def __init__(
        self,
        spec: FieldSpec,
        index: int | None,
        value: str,
        suggester: WordSuggester | None,
        placeholder: str | None = None,
    ) -> None:
        shown = spec.placeholder if placeholder is None else placeholder
        placeholder = f"+ {shown}" if spec.many else shown
        super().__init__(
            value,
            placeholder=placeholder,
            suggester=suggester,
            select_on_focus=False,
            compact=True,
            id=_dom_id(spec.key, index),
        )
        self.spec = spec
        self.index = index


class FieldCheckbox(TickBox):
    """A flag field."""

    def __init__(self, spec: FieldSpec, value: bool) -> None:
        super().__init__(spec.label, value, compact=True, id=_dom_id(spec.key, None))
        self.spec = spec


def _normal(values: FormValues) -> FormValues:
    """Values as saved: list entries left empty do not count as edits."""
    return {k: [e for e in v if e.strip()] if isinstance(v, list) else v for k, v in values.items()}


class ItemForm(VerticalScroll):
    """The open item's fields; ``show_item`` fills it, ``values`` reads it back."""

    class StateChanged(Message):
        """The form was (re)checked: how many fields are wrong, and whether it was edited."""

        def __init__(self, form: ItemForm, ref: ItemRef | None, problems: int, dirty: bool) -> None:
            super().__init__()
            self.form = form
            self.ref = ref
            self.problems = problems
            self.dirty = dirty

        @property
        def control(self) -> ItemForm:
            return self.form

    class Edited(Message):
        """The user changed a field (sent on every change, unlike ``StateChanged``)."""

    class HintChanged(Message):
        """The focused input is about this primitive (``name`` None: about none)."""

        def __init__(self, name: str | None, signature: str = "", doc: str = "") -> None:
            super().__init__()
            self.name = name
            self.signature = signature
            self.doc = doc

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ref: ItemRef | None = None
        self.item: Any = None
        self.ctx: EditContext | None = None
        self.revision = 0
        self.initial: FormValues = {}
        self._start: FormValues = {}
        self._shown: dict[str, str] = {}  # error line id -> text shown
        self._state: tuple[ItemRef | None, int, bool] | None = None  # last StateChanged
        self._hinted: str | None = None  # primitive of the last HintChanged
        self.problems: dict[tuple[str, int | None], FieldError] = {}
        self.empty_text = "Pick an item in the tree: enter (or just moving the cursor) opens it."

    # ------------------------------------------------------------------ filling

    async def show_item(
        self,
        ref: ItemRef,
        item: Any,
        ctx: EditContext,
        revision: int,
        values: FormValues | None = None,
    ) -> None:
        """Show ``item`` (with ``values`` instead of its own texts, to keep edits)."""
        self.ref, self.item, self.ctx, self.revision = ref, item, ctx, revision
        self.initial = item_values(ref, item)
        self._start = values if values is not None else self.initial
        self._shown = {}
        self._state = None
        await self.recompose()
        self.scroll_home(animate=False)
        self.revalidate()

    async def show_nothing(self, text: str | None = None) -> None:
        self.ref = self.item = self.ctx = None
        self.initial = {}
        self.problems = {}
        if text is not None:
            self.empty_text = text
        self._shown = {}
        self._state = (None, 0, False)
        await self.recompose()
        self.post_message(self.StateChanged(self, None, 0, False))

    def compose(self) -> ComposeResult:
        if self.ref is None or self.ctx is None:
            yield Static(Text(self.empty_text), classes="form-empty")
            return
        yield Static(
            Text.assemble(
                (self.ref.kind, "dim"),
                " ",
                (self.ref.name, "bold"),
                (f"   as of r{self.revision}", "dim"),
            ),
            classes="form-title",
        )
        for spec in fields_for(self.ref, self.item):
            value = self._start.get(spec.key, "")
            if spec.kind == "flag":
                with HorizontalGroup(classes="field-row"):
                    yield Label("", classes="field-label")
                    yield FieldCheckbox(spec, bool(value))
                continue
            with HorizontalGroup(classes="field-row"):
                yield Label(spec.label, classes="field-label")
                with VerticalGroup(classes="field-inputs", id=_dom_id(spec.key, None, "list")):
                    if spec.many:
                        entries = list(value) if isinstance(value, list) else []
                        for i, text in enumerate([*entries, ""]):
                            yield self._entry(spec, i, text)
                    else:
                        yield FieldInput(
                            spec,
                            None,
                            str(value),
                            self._suggester(spec),
                            placeholder_for(spec, self.ref, self.ctx),
                        )
                        yield Static("", classes="field-error", id=_dom_id(spec.key, None, "e"))

    def _entry(self, spec: FieldSpec, index: int, text: str) -> VerticalGroup:
        return VerticalGroup(
            FieldInput(spec, index, text, self._suggester(spec)),
            Static("", classes="field-error", id=_dom_id(spec.key, index, "e")),
            classes="field-entry",
        )

    def _suggester(self, spec: FieldSpec) -> WordSuggester | None:
        if not spec.is_expression or self.ctx is None:
            return None
        scope = scope_of(self.ref, self.item, self.ctx, self._start) if self.ref else []
        return WordSuggester(
            self.ctx.words(scope, calls_first=spec.kind in ("call", "operator_call"))
        )

    # ------------------------------------------------------------------ reading

    def values(self) -> FormValues:
        """The form's texts now (list fields in entry order, empty entries included)."""
        out: FormValues = {}
        for widget in self.query(FieldInput):
            if widget.spec.many:
                entries = out.setdefault(widget.spec.key, [])
                assert isinstance(entries, list)
                entries.append(widget.value)
            else:
                out[widget.spec.key] = widget.value
        for box in self.query(FieldCheckbox):
            out[box.spec.key] = box.value
        return out

    @property
    def dirty(self) -> bool:
        return self.ref is not None and _normal(self.values()) != _normal(self.initial)

    # ------------------------------------------------------------------ checking

    def revalidate(self) -> None:
        """Check every field, show each problem under its input, tell the screen."""
        if self.ref is None or self.ctx is None:
            return
        self.problems = check_form(self.ref, self.item, self.ctx, self.values())
        for widget in self.query(FieldInput):
            err = self.problems.get((widget.spec.key, widget.index))
            widget.set_class(err is not None, "-bad")
            dom_id = _dom_id(widget.spec.key, widget.index, "e")
            text = f"✗ {err}" if err is not None else ""
            if self._shown.get(dom_id, "") != text:  # an update costs a layout: only on change
                self._shown[dom_id] = text
                line = self.query_one(f"#{dom_id}", Static)
                line.update(Text(text))
                line.set_class(err is not None, "-shown")
        state = (self.ref, len(self.problems), self.dirty)
        if state != self._state:
            self._state = state
            self.post_message(self.StateChanged(self, *state))

    @on(Input.Changed)
    async def _changed(self, event: Input.Changed) -> None:
        event.stop()
        widget = event.input
        if not isinstance(widget, FieldInput):
            return
        if widget.spec.many and widget.value.strip():
            await self._grow(widget)
        self.revalidate()
        self.post_message(self.Edited())
        if widget.has_focus:
            self._hint(widget)

    @on(Checkbox.Changed)
    def _flag_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self.revalidate()
        self.post_message(self.Edited())

    async def _grow(self, widget: FieldInput) -> None:
        """Typing into the last entry of a list adds an empty one after it."""
        container = self.query_one(f"#{_dom_id(widget.spec.key, None, 'list')}", VerticalGroup)
        inputs = list(container.query(FieldInput))
        if inputs and inputs[-1] is widget and widget.index is not None:
            await container.mount(self._entry(widget.spec, widget.index + 1, ""))

    # ------------------------------------------------------------------ primitive help

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, FieldInput):
            self._hint(event.widget)
        else:
            self._post_hint(None)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if not any(w.has_focus for w in self.query(FieldInput)):
            self._post_hint(None)

    def _hint(self, widget: FieldInput) -> None:
        name = None
        if self.ctx is not None and widget.spec.is_expression:
            name = primitive_near(widget.value, widget.cursor_position, self.ctx.docs)
        self._post_hint(name)

    def _post_hint(self, name: str | None) -> None:
        if name == self._hinted:
            return
        self._hinted = name
        if name is None or self.ctx is None:
            self.post_message(self.HintChanged(None))
            return
        signature, doc = self.ctx.docs[name]
        self.post_message(self.HintChanged(name, signature, doc))

    # ------------------------------------------------------------------ focusing

    def focus_field(self, where: str) -> bool:
        """Focus the input a finding names: ``precondition``, ``subtasks[1]``, ``costs.run``."""
        key, index = where, None
        m = _LIST_FIELD.match(where)
        if m:
            key, index = m.group(1), int(m.group(2))
        elif "." in where:
            key, component = where.split(".", 1)
            for widget in self.query(FieldInput):
                if widget.spec.key == key and widget.value.split(":")[0].strip() == component:
                    widget.focus()
                    return True
        for widget in self.query(FieldInput):
            if widget.spec.key == key and (index is None or widget.index == index):
                widget.focus()
                return True
        return False

"""The deal editor: type a bridge deal, see it checked and drawn, save it as a PBN board.

Four hands are typed as PBN hands (``AKQ2.J54.T9.8765``: spades.hearts.diamonds.clubs),
or the whole deal as one PBN ``[Deal]`` value (``N:… … … …``); the two stay in step, so
a deal pasted from a file fills the hand fields and a typed hand updates the deal string.
Contract, declarer, dealer, vulnerability and the board's name complete the board.

Everything is checked as it is typed (once typing pauses), by the card core itself
(:func:`~knowledge.bridge.cards.parse_hand`, :func:`~knowledge.bridge.deal.check_hands`,
:class:`~knowledge.bridge.deal.Deal`, :meth:`~knowledge.bridge.deal.Contract.parse`): its
messages already name the card, the seats and the missing cards, and the editor only
decides where to show them -- next to the hand at fault (both hands, for a card typed
twice), with each hand's card count beside it, and all together under the diagram.  The
diagram shows the hands as typed and is marked invalid until the deal is a deal.

When three hands are complete, ctrl+f fills the fourth with the 13 cards nobody holds
(PBN's '-' hand, completed by :meth:`Deal.from_pbn`).  Saving (ctrl+s, or f2 for a new
name) is refused while anything is wrong -- the keys are disabled and the status line
says why -- and otherwise builds the board with :func:`~knowledge.bridge.pbn.deal_to_pbn`
and reads it back with :func:`~knowledge.bridge.pbn.parse_pbn`, so what is handed over is
exactly a board the reader accepts.  The result, a :class:`SavedDeal` (name, PBN text,
record), goes to the ``on_save`` callback (the editor stays open) or, without one, is the
screen's :meth:`dismiss` value; :class:`DealSaved` is posted to the app either way.

Leaving with unsaved changes (escape, or quitting) asks Save / Discard / Stay; given a
:class:`~workbench.kb.drafts.DraftBox`, the fields are kept as a draft on disk meanwhile
(:class:`~workbench.screens.unsaved.GuardedScreen`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Header, Input, Label, Select, Static

from knowledge.bridge.cards import CardError, Seat, hand_to_pbn, parse_hand
from knowledge.bridge.deal import (
    Contract,
    Deal,
    DealError,
    Vul,
    check_hands,
    dealer_for_board,
)
from knowledge.bridge.pbn import BoardRecord, PbnError, deal_to_pbn, parse_pbn
from workbench.domains.bridge.table import BridgeTable
from workbench.kb.drafts import Draft, DraftBox, digest
from workbench.screens.save_as import SaveAsScreen
from workbench.screens.unsaved import GuardedScreen
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.status_line import StatusLine

__all__ = [
    "DealCheck",
    "DealEditorScreen",
    "DealForm",
    "DealSaved",
    "SaveDealAsScreen",
    "SavedDeal",
    "board_pbn",
    "check_deal_form",
    "edit_board",
    "fields_of_form",
    "form_of_fields",
    "form_of_record",
    "join_hands",
    "split_deal_text",
]

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
FIELD_LABELS = {
    "deal-text": "PBN deal",
    "N": "North",
    "E": "East",
    "S": "South",
    "W": "West",
    "deal": "Deal",
    "board": "Board",
    "contract": "Contract",
    "declarer": "Declarer",
}
"""Every key of :attr:`DealCheck.errors`, in the order problems are listed."""
PASS_WORDS = ("PASS", "P", "AP")
"""Contract spellings of a passed-out board (as the PBN reader accepts them)."""
DESCRIPTIVE_TAGS = ("Event", "Site", "Date", "West", "North", "East", "South", "Scoring")
"""Tags of a loaded board that stay true whatever the deal: kept when the deal changes."""
HAND_EXAMPLE = "AKQ2.J54.T9.8765"


# ---------------------------------------------------------------------- checking (no UI)


@dataclass(frozen=True)
class DealForm:
    """The editor's fields as typed.  ``hands`` are in seat order N, E, S, W."""

    hands: tuple[str, str, str, str] = ("", "", "", "")
    deal_text: str = ""
    board: str = ""
    dealer: Seat | None = None
    vulnerability: Vul | None = None
    contract: str = ""
    declarer: Seat | None = None


@dataclass
class DealCheck:
    """The outcome of checking a :class:`DealForm`.

    ``errors`` maps a field key (see :data:`FIELD_LABELS`) to the card core's message;
    ``masks`` are the hands that parse (None: empty or unreadable); ``deal`` is set when
    the four hands make a deal; ``completion`` is the deal with the one empty hand filled,
    when three complete hands allow it (what ctrl+f writes).
    """

    masks: tuple[int | None, int | None, int | None, int | None]
    errors: dict[str, str] = field(default_factory=dict)
    deal: Deal | None = None
    contract: Contract | None = None
    passed_out: bool = False
    completion: Deal | None = None
    empty: tuple[Seat, ...] = ()

    @property
    def ok(self) -> bool:
        """A whole, consistent board: it may be saved."""
        return self.deal is not None and not self.errors

    @property
    def fill_seat(self) -> Seat | None:
        """The hand ctrl+f can fill (the only empty one), if the other three allow it."""
        return self.empty[0] if self.completion is not None and len(self.empty) == 1 else None

    def problems(self) -> list[tuple[str, str]]:
        """(field key, message) in field order; a message shown at two fields (a card in
        two hands) is listed once."""
        seen: set[str] = set()
        out: list[tuple[str, str]] = []
        for key in FIELD_LABELS:
            message = self.errors.get(key)
            if message is not None and message not in seen:
                seen.add(message)
                out.append((key, message))
        return out


def split_deal_text(text: str) -> dict[Seat, str] | None:
    """A PBN deal value cut into its four hands by seat ('-' kept), or None if it does not
    have the shape 'X:h h h h' (the hands themselves are not checked here)."""
    t = text.strip()
    first = Seat.N
    if len(t) >= 2 and t[1] == ":":
        try:
            first = Seat.parse(t[0])
        except ValueError:
            return None
        t = t[2:]
    parts = t.split()
    if len(parts) != 4:
        return None
    return {Seat((first + i) & 3): part for i, part in enumerate(parts)}


def join_hands(hands: Sequence[str]) -> str:
    """The PBN deal value of four typed hands (N, E, S, W), '-' for an empty one."""
    return "N:" + " ".join(h.strip() or "-" for h in hands)


def _seat_list(seats: Sequence[Seat]) -> str:
    names = [s.title for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_deal_form(form: DealForm) -> DealCheck:
    """Check every field of ``form`` with the card core and say where each problem is."""
    errors: dict[str, str] = {}
    masks: list[int | None] = [None, None, None, None]
    empty: list[Seat] = []
    for seat in SEATS:
        text = form.hands[seat].strip()
        if text in ("", "-"):
            empty.append(seat)
            continue
        try:
            masks[seat] = parse_hand(text)
        except CardError as e:
            errors[seat.letter] = str(e)
    given = [m or 0 for m in masks]
    try:
        check_hands(given, cards_each=None)
    except DealError as e:  # a card in two hands: the message names both; show it at both
        for seat in SEATS:
            if seat == e.seat or (e.card is not None and given[seat] >> e.card & 1):
                errors.setdefault(seat.letter, str(e))
    deal = completion = None
    if not any(s.letter in errors for s in SEATS):
        if not empty:
            try:
                deal = Deal((given[0], given[1], given[2], given[3]))
            except DealError as e:  # wrong counts: the message lists them and what is missing
                errors["deal"] = str(e)
                if e.seat is not None:
                    errors[e.seat.letter] = str(e)
        elif len(empty) == 1:
            (seat,) = empty
            try:
                completion = Deal.from_pbn(join_hands(form.hands))
            except DealError as e:
                errors["deal"] = (
                    f"{seat.title}'s hand is not given yet, and the other three "
                    f"do not leave it 13 cards: {e}"
                )
            else:
                errors["deal"] = (
                    f"{seat.title}'s hand is not given yet: ctrl+f fills it with "
                    "the 13 cards the others do not hold"
                )
        else:
            errors["deal"] = (
                f"{_seat_list(empty)} not given yet: type each hand as "
                f"spades.hearts.diamonds.clubs, e.g. {HAND_EXAMPLE}"
            )
    deal_text = form.deal_text.strip()
    if deal_text and split_deal_text(deal_text) is None:
        try:
            Deal.from_pbn(deal_text)
        except DealError as e:
            errors["deal-text"] = str(e)
    contract, passed_out = None, False
    ctext = form.contract.strip()
    if ctext.upper() in PASS_WORDS:
        passed_out = True
    elif ctext and ctext != "?":
        try:
            contract = Contract.parse(ctext)
        except ValueError as e:
            errors["contract"] = str(e)
    if contract is not None and form.declarer is None:
        errors["declarer"] = f"who declares {contract.display()}? Choose North, East, South or West"
    return DealCheck(
        masks=(masks[0], masks[1], masks[2], masks[3]),
        errors=errors,
        deal=deal,
        contract=contract,
        passed_out=passed_out,
        completion=completion,
        empty=tuple(empty),
    )


def form_of_record(record: BoardRecord | Deal | None) -> DealForm:
    """The fields that show ``record`` (a blank form for None)."""
    if record is None:
        return DealForm()
    if isinstance(record, Deal):
        hands = tuple(hand_to_pbn(h) for h in record.hands)
        return DealForm(hands=(hands[0], hands[1], hands[2], hands[3]), deal_text=record.to_pbn())
    hands = tuple(hand_to_pbn(h) for h in record.deal.hands)
    contract = str(record.contract) if record.contract else "Pass" if record.passed_out else ""
    return DealForm(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        deal_text=record.deal.to_pbn(),
        board=record.board or "",
        dealer=record.dealer,
        vulnerability=record.vulnerability,
        contract=contract,
        declarer=record.declarer,
    )


def fields_of_form(form: DealForm) -> dict[str, Any]:
    """``form`` as plain JSON-able values (a draft's ``fields``)."""
    return {
        "hands": list(form.hands),
        "deal_text": form.deal_text,
        "board": form.board,
        "dealer": None if form.dealer is None else int(form.dealer),
        "vulnerability": None if form.vulnerability is None else int(form.vulnerability),
        "contract": form.contract,
        "declarer": None if form.declarer is None else int(form.declarer),
    }


def form_of_fields(fields: dict[str, Any]) -> DealForm:
    """The form :func:`fields_of_form` wrote (a value of the wrong shape is left blank:
    a draft is data from disk)."""

    def text(key: str) -> str:
        value = fields.get(key)
        return value if isinstance(value, str) else ""

    def choice(key: str, kind: type[Seat] | type[Vul]) -> Any:
        value = fields.get(key)
        return kind(value) if isinstance(value, int) and 0 <= value <= 3 else None

    raw = fields.get("hands")
    hands = [h if isinstance(h, str) else "" for h in raw] if isinstance(raw, list) else []
    hands = [*hands, "", "", "", ""][:4]
    return DealForm(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        deal_text=text("deal_text"),
        board=text("board"),
        dealer=choice("dealer", Seat),
        vulnerability=choice("vulnerability", Vul),
        contract=text("contract"),
        declarer=choice("declarer", Seat),
    )


def board_pbn(form: DealForm, check: DealCheck, original: BoardRecord | None = None) -> str:
    """The PBN text of the board ``form`` describes (``check`` must be ok).

    A board loaded from a file keeps its recorded play, result and every other tag while
    deal, contract, declarer and vulnerability are unchanged; once they change, only the
    descriptive tags (event, site, date, players, scoring) stay, because the rest (double-
    dummy tables, par, the play) described the old board.
    """
    if check.deal is None:
        raise ValueError("the deal is not valid; check the form first")
    board = form.board.strip() or None
    same = original is not None and (
        original.deal == check.deal
        and original.contract == check.contract
        and original.declarer == form.declarer
        and original.passed_out == check.passed_out
        and original.vulnerability
        == (form.vulnerability if form.vulnerability is not None else original.vulnerability)
    )
    tags: dict[str, str] = {}
    if original is not None:
        tags = (
            dict(original.tags)
            if same
            else {k: v for k, v in original.tags.items() if k in DESCRIPTIVE_TAGS}
        )
    return deal_to_pbn(
        check.deal,
        board=board,
        dealer=form.dealer,
        vulnerability=form.vulnerability,
        contract=check.contract,
        declarer=form.declarer if check.contract else None,
        play=original.play if same and original is not None else (),
        result=original.result if same and original is not None else None,
        passed_out=check.passed_out,
        tags=tags,
        sections=original.sections if same and original is not None else None,
    )


# ---------------------------------------------------------------------- results


@dataclass(frozen=True)
class SavedDeal:
    """What saving hands over: the name, the board as PBN, and that text read back."""

    name: str
    pbn: str
    record: BoardRecord


@dataclass
class DealSaved(Message):
    """A deal was saved (posted to the app, so a problem list can refresh itself)."""

    saved: SavedDeal


class SaveDealAsScreen(SaveAsScreen):
    """The save-as modal (name checked as typed), for a deal."""

    NOUN = "deal"
    PLACEHOLDER = "e.g. board-12"


# ---------------------------------------------------------------------- the screen


class DealEditorScreen(GuardedScreen[SavedDeal | None]):
    """Hands, deal string and board fields on the left; the live diagram and every
    problem on the right."""

    EDITOR_NAME = "bridge deal editor"

    DEFAULT_CSS = """
    DealEditorScreen {
        & #deal-body { height: 1fr; }
        & #deal-form {
            width: 1fr;
            min-width: 36;
            height: 1fr;
            padding: 0 1;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &:focus-within { border: round $accent; border-title-color: $accent; }
        }
        & #deal-preview { width: 2fr; max-width: 76; height: 1fr; }
        & .field-label { color: $text-muted; margin-top: 1; }
        & .field-row { height: 1; margin-top: 1; }
        & .field-name { width: 10; color: $text-muted; }
        & .field-row > Input, & #deal-text {
            width: 1fr;
            background: $boost;
            &.-invalid { background: $error 25%; }
        }
        & .field-row > Select { width: 1fr; }
        & .hand-count {
            width: 6;
            padding-left: 1;
            &.-ok { color: $text-success; }
            &.-short { color: $text-warning; }
        }
        & .field-error {
            display: none;
            height: auto;
            color: $text-error;
            padding-left: 10;
            &.-shown { display: block; }
        }
        & #deal-text-error { padding-left: 0; }
        & #deal-problems {
            height: 1fr;
            padding: 0 1;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &.-invalid { border: round $error; border-title-color: $text-error; }
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s",
            "save",
            "Save",
            id="deal.save",
            tooltip="Hand the board over as PBN (only when the deal is valid)",
        ),
        Binding(
            "f2", "save_as", "Save as", id="deal.save_as", tooltip="Save the board under a new name"
        ),
        Binding(
            "ctrl+f",
            "fill",
            "Fill 4th hand",
            id="deal.fill",
            tooltip="Give the empty hand the 13 cards the other three do not hold",
        ),
        Binding(
            "f3",
            "toggle_view",
            "Declarer's view",
            id="deal.view",
            tooltip="Hide or show the defenders' hands in the diagram",
        ),
        Binding(
            "escape",
            "close",
            "Back",
            id="deal.close",
            tooltip="Leave the editor (with unsaved changes it asks: save, discard or stay)",
        ),
    ]

    PANES: ClassVar[str] = "#deal-form, #deal-preview, #deal-problems"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    DEBOUNCE = 0.2
    """Seconds of quiet typing before the fields are checked again."""

    valid: var[bool] = var(False, bindings=True)
    """The form describes a whole, consistent board (saving is allowed)."""
    can_fill: var[bool] = var(False, bindings=True)
    """Three hands are complete and one is empty (ctrl+f is allowed)."""
    dirty: var[bool] = var(False)
    """The fields differ from what was loaded or last saved."""

    def __init__(
        self,
        record: BoardRecord | Deal | None = None,
        *,
        name: str | None = None,
        existing: Iterable[str] = (),
        on_save: Callable[[SavedDeal], bool | None] | None = None,
        drafts: DraftBox | None = None,
        base_digest: str = "",
        draft: Draft | None = None,
    ) -> None:
        """``record``: the board to edit (None: a blank deal).  ``name``: what ctrl+s
        saves under (None: it asks, like f2).  ``existing``: names the save-as dialog
        refuses.  ``on_save``: called with each save (return False to refuse it); without
        it the screen is dismissed with the :class:`SavedDeal`.  ``drafts``: where to keep
        unsaved fields (None: nowhere), with ``base_digest`` the digest of the stored
        board's text; ``draft``: fields left unsaved by an earlier session, shown instead
        of the record's (still unsaved)."""
        super().__init__()
        self.drafts = drafts
        self.base_digest = base_digest
        self.restore = draft
        self.original = record if isinstance(record, BoardRecord) else None
        """The board loaded (its play and tags are kept while the deal is unchanged)."""
        self.deal_name = name
        self.existing = tuple(existing)
        self.on_save = on_save
        self.loaded = form_of_record(record)
        self.saved_form = self.loaded
        """The fields as last loaded or saved (to tell unsaved changes)."""
        self.check = check_deal_form(self.loaded)
        """The last check of the fields."""
        self.saved: SavedDeal | None = None
        """The last save (None: not saved in this editor)."""
        self.checked_form: DealForm | None = None
        """The fields ``check`` is of (typing may have moved on while debouncing)."""
        self._timer: Timer | None = None
        self._echo: dict[str, str] = {}
        self._shown: dict[str, str | None] = {}
        """What each error and count label shows (to update only what changed)."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        form = self.loaded if self.restore is None else form_of_fields(self.restore.fields)
        yield Header()
        with Horizontal(id="deal-body"):
            with VerticalScroll(id="deal-form") as column:
                column.border_title = "Deal"
                yield Label("Whole deal as PBN (N:… E… S… W…)", classes="field-label")
                yield Input(
                    form.deal_text,
                    placeholder=f"N:{HAND_EXAMPLE} … … …",
                    id="deal-text",
                    compact=True,
                    select_on_focus=False,
                )
                yield Static("", id="deal-text-error", classes="field-error")
                for seat in SEATS:
                    with Horizontal(classes="field-row"):
                        yield Label(seat.title, classes="field-name")
                        yield Input(
                            form.hands[seat],
                            placeholder=f"S.H.D.C: {HAND_EXAMPLE}",
                            id=f"deal-hand-{seat.letter}",
                            classes="hand-input",
                            compact=True,
                            select_on_focus=False,
                        )
                        yield Static("", id=f"deal-count-{seat.letter}", classes="hand-count")
                    yield Static("", id=f"deal-hand-{seat.letter}-error", classes="field-error")
                with Horizontal(classes="field-row"):
                    yield Label("Board", classes="field-name")
                    yield Input(
                        form.board,
                        placeholder="name or number, e.g. 12",
                        id="deal-board",
                        compact=True,
                    )
                yield Static("", id="deal-board-error", classes="field-error")
                with Horizontal(classes="field-row"):
                    yield Label("Dealer", classes="field-name")
                    yield Select(
                        [(s.title, s) for s in SEATS],
                        prompt="from the board number",
                        value=form.dealer if form.dealer is not None else Select.NULL,
                        id="deal-dealer",
                        compact=True,
                    )
                with Horizontal(classes="field-row"):
                    yield Label("Vul", classes="field-name")
                    yield Select(
                        [("None", Vul.NONE), ("N-S", Vul.NS), ("E-W", Vul.EW), ("Both", Vul.BOTH)],
                        prompt="from the board number",
                        value=(
                            form.vulnerability if form.vulnerability is not None else Select.NULL
                        ),
                        id="deal-vul",
                        compact=True,
                    )
                with Horizontal(classes="field-row"):
                    yield Label("Contract", classes="field-name")
                    yield Input(
                        form.contract,
                        placeholder="4H, 3NT, 6SX, Pass",
                        id="deal-contract",
                        compact=True,
                    )
                yield Static("", id="deal-contract-error", classes="field-error")
                with Horizontal(classes="field-row"):
                    yield Label("Declarer", classes="field-name")
                    yield Select(
                        [(s.title, s) for s in SEATS],
                        prompt="none",
                        value=form.declarer if form.declarer is not None else Select.NULL,
                        id="deal-declarer",
                        compact=True,
                    )
                yield Static("", id="deal-declarer-error", classes="field-error")
            with Vertical(id="deal-preview"):
                yield BridgeTable(id="deal-table")
                yield Static("", id="deal-problems")
        yield StatusLine("", id="deal-status")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.validate_now()
        self._update_titles()
        self.hand_input(Seat.N).focus()
        if self.restore is not None:
            self.adopt_draft(self.restore)
            self.notify(
                f"The changes from {self.restore.when()} are back in the fields, not saved "
                "yet: ctrl+s saves them.",
                title="Restored",
                timeout=10,
            )

    # ------------------------------------------------------------------ fields

    def hand_input(self, seat: Seat) -> Input:
        return self.query_one(f"#deal-hand-{Seat(seat).letter}", Input)

    @property
    def deal_input(self) -> Input:
        return self.query_one("#deal-text", Input)

    @property
    def table(self) -> BridgeTable:
        return self.query_one("#deal-table", BridgeTable)

    def read_form(self) -> DealForm:
        """The fields as they are now."""
        hands = tuple(self.hand_input(s).value for s in SEATS)

        def choice(selector: str) -> Any:
            return self.query_one(selector, Select).selection

        dealer, vul, declarer = (
            choice("#deal-dealer"),
            choice("#deal-vul"),
            choice("#deal-declarer"),
        )
        return DealForm(
            hands=(hands[0], hands[1], hands[2], hands[3]),
            deal_text=self.deal_input.value,
            board=self.query_one("#deal-board", Input).value,
            dealer=Seat(dealer) if dealer is not None else None,
            vulnerability=Vul(vul) if vul is not None else None,
            contract=self.query_one("#deal-contract", Input).value,
            declarer=Seat(declarer) if declarer is not None else None,
        )

    def _set_quietly(self, widget: Input, value: str) -> None:
        """Set a field the other field follows, remembering the value so its ``Changed``
        (which arrives later) is known as this echo and not synced back."""
        if widget.value != value:
            self._echo[widget.id or ""] = value
            widget.value = value

    def _is_echo(self, widget: Input, value: str) -> bool:
        key = widget.id or ""
        if self._echo.get(key) == value:
            del self._echo[key]
            return True
        return False

    @on(Input.Changed, "#deal-text")
    def _deal_text_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._is_echo(event.input, event.value):
            return  # set by the hands' handler, which has scheduled the check
        parts = split_deal_text(event.value)
        if parts is not None:
            for seat, part in parts.items():
                self._set_quietly(self.hand_input(seat), "" if part == "-" else part)
        self._schedule()

    @on(Input.Changed, ".hand-input")
    def _hand_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._is_echo(event.input, event.value):
            return  # set from the deal string, whose handler has scheduled the check
        self._sync_deal_text()
        self._schedule()

    def _sync_deal_text(self) -> None:
        """Rewrite the deal string from the hands, unless it already says the same."""
        hands = [self.hand_input(s).value for s in SEATS]
        parts = split_deal_text(self.deal_input.value)
        if parts is None or any(
            (parts[s] if parts[s] != "-" else "") != hands[s].strip() for s in SEATS
        ):
            self._set_quietly(self.deal_input, join_hands(hands))

    @on(Input.Changed, "#deal-board, #deal-contract")
    def _other_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._schedule()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._schedule()

    # ------------------------------------------------------------------ checking

    def _schedule(self) -> None:
        """Check the fields once typing pauses (messages about a half-typed hand would
        flicker at every key otherwise)."""
        self.edits_changed()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.DEBOUNCE, self.validate_now, name="validate")

    def validate_now(self) -> DealCheck:
        """Check the fields now and show the outcome everywhere (the debounce's target;
        saving and filling call it directly, so they never act on a stale check)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        form = self.read_form()
        check = check_deal_form(form)
        self.checked_form = form
        self.dirty = form != self.saved_form
        self._show_check(check, form)
        return check

    def _show_check(self, check: DealCheck, form: DealForm) -> None:
        self.check = check
        for seat in SEATS:
            self._field_error(f"deal-hand-{seat.letter}", check.errors.get(seat.letter))
            count = self.query_one(f"#deal-count-{seat.letter}", Static)
            mask = check.masks[seat]
            n = mask.bit_count() if mask is not None else 0
            label = "" if mask is None else f"{n}/13"
            if self._shown.get(count.id or "") != label:
                self._shown[count.id or ""] = label
                count.update(label)
            count.set_class(mask is not None and n == 13, "-ok")
            count.set_class(mask is not None and n != 13, "-short")
        for key in ("deal-text", "board", "contract", "declarer"):
            widget_id = "deal-text" if key == "deal-text" else f"deal-{key}"
            self._field_error(widget_id, check.errors.get(key))
        problems = self.query_one("#deal-problems", Static)
        listed = check.problems()
        if check.ok:
            shown = "\u2713 A valid deal: ctrl+s saves the board."
            problems.border_title = "No problems"
        else:
            shown = "\n".join(f"\u2717 {FIELD_LABELS[k]}: {m}" for k, m in listed)
            n = len(listed)
            problems.border_title = f"{n} problem{'s' * (n != 1)}"
        if self._shown.get("problems") != shown:
            self._shown["problems"] = shown
            problems.update(Text(shown))
        problems.set_class(not check.ok, "-invalid")
        self._show_table(check, form)
        self.valid = check.ok
        self.can_fill = check.fill_seat is not None
        if check.ok:
            self._status(
                "A valid deal: ctrl+s saves it." if self.dirty or self.saved is None else "Saved.",
                "ok",
            )
        else:
            key, message = listed[0]
            self._status(f"Cannot save yet: {FIELD_LABELS[key]}: {message}", "warning")

    def _field_error(self, widget_id: str, message: str | None) -> None:
        if self._shown.get(widget_id, "") == message:
            return  # unchanged: spare the layout pass an update costs on every keystroke
        self._shown[widget_id] = message
        error = self.query_one(f"#{widget_id}-error", Static)
        error.update(Text(message or ""))
        error.set_class(message is not None, "-shown")
        widget = self.query_one(f"#{widget_id}")
        widget.set_class(message is not None, "-invalid")

    def _show_table(self, check: DealCheck, form: DealForm) -> None:
        table = self.table
        board = form.board.strip()
        number = int(board) if board.isdigit() and int(board) > 0 else None
        # What the saved board will say when these are left blank (deal_to_pbn's rule).
        vul = (
            form.vulnerability
            if form.vulnerability is not None
            else Vul.for_board(number)
            if number
            else Vul.NONE
        )
        dealer = (
            form.dealer
            if form.dealer is not None
            else dealer_for_board(number)
            if number
            else Seat.N
        )
        table.show_deal(
            check.deal if check.deal is not None else check.masks,
            contract=check.contract,
            declarer=form.declarer,
            vulnerability=vul,
            dealer=dealer,
            board=board or None,
            passed_out=check.passed_out,
        )
        table.set_class(check.deal is None, "-invalid")
        table.border_title = "Diagram"
        table.border_subtitle = None if check.deal is not None else "not a valid deal yet"

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("save", "save_as"):
            return True if self.valid else None
        if action == "fill":
            return True if self.can_fill else None
        return True

    def action_fill(self) -> None:
        """Give the one empty hand the cards nobody else holds (the core completes it)."""
        check = self.validate_now()
        seat = check.fill_seat
        if seat is None or check.completion is None:
            why = check.errors.get("deal") or "every hand is given"
            self._status(f"Cannot fill a hand: {why}", "warning")
            self.notify(
                f"Fill needs three complete hands and one empty one ({why}).",
                title="Fill the fourth hand",
                severity="warning",
            )
            return
        hand = self.hand_input(seat)
        hand.value = hand_to_pbn(check.completion[seat])
        self._sync_deal_text()
        self.validate_now()
        self._status(f"Filled {seat.title} with the 13 cards the others do not hold.", "ok")

    def action_toggle_view(self) -> None:
        table = self.table
        table.declarer_view = not table.declarer_view
        if table.declarer_view and not table.hidden_seats():
            self.notify(
                "Declarer's view hides the defenders once a declarer is chosen.",
                title="Declarer's view",
                severity="warning",
            )

    def action_save(self) -> None:
        if self.deal_name is None:
            self.action_save_as()
            return
        self.save(self.deal_name)

    def action_save_as(self) -> None:
        check = self.validate_now()
        if not check.ok:
            self._refuse(check, "Save as")
            return
        board = self.read_form().board.strip()
        suggestion = (
            f"{self.deal_name}-edited" if self.deal_name else f"board-{board}" if board else ""
        )
        self.app.push_screen(SaveDealAsScreen(self.existing, suggestion), self._save_as_chosen)

    def _save_as_chosen(self, name: str | None) -> None:
        if name:
            self.save(name)

    def save(self, name: str) -> SavedDeal | None:
        """Save the board under ``name`` if the fields make one; the result, or None.

        The fields are checked again here, and the PBN written is read back, so what is
        handed over is exactly what was checked."""
        form = self.read_form()
        check = check_deal_form(form)
        self._show_check(check, form)
        if not check.ok:
            self._refuse(check, f"Save {name}")
            return None
        pbn = board_pbn(form, check, self.original)
        try:
            records = parse_pbn(pbn, source=name)
        except PbnError as e:  # the writer and reader disagree: never hand that over
            self._status(f"Not saved: the board does not read back: {e}", "error")
            self.notify(str(e), title=f"Save {name}", severity="error")
            return None
        saved = SavedDeal(name, pbn, records[0])
        if self.on_save is not None and self.on_save(saved) is False:
            self._status(f"Not saved: {name} was refused.", "error")
            return None
        self.saved = saved
        self.deal_name = name
        self.saved_form = form
        self.base_digest = digest(pbn)
        self.dirty = False
        self._update_titles()
        self._status(f"Saved {name}.", "ok")
        self.notify(f"Saved {name}.")
        self.app.post_message(DealSaved(saved))
        if self.on_save is None and len(self.app.screen_stack) > 1:
            self.dismiss(saved)
        return saved

    def _refuse(self, check: DealCheck, title: str) -> None:
        listed = check.problems()
        n = len(listed)
        first = f" ({FIELD_LABELS[listed[0][0]]}: {listed[0][1]})" if listed else ""
        why = f"Not saved: the deal has {n} problem{'s' * (n != 1)}{first}."
        self._status(why, "error")
        self.notify(why, title=title, severity="error")

    async def action_close(self) -> None:
        await self.guard("leaving the deal editor", self._leave)

    def _leave(self) -> None:
        if len(self.app.screen_stack) > 1 and self.is_current:  # a save may have left
            self.dismiss(None)

    # ------------------------------------------------------------------ unsaved changes

    def has_unsaved_edits(self) -> bool:
        # The fields as they are now, not ``dirty``, which waits for the debounced check.
        return bool(self.query("#deal-text")) and self.read_form() != self.saved_form

    def unsaved_title(self) -> str:
        return f"deal {self.deal_name}" if self.deal_name else "the new deal"

    async def save_edits(self) -> bool:
        if self.deal_name is None:
            why = "A new deal needs a name: f2 saves it under one."
            self._status(f"Not saved: {why}", "error")
            self.notify(why, title="Not saved", severity="error")
            return False
        return self.save(self.deal_name) is not None

    async def discard_edits(self) -> None:
        self.fill_form(self.saved_form)

    def fill_form(self, form: DealForm) -> None:
        """Show ``form`` in the fields, checked at once."""
        for seat in SEATS:
            self._set_quietly(self.hand_input(seat), form.hands[seat])
        self._set_quietly(self.deal_input, form.deal_text)
        self.query_one("#deal-board", Input).value = form.board
        self.query_one("#deal-contract", Input).value = form.contract
        for selector, value in (
            ("#deal-dealer", form.dealer),
            ("#deal-vul", form.vulnerability),
            ("#deal-declarer", form.declarer),
        ):
            select = self.query_one(selector, Select)
            if value is None:
                select.clear()
            else:
                select.value = value
        self.validate_now()

    def current_draft(self) -> Draft | None:
        return Draft(
            editor="deal",
            domain="bridge",
            kind="deal",
            name=self.deal_name or "",
            fields=fields_of_form(self.read_form()),
            base_digest=self.base_digest,
        )

    # ------------------------------------------------------------------ helpers

    def watch_dirty(self, dirty: bool) -> None:
        self._update_titles()
        if not dirty:
            self.sync_draft()  # saved or discarded: no draft to keep

    def _update_titles(self) -> None:
        self.title = "Bridge deal"
        name = self.deal_name or "(new deal)"
        self.sub_title = f"{name} \u25cf" if self.dirty else name

    def _status(self, text: str, kind: str) -> None:
        if self._shown.get("status") == text + kind:
            return
        self._shown["status"] = text + kind
        for line in self.query(StatusLine):
            line.set_status(text, kind)


def edit_board(
    app: App[Any], db: Path | None, name: str | None, draft: Draft | None = None
) -> None:
    """Open the deal editor on the stored board ``name`` (None: a new deal), with
    ``draft``'s unsaved fields in place of the board's, if given; saving writes it back to
    the store (``d`` on a bridge board, or restoring a deal's draft)."""
    from workbench.domains.bridge.view import stored_board
    from workbench.kb import StoreError
    from workbench.kb.catalog import open_store

    name = name or ""
    try:
        text = stored_board(db, name)
        record = parse_pbn(text, source=name)[0] if text else None
    except (ValueError, StoreError) as exc:
        app.notify(str(exc), title="Cannot open the board", severity="error")
        return
    store = open_store(db)
    try:
        existing = [p["name"] for p in store.problems("bridge")]
    finally:
        store.close()

    # What the store held under each name when this editor last read or wrote it: a board
    # saved by someone else meanwhile is refused, not overwritten.
    known: dict[str, str | None] = {name: text} if name else {}

    def save(saved: SavedDeal) -> bool:
        s = open_store(db)
        try:
            s.set_problem(
                "bridge",
                saved.name,
                "pbn-board",
                saved.pbn,
                f"board {saved.record.board}",
                replacing=known.get(saved.name),
            )
        except StoreError as exc:
            app.notify(str(exc), title=f"Board {saved.name} not saved", severity="error")
            return False
        finally:
            s.close()
        known[saved.name] = saved.pbn
        app.notify(f"Saved board {saved.name}", timeout=3)
        return True

    app.push_screen(
        DealEditorScreen(
            record,
            name=name,
            existing=existing,
            on_save=save,
            drafts=DraftBox.for_store(db),
            base_digest=digest(text),
            draft=draft,
        )
    )

"""What normal play reads of the question being searched: the contract's trump, the side counted, the model, the
stated line and the deal's lengths, and the claimer's view at a node (cached by the search). The search's
``Searcher`` (engine/play/search.py) is one; the licences, ties and the stated-line follower are plain functions of a
``Question`` and a node."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from claimlaw.facts import Card, Line, Seat, Side, Suit

if TYPE_CHECKING:
    from ..model import NormalPlayModel
    from .node import Node
    from .view import View


class Question(Protocol):
    """One W question as normal play sees it."""

    trump: Suit | None
    side: Side
    model: NormalPlayModel
    line: Line | None
    dealt: dict[tuple[Seat, Suit], int] | None  # each seat's cards of each suit at the deal (a stated condition)
    own_view: Seat | None  # the seat that reads a view of its own: a defender's partner (None: declarer's claim)

    def view(self, node: Node, seat: Seat | None = None) -> View:
        """The view at ``node`` that narrows ``seat``'s cards (None: the claimer's)."""
        ...

    def beats(self, c: Card, w: Card | None) -> bool:
        """``c`` beats the trick's winning card ``w`` (None: nothing played yet)."""
        ...

    def trick_winner(self, node: Node) -> tuple[Seat, Card]:
        """Who is winning the trick in progress, and with which card."""
        ...

"""The play-simulation core: double dummy (DDS through endplay), the worst outcome over the claiming
side's normal lines (W) with a witness line, and what cannot be lost by any legal play.

The only package of claimlaw that talks to endplay. The normal-play model and normal play itself (engine/play/model.py,
engine/play/normal/) load without it; ``PlayCore`` and its solvers (engine/play/core.py) load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import GUIDELINES, NormalPlayModel

if TYPE_CHECKING:
    from .core import Count, PlayCore, SolverError

__all__ = ["Count", "GUIDELINES", "NormalPlayModel", "PlayCore", "SolverError"]

_CORE = frozenset({"Count", "PlayCore", "SolverError"})


def __getattr__(name: str) -> Any:
    """``PlayCore``, ``Count`` and ``SolverError`` from engine/play/core.py, loading the solvers on first use."""
    if name in _CORE:
        from . import core

        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

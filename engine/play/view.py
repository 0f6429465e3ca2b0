"""The claimer's view now lives with normal play (engine/play/normal/view.py); these names stay importable here."""

from .normal.view import IDX, View, seen_seats, view, viewer

__all__ = ["IDX", "View", "seen_seats", "view", "viewer"]

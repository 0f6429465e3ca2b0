"""Where our C solver's answer is not one the Python model accepts, the Python search (the reference) answers."""

from __future__ import annotations

import random
from typing import Any

import pytest

import claimlaw.engine.play.native as native
from claimlaw.engine.play import NormalPlayModel, PlayCore
from claimlaw.engine.play.dds import HAVE_FEWEST, Disagreement
from tests.play.test_play_core import random_position


@pytest.mark.skipif(not HAVE_FEWEST, reason="our solver is not built")
@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_line_from_our_solver_the_python_model_refuses_is_redone_by_the_python_search_and_noted(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pos = random_position(random.Random(seed), 5, None)
    side = pos.leader.side
    model = NormalPlayModel.default(pos.leader)
    honest = PlayCore(budget=None).worst_normal(pos, side, model)

    def broken_whole(s: Any, root: Any, restricted: Any) -> Any:
        def whole(n: Any, below: int, limit: int) -> Any:
            raise Disagreement("our solver's line holds card code 0, not a card")

        return whole

    monkeypatch.setattr(native, "whole", broken_whole)
    core = PlayCore(budget=None)
    got = core.worst_normal(pos, side, model)
    assert got.tricks == honest.tricks and got.exact
    assert len(core.disagreements) == 1 and "card code 0" in core.disagreements[0]

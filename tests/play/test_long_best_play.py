"""Best play in long positions of our solver's W by DDS (engine/play/dds.py ``_long_best``, _endings.c ``long_best``).

From ``dds.LONG_TRICKS`` cards in the mover's hand, W's search asks DDS for a node's best-play cards where its own
solver does not settle them within a cap of positions. Double-dummy values are unique, so the set is the same and no
count may change: here DDS is asked at every node from two tricks on, with no cap, and W must equal the Python
search's (the reference) on random endings, as tests/play/test_lockstep.py holds our solver without it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from claimlaw.engine.play import dds
from tests.play.test_lockstep import both, random_case

pytestmark = pytest.mark.skipif(not dds.HAVE_FEWEST, reason="our solver is not built")


@pytest.fixture
def dds_everywhere() -> Iterator[list[int]]:
    """DDS gives every best-play set of W's search from two tricks on (no cap); the calls are counted."""
    calls = [0]

    def counted(*args: object) -> tuple[int, int]:
        calls[0] += 1
        return dds._long_best(*args)  # type: ignore[arg-type]

    dds._endings.set_long_solver(counted, 2, 0)
    try:
        yield calls
    finally:
        dds._endings.set_long_solver(dds._long_best, dds.LONG_TRICKS)


@pytest.mark.parametrize("seed", range(60))
def test_our_solvers_w_with_ddss_best_play_cards_equals_the_python_searchs(seed: int,
                                                                           dds_everywhere: list[int]) -> None:
    pos, side, model, root = random_case(98_000 + seed, (3, 6))
    py, c = both(pos, side, model, root)
    assert py is not None and c is not None
    assert c == py, f"seed {98_000 + seed}: our solver with DDS {c}, the Python search {py}\n{pos.pbn()} {model}"


def test_the_lockstep_above_reaches_ddss_best_play_cards(dds_everywhere: list[int]) -> None:
    for seed in range(10):
        pos, side, model, root = random_case(98_000 + seed, (3, 6))
        both(pos, side, model, root)
    assert dds_everywhere[0] > 0


def test_an_error_in_the_long_solver_is_raised_not_read_as_a_count() -> None:
    def broken(*args: object) -> tuple[int, int]:
        raise RuntimeError("no DDS here")

    dds._endings.set_long_solver(broken, 2, 0)
    try:
        for seed in range(20):
            pos, side, model, root = random_case(98_000 + seed, (3, 6))
            try:
                both(pos, side, model, root)
            except RuntimeError as e:
                assert "no DDS here" in str(e)
                return
        pytest.fail("no case asked the long solver")
    finally:
        dds._endings.set_long_solver(dds._long_best, dds.LONG_TRICKS)

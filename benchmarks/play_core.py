"""W (worst normal line) against double dummy on the same positions, in the same run.

    python benchmarks/play_core.py [--count 40] [--seed 7]

Positions: seeded random deals from 13 tricks down to 2, plus the seed examples. Prints per
position the DD time (DDS's, for the value and its line; W itself uses our solver for short
endings), the W time, their ratio, nodes, whether W was proven within the node budget,
and in total the median and maximum ratio and the peak memory (ru_maxrss).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

from claimlaw.engine.play import NormalPlayModel, PlayCore, dds
from claimlaw.facts import SEATS, SUITS, Card, Position, Side, load_case

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def positions(count: int, seed: int) -> list[tuple[str, Position, Side, NormalPlayModel]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        tricks = 13 - (i % 12)
        deck = [Card(s, r) for s in SUITS for r in range(2, 15)]
        rng.shuffle(deck)
        hands = {s: set(deck[j * tricks:(j + 1) * tricks]) for j, s in enumerate(SEATS)}
        pos = Position(hands=hands, trump=rng.choice([None, *SUITS]), leader=rng.choice(SEATS))
        side = pos.leader.side
        out.append((f"random-{i:02d} ({tricks} tricks)", pos, side, NormalPlayModel.default(pos.leader)))
    for f in sorted(EXAMPLES.glob("*.yaml")):
        case = load_case(f)
        pos = case.position()
        if pos is not None:
            model = NormalPlayModel.default(case.claim.by).with_unaware(case.findings.unaware_of)
            out.append((f.stem, pos, case.claim.by.side, model))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    ratios = []
    ending = dds.ENDING_TRICKS
    print(f"{'position':45} {'DD ms':>8} {'W ms':>10} {'ratio':>8} {'nodes':>8}  proven")
    for name, pos, side, model in positions(a.count, a.seed):
        core = PlayCore()  # fresh caches: each W pays for its own solver calls
        dds.ENDING_TRICKS = 0  # the baseline is DDS itself (the value and its line), not our endings solver
        t0 = time.perf_counter()
        core.double_dummy(pos, side)
        dd = time.perf_counter() - t0
        dds.ENDING_TRICKS = ending
        core = PlayCore()
        t1 = time.perf_counter()
        w = core.worst_normal(pos, side, model)
        wt = time.perf_counter() - t1
        ratio = wt / max(dd, 1e-6)
        ratios.append(ratio)
        print(f"{name:45} {dd * 1000:8.1f} {wt * 1000:10.1f} {ratio:8.1f} {w.nodes:8d}  {'yes' if w.exact else 'NO'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{len(ratios)} positions: median W/DD {statistics.median(ratios):.1f}, max {max(ratios):.1f}; "
          f"peak memory {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

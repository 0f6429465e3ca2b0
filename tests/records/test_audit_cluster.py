"""``claimlaw audit --scheduler``: the same per-claim tasks on a Dask cluster give the same rows."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest

from claimlaw.engine.faces.audit.run import audit
from claimlaw.engine.faces.audit.store import Store

pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install '.[cluster]'")

FIX = Path(__file__).parent / "fixtures"
SAMPLE = [FIX / "reisinger-42365.lin", FIX / "claims.pbn", FIX / "three-hands-42519.lin", FIX / "bad-play-45577.lin"]


def plain(rows: list[object]) -> list[dict[str, object]]:
    return [{k: v for k, v in asdict(r).items() if k != "seconds"} for r in rows]  # type: ignore[call-overload]


def test_a_local_dask_cluster_of_two_single_threaded_processes_reads_and_gives_the_local_rows(tmp_path: Path) -> None:
    from distributed import LocalCluster

    local = audit(SAMPLE, workers=2, progress=False)
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0") as cluster:
        remote = audit(SAMPLE, scheduler=cluster.scheduler_address, batch=3, progress=False, out=tmp_path / "c.db")
    assert len(remote.rows) == len(local.rows) == 12
    assert plain(remote.rows) == plain(local.rows)
    assert remote.problems == local.problems and local.problems  # read on the workers, named as on the client
    store = Store(tmp_path / "c.db")
    assert plain(store.rows()) == plain(local.rows)
    assert store.runs()[0]["where"] == cluster.scheduler_address
    store.close()

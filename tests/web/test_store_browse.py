"""``claimlaw serve --store a.db``: an audit's results store browsed on the page, read-only, paged in SQL; each row
opens as a ruling (the diagram at the claim, the witness line, the law chain). Over HTTP, and in Chromium on a
laptop and a phone."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimlaw.engine.faces.audit.claims import AuditRow
from claimlaw.engine.faces.audit.store import Store
from claimlaw.engine.faces.cli import app as cli_app
from tests.web.test_browser import (  # noqa: F401 - browser: a fixture
    ROOT,
    SIZES,
    axe_serious,
    browser,
    in_view,
    serving,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from claimlaw.engine.faces.web.app import create_app

JACK = "N:..AKQ.2 ...9876 .J.2.AK .Q.765."  # examples/3nt-three-discards-forgotten-jack.yaml at the claim


def _row(i: int, **over: Any) -> AuditRow:
    data: dict[str, Any] = dict(
        source=f"/home/auditor/events/event-{'a' if i % 2 else 'b'}.lin", board=str(i + 1), room="open",
        contract="3NT" if i % 3 else "4S", declarer="S", remaining=4, claimed_for_declarer=4, dd_for_declarer=4,
        worst_normal_for_declarer=4, worst_normal_for_defenders=None, verdict="sound", law="", line="",
        claimer_known=False, claimed_total=10, result_total=10, disagrees=False, proven=True, seconds=0.1,
        file_hash=f"h{i % 2}", claim_index=i, position=JACK, leader="N", trick="")
    data.update(over)
    return AuditRow(**data)


@pytest.fixture(scope="module")
def store_file(tmp_path_factory: Any) -> Path:
    """120 rows: one at risk (the forgotten jack), one timeout with no position, the rest sound."""
    path = tmp_path_factory.mktemp("store") / "event.db"
    db = Store(path)
    db.bind({"mode": "full", "budget": 1000, "edition": "2017", "packs": [], "class_of_player": "club"})
    run = db.begin_run(paths=["events"], where="local", timeout=None)
    for i in range(120):
        over: dict[str, Any] = {}
        if i == 7:
            over = dict(contract="3NT", verdict="at_risk", law="68A 70A 70C", worst_normal_for_declarer=3,
                        line="if declarer claimed: the club ace is lost")
        elif i == 8:
            over = dict(verdict="timeout", position="", leader="", remaining=None, claimed_for_declarer=None,
                        message="over the time limit")
        db.add(_row(i, **over), run)
    db.end_run(run, 120)
    db.close()
    return path


@pytest.fixture(scope="module")
def client(store_file: Path) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(store=str(store_file))) as c:
            yield c


def test_the_store_lists_counts_per_verdict_and_pages_its_rows(client: TestClient) -> None:
    s = client.get("/api/store").json()
    assert s["name"] == "event.db" and s["total"] == 120
    assert s["counts"] == {"at_risk": 1, "sound": 118, "timeout": 1}
    assert client.get("/api/meta").json()["store"] is True
    first = client.get("/api/store/rows").json()
    assert first["pages"] == 3 and len(first["rows"]) == 50 and first["page"] == 1
    last = client.get("/api/store/rows?page=9").json()
    assert last["page"] == 3 and len(last["rows"]) == 20
    assert all(r["source"].startswith("event-") for r in last["rows"])  # the file's name, not the auditor's disk


def test_the_store_filters_by_verdict_contract_event_file_and_board(client: TestClient) -> None:
    risk = client.get("/api/store/rows?verdict=at_risk").json()
    assert risk["total"] == 1 and risk["rows"][0]["board"] == "8"
    four = client.get("/api/store/rows?contract=4s").json()
    assert four["total"] == 40 and {r["contract"] for r in four["rows"]} == {"4S"}
    a = client.get("/api/store/rows?source=event-a&board=8").json()
    assert a["total"] == 1 and a["counts"] == {"at_risk": 1}
    assert client.get("/api/store/rows?source=%25").json()["total"] == 0  # a % is a character, not a wildcard
    assert client.get("/api/store/rows?page=x").status_code == 422


def test_a_row_opens_as_the_case_the_audit_put_to_the_rules(client: TestClient) -> None:
    r = client.get("/api/store/case?file_hash=h1&board=8&room=open&claim_index=7").json()
    case = r["case"]
    assert case["board"]["position"] == JACK and case["board"]["won"] == {"NS": 6, "EW": 3}
    assert case["claim"] == {"by": "S", "tricks": 4} and case["responses"] == {"W": "disputes"}
    assert case["findings"]["class_of_player"] == "club" and case["edition"] == "2017"
    bad = client.get("/api/store/case?file_hash=h0&board=9&room=open&claim_index=8")
    assert bad.status_code == 422 and "holds no position" in bad.json()["error"]["message"]
    assert client.get("/api/store/case?board=1").status_code == 422


def test_without_a_store_the_store_routes_say_so(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as c:
            assert c.get("/api/store").status_code == 404 and c.get("/api/meta").json()["store"] is False


def test_serve_refuses_a_store_that_is_not_one_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("not a database", encoding="utf-8")
    res = CliRunner().invoke(cli_app, ["serve", "--store", str(bad)])
    assert res.exit_code == 2 and "not a claimlaw results store" in res.output and "Traceback" not in res.output


@pytest.fixture(scope="module")
def store_server(store_file: Path) -> Iterator[str]:
    yield from serving("--store", str(store_file))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_store_row_opens_as_a_ruling_with_its_diagram_witness_and_law_chain(
        browser: Any, store_server: str, size: str) -> None:  # noqa: F811 - the browser fixture
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone", bypass_csp=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(store_server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.is_visible("#store") and "event.db: 120 claims" in pg.inner_text("#store-name")
    assert pg.inner_text("#store-page") == "Page 1 of 3"
    assert pg.locator("#store-table tbody tr").count() == 50
    pg.click("#store-next")
    for _ in range(100):
        if pg.inner_text("#store-page") == "Page 2 of 3":
            break
        pg.wait_for_timeout(50)
    assert pg.inner_text("#store-page") == "Page 2 of 3"
    pg.select_option("#f-verdict", "at_risk")
    pg.click("#f-apply")
    for _ in range(100):
        if pg.locator("#store-table tbody tr").count() == 1:
            break
        pg.wait_for_timeout(50)
    assert "at risk" in pg.inner_text("#store-table tbody tr") and "70C" in pg.inner_text("#store-table tbody tr")
    assert "at risk 1" in pg.inner_text("#store-counts")
    pg.click("#store-table button.open-row")
    pg.wait_for_selector("#ruling:not([hidden])", timeout=120_000)
    assert in_view(pg, "#summary"), (pg.locator("#summary").bounding_box(), pg.evaluate("window.scrollY"))
    assert pg.input_value("#contract") == "3NT" and pg.input_value("#hand-S-H") == "J"
    assert pg.locator("#witness-table .seat-N .card").count() == 4 and pg.inner_text("#laws")
    pg.click("#next")
    assert pg.inner_text("#trick-no").startswith("Trick 1 of")
    assert axe_serious(pg) == []
    ctx.close()
    assert errors == [], errors

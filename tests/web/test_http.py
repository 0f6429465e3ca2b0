"""Every route of the web page, through Starlette's test client, against the real engine."""

from __future__ import annotations

import contextlib
import json
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from claimlaw.engine.faces.cli import app as cli_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from claimlaw.engine.faces.web.app import create_app
from claimlaw.engine.faces.web.rulings import Limits, Rulings
from claimlaw.engine.faces.web.views import no_paths
from tests.web import jobs

ROOT = Path(__file__).resolve().parents[2]
FAST = ROOT / "examples" / "3nt-three-discards-forgotten-jack.yaml"
RECORDS = ROOT / "tests" / "records" / "fixtures"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as c:
            yield c


def fast_case() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(FAST.read_text(encoding="utf-8"))
    return data


def finished(client: TestClient, job_id: str, timeout: float = 120) -> dict[str, Any]:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        s: dict[str, Any] = client.get(f"/api/rulings/{job_id}").json()
        if s["state"] not in ("queued", "running"):
            return s
        time.sleep(0.1)
    raise AssertionError(f"ruling {job_id} still running after {timeout} s")


def test_the_page_and_its_script_and_style_are_served_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/app.js"' in page.text and "http" not in page.text.split("<body>")[0].replace(
        'name="viewport"', "")
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
    assert client.get("/static/nothing.js").status_code == 404


def test_the_page_loads_nothing_from_the_network() -> None:
    static = ROOT / "engine" / "faces" / "web" / "static"
    for f in static.iterdir():
        text = f.read_text(encoding="utf-8")
        assert "//cdn" not in text and "https://" not in text and "http://" not in text, f.name


def test_meta_lists_the_editions_and_the_packs_claimlaw_packs_lists(client: TestClient) -> None:
    from claimlaw.engine.packs import list_packs

    meta = client.get("/api/meta").json()
    assert meta["editions"] == ["2017", "2007", "1997"]
    assert [p["name"] for p in meta["packs"]] == [p.name for p in list_packs()]
    assert "70C" in meta["clauses"]


def test_check_accepts_a_seed_case(client: TestClient) -> None:
    r = client.post("/api/check", json=fast_case())
    assert r.status_code == 200 and r.json() == {"ok": True}


def test_check_names_the_field_with_the_same_one_line_message_as_the_cli(client: TestClient, tmp_path: Path) -> None:
    bad = fast_case()
    bad["board"]["position"] = "N:..AKQ.2 ...9876 .J.2.AK .J.765."  # the jack of hearts twice
    r = client.post("/api/check", json=bad)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err == {"field": "board.position", "problem": "♥J appears twice",
                   "message": "board.position: ♥J appears twice", "cards": ["HJ"]}  # the card as data, for the page
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump(bad, allow_unicode=True), encoding="utf-8")
    res = CliRunner().invoke(cli_app, ["rule", str(f)])
    assert res.exit_code == 2 and err["message"] in res.output.replace("\n", "")


def test_check_says_what_is_wrong_with_a_body_that_is_not_a_case(client: TestClient) -> None:
    r = client.post("/api/check", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["message"].startswith("not valid JSON")
    r = client.post("/api/check", json=[1, 2])
    assert r.status_code == 422 and "mapping" in r.json()["error"]["message"]
    r = client.post("/api/check", json={"claim": {"by": "X"}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "claim.by"


def test_yaml_download_runs_unchanged_with_claimlaw_rule(client: TestClient, tmp_path: Path) -> None:
    r = client.post("/api/yaml", json=fast_case())
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert r.headers["content-disposition"].endswith('.yaml"')
    f = tmp_path / "down.yaml"
    f.write_bytes(r.content)
    assert yaml.safe_load(r.text) == fast_case()
    res = CliRunner().invoke(cli_app, ["rule", str(f)])
    assert res.exit_code == 0, res.output


def test_yaml_download_of_a_bad_case_is_a_field_message(client: TestClient) -> None:
    bad = fast_case()
    bad["board"]["contract"] = "8NT"
    r = client.post("/api/yaml", json=bad)
    assert r.status_code == 422 and r.json()["error"]["field"] == "board.contract"


def test_import_reads_a_pasted_case_file(client: TestClient) -> None:
    r = client.post("/api/import", json={"text": FAST.read_text(encoding="utf-8")})
    assert r.status_code == 200 and r.json()["case"] == fast_case()


def test_import_reads_a_lin_record_and_a_bbo_handviewer_link(client: TestClient) -> None:
    lin = (RECORDS / "handviewer-42409.lin").read_text(encoding="utf-8").strip()
    a = client.post("/api/import", json={"text": lin})
    assert a.status_code == 200, a.text
    board = a.json()["case"]["board"]
    assert board["contract"] == "1NT" and board["deal"].startswith("N:") and board["play"]
    from urllib.parse import quote

    link = "https://www.bridgebase.com/tools/handviewer.html?lin=" + quote(lin)
    b = client.post("/api/import", json={"text": link})
    assert b.status_code == 200 and b.json()["case"] == a.json()["case"]


def test_import_reads_the_first_claim_of_a_pbn_record(client: TestClient) -> None:
    r = client.post("/api/import", json={"text": (RECORDS / "claims.pbn").read_text(encoding="utf-8")})
    assert r.status_code == 200, r.text
    case = r.json()["case"]
    assert case["board"]["contract"] == "1NT" and case["claim"]["by"] == "N"


def test_import_of_noise_or_a_link_without_a_deal_is_a_message_at_the_paste_box(client: TestClient) -> None:
    for text in ("", "just words", "https://example.org/?x=1", "[Event \"x\"]\n"):
        r = client.post("/api/import", json={"text": text})
        assert r.status_code == 422, text
        assert r.json()["error"]["field"] == "paste" or r.json()["error"]["field"]


def test_a_ruling_gives_the_same_content_as_claimlaw_rule_json(client: TestClient) -> None:
    r = client.post("/api/rulings", json={"case": fast_case()})
    assert r.status_code == 202 and r.json()["state"] in ("queued", "running")
    s = finished(client, r.json()["id"])
    assert s["state"] == "done", s
    res = CliRunner().invoke(cli_app, ["rule", str(FAST), "--json"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.output)
    cli_hinges = cli.pop("hinges")  # the page gets the hinges beside the ruling, not in it
    assert s["ruling"] == cli
    for report in (cli_hinges, s["hinges"]):
        report.pop("seconds")
    if not (cli_hinges["unchecked"] or s["hinges"]["unchecked"]):  # both tried every candidate within 10 s
        assert s["hinges"] == cli_hinges
    assert s["ruling"]["outcome"] == "claim_adjusted" and s["ruling"]["tricks"] == {"NS": 9, "EW": 4}
    assert s["ruling"]["expect"]["matches"] is True


def test_a_ruling_brings_the_diagram_the_marked_cards_and_the_paraphrases(client: TestClient) -> None:
    s = finished(client, client.post("/api/rulings", json={"case": fast_case()}).json()["id"])
    view = s["view"]
    assert view["diagram"]["hands"]["S"] == ["HJ", "D2", "CA", "CK"] and view["diagram"]["leader"] == "N"
    marked = [{k: ch[k] for k in ("seat", "card", "licence", "meaning", "source")}
              for ch in s["ruling"]["witnesses"][0]["choices"]]
    assert {"seat": "S", "card": "CA", "licence": "unaware_winner",
            "meaning": "plays as if an outstanding winner were gone", "source": "White Book 8.70.6"} in marked
    assert set(view["clauses"]) <= set(s["ruling"]["laws"]) and "70A" in view["clauses"]
    assert view["clauses"]["70A"]["paraphrase"]


def test_a_ruling_with_a_budget_is_marked_unproven_when_the_budget_runs_out(client: TestClient) -> None:
    s = finished(client, client.post("/api/rulings", json={"case": fast_case(), "budget": 1}).json()["id"])
    assert s["state"] == "done"
    if not s["ruling"]["proven"]:
        assert s["ruling"]["outcome"] not in ("claim_allowed", "concession_cancelled")


def test_starting_a_ruling_on_a_bad_case_or_budget_is_a_field_message(client: TestClient) -> None:
    bad = fast_case()
    bad["board"]["won"] = {"NS": 7, "EW": 3}
    r = client.post("/api/rulings", json={"case": bad})
    assert r.status_code == 422 and r.json()["error"]["field"] == "board.won"
    r = client.post("/api/rulings", json={"case": fast_case(), "budget": 0})
    assert r.status_code == 422 and r.json()["error"]["field"] == "budget"
    r = client.post("/api/rulings", json={"nothing": 1})
    assert r.status_code == 422


def test_an_unknown_ruling_is_a_404_with_a_message(client: TestClient) -> None:
    for method in ("GET", "DELETE"):
        r = client.request(method, "/api/rulings/nope")
        assert r.status_code == 404 and "no such ruling" in r.json()["error"]["message"]


def test_stopping_a_finished_ruling_keeps_its_result(client: TestClient) -> None:
    job = client.post("/api/rulings", json={"case": fast_case()}).json()["id"]
    s = finished(client, job)
    r = client.delete(f"/api/rulings/{job}")
    assert r.status_code == 200 and r.json()["state"] == "done" and r.json()["ruling"] == s["ruling"]


@contextlib.contextmanager
def app_with(job: Any, **limits: Any) -> Iterator[TestClient]:
    """The app with its workers running ``job`` (tests/web/jobs.py) under ``limits``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(Limits(**limits), job=job)) as c:
            yield c


def wait_for(client: TestClient, job_id: str, cond: Callable[[dict[str, Any]], bool], timeout: float = 60) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if cond(client.get(f"/api/rulings/{job_id}").json()):
            return
        time.sleep(0.05)
    raise AssertionError(f"ruling {job_id}: not so after {timeout} s: {client.get(f'/api/rulings/{job_id}').json()}")


def test_stop_ends_the_search_with_its_line_and_later_questions_get_no_budget() -> None:
    with app_with(jobs.spin_until_stopped, workers=1) as c:
        first = c.post("/api/rulings", json={"case": fast_case()}).json()["id"]
        wait_for(c, first, lambda s: s["searching"] == "worst_normal")
        assert c.delete(f"/api/rulings/{first}").json()["stopped_by"] == "you"
        s = finished(c, first)
        assert s["state"] == "done" and s["stopped"] is True and s["stopped_by"] == "you"
        assert s["ruling"]["first"] == "the best line found" and s["ruling"]["then"] == "no budget"
        assert s["questions"] == 2
        second = c.post("/api/rulings", json={"case": fast_case()}).json()["id"]  # the same worker, a fresh stop
        wait_for(c, second, lambda s: s["searching"] == "worst_normal")
        time.sleep(0.5)
        assert c.get(f"/api/rulings/{second}").json()["state"] == "running"
        c.delete(f"/api/rulings/{second}")
        assert finished(c, second)["ruling"]["pid"] == s["ruling"]["pid"]


def test_at_most_workers_rulings_search_at_once_and_a_waiting_one_stopped_never_starts() -> None:
    with app_with(jobs.spin_until_stopped, workers=2, per_client=3) as c:
        ids = [c.post("/api/rulings", json={"case": fast_case()}).json()["id"] for _ in range(3)]
        for i in ids[:2]:
            wait_for(c, i, lambda s: s["searching"] == "worst_normal")
        assert c.get(f"/api/rulings/{ids[2]}").json()["state"] == "queued"
        r = c.delete(f"/api/rulings/{ids[2]}").json()
        assert r["state"] == "stopped" and r["message"] == "stopped before it started"
        for i in ids[:2]:
            c.delete(f"/api/rulings/{i}")
        pids = {finished(c, i)["ruling"]["pid"] for i in ids[:2]}
        assert len(pids) == 2  # two processes, not two threads of one


def test_a_waiting_ruling_of_a_client_with_none_searching_goes_before_a_second_of_another() -> None:
    rulings = Rulings(Limits(workers=2, per_client=3, queue=4), jobs.spin_until_stopped)
    rulings.open()
    try:
        a1, a2, a3 = (rulings.start(fast_case(), None, "10.0.0.1") for _ in range(3))
        t0 = time.monotonic()
        while not (a1.searching and a2.searching) and time.monotonic() - t0 < 60:
            time.sleep(0.05)
        b1 = rulings.start(fast_case(), None, "10.0.0.2")
        assert (a3.state, b1.state) == ("queued", "queued")
        rulings.stop(a1)
        while b1.state == "queued" and time.monotonic() - t0 < 60:
            time.sleep(0.05)
        assert (a3.state, b1.state) == ("queued", "running")
    finally:
        rulings.shutdown()


def test_a_search_deaf_to_the_stop_has_its_worker_killed_and_the_page_gets_one_line() -> None:
    with app_with(jobs.deaf, workers=1, time_limit=1, grace=1) as c:
        job = c.post("/api/rulings", json={"case": fast_case()}).json()["id"]
        s = finished(c, job, timeout=60)
        assert s["state"] == "stopped" and s["stopped_by"] == "time"
        assert s["message"] == "the time limit of 1 s passed before the search had found any line to rule on"


def test_a_worker_that_dies_fails_its_ruling_in_one_line_and_the_next_ruling_gets_a_new_worker() -> None:
    with app_with(jobs.crash, workers=1) as c:
        for _ in range(2):
            s = finished(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"])
            assert s["state"] == "failed" and s["message"] == "the ruling's worker process ended unexpectedly (exit 3)"


def test_a_failed_ruling_is_a_one_line_message_that_names_no_file() -> None:
    with app_with(jobs.broken, workers=1) as c:
        s = finished(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"])
    assert s["state"] == "failed" and s["message"] == "internal error (ValueError); please report this case"


def test_a_ruling_nobody_polls_is_killed() -> None:
    with app_with(jobs.spin_until_stopped, workers=1, abandon_after=1) as c:
        job = c.post("/api/rulings", json={"case": fast_case()}).json()["id"]
        wait_for(c, job, lambda s: s["searching"] == "worst_normal")
        time.sleep(2.5)  # no poll: the page was closed
        s = c.get(f"/api/rulings/{job}").json()
        assert s["state"] == "stopped" and s["stopped_by"] == "gone" and "nobody asked" in s["message"]


def test_a_server_error_is_one_short_line_never_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import claimlaw.engine.faces.web.app as web

    def broken(data: Any) -> Any:
        raise RuntimeError("boom\nTraceback (most recent call last)")

    monkeypatch.setattr(web, "read_case", broken)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(), raise_server_exceptions=False) as c:
            r = c.post("/api/check", json=fast_case())
    assert r.status_code == 500
    msg = r.json()["error"]["message"]
    assert "Traceback" not in msg and "\n" not in msg and "case is kept" in msg


def test_a_message_to_a_client_names_no_file_of_the_server_but_keeps_the_clients_own_words() -> None:
    assert no_paths("pack 'club': cannot import /srv/club/pack.py: boom") == "pack 'club': cannot import …: boom"
    assert no_paths(r"no luck in C:\claimlaw\secret.yaml") == "no luck in …"
    assert no_paths("'/etc/x.yaml' is not an installed pack (at /opt/a/b)", keep="/etc/x.yaml") == (
        "'/etc/x.yaml' is not an installed pack (at …)")
    assert no_paths("board.play[4][3]: ♣7 is in South's hand; 3/4 of the tricks") == (
        "board.play[4][3]: ♣7 is in South's hand; 3/4 of the tricks")


def test_each_clause_has_a_page_with_what_claimlaw_law_prints(client: TestClient) -> None:
    res = CliRunner().invoke(cli_app, ["law", "70C"])
    page = client.get("/law/70C")
    assert page.status_code == 200 and "Law 70C" in page.text
    import html

    from claimlaw.rules.clauses import CLAUSES

    assert html.escape(CLAUSES["70C"].paraphrase) in page.text
    assert CLAUSES["70C"].paraphrase.split(";")[0] in res.output.replace("\n", " ")
    api = client.get("/api/law/70c").json()
    assert api["id"] == "70C" and api["rules"] and all(r["name"] in page.text for r in api["rules"])
    assert client.get("/law/68D2(a)").status_code == 200


def test_an_unknown_clause_is_a_404_page_and_message(client: TestClient) -> None:
    page = client.get("/law/99Z")
    assert page.status_code == 404 and "not encoded" in page.text and "Traceback" not in page.text
    r = client.get("/api/law/99Z")
    assert r.status_code == 404 and "not encoded" in r.json()["error"]["message"]
    assert client.get("/no/such/page").status_code == 404


def test_every_static_file_is_package_data_so_pip_install_serves_the_page() -> None:
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    patterns = data["claimlaw.engine.faces.web"]
    for f in (ROOT / "engine" / "faces" / "web" / "static").iterdir():
        assert any(fnmatch.fnmatch(f"static/{f.name}", p) for p in patterns), f.name


HIGH_TRUMP = ROOT / "examples" / "4h-forgotten-trump-high-trump-held.yaml"


def test_a_ruling_lists_the_findings_it_hinges_on_with_the_ruling_under_each_answer(client: TestClient) -> None:
    case = yaml.safe_load(HIGH_TRUMP.read_text(encoding="utf-8"))
    s = finished(client, client.post("/api/rulings", json={"case": case}).json()["id"])
    assert s["state"] == "done" and "answers" not in s  # the trick answers stay on the server
    (h,) = s["hinges"]["hinges"]
    assert h["field"] == "findings.aware_of_trumps" and h["ask"] == "South"
    assert {a["answer"]: a["ruling"] for a in h["answers"]} == {
        "he knew": "10 tricks, claim allowed (70A)",
        "he did not know, or you doubt it": "9 tricks, claim adjusted (70C)"}
    assert s["ruled"]["searched"] > 0 and s["ruled"]["handed_on"] == 0


def test_answering_a_hinge_after_its_ruling_rules_again_with_no_new_search(client: TestClient) -> None:
    case = yaml.safe_load(HIGH_TRUMP.read_text(encoding="utf-8"))
    first = finished(client, client.post("/api/rulings", json={"case": case}).json()["id"])
    (h,) = first["hinges"]["hinges"]
    knew = next(a for a in h["answers"] if a["answer"] == "he knew")
    case.setdefault("findings", {}).update({k.split(".")[1]: v for k, v in knew["finding"].items()})
    r = client.post("/api/rulings", json={"case": case, "after": first["id"]})
    s = finished(client, r.json()["id"])
    assert (s["ruling"]["outcome"], s["ruling"]["tricks"]["NS"]) == ("claim_allowed", 10)
    assert s["ruled"]["searched"] == 0 and s["ruled"]["handed_on"] > 0
    # the same case without ``after`` searches its counts again
    alone = finished(client, client.post("/api/rulings", json={"case": case}).json()["id"])
    assert alone["ruling"] == s["ruling"] and alone["ruled"]["searched"] > 0


def test_an_answer_after_is_an_earlier_rulings_id_or_a_field_message(client: TestClient) -> None:
    for bad in (7, "x" * 65, ["id"]):
        r = client.post("/api/rulings", json={"case": fast_case(), "after": bad})
        assert r.status_code == 422 and r.json()["error"]["field"] == "after"
    r = client.post("/api/rulings", json={"case": fast_case(), "after": "no-such-ruling"})
    assert r.status_code == 202 and finished(client, r.json()["id"])["ruled"]["handed_on"] == 0


def test_only_a_clients_own_earlier_ruling_hands_its_trick_answers_on() -> None:
    with app_with(jobs.handed_on, workers=1) as c:
        first = finished(c, c.post("/api/rulings", json={"case": fast_case()}).json()["id"])
        assert first["ruling"] == {"handed": 0} and "answers" not in first
        mine = finished(c, c.post("/api/rulings", json={"case": fast_case(), "after": first["id"]}).json()["id"])
        assert mine["ruling"] == {"handed": 1}
        rulings: Rulings = c.app.state.rulings  # type: ignore[attr-defined]
        other = rulings.start(fast_case(), None, "another client", after=first["id"])
        assert finished(c, other.id)["ruling"] == {"handed": 0}


def test_a_hand_off_the_count_is_named_in_the_error_as_data_not_only_in_words(client: TestClient) -> None:
    bad = fast_case()
    bad["board"]["position"] = "N:..AKQ.2 ...9876 .J.2.AK .Q.765.3"  # West holds one card too many
    err = client.post("/api/check", json=bad).json()["error"]
    assert err["field"] == "board.position" and err["seats"] == ["W"] and "West has" in err["message"]

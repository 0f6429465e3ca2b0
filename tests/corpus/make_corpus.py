"""Write the corpus of malformed case files and hand records that tests/test_corpus.py runs.

    python tests/corpus/make_corpus.py      # rewrites tests/corpus/cases/ and tests/corpus/records/

Every case file here should be refused with exit status 2 and one line; the few that claimlaw
deliberately accepts are listed in ACCEPTED with the reason. Files that cannot be committed (a FIFO,
a file over the size limit) are made by the test itself. The generator is deterministic.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
RECORDS = HERE / "records"
MAX_COMMITTED = 50_000  # bytes; a larger file of the corpus is written by the test at run time

DEAL = "N:AJT432.2.QT84.T4 87.QJT543.J7.AQ2 K95.K986.AK952.7 Q6.A7.63.KJ98653"
PLAY = [["D4", "D7", "DA", "D3"], ["DK", "D6", "D8", "DJ"], ["SK", "S6", "S2", "S7"],
        ["S9", "SQ", "SA", "S8"], ["H2", "H3", "HK", "HA"]]
BASE: dict[str, Any] = {
    "title": "4C by West",
    "edition": "2017",
    "board": {"deal": DEAL, "contract": "4C", "declarer": "W", "vulnerable": "NS", "play": PLAY},
    "claim": {"by": "W", "says": "claim", "tricks": 8, "statement": "Drawing trumps"},
    "responses": {"N": "disputes"},
    "timing": {"objection": "none"},
    "findings": {"class_of_player": "club"},
}
DIAGRAM: dict[str, Any] = {
    "board": {"position": "N:.A.K3. .2..32 ..J.KQ 3..AQ.", "contract": "3NT", "declarer": "W", "leader": "E",
              "won": {"NS": 3, "EW": 7}},
    "claim": {"by": "W"},
}

# Deliberately accepted (exit 0): name -> why. These hold no cards, so ruling them is instant.
ACCEPTED = {
    "accept-markup-title.yaml": "square brackets in a title are text, printed as written",
    "accept-control-chars-title.yaml": "control characters in a title are shown as escapes (\\x1b), not refused",
    "accept-long-statement.yaml": "an 87 KB statement is read (its first 1000 characters) and ruled at once",
    "accept-unquoted-edition.yaml": "an unquoted edition (2007) is read as the edition",
    "accept-utf8-bom.yaml": "a UTF-8 byte-order mark is allowed",
}

WRONG_VALUES: list[tuple[str, Any]] = [
    ("true", True), ("list", [1, 2]), ("map", {"a": 1}), ("neg", -1), ("huge", 10**30), ("float", 2.5),
    ("word", "banana"), ("markup", "[/]"),
]

# every field, with the wrong values that must be refused there (a value a field accepts is left out)
FIELDS: dict[str, list[str]] = {
    "edition": ["true", "list", "map", "neg", "huge", "float", "word", "markup"],
    "title": ["list", "map", "huge"],
    "source": ["list", "map", "neg"],
    "regulations": ["true", "map", "word", "neg"],
    "board": ["true", "list", "word", "neg"],
    "board.deal": ["true", "list", "map", "neg", "word", "markup"],
    "board.contract": ["true", "list", "map", "neg", "huge", "word", "markup"],
    "board.declarer": ["true", "list", "map", "neg", "word", "markup"],
    "board.vulnerable": ["list", "map", "neg", "word", "markup"],
    "board.play": ["true", "map", "neg", "word"],
    "claim": ["true", "list", "word", "neg"],
    "claim.by": ["true", "list", "map", "neg", "huge", "word", "markup"],
    "claim.says": ["true", "list", "map", "neg", "word", "markup"],
    "claim.tricks": ["true", "list", "map", "neg", "huge", "float", "word"],
    "claim.statement": ["list", "map", "neg", "true"],
    "claim.shows_cards": ["list", "map", "huge", "word"],
    "claim.current_trick_only": ["list", "map", "word", "true"],
    "claim.line": ["true", "word", "neg", "list"],
    "responses": ["true", "list", "word"],
    "responses.N": ["true", "list", "map", "neg", "word", "markup"],
    "responses.partner_objected_immediately": ["list", "map", "word"],
    "responses.play_on": ["true", "list", "word"],
    "responses.play_after_claim": ["true", "map", "word"],
    "timing": ["true", "list", "word"],
    "timing.objection": ["true", "list", "map", "word", "markup"],
    "timing.objection_by": ["true", "list", "word"],
    "timing.within_correction_period": ["list", "map", "word"],
    "timing.minutes_after_scores_posted": ["true", "list", "map", "neg", "word"],
    "timing.correction_period_minutes": ["true", "list", "map", "neg", "word"],
    "findings": ["true", "list", "word"],
    "findings.aware_of_trumps": ["list", "map", "word"],
    "findings.class_of_player": ["true", "list", "map", "neg", "word"],
    "findings.unaware_of": ["true", "map", "word", "neg"],
    "findings.would_likely_have_won": ["true", "list", "map", "neg", "huge", "float", "word"],
    "findings.conceded_won_tricks": ["true", "list", "map", "neg", "huge", "float", "word"],
    "findings.outcome_weights": ["true", "list", "word"],
    "expect": ["true", "list", "word"],
    "expect.tricks": ["true", "list", "word"],
}


def _set(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node = out
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value
    return out


def _case(**over: Any) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    out.update(over)
    return out


def _diagram(**board: Any) -> dict[str, Any]:
    out = copy.deepcopy(DIAGRAM)
    out["board"].update(board)
    return out


def structured() -> dict[str, dict[str, Any]]:
    """Named invalid case dictionaries: wrong types everywhere, then impossible values."""
    out: dict[str, dict[str, Any]] = {}
    values = dict(WRONG_VALUES)
    for path, kinds in FIELDS.items():
        for kind in kinds:
            out[f"type-{path.replace('.', '-')}-{kind}"] = _set(BASE, path, values[kind])
    board = BASE["board"]
    impossible: dict[str, dict[str, Any]] = {
        "won-negative": _diagram(won={"NS": -3, "EW": 13}),
        "won-huge": _diagram(won={"NS": 10**21, "EW": 0}),
        "won-bool": _diagram(won={"NS": True, "EW": 9}),
        "won-too-many": _diagram(won={"NS": 9, "EW": 9}),
        "won-wrong-total": _diagram(won={"NS": 3, "EW": 3}),
        "won-unknown-side": _diagram(won={"XY": 3, "EW": 7}),
        "won-with-deal-disagrees": _case(board=dict(board, won={"NS": 0, "EW": 5})),
        "won-missing": _diagram(won=None),
        "diagram-no-leader": _diagram(leader=None),
        "diagram-and-deal": _diagram(deal=DEAL),
        "diagram-with-play": _diagram(play=[["SA"]]),
        "diagram-short-hand": _diagram(position="N:.A.K3. .2..3 ..J.KQ 3..AQ."),
        "diagram-dup-card": _diagram(position="N:.A.K3. .2..32 ..J.KQ 3..AQ.", trick=["HA"]),
        "diagram-trick-4-cards": _diagram(trick=["S2", "S3", "S4", "S5"]),
        "deal-west-14": _case(board=dict(board, deal=DEAL.replace(".T4 ", ".T ").replace("KJ98653", "KJ986534"),
                                          play=[])),
        "deal-12-cards": _case(board=dict(board, deal=DEAL.replace("AJT432", "AJT43"), play=[])),
        "deal-dup-card": _case(board=dict(board, deal=DEAL.replace("AJT432", "AJT43A"), play=[])),
        "deal-garbage": _case(board=dict(board, deal="N:xyz", play=[])),
        "deal-no-declarer": _case(board={"deal": DEAL}),
        "contract-no-declarer": _case(board={"contract": "4S"}),
        "contract-8-level": _case(board=dict(board, contract="8S")),
        "contract-xxx": _case(board=dict(board, contract="4SXXX")),
        "play-card-not-held": _case(board=dict(board, play=[["D4", "D7", "DA", "S3"]])),
        "play-not-in-turn": _case(board=dict(board, play=[["D4", "D7", "D3", "DA"]])),
        "play-wrong-leader": _case(board=dict(board, play=[["D7", "DA", "D3", "D4"]])),
        "play-card-twice": _case(board=dict(board, play=[["D4", "D7", "DA", "D3"], ["D4"]])),
        "play-five-cards": _case(board=dict(board, play=[["D4", "D7", "DA", "D3", "C5"]])),
        "play-bad-card": _case(board=dict(board, play=[["D4", "D7", "ZZ"]])),
        "play-card-number": _case(board=dict(board, play=[["D4", 7]])),
        "claim-too-many-tricks": _case(claim={"by": "W", "tricks": 9}),
        "claim-14-tricks": _case(claim={"by": "W", "tricks": 14}),
        "claim-missing": {k: v for k, v in BASE.items() if k != "claim"},
        "claim-by-missing": _case(claim={"says": "claim"}),
        "claim-unknown-key": _case(claim={"by": "W", "trikcs": 3}),
        "current-trick-without-trick": _case(claim={"by": "W", "current_trick_only": True}),
        "conceded-won-beyond-concession": _case(claim={"by": "W", "says": "concede", "tricks": 1},
                                                findings={"conceded_won_tricks": 5}),
        "conceded-won-beyond-left": _case(findings={"conceded_won_tricks": 13}),
        "likely-won-beyond-left": _case(findings={"would_likely_have_won": 13}),
        "unaware-of-own-card": _case(findings={"unaware_of": ["CK"]}),
        "unaware-of-partner-card": _case(findings={"unaware_of": ["CQ"]}),
        "unaware-of-bad-card": _case(findings={"unaware_of": ["Q9"]}),
        "weights-not-summing": _case(findings={"outcome_weights": {11: 0.5, 12: 0.2}}),
        "weights-bad-tricks": _case(findings={"outcome_weights": {14: 1.0}}),
        "weights-zero": _case(findings={"outcome_weights": {11: 0.0, 12: 1.0}}),
        "weights-nan": _case(findings={"outcome_weights": {11: float("nan")}}),
        "minutes-inf": _case(timing={"minutes_after_scores_posted": float("inf")}),
        "minutes-nan": _case(timing={"minutes_after_scores_posted": float("nan")}),
        "correction-zero": _case(timing={"correction_period_minutes": 0}),
        "correction-huge": _case(timing={"correction_period_minutes": 1e300}),
        "objection-no-seat": _case(timing={"objection": "at_once"}),
        "play-on-bad-seat": _case(responses={"play_on": {"requested_by": "Q", "all_concurred": True}}),
        "play-on-missing-field": _case(responses={"play_on": {"requested_by": "N"}}),
        "play-after-claim-bad": _case(responses={"N": "disputes", "play_after_claim": [["S3"]]}),
        "line-bad-action": _case(claim={"by": "W", "line": {"steps": [{"action": "squeeze"}]}}),
        "line-count-14": _case(claim={"by": "W", "line": {"steps": [{"action": "cash", "suit": "S", "count": 14}]}}),
        "line-count-bool": _case(claim={"by": "W", "line": {"steps": [{"action": "cash", "count": True}]}}),
        "line-bad-suit": _case(claim={"by": "W", "line": {"steps": [{"action": "cash", "suit": "Q"}]}}),
        "line-extra-key": _case(claim={"by": "W", "line": {"steps": [{"action": "cash", "colour": "red"}]}}),
        "expect-tricks-huge": _case(expect={"tricks": {"NS": 10**40}}),
        "expect-bad-edition": _case(expect={"edition": "2031"}),
        "unknown-top-key": _case(bogus=1),
        "unknown-board-key": _case(board=dict(board, dealer="N")),
        "edition-2031": _case(edition="2031"),
        "edition-int-2031": _case(edition=2031),
        "top-level-list": [BASE],  # type: ignore[dict-item]
        "top-level-string": "claim",  # type: ignore[dict-item]
        "top-level-number": 13,  # type: ignore[dict-item]
    }
    out.update({f"value-{k}": v for k, v in impossible.items()})
    return out


def raw_files() -> dict[str, bytes]:
    """Named files whose bytes themselves are the problem."""
    rnd = random.Random(27)
    ok = "claim: {by: N, says: concede, tricks: 1}\nresponses: {S: disputes}\n"
    bomb = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    files: dict[str, bytes] = {
        "enc-latin1.yaml": ("title: Café crème\n" + ok).encode("latin-1"),
        "enc-cp1252.yaml": ("title: “quoted” – dash\n" + ok).encode("cp1252"),
        "enc-utf16-bom.yaml": ("title: x\n" + ok).encode("utf-16"),
        "enc-utf16le-nobom.yaml": ("title: x\n" + ok).encode("utf-16-le"),
        "enc-utf16be-nobom.json": json.dumps({"claim": {"by": "N"}}).encode("utf-16-be"),
        "enc-utf32.yaml": ("title: x\n" + ok).encode("utf-32"),
        "enc-nul-byte.yaml": b"title: a\x00b\n" + ok.encode(),
        "enc-lone-continuation.yaml": b"title: \x80\x80\n" + ok.encode(),
        "enc-truncated-utf8.yaml": b"title: \xe2\x99\n" + ok.encode(),
        "nest-yaml-flow-20000.yaml": b"[" * 20000 + b"]" * 20000,
        "nest-json-20000.json": b"[" * 20000 + b"]" * 20000,
        "nest-json-objects.json": b'{"a":' * 5000 + b"1" + b"}" * 5000,
        "nest-yaml-block.yaml": "".join(" " * (2 * i) + "- \n" for i in range(60)).encode(),
        "nest-yaml-maps.yaml": "".join(" " * (2 * i) + f"k{i}:\n" for i in range(60)).encode(),
        "alias-bomb.yaml": ("\n".join(bomb) + "\n").encode(),
        "alias-many.yaml": ("x: &x 1\nclaim: {by: N}\nl: [" + ", ".join(["*x"] * 40) + "]\n").encode(),
        "yaml-python-tag.yaml": b"!!python/object/apply:os.system ['echo hi']\n",
        "yaml-unknown-tag.yaml": b"claim: !secret {by: N}\n",
        "yaml-tab-indent.yaml": b"claim:\n\tby: N\n",
        "yaml-unclosed-flow.yaml": b"claim: {by: N\n",
        "yaml-unclosed-quote.yaml": b'title: "abc\nclaim: {by: N}\n',
        "yaml-bad-indent.yaml": b"claim:\n  by: N\n says: claim\n",
        "yaml-two-documents.yaml": b"claim: {by: N}\n---\nclaim: {by: S}\n",
        "yaml-dup-top-key.yaml": b"claim: {by: N}\nclaim: {by: S}\n",
        "yaml-dup-nested-key.yaml": b"claim: {by: N, by: S}\n",
        "yaml-dup-board-key.yaml": b"board:\n  contract: 4S\n  contract: 3NT\n  declarer: N\nclaim: {by: N}\n",
        "yaml-huge-int.yaml": b"claim: {by: N, tricks: " + b"9" * 5000 + b"}\n",
        "yaml-date-edition.yaml": b"edition: 2017-01-01\nclaim: {by: N}\n",
        "yaml-binary.yaml": b"title: !!binary aGVsbG8=\nclaim: {by: N}\n",
        "yaml-set.yaml": b"claim: !!set {by, N}\n",
        "yaml-unhashable-key.yaml": b"? [a, b]\n: 1\nclaim: {by: N}\n",
        "yaml-merge-key.yaml": b"base: &b {by: N}\nclaim:\n  <<: *b\n",
        "yaml-only-comment.yaml": b"# nothing here\n",
        "yaml-empty.yaml": b"",
        "yaml-null.yaml": b"null\n",
        "yaml-scalar.yaml": b"just a sentence\n",
        "json-trailing-comma.json": b'{"claim": {"by": "N"},}',
        "json-single-quotes.json": b"{'claim': {'by': 'N'}}",
        "json-nan.json": b'{"claim": {"by": "N"}, "timing": {"minutes_after_scores_posted": NaN}}',
        "json-infinity.json": b'{"claim": {"by": "N"}, "timing": {"correction_period_minutes": Infinity}}',
        "json-dup-key.json": b'{"claim": {"by": "N"}, "claim": {"by": "S"}}',
        "json-huge-int.json": b'{"claim": {"by": "N", "tricks": ' + b"1" * 5000 + b"}}",
        "json-empty.json": b"",
        "json-array.json": b"[]",
        "json-bool-tricks.json": b'{"claim": {"by": "N", "tricks": true}}',
        "json-string-tricks.json": b'{"claim": {"by": "N", "tricks": "3"}}',
        "json-float-tricks.json": b'{"claim": {"by": "N", "tricks": 3.0}}',
        "json-garbage.json": b"not json at all",
        "random-bytes-1.yaml": bytes(rnd.randrange(256) for _ in range(2000)),
        "random-bytes-2.json": bytes(rnd.randrange(256) for _ in range(2000)),
        "random-bytes-3.yaml": bytes(rnd.randrange(128, 256) for _ in range(500)),
        "long-title.yaml": ("title: " + "x" * 300_000 + "\n" + ok).encode(),
        "many-values.yaml": ("title: x\nclaim: {by: N}\nregulations: [" + ",".join(["a"] * 120_000) + "]\n").encode(),
        "long-unknown-key.yaml": ("claim: {by: N}\n" + "k" * 100_000 + ": 1\n").encode(),
        "markup-seat.yaml": b'claim: {by: "[/]"}\n',
        "markup-contract.yaml": b'board: {contract: "[bold]4S[/]", declarer: N}\nclaim: {by: N}\n',
        "control-seat.yaml": b'claim: {by: "\\e[31mN"}\n',
        "control-card.yaml": b'claim: {by: N}\nfindings: {unaware_of: ["\\e[2J"]}\n',
    }
    files["accept-markup-title.yaml"] = ('title: "[/bold] x [see note] [/]"\n' + ok).encode()
    files["accept-control-chars-title.yaml"] = ('title: "a\\e[2J\\0b\\u202e"\n' + ok).encode()
    files["accept-long-statement.yaml"] = ("claim: {by: N, says: concede, tricks: 1, statement: \""
                                           + "draw trumps then cash the hearts " * 2700
                                           + "\"}\nresponses: {S: disputes}\n").encode()
    files["accept-unquoted-edition.yaml"] = ("edition: 2007\n" + ok).encode()
    files["accept-utf8-bom.yaml"] = ("\ufeff" + ok).encode()
    return files


def records() -> dict[str, bytes]:
    """Malformed LIN and PBN hand records: the audit reports each as a problem and goes on."""
    rnd = random.Random(71)
    good_lin = ("pn|S,W,N,E|md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|sv|o|mb|7N|mb|p|mb|p|mb|p|"
                "pc|S2|pc|S6|pc|ST|pc|SA|mc|13|")
    return {
        "lin-random.lin": bytes(rnd.randrange(256) for _ in range(3000)),
        "lin-utf16.lin": good_lin.encode("utf-16"),
        "lin-truncated.lin": good_lin[:60].encode(),
        "lin-no-deal.lin": b"pn|S,W,N,E|mb|1N|mb|p|mb|p|mb|p|mc|7|",
        "lin-bad-card.lin": good_lin.replace("pc|S2|", "pc|Z9|").encode(),
        "lin-claim-14.lin": good_lin.replace("mc|13|", "mc|14|").encode(),
        "lin-claim-negative.lin": good_lin.replace("mc|13|", "mc|-3|").encode(),
        "lin-claim-word.lin": good_lin.replace("mc|13|", "mc|lots|").encode(),
        "lin-bad-hand.lin": good_lin.replace("3SAKQ", "3SAKQQQ").encode(),
        "lin-markup.lin": good_lin.replace("pn|S,W,N,E", "pn|[/],[bold],\x1b[2J,E").encode(),
        "lin-pipes-only.lin": b"|" * 5000,
        "lin-empty.lin": b"",
        "lin-nul.lin": b"\x00" * 1000,
        "lin-huge-board.lin": ("qx|o" + "9" * 5000 + "|" + good_lin).encode(),
        "pbn-random.pbn": bytes(rnd.randrange(256) for _ in range(3000)),
        "pbn-unclosed-tag.pbn": b'[Deal "N:AKQ.AKQ.AKQ.AKQJ 2345.2345.2345.2 6789.6789.6789.3 T\n',
        "pbn-bad-deal.pbn": b'[Event "x"]\n[Deal "N:garbage"]\n[Declarer "S"]\n[Contract "7NT"]\n[Result "13"]\n',
        "pbn-result-99.pbn": (b'[Deal "N:AKQ.AKQ.AKQ.AKQJ 2345.2345.2345.2 6789.6789.6789.3 JT.JT.JT.T987654"]\n'
                              b'[Declarer "N"]\n[Contract "7NT"]\n[Result "99"]\n'),
        "pbn-contract-word.pbn": b'[Deal "N:..."]\n[Declarer "Q"]\n[Contract "lots"]\n[Result "-1"]\n',
        "pbn-only-brackets.pbn": b"[" * 20000,
        "pbn-empty.pbn": b"",
    }


def main() -> None:
    for folder in (CASES, RECORDS):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    for i, (name, data) in enumerate(sorted(structured().items())):
        if i % 4 == 3:  # a quarter as JSON, the rest as YAML
            text = json.dumps(data, ensure_ascii=False, allow_nan=True)
            (CASES / f"{name}.json").write_text(text + "\n", encoding="utf-8")
        else:
            text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
            (CASES / f"{name}.yaml").write_text(text, encoding="utf-8")
    for name, raw in raw_files().items():
        if len(raw) <= MAX_COMMITTED:  # bigger ones are made by the test in a temporary folder
            (CASES / name).write_bytes(raw)
    for name, raw in records().items():
        (RECORDS / name).write_bytes(raw)
    (HERE / "accepted.json").write_text(json.dumps(ACCEPTED, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

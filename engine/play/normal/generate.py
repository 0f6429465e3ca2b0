"""Writes what comes from the table of licences (engine/play/normal/licences.py) outside Python: our solver's header
(engine/play/_licences.h) and the table in docs/design.md. ``python -m claimlaw.engine.play.normal.generate --header
--doc``; tests/play/test_licences.py checks both are current."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .licences import CONCEDED_SHIFT, LICENCES, LOST_SHIFT, SEEN_SHIFT

HEADER = Path(__file__).resolve().parents[1] / "_licences.h"
DESIGN = Path(__file__).resolve().parents[3] / "docs" / "design.md"
DOC_BEGIN = "<!-- licences: written by python -m claimlaw.engine.play.normal.generate --doc; do not edit -->"
DOC_END = "<!-- end of licences -->"


def header() -> str:
    """engine/play/_licences.h: our solver's flag bits, one per licence it reads."""
    lines = ["/* Written by `python -m claimlaw.engine.play.normal.generate --header` from the table of licences",
             " * (engine/play/normal/licences.py); do not edit: tests/play/test_licences.py checks it. */",
             "#ifndef CLAIMLAW_LICENCES_H", "#define CLAIMLAW_LICENCES_H", ""]
    for lic in LICENCES:
        if lic.bit is not None:
            lines.append(f"#define LIC_{lic.name.upper()} {lic.bit}  /* {lic.meaning} */")
    lines += ["", "/* the hands the claimer sees (a bit per seat), the tricks the claim concedes and those the",
              " * opponents have won since the claim */",
              f"#define LIC_SEEN_SHIFT {SEEN_SHIFT}", f"#define LIC_CONCEDED_SHIFT {CONCEDED_SHIFT}",
              f"#define LIC_LOST_SHIFT {LOST_SHIFT}", "",
              "#endif", ""]
    return "\n".join(lines)


def doc_table() -> str:
    """The table in docs/design.md, between its markers."""
    rows = [DOC_BEGIN, "", "| licence | meaning | source | clause | classes | switch | solver bit |",
            "|---|---|---|---|---|---|---|"]
    for lic in LICENCES:
        switch = ("on by default" if lic.default else "off by default") if lic.switch else "always"
        bit = (str(lic.bit) if lic.bit is not None else "Python search only" if not lic.solver_neutral
               else "none needed" if lic.switch else "always modelled")
        rows.append(f"| `{lic.name}` | {lic.meaning} | {lic.source or '-'} | {lic.clause} | "
                    f"{', '.join(c.replace('_', ' ') for c in lic.classes)} | {switch} | {bit} |")
    return "\n".join([*rows, "", DOC_END])


def with_doc_table(text: str) -> str:
    """``text`` (docs/design.md) with its table of licences rewritten from the table."""
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < start:
        raise ValueError("docs/design.md has no licences markers")
    return text[:start] + doc_table() + text[end + len(DOC_END):]


def main(argv: list[str] | None = None) -> int:
    """Write the header (``--header``) and the design doc's table (``--doc``) from the table."""
    ap = argparse.ArgumentParser(prog="python -m claimlaw.engine.play.normal.generate", description=main.__doc__)
    ap.add_argument("--header", action="store_true", help=f"write {HEADER.name}")
    ap.add_argument("--doc", action="store_true", help="rewrite the table in docs/design.md")
    args = ap.parse_args(argv)
    if not (args.header or args.doc):
        ap.error("say --header, --doc or both")
    if args.header:
        HEADER.write_text(header())
    if args.doc:
        DESIGN.write_text(with_doc_table(DESIGN.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

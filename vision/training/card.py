"""Rewrite the per-class table of the model card from `taiscore eval --json`, so the
43 rows are never copied by hand after an export.

    taiscore eval work/datasets/taiscore.yaml --json > work/eval_real.json
    python -m vision.training.card work/eval_real.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .env import ROOT

CARD = ROOT / "models" / "README.md"
HEADING = "## Per class (COCO matching, all 296 real validation photos as exported)"


def per_class_table(report: dict) -> str:
    rows = [f"| {c} | {v['instances']} | {v['AP50']:.3f} | {v['AP50-95']:.3f} |" for c, v in report["per_class"].items()]
    return "\n".join(["| class | tiles | AP50 | AP50-95 |", "| --- | --- | --- | --- |", *rows])


def rewrite(card: str, report: dict) -> str:
    """Replace the section under HEADING up to the next heading."""
    head, rest = card.split(HEADING, 1)
    tail = rest[rest.index("\n## ") :] if "\n## " in rest else "\n"
    return f"{head}{HEADING}\n\n{per_class_table(report)}\n{tail}"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("report", type=Path, help="the JSON that `taiscore eval --json` printed")
    args = p.parse_args(argv)
    CARD.write_text(rewrite(CARD.read_text(), json.loads(args.report.read_text())))
    print(f"per-class table rewritten in {CARD}")


if __name__ == "__main__":
    main()

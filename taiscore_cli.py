"""`taiscore` command line. Bad input: one line on stderr naming the problem, exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from scoring import ruleset as rulesets
from scoring.hand import HandError, hand_from_json
from scoring.scorer import score
from scoring.text import ruleset_text, rulesets_markdown, score_text

EXIT_BAD_INPUT = 2


class InputError(ValueError):
    """Input the user can fix: reported on one line, exit status 2."""


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path} is not JSON: {e}") from None


def cmd_score(args: argparse.Namespace) -> None:
    data = _read_json(args.file)
    many = isinstance(data, list)
    results = []
    for n, obj in enumerate(data if many else [data]):
        try:
            results.append(score(hand_from_json(obj)))
        except HandError as e:
            raise InputError(f"hand {n + 1}: {e}" if many else str(e)) from None
    if args.text:
        print("\n\n".join(score_text(s) for s in results))
    else:
        out = [s.to_json() for s in results]
        print(json.dumps(out if many else out[0], ensure_ascii=False, indent=2))


def cmd_rules(args: argparse.Namespace) -> None:
    ids = [args.ruleset] if args.ruleset else rulesets.names()
    try:
        sets = [rulesets.load(i) for i in ids]
        print(rulesets_markdown(sets) if args.markdown else "\n\n".join(ruleset_text(rs) for rs in sets))
    except HandError as e:
        raise InputError(str(e)) from None


def cmd_bench(args: argparse.Namespace) -> None:
    from scoring.bench import run

    run(args.hands, args.seed)


def _detector(args: argparse.Namespace):
    from vision.detector import Detector

    try:
        return Detector(args.model)
    except (OSError, ValueError) as e:
        raise InputError(f"model {args.model}: {e}") from None


def _photo(path: str):
    from vision.image import ImageError, load

    try:
        return load(path)
    except ImageError as e:
        raise InputError(str(e)) from None


def cmd_detect(args: argparse.Namespace) -> None:
    det = _detector(args)
    out = []
    for path in args.photos:
        img = _photo(path)
        tiles = det.detect(img)
        out.append({"image": path, "width": img.shape[1], "height": img.shape[0], "tiles": [t.to_json() for t in tiles]})
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        for r in out:
            print(f"{r['image']} ({r['width']}x{r['height']}): {len(r['tiles'])} tiles")
            print("  " + " ".join(f"{t['code']}:{t['conf']:.2f}" for t in r["tiles"]))


def cmd_read(args: argparse.Namespace) -> None:
    from vision.layout import read_layout

    reading = read_layout(_detector(args).detect(_photo(args.photo)))
    if args.json:
        print(json.dumps(reading.to_json(), ensure_ascii=False))
    else:
        print(json.dumps(reading.hand, ensure_ascii=False))
        for d in reading.doubts:
            print(f"doubt: {d}")


def cmd_eval(args: argparse.Namespace) -> None:
    from pathlib import Path

    from vision.evaluate import evaluate, report_text

    target = Path(args.target)
    if not target.exists():
        raise InputError(f"{target}: no such dataset YAML or folder")
    report = evaluate(target, _detector(args))
    print(json.dumps(report.to_json(), ensure_ascii=False) if args.json else report_text(report))


def cmd_bench_detector(args: argparse.Namespace) -> None:
    from vision.speed import run

    run(_detector(args), [_photo(p) for p in args.photos], args.runs)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="taiscore", description="Score Taiwanese 16-tile mahjong.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("score", help="score hands given as JSON (see README)")
    s.add_argument("file", help="JSON file with one hand object or an array; - for stdin")
    s.add_argument("--text", action="store_true", help="a readable itemised table instead of JSON")
    s.set_defaults(run=cmd_score)

    r = sub.add_parser("rules", help="print a rule set's table and options")
    r.add_argument("ruleset", nargs="?")
    r.add_argument("--markdown", action="store_true", help="the reference page docs/rulesets.md")
    r.set_defaults(run=cmd_rules)

    b = sub.add_parser("bench", help="score random winning hands and print hands per second")
    b.add_argument("--hands", type=int, default=10_000)
    b.add_argument("--seed", type=int, default=2026)
    b.set_defaults(run=cmd_bench)

    from vision.detector import DEFAULT_MODEL

    d = sub.add_parser("detect", help="detect every tile in photos")
    d.add_argument("photos", nargs="+")
    d.add_argument("--json", action="store_true")
    d.add_argument("--model", default=str(DEFAULT_MODEL))
    d.set_defaults(run=cmd_detect)

    rd = sub.add_parser("read", help="read a photo into a hand object, with doubts")
    rd.add_argument("photo")
    rd.add_argument("--json", action="store_true")
    rd.add_argument("--model", default=str(DEFAULT_MODEL))
    rd.set_defaults(run=cmd_read)

    e = sub.add_parser("eval", help="precision, recall, mAP per class and confusions on a YOLO dataset")
    e.add_argument("target", help="dataset YAML (its val split) or a folder of images with labels")
    e.add_argument("--json", action="store_true")
    e.add_argument("--model", default=str(DEFAULT_MODEL))
    e.set_defaults(run=cmd_eval)

    bd = sub.add_parser("bench-detector", help="median latency and peak memory of detection")
    bd.add_argument("photos", nargs="+")
    bd.add_argument("--runs", type=int, default=20)
    bd.add_argument("--model", default=str(DEFAULT_MODEL))
    bd.set_defaults(run=cmd_bench_detector)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], None] = args.run
    try:
        run(args)
    except InputError as e:
        print(f"taiscore: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())

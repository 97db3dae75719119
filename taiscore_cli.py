"""`taiscore` command line. Bad input: one line on stderr naming the problem, exit 2."""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from typing import NoReturn

from scoring import ruleset as rulesets
from scoring.hand import HandError, hand_from_json
from scoring.inputs import InputError, batch, read_json
from scoring.scorer import score
from scoring.text import ruleset_text, rulesets_markdown, score_text

EXIT_BAD_INPUT = 2
SPOOL_BYTES = 16 * 2**20  # results of a batch wait in memory up to this, then in a temporary file


def cmd_score(args: argparse.Namespace) -> None:
    """Score hand by hand as the input is read; the results reach stdout only once every
    hand has scored, so a bad hand 57 leaves stdout empty (the contract) and memory stays
    bounded however long the batch (the results wait in a temporary file). A batch is
    written one hand a line: JSON's indenting encoder is pure Python, a fifth of the time."""
    with batch(args.file) as hands, tempfile.SpooledTemporaryFile(SPOOL_BYTES) as spool:
        gc.freeze()  # start-up's objects (the input types, the rule sets) live to the end: no collection need look at them again
        n = 0
        for n, obj in enumerate(hands, start=1):
            try:
                s = score(hand_from_json(obj))
            except HandError as e:
                raise InputError(f"hand {n}: {e}" if hands.many else str(e)) from None
            if args.text:
                spool.write((("\n\n" if n > 1 else "") + score_text(s)).encode())
            elif hands.many:
                spool.write((b"[\n" if n == 1 else b",\n") + s.to_json_line())  # one line a hand
            else:
                spool.write(json.dumps(s.to_json(), ensure_ascii=False, indent=2).encode())
        if hands.many and not args.text:
            spool.write(b"\n]" if n else b"[]")
        spool.write(b"\n")
        spool.seek(0)
        sys.stdout.flush()
        shutil.copyfileobj(spool, sys.stdout.buffer)


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

    faces = None if args.faces == "none" else args.faces
    flowers = None if args.flowers == "none" else args.flowers
    characters = None if args.characters == "none" else args.characters
    tileset = _tileset(args.tileset, faces) if args.tileset else None
    try:
        return Detector(args.model, faces=faces, flowers=flowers, tileset=tileset, characters=characters)
    except (OSError, ValueError) as e:
        raise InputError(f"model: {e}") from None


def _tileset(name: str, faces: str | None):
    """The stored profile `name`, refused when missing, corrupt or made by other readers."""
    from vision import tileset

    if faces is None:
        raise InputError(f"tile set {name!r}: a tile set reads with the face reader; --faces none leaves none")
    try:
        return tileset.load(name, faces)
    except (OSError, tileset.ProfileError) as e:
        raise InputError(str(e)) from None


def cmd_tileset(args: argparse.Namespace) -> None:
    from vision import tileset

    try:
        if args.action == "list":
            for name in tileset.names():
                print(name)
        elif args.action == "show":
            print(json.dumps(tileset.load(args.name).summary(), ensure_ascii=False, indent=2))
        elif args.action == "delete":
            tileset.delete(args.name)
        elif args.action == "learn":
            _learn(args.name, args.photos, args.flowers)
    except (OSError, tileset.ProfileError) as e:
        raise InputError(str(e)) from None


def _learn(name: str, pairs: list[str], flowers: bool | None) -> None:
    """Every PHOTO=TILES read before anything is stored; a count that differs stores
    nothing. `flowers` (None: as the set was) tells the set whether it has flowers, with
    or without photos to learn from."""
    from vision import tileset
    from vision.detector import Detector

    if not pairs and flowers is None:
        raise InputError(f"tileset learn {name}: name at least one PHOTO=TILES, e.g. sheet.jpg={tileset.SHEET}, or --flowers / --no-flowers")
    photos = []
    for pair in pairs:
        path, sep, tiles = pair.rpartition("=")
        if not sep or not path:
            raise InputError(f"{pair!r}: expected PHOTO=TILES, e.g. sheet.jpg=123456789m")
        try:
            tileset.kinds_of(tiles)
        except ValueError as e:
            raise InputError(f"{path}: {e}") from None
        photos.append((path, _photo(path), tiles))
    stored = tileset.load(name) if name in tileset.names() else tileset.empty(name)
    if flowers is not None:
        stored = stored.with_flowers(flowers)
    try:
        learnt = tileset.learn(Detector(threads=1), stored, photos) if photos else stored  # one thread a network: tileset.WORKERS photos at a time, one a core
    except tileset.CountError as e:
        raise InputError(str(e)) from None
    learnt.save()
    print(json.dumps(learnt.summary(), ensure_ascii=False, indent=2))


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

    for p in args.photos:
        _photo(p)  # refuse a bad photo with the usual message before timing anything
    run(_detector(args), args.photos, args.runs)


def _store(args: argparse.Namespace):
    from ledger.store import Store

    return Store(args.db)


def _print_statement(statement, text: bool) -> None:
    from ledger.report import statement_text

    print(statement_text(statement) if text else json.dumps(statement.to_json(), ensure_ascii=False, indent=2))


def cmd_ledger(args: argparse.Namespace) -> None:
    from ledger.replay import replay
    from ledger.report import statement_csv
    from ledger.session import session_from_json

    try:
        if args.action == "audit":
            _print_statement(replay(*session_from_json(read_json(args.file))), args.text)
            return
        store = _store(args)
        if args.action == "new":
            table = {"players": args.players, "ruleset": args.ruleset, "first_dealer": args.first_dealer or args.players[0]}
            if args.base is not None or args.point is not None:
                from scoring.ruleset import load

                usual = load(args.ruleset).stakes
                table["stakes"] = {"base": args.base if args.base is not None else usual.base, "point": args.point if args.point is not None else usual.point}
            print(store.create(table))
        elif args.action == "list":
            for sid, created, table in store.sessions():
                print(f"{sid}  {created}  {table.get('ruleset', 'taiwan')}  {' '.join(table['players'])}")
        elif args.action == "add":
            print(store.add(args.session, read_json(args.file)))
        elif args.action == "undo":
            print(store.undo(args.session, args.event))
        elif args.action == "amend":
            print(store.amend(args.session, args.event, read_json(args.file)))
        elif args.action == "show":
            _print_statement(store.statement(args.session), args.text)
        elif args.action == "export":
            text = statement_csv(store.statement(args.session))
            if args.out:
                try:
                    with open(args.out, "w", encoding="utf-8", newline="") as f:
                        f.write(text)
                except OSError as e:
                    raise InputError(f"cannot write {args.out}: {e.strerror}") from None
            else:
                sys.stdout.write(text)
    except HandError as e:
        raise InputError(str(e)) from None


class _Parser(argparse.ArgumentParser):
    """Argument errors as the contract wants them: one line, exit 2 (no usage block)."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


def _count(text: str) -> int:
    """A count of hands, photos or runs: a whole number, 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="taiscore", description="Score Taiwanese 16-tile mahjong.")
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
    b.add_argument("--hands", type=_count, default=10_000)
    b.add_argument("--seed", type=int, default=2026)
    b.set_defaults(run=cmd_bench)

    def photo_command(name: str, help_: str, run: Callable, *args: tuple[str, dict]) -> None:
        from vision.models import DEFAULT_CHARACTERS, DEFAULT_FACES, DEFAULT_FLOWERS, DEFAULT_MODEL

        c = sub.add_parser(name, help=help_)
        for flag, kw in args:
            c.add_argument(flag, **kw)
        c.add_argument("--model", default=str(DEFAULT_MODEL), help="an ONNX detector with the 43 taiscore classes")
        c.add_argument("--faces", default=str(DEFAULT_FACES), help="an ONNX face reader with the 42 tile faces; 'none': the detector's own reading")
        c.add_argument("--flowers", default=str(DEFAULT_FLOWERS), help="an ONNX flower reader with the 8 flowers, for the tiles the face reader says may be one; 'none': the face reader's reading")
        c.add_argument("--characters", default=str(DEFAULT_CHARACTERS), help="an ONNX text recogniser (PP-OCRv4's) reading the characters of the tiles the readers are unsure of; 'none': the readers' reading")
        c.add_argument("--tileset", metavar="NAME", help="read with the profile of your own tile set (taiscore tileset learn)")
        c.set_defaults(run=run)

    as_json = ("--json", {"action": "store_true"})
    photo_command("detect", "detect every tile in photos", cmd_detect, ("photos", {"nargs": "+"}), as_json)
    photo_command("read", "read a photo into a hand object, with doubts", cmd_read, ("photo", {}), as_json)
    photo_command(
        "eval", "precision, recall, mAP per class and confusions on a YOLO dataset", cmd_eval,
        ("target", {"help": "dataset YAML (its val split) or a folder of images with labels"}), as_json,
    )
    photo_command(
        "bench-detector", "median latency, photo-to-payout time and peak memory", cmd_bench_detector,
        ("photos", {"nargs": "+"}), ("--runs", {"type": _count, "default": 20}),
    )

    ts = sub.add_parser("tileset", help="teach the reader your own tile set 我的牌, from photos of its tiles")
    tsub = ts.add_subparsers(dest="action", required=True)
    learn = tsub.add_parser("learn", help="learn (or add) examples from photos; prints what the set covers and its doubts")
    learn.add_argument("name", help="the set's name: letters, digits, - and _")
    learn.add_argument("photos", nargs="*", metavar="PHOTO=TILES", help="a photo and its tiles in reading order: rows top to bottom, each left to right")
    learn.add_argument("--flowers", action=argparse.BooleanOptionalAction, default=None,
                       help="the set has flowers (144 tiles, as a new set) or, --no-flowers, none (136 tiles): no tile is then read as a flower")
    tsub.add_parser("list", help="the tile sets stored ($TAISCORE_TILESETS or ~/.local/share/taiscore/tilesets)")
    for action, help_ in (("show", "kinds covered, examples per kind and doubts"), ("delete", "delete a tile set")):
        tsub.add_parser(action, help=help_).add_argument("name")
    ts.set_defaults(run=cmd_tileset)

    lg = sub.add_parser("ledger", help="record a night of play, audit and settle it")
    lsub = lg.add_subparsers(dest="action", required=True)
    au = lsub.add_parser("audit", help="replay a whole session from JSON and print the statement")
    au.add_argument("file", help="session JSON; - for stdin")
    au.add_argument("--text", action="store_true")
    db_help = "a SQLite file or a postgresql:// URL (default: $TAISCORE_DB or ~/.local/share/taiscore/ledger.sqlite3)"
    new = lsub.add_parser("new", help="create a session; prints its id")
    new.add_argument("--players", nargs=4, required=True, metavar="NAME", help="in chair order: E S W N of the first hand")
    new.add_argument("--ruleset", default="taiwan")
    new.add_argument("--first-dealer")
    new.add_argument("--base", type=int)
    new.add_argument("--point", type=int)
    lsub.add_parser("list", help="list the sessions in the database")
    add = lsub.add_parser("add", help="append a hand (JSON file or -); prints its event id")
    add.add_argument("session")
    add.add_argument("file")
    undo = lsub.add_parser("undo", help="undo the last hand (or the hand with --event); nothing is deleted")
    undo.add_argument("session")
    undo.add_argument("--event", type=int)
    amend = lsub.add_parser("amend", help="replace a recorded hand by a corrected one")
    amend.add_argument("session")
    amend.add_argument("event", type=int)
    amend.add_argument("file")
    show = lsub.add_parser("show", help="the statement of a stored session")
    show.add_argument("session")
    show.add_argument("--text", action="store_true")
    ex = lsub.add_parser("export", help="every payment of a stored session as CSV")
    ex.add_argument("session")
    ex.add_argument("--out")
    for sp in (new, add, undo, amend, show, ex, lsub.choices["list"]):
        sp.add_argument("--db", help=db_help)
    lg.set_defaults(run=cmd_ledger)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], None] = args.run
    try:
        run(args)
    except InputError as e:
        print("taiscore: " + str(e).replace("\n", "\\n"), file=sys.stderr)  # one line, whatever a file name holds
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())

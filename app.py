"""taiscore: photograph a winning hand, check the reading, get the itemised payout."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import cv2
import numpy as np
import streamlit as st

from ledger.report import statement_csv
from ledger.store import Store
from scoring import ruleset as rulesets
from scoring.hand import EVENTS, HandError, hand_from_json
from scoring.scorer import Score, score
from scoring.tiles import WINDS, TileError, code, parse_flowers, parse_tiles
from vision.classes import CLASSES
from vision.detector import DEFAULT_MODEL, Detector, Tile
from vision.image import ImageError, load
from vision.layout import meld_of, read_layout

ASSETS = Path(__file__).parent / "assets" / "tiles"
GROUPS = ["concealed", "winning", "meld 1", "meld 2", "meld 3", "meld 4", "meld 5", "flowers", "ignore"]
COLOURS = {  # BGR, one per group, so the photo shows how it was read
    "concealed": (60, 180, 60), "winning": (0, 0, 255), "flowers": (200, 0, 200), "ignore": (128, 128, 128),
    "meld 1": (255, 140, 0), "meld 2": (0, 200, 255), "meld 3": (255, 0, 140), "meld 4": (140, 90, 0), "meld 5": (0, 120, 200),
}
WIND_LABELS = {"E": "東 E", "S": "南 S", "W": "西 W", "N": "北 N"}
DISPLAY_WIDTH = 1600

st.set_page_config(page_title="taiscore 台數", page_icon="🀄", layout="wide")


@st.cache_resource
def detector() -> Detector:
    """Loaded once per server (the detector, the face reader and the flower reader): the models are the slow part of a cold start."""
    return Detector(DEFAULT_MODEL)


def tiles_from_reading(tiles: list[Tile]) -> list[dict]:
    """Rows of the correction table, grouped as the layout reader saw them."""
    reading = read_layout(tiles)
    group_of = {}
    melds = 0
    for g in reading.groups:
        if g.role == "meld":
            melds += 1
        name = f"meld {min(melds, 5)}" if g.role == "meld" else ("ignore" if g.role in ("unread", "other") else g.role)
        for i in g.tiles:
            group_of[i] = name
    st.session_state.doubts = list(reading.doubts)
    return [
        {"tile": t.code, "group": group_of.get(i, "ignore"), "conf": round(t.conf, 2), "box": t.box}
        for i, t in enumerate(tiles)
    ]


def tiles_from_text(concealed: str, winning: str, melds: str, flowers: str) -> list[dict]:
    """Manual entry: the same table, built from notation instead of a photo."""
    rows = []
    kinds = list(parse_tiles(concealed))
    if winning:
        win = parse_tiles(winning)[0]
        if win not in kinds:
            raise TileError(f"winning tile {winning} is not among the concealed tiles")
        kinds.remove(win)
        rows.append({"tile": code(win), "group": "winning", "conf": 1.0, "box": None})
    rows += [{"tile": code(k), "group": "concealed", "conf": 1.0, "box": None} for k in kinds]
    for n, meld in enumerate([m.strip() for m in melds.split(",") if m.strip()][:5], start=1):
        kind, _, tiles = meld.partition(" ")
        faces = [code(k) for k in parse_tiles(tiles)]
        if kind == "ankong":
            faces = ["back", faces[1], faces[2], "back"]
        rows += [{"tile": c, "group": f"meld {n}", "conf": 1.0, "box": None} for c in faces]
    rows += [{"tile": f"{f}f", "group": "flowers", "conf": 1.0, "box": None} for f in parse_flowers(flowers)]
    return rows


def hand_object(rows: list[dict], context: dict) -> dict:
    """The scorer's input from the correction table; a HandError says what to fix."""
    by_group: dict[str, list[str]] = {}
    for r in rows:
        by_group.setdefault(r["group"], []).append(r["tile"])
    winning = by_group.get("winning", [])
    if len(winning) != 1:
        raise HandError(f"mark exactly one winning tile (now {len(winning)}): set its group to 'winning'")
    concealed = by_group.get("concealed", []) + winning
    if "back" in concealed:
        raise HandError("a face-down tile stands among the concealed tiles: set its kind")
    melds = []
    for n in range(1, 6):
        codes = by_group.get(f"meld {n}")
        if codes:
            m = meld_of(codes)
            if not m:
                raise HandError(f"meld {n} ({' '.join(codes)}) is not a chi, pon, kong or concealed kong")
            melds.append(m)
    flowers = by_group.get("flowers", [])
    if any(not f.endswith("f") for f in flowers):
        raise HandError("only flower tiles belong in the flowers group")
    return {
        **context,
        "concealed": "".join(concealed),
        "winning_tile": winning[0],
        "melds": melds,
        "flowers": "".join(flowers),
    }


def annotated(img: np.ndarray, rows: list[dict]) -> np.ndarray:
    scale = min(1.0, DISPLAY_WIDTH / img.shape[1])
    out = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else img.copy()
    thick = max(2, round(out.shape[1] / 500))
    for n, r in enumerate(rows):
        if r["box"] is None:
            continue
        x1, y1, x2, y2 = (int(v * scale) for v in r["box"])
        colour = COLOURS[r["group"]]
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        cv2.putText(out, f"{n}:{r['tile']}", (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick, colour, thick)
    return out[:, :, ::-1]


def sidebar_context() -> tuple[dict, str]:
    """Rule set, house options, seats and stakes; widget keys keep them for the session."""
    sb = st.sidebar
    sb.header("Table 牌桌")
    ruleset_id = sb.selectbox("Rule set 規則", rulesets.names(), index=rulesets.names().index("taiwan"), key="ruleset")
    rs = rulesets.load(ruleset_id)
    options = {}
    for opt in rs.options.values():
        if isinstance(opt.default, bool):
            options[opt.name] = sb.checkbox(opt.name, value=opt.default, help=opt.doc, key=f"opt-{ruleset_id}-{opt.name}")
        else:
            options[opt.name] = type(opt.default)(sb.number_input(opt.name, value=opt.default, help=opt.doc, key=f"opt-{ruleset_id}-{opt.name}"))
    seat = sb.selectbox("Winner's seat 座位 (dealer = 東)", list(WINDS), format_func=WIND_LABELS.__getitem__, key="seat")
    rnd = sb.selectbox("Prevailing wind 圈風", list(WINDS), format_func=WIND_LABELS.__getitem__, key="round")
    streak = sb.number_input("Dealer streak 連莊 n", min_value=0, max_value=30, value=0, key="streak")
    self_drawn = sb.toggle("Self-drawn 自摸", key="self_drawn")
    context = {"ruleset": ruleset_id, "options": options, "seat": seat, "round": rnd, "streak": int(streak), "self_drawn": self_drawn}
    if not self_drawn:
        others = [w for w in WINDS if w != seat]
        context["discarder"] = sb.selectbox("Discarder 放槍", others, format_func=WIND_LABELS.__getitem__, key=f"discarder-{seat}")
    known = [e for e in EVENTS if e in rs.events]
    context["events"] = sb.multiselect("Events 事件", known, key=f"events-{ruleset_id}")
    base = sb.number_input("Base 底", min_value=0, value=rs.stakes.base, step=10, key=f"base-{ruleset_id}")
    point = sb.number_input(f"Per {rs.unit} 每{rs.unit}", min_value=0, value=rs.stakes.point, step=5, key=f"point-{ruleset_id}")
    context["stakes"] = {"base": int(base), "point": int(point)}
    return context, rs.unit


def photo_section() -> None:
    st.subheader("1 · Photo 相片")
    source = st.radio("Photo from", ["Upload", "Camera"], horizontal=True, label_visibility="collapsed", key="source")
    upload = st.file_uploader("Photo of the winning hand", type=["jpg", "jpeg", "png", "webp"], key="upload") if source == "Upload" else st.camera_input("Take a photo", key="camera")
    if upload is None:
        return
    data = upload.getvalue()
    digest = hashlib.sha1(data).hexdigest()
    if st.session_state.get("photo_digest") == digest:
        return
    try:
        img = load(data, upload.name if hasattr(upload, "name") else "photo")
    except ImageError as e:
        st.error(str(e))
        return
    try:
        found = detector().detect(img)
    except ValueError as e:
        st.error(f"The tile detector is not available: {e}")
        return
    st.session_state.photo_digest = digest
    st.session_state.photo = img
    st.session_state.rows = tiles_from_reading(found)


def manual_section() -> None:
    with st.expander("Type the hand instead 手動輸入", expanded="photo" not in st.session_state):
        c1, c2 = st.columns(2)
        concealed = c1.text_input("Concealed tiles, winning tile included 手牌", key="typed_concealed", placeholder="123m456m789p234s678s55p")
        winning = c2.text_input("Winning tile 胡牌", key="typed_winning", placeholder="4m")
        melds = c1.text_input("Melds 副露 (comma separated)", key="typed_melds", placeholder="pon 555p, chi 234s")
        flowers = c2.text_input("Flowers 花", key="typed_flowers", placeholder="15f")
        if st.button("Use these tiles", key="use_typed"):
            try:
                st.session_state.rows = tiles_from_text(concealed, winning, melds, flowers)
                st.session_state.doubts = []
            except TileError as e:
                st.error(f"Typed tiles: {e}")


def correction_section() -> None:
    rows = st.session_state.get("rows")
    if rows is None:
        return
    st.subheader("2 · Check the reading 核對")
    if "photo" in st.session_state:
        st.image(annotated(st.session_state.photo, rows), caption="Boxes coloured by group: green concealed, red winning tile, flowers purple, melds other colours")
    for d in st.session_state.get("doubts", []):
        st.warning(d)
    if rows:
        winning_fix(rows)
        fix_tile(rows)
    with st.expander("All tiles 全部牌 (edit kinds and groups, delete or add rows)"):
        edited = st.data_editor(
            [{"tile": r["tile"], "group": r["group"], "conf": r["conf"]} for r in rows],
            column_config={
                "tile": st.column_config.SelectboxColumn("Tile", options=list(CLASSES), required=True),
                "group": st.column_config.SelectboxColumn("Group", options=GROUPS, required=True),
                "conf": st.column_config.NumberColumn("Confidence", disabled=True, format="%.2f"),
            },
            num_rows="dynamic",
            key="table",
        )
        if st.button("Apply table", key="apply_table"):
            boxes = [r["box"] for r in rows]
            st.session_state.rows = [
                {"tile": e["tile"], "group": e["group"], "conf": e.get("conf") or 1.0, "box": boxes[i] if i < len(boxes) else None}
                for i, e in enumerate(edited)
                if e.get("tile") and e.get("group")
            ]
            st.rerun()


def winning_fix(rows: list[dict]) -> None:
    """One click when the winning tile was not set apart: say which concealed tile won."""
    if any(r["group"] == "winning" for r in rows):
        return
    candidates = sorted({r["tile"] for r in rows if r["group"] == "concealed"}, key=CLASSES.index)
    if not candidates:
        return
    st.caption("Which tile won? 胡哪張")
    cols = st.columns(min(len(candidates), 9))
    for n, c in enumerate(candidates):
        cols[n % len(cols)].button(c, key=f"won_{c}", on_click=_mark_winning, args=(c,))


def _mark_winning(code_: str) -> None:
    rows = st.session_state.rows
    i = next(i for i, r in enumerate(rows) if r["group"] == "concealed" and r["tile"] == code_)
    rows[i] = {**rows[i], "group": "winning"}


def fix_tile(rows: list[dict]) -> None:
    """One tile at a time: the quickest fix with a thumb."""
    c1, c2, c3, c4 = st.columns([3, 2, 2, 1])
    n = c1.selectbox("Tile to fix", range(len(rows)), format_func=lambda i: f"#{i} {rows[i]['tile']} ({rows[i]['group']}, {rows[i]['conf']:.2f})", key="fix_index")
    new_code = c2.selectbox("Is really", list(CLASSES) + ["delete"], index=CLASSES.index(rows[n]["tile"]), key=f"fix_code_{n}")
    new_group = c3.selectbox("In group", GROUPS, index=GROUPS.index(rows[n]["group"]), key=f"fix_group_{n}")
    if c4.button("Apply", key="fix_apply"):
        if new_code == "delete":
            del rows[n]
        else:
            rows[n] = {**rows[n], "tile": new_code, "group": new_group, "conf": 1.0}
        st.session_state.rows = rows
        st.rerun()


def strip(codes: list[str]) -> None:
    images = [str(ASSETS / f"{c}.png") for c in codes if (ASSETS / f"{c}.png").exists()]
    if images:
        st.image(images, width=36)


def result_section(context: dict, unit: str) -> None:
    rows = st.session_state.get("rows")
    if not rows:
        return
    st.subheader("3 · Payout 台數與付款")
    try:
        obj = hand_object([r for r in rows if r["group"] != "ignore"], context)
        result: Score = score(hand_from_json(obj))
    except (HandError, TileError) as e:
        st.error(f"Cannot score this hand: {e}")
        return
    r = result.reading
    tiles = [c for s in r.sets for c in _codes(s.tiles)] + (_codes((r.pair, r.pair)) if r.pair is not None else [])
    strip(tiles + [f"{f}f" for f in result.hand.flowers])
    dealer_involved = any("E" in (p.payer, p.payee) for p in result.payments)
    dealer_items = result.dealer_items if dealer_involved else ()
    note = f" · dealer items +{result.dealer_total} {unit} in payments that involve the dealer 東" if dealer_items else ""
    st.markdown(f"**Total 合計: {result.total} {unit}**{note}")
    st.table(
        [
            {"名稱": i.name + (f"（{i.note}）" if i.note else ""), "Item": i.name_en, unit: i.value, "Replaces 取代": ", ".join(i.replaced)}
            for i in result.items + dealer_items
        ]
    )
    st.table([{"From 付": WIND_LABELS[p.payer], "To 收": WIND_LABELS[p.payee], unit: p.points, "Amount 金額": p.amount} for p in result.payments])
    st.caption(f"Waits 聽: {' '.join(_codes(r.waits)) or '-'} · wait shape: {r.wait or '-'}")
    st.session_state.scored_hand = {k: obj[k] for k in ("concealed", "winning_tile", "melds", "flowers", "events") if obj.get(k)}


def _codes(kinds) -> list[str]:
    return [code(k) for k in kinds]


def ledger_page(store: Store, context: dict) -> None:
    st.caption(f"Ledger database: {store.path}")
    sessions = store.sessions()
    labels = {sid: f"{created[:16]} · {t.get('ruleset', 'taiwan')} · {' '.join(t['players'])}" for sid, created, t in sessions}
    with st.expander("New session 新牌局", expanded=not sessions):
        cols = st.columns(4)
        names = [cols[i].text_input(f"Chair {i + 1} ({WIND_LABELS[w]} first hand)", key=f"player_{i}") for i, w in enumerate(WINDS)]
        if st.button("Start session", key="new_session"):
            try:
                table = {"players": names, "ruleset": context["ruleset"], "options": context["options"], "stakes": context["stakes"]}
                st.session_state.ledger_session = store.create(table)
                st.rerun()
            except HandError as e:
                st.error(str(e))
    if not sessions:
        return
    ids = list(labels)
    current = st.session_state.get("ledger_session", ids[-1])
    sid = st.selectbox("Session 牌局", ids, index=ids.index(current) if current in ids else len(ids) - 1, format_func=labels.get, key="ledger_pick")
    raw, table = store.table(sid)
    record_hand(store, sid, list(table.players))
    try:
        statement = store.statement(sid)
    except HandError as e:
        st.error(str(e))
        return
    st.subheader("Hands 每局")
    st.table([
        {"#": h.number, "type": h.type, "round 圈": h.round, "dealer 莊": f"{h.dealer} 連{h.streak}",
         "payments": "; ".join(f"{p.payer}→{p.payee} {p.amount} ({p.kind})" for p in h.payments) or "-"}
        for h in statement.hands
    ] or [{"#": "-", "type": "no hands yet"}])
    if statement.pending:
        st.subheader("Open 拉 chains 拉莊中")
        st.table([{"from": c["from"], "to": c["to"], "set aside": c["amount"], "口": c["mouths"]} for c in statement.pending])
    st.subheader("Balances 結算")
    st.table([{"player": p, "balance": v} for p, v in statement.balances.items()])
    st.markdown("**Settle with 找數:** " + ("; ".join(f"{a} pays {b} {n}" for a, b, n in statement.transfers) or "nothing to settle"))
    st.download_button("Export CSV", statement_csv(statement), file_name=f"taiscore-{sid}.csv", mime="text/csv", key="export_csv")


def record_hand(store: Store, sid: str, players: list[str]) -> None:
    """Add the hand scored on the first tab, a draw or a false win; undo the last."""
    st.subheader("Record 記錄")
    c1, c2, c3 = st.columns(3)
    winner = c1.selectbox("Winner 胡牌", players, key="ledger_winner")
    discarder = c2.selectbox("Discarder 放槍", ["self-drawn 自摸"] + [p for p in players if p != winner], key=f"ledger_discarder_{winner}")
    points = c3.number_input("Points (if no scored hand)", min_value=0, value=0, key="ledger_points")
    hand = st.session_state.get("scored_hand")
    use_hand = hand is not None and st.checkbox("Use the hand scored on the first tab", value=True, key="ledger_use_hand")
    winner_entry = {"player": winner, **({"hand": hand} if use_hand and hand else {"points": int(points)})}
    record = {"type": "win", "winners": [winner_entry], "discarder": None if discarder.startswith("self") else discarder}
    b1, b2, b3, b4 = st.columns(4)
    nonce = st.session_state.setdefault("ledger_nonce", uuid.uuid4().hex)
    b1.button("Add win 加胡", key="add_win", on_click=_ledger_write, args=(sid, "add", record, nonce))
    b2.button("Draw 流局", key="add_draw", on_click=_ledger_write, args=(sid, "add", {"type": "draw"}, nonce))
    b3.button(f"False win 詐胡 ({winner})", key="false_win", on_click=_ledger_write, args=(sid, "add", {"type": "false_win", "offender": winner}, nonce))
    b4.button("Undo last 撤銷", key="undo_last", on_click=_ledger_write, args=(sid, "undo", None, nonce))
    if st.session_state.get("ledger_error"):
        st.error(st.session_state.pop("ledger_error"))


def _ledger_write(sid: str, action: str, record: dict | None, nonce: str) -> None:
    """A button's callback. The nonce belongs to the page as drawn: a double click (or a
    repeated event) on the same page writes once."""
    if st.session_state.get("ledger_nonce") != nonce:
        return
    st.session_state.ledger_nonce = uuid.uuid4().hex
    store = Store()
    try:
        store.add(sid, record) if action == "add" else store.undo(sid)
    except HandError as e:
        st.session_state.ledger_error = str(e)
    finally:
        store.close()


def main() -> None:
    st.title("taiscore 台灣麻將算台")
    context, unit = sidebar_context()
    score_tab, ledger_tab = st.tabs(["Score 算台", "Ledger 帳本"])
    with score_tab:
        photo_section()
        manual_section()
        correction_section()
        result_section(context, unit)
    with ledger_tab:
        store = Store()  # SQLite under the user's data directory, or $TAISCORE_DB (a path or a PostgreSQL URL)
        try:
            ledger_page(store, context)
        finally:
            store.close()


main()

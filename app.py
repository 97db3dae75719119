"""taiscore: photograph a winning hand, check the reading, get the itemised payout.

Page code only: the reading is mended through vision.correction, drawn by vision.overlay,
put together by scoring.building and scored by scoring.scorer; the ledger page shows
ledger.summary; the My tiles page teaches, shows and chooses the player's own tile sets
through vision.tileset, and a correction of a tile's kind teaches the active set too.
Run with `streamlit run app.py`; importing it draws nothing.
"""

from __future__ import annotations

import hashlib
import uuid
from functools import partial

import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from ledger.replay import Statement, replay
from ledger.report import statement_csv
from ledger.session import Table
from ledger.store import Store
from ledger.summary import NONE, SELF_DRAWN, booked, hand_rows, next_seats
from scoring import ruleset as rulesets
from scoring.building import GROUPS, WINNING, from_notation, group_label
from scoring.display import hand_summary, option_label, replaced_names
from scoring.hand import EVENTS, HandError, hand_from_json
from scoring.scorer import Score, score
from scoring.tiles import WINDS, code
from vision import overlay, tileset
from vision.correction import Correction, Seen
from vision.detector import DEFAULT_MODEL, Detector
from vision.image import LIMITS, ImageError, load

WIND_LABELS = {"E": "東 E", "S": "南 S", "W": "西 W", "N": "北 N"}
PAGES = ("Score 算台", "Ledger 帳本", "My tiles 我的牌")
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
ADD = "add"  # what is selected while the player picks a missed tile


@st.cache_resource
def detector() -> Detector:
    """Loaded once per server (the detector, the face reader and the flower reader): the models are the slow part of a cold start."""
    return Detector(DEFAULT_MODEL)


def sidebar_context() -> tuple[dict, rulesets.Ruleset]:
    """Rule set, house options, round and stakes: what stays the same hand after hand."""
    sb = st.sidebar
    sb.header("Table 牌桌")
    names = rulesets.names()
    ruleset_id = sb.selectbox("Rule set 規則", names, index=names.index("taiwan"), key="ruleset")
    rs = rulesets.load(ruleset_id)
    options = {}
    for opt in rs.options.values():
        key, label = f"opt-{ruleset_id}-{opt.name}", option_label(opt)
        if opt.type == "bool":
            options[opt.name] = sb.checkbox(label, value=opt.default, help=opt.doc, key=key)
        elif opt.type == "int":
            options[opt.name] = int(sb.number_input(label, min_value=opt.min, max_value=opt.max, value=opt.default, step=1, help=opt.doc, key=key))
        else:
            choices = list(opt.choices)
            options[opt.name] = sb.selectbox(label, choices, index=choices.index(opt.default), help=opt.doc, key=key)
    rnd = sb.selectbox("Prevailing wind 圈風", list(WINDS), format_func=WIND_LABELS.__getitem__, key="round")
    streak = sb.number_input("Dealer streak 連莊 n", min_value=0, max_value=30, value=0, key="streak")
    known = [e for e in EVENTS if e in rs.events]
    events = sb.multiselect("Events 事件", known, key=f"events-{ruleset_id}")
    base = sb.number_input("Base 底", min_value=0, value=rs.stakes.base, step=10, key=f"base-{ruleset_id}")
    point = sb.number_input(f"Per {rs.unit} 每{rs.unit}", min_value=0, value=rs.stakes.point, step=5, key=f"point-{ruleset_id}")
    context = {"ruleset": ruleset_id, "options": options, "round": rnd, "streak": int(streak), "events": events,
               "stakes": {"base": int(base), "point": int(point)}}
    return context, rs


def photo_section() -> None:
    st.subheader("1 · Photo 相片")
    source = st.radio("Photo from", ["Upload", "Camera"], horizontal=True, label_visibility="collapsed", key="source",
                      on_change=_new_uploader)  # the other drawn anew
    generation = st.session_state.setdefault("upload_generation", 0)  # a typed hand, another page or source: a new uploader
    if source == "Upload":
        key = f"upload-{generation}"
        upload = st.file_uploader(f"Photo of the winning hand (JPEG, PNG, WebP, HEIC; {LIMITS})", type=PHOTO_TYPES, key=key,
                                  on_change=_photo_changed, args=(key,))
    else:
        key = f"camera-{generation}"
        upload = st.camera_input("Take a photo", key=key, on_change=_photo_changed, args=(key,))
    if upload is None:
        return
    data = upload.getvalue()
    digest = hashlib.sha1(data).hexdigest()
    if st.session_state.get("photo_digest") == digest:
        st.session_state.photo_key = key  # the same photo, in this uploader now
        return
    try:
        img = load(data, upload.name)
    except ImageError as e:
        _forget_photo()  # the last photo's reading must not stand under this file's name
        st.error(str(e))
        return
    try:
        found = _reader().detect(img)
    except ValueError as e:
        _forget_photo()
        st.error(f"The tile detector is not available: {e}")
        return
    st.session_state.photo_digest = digest
    st.session_state.photo_key = key
    st.session_state.photo = img
    st.session_state.correction = Correction.of_photo(found)
    st.session_state.selected = None
    st.session_state.pop("taught", None)  # an undo belongs to the photo it was made on


def _photo_changed(key: str) -> None:
    """The player took the photo away from the uploader it was read from. An uploader
    drawn anew (after another page or source) reports itself empty, sometimes as a change
    of the last one's value, so each is drawn under a new key (`_new_uploader`) and only
    the photo's own uploader can take its reading away."""
    s = st.session_state
    if s.get(key) is None and s.get("photo_key") == key:
        _forget_photo()


def _new_uploader() -> None:
    s = st.session_state
    s.upload_generation = s.get("upload_generation", 0) + 1


def _forget_photo() -> None:
    """The photo's reading gone, and what was scored from it: nothing stays on the page,
    or in the ledger's hand to add, that the page no longer shows."""
    s = st.session_state
    if "photo" not in s:
        return
    for key in ("photo", "photo_digest", "photo_key", "correction", "selected", "taught", "scored_hand"):
        s.pop(key, None)


def _reader():
    """The detector, reading with the active tile set if there is one; a set that cannot
    be used is named, and the photo read without it."""
    s = st.session_state
    s.read_with = None
    try:
        reader = detector().with_tileset(tileset.active_profile())
    except tileset.ProfileError as e:
        st.warning(f"Read without your tile set 未用我的牌: {e}")
        return detector()
    s.read_with = None if reader.tileset is None else reader.tileset.name
    return reader


def manual_section() -> None:
    with st.expander("Type the hand instead 手動輸入", expanded="correction" not in st.session_state):
        c1, c2 = st.columns(2)
        c1.text_input("Concealed tiles, winning tile included 手牌", key="typed_concealed", placeholder="123m456m789p234s678s55p")
        c2.text_input("Winning tile 胡牌", key="typed_winning", placeholder="4m")
        c1.text_input("Melds 副露 (comma separated)", key="typed_melds", placeholder="pon 555p, chi 234s")
        c2.text_input("Flowers 花", key="typed_flowers", placeholder="15f")
        st.button("Use these tiles", key="use_typed", on_click=_use_typed)
        if st.session_state.get("typed_error"):
            st.error(st.session_state.pop("typed_error"))


def _use_typed() -> None:
    s = st.session_state
    try:
        placed = from_notation(s.typed_concealed, s.typed_winning, s.typed_melds, s.typed_flowers)
    except HandError as e:
        s.typed_error = f"Typed tiles: {e}"
        return
    s.correction = Correction.of_placed(placed)
    s.selected = None
    for key in ("photo", "photo_digest", "photo_key"):  # the typed hand replaces the photo's reading, and the photo with it
        s.pop(key, None)
    _new_uploader()


def correction_section() -> None:
    corr: Correction | None = st.session_state.get("correction")
    if corr is None:
        return
    st.subheader("2 · Check the reading 核對")
    selected = st.session_state.get("selected")
    st.caption("Tap a tile to fix it 點一張牌修改 · boxes by group: green 手牌 concealed, red 胡牌 winning, "
               "purple 花 flowers, grey 不算 not this hand, other colours 副露 melds · dashed with ? : low confidence")
    if "photo" in st.session_state:
        if st.session_state.get("read_with"):
            st.caption(f"Read with your tile set {st.session_state.read_with} 使用我的牌組 (chosen on My tiles)")
        if not corr.tiles:
            st.warning("No tile found in this photo 相片中未見牌: photograph the hand from above and closer, or type it below")
        view = overlay.photo(st.session_state.photo, corr, selected if isinstance(selected, int) else None)
        _tappable(view, "tap_photo", _select)
    strip, _ = st.columns([3, 2])  # full width on a phone, where the columns stack
    with strip:
        _tappable(overlay.hand(corr, selected if isinstance(selected, int) else None), "tap_hand", _select)
    st.button("Add a missed tile 補一張", key="add_tile", on_click=_set_selected, args=(ADD,))
    taught_line()  # above the kinds picker: in sight of the tap that taught the set
    fixer(corr, selected)
    for d in corr.doubts:
        st.warning(d)
    winning_fix(corr)


def _tappable(view: overlay.View, key: str, on_tap) -> None:
    """A picture that reports a tap; the tap means what lies under it in this very picture."""
    streamlit_image_coordinates(view.image, key=key, use_column_width="always", image_format="JPEG", jpeg_quality=88,
                                on_click=partial(_tapped, view, key, on_tap), cursor="pointer")


def _tapped(view: overlay.View, key: str, on_tap) -> None:
    tap = st.session_state.get(key)
    hit = view.at(tap["x"], tap["y"], tap["width"]) if tap else None
    if hit is not None:
        on_tap(hit)


def _add(kind: str) -> None:
    _edit("add", kind)
    st.session_state.selected = None


def _select(tile_id: int) -> None:
    st.session_state.selected = tile_id


def _set_selected(value) -> None:
    st.session_state.selected = value


def _edit(method: str, *args) -> None:
    """Apply one edit to the correction; the tile stays selected unless it is gone."""
    s = st.session_state
    s.correction = getattr(s.correction, method)(*args)
    if s.correction.tile(s.get("selected")) is None:
        s.selected = None


def winning_fix(corr: Correction) -> None:
    """One tap when the winning tile was not set apart: say which standing tile won."""
    choices = corr.winning_choices()
    if not choices:
        return
    st.caption("Which tile won? 胡哪張")
    cols = st.columns(min(len(choices), 9))
    for n, (c, tile_id) in enumerate(choices.items()):
        cols[n % len(cols)].button(c, key=f"won_{c}", on_click=_edit, args=("set_group", tile_id, WINNING))


def fixer(corr: Correction, selected) -> None:
    """The second tap: the tile's kind from the grid, its group, or delete; or the missed tile's kind."""
    if selected == ADD:
        st.markdown("**Pick the missed tile 補哪張** (rows: 萬 筒 條 字 花)")
        grid, rest = st.columns([3, 2])
        with grid:
            _tappable(overlay.picker(), "pick_add", _add)
        rest.button("Cancel 取消", key="cancel_add", on_click=_set_selected, args=(None,))
        return
    t = corr.tile(selected) if isinstance(selected, int) else None
    if t is None:
        return
    st.markdown(f"**Tile #{t.id}: {t.code}** · {group_label(t.group)} · confidence {t.conf:.2f} — tap its kind (rows: 萬 筒 條 字 花), its group, or delete")
    grid, rest = st.columns([3, 2])
    with grid:
        _tappable(overlay.picker(), f"pick_{t.id}", partial(_set_kind, t.id))
    groups = list(GROUPS) + sorted({x.group for x in corr.tiles} - set(GROUPS))
    key = f"group_{t.id}_{t.group}"
    rest.pills("Group 組", groups, format_func=group_label, default=t.group, required=True, wrap=True, key=key,
               on_change=_group_picked, args=(t.id, key))
    rest.button(f"Delete #{t.id} 刪除", key="delete_tile", on_click=_edit, args=("delete", t.id))
    rest.button("Done 完成", key="deselect", on_click=_set_selected, args=(None,))


def _set_kind(tile_id: int, kind: str) -> None:
    """The player's word for a tile's kind; a new kind teaches the active set that tile's crop."""
    before = st.session_state.correction.tile(tile_id)
    _edit("set_kind", tile_id, kind)
    if before is not None and before.code != kind:
        _teach(before, kind)


def _teach(tile: Seen, kind: str) -> None:
    s = st.session_state
    name = tileset.active()
    if name is None or tile.box is None or "photo" not in s or kind not in tileset.FACES:  # no set, no crop, or a face-down tile
        return
    try:
        s.taught = tileset.correct(name, detector(), s.photo, tile.box, kind, tile.id, s.get("taught"))
    except tileset.ProfileError as e:  # nothing stored: the last example taught, and its undo, stand
        s.taught_error = f"Not added to My tiles 未加入我的牌: {e}"


def taught_line() -> None:
    """What the last correction taught the active set, with its undo."""
    s = st.session_state
    if s.get("taught_error"):
        st.error(s.pop("taught_error"))
    taught: tileset.Taught | None = s.get("taught")
    if taught is None:
        return
    line, undo = st.columns([4, 1])
    line.success(f"Added to My tiles 已加入我的牌 · {taught.name}: {tileset.kind_label(taught.kind)}")
    undo.button("Undo 撤銷", key="undo_taught", on_click=_undo_taught)


def _undo_taught() -> None:
    s = st.session_state
    taught = s.pop("taught", None)
    if taught is not None and not tileset.undo(taught):
        s.taught_error = f"Nothing undone 未撤銷: the set {taught.name} has changed since that example was added"


def _group_picked(tile_id: int, key: str) -> None:
    group = st.session_state.get(key)
    if group:
        _edit("set_group", tile_id, group)


def result_section(context: dict, rs: rulesets.Ruleset) -> None:
    corr: Correction | None = st.session_state.get("correction")
    if corr is None or not corr.tiles:
        st.session_state.pop("scored_hand", None)  # no payout shown, no hand for the ledger
        return
    st.subheader("3 · Payout 台數與付款")
    seats, payout = st.columns([1, 2])
    with seats:  # first on a phone, where the columns stack
        seat = st.selectbox("Winner's seat 座位 (dealer = 東)", list(WINDS), format_func=WIND_LABELS.__getitem__, key="seat")
        self_drawn = st.toggle("Self-drawn 自摸", key="self_drawn")
        discarder = None
        if not self_drawn:
            others = [w for w in WINDS if w != seat]
            discarder = st.selectbox("Discarder 放槍", others, format_func=WIND_LABELS.__getitem__, key=f"discarder-{seat}")
    seating = {"seat": seat, "self_drawn": self_drawn, **({"discarder": discarder} if discarder else {})}
    with payout:
        try:
            tiles = corr.hand()
            result: Score = score(hand_from_json({**context, **seating, **tiles}))
        except HandError as e:
            st.session_state.pop("scored_hand", None)
            st.error(f"Cannot score this hand: {e}")
            return
        hand = {k: v for k, v in {**tiles, "events": context["events"]}.items() if v}
        if st.session_state.get("booked") is corr:  # this reading is in the ledger: offered again, the next seat would win it
            st.session_state.pop("scored_hand", None)
            st.info("In the ledger 已記入帳本: a new photo or typed hand is the next one to add")
        else:  # kept before the tables are drawn: a tap on Ledger as the payout appears stops this run
            st.session_state.scored_hand = {"hand": {**hand, **seating}, "total": result.total, "summary": hand_summary(tiles)}
        payout_tables(result, rs)


def payout_tables(result: Score, rs: rulesets.Ruleset) -> None:
    unit = rs.unit
    st.markdown(f"**Hand 牌型: {result.total} {unit}**")
    st.table([{"名稱": i.name + (f"（{i.note}）" if i.note else ""), "Item": i.name_en, unit: i.value, "Replaces 取代": replaced_names(rs, i)}
              for i in result.items])
    dealer_paid = any("E" in (p.payer, p.payee) for p in result.payments)
    if result.dealer_items and dealer_paid:
        st.markdown(f"**Dealer 莊家: +{result.dealer_total} {unit}**, added only in payments the dealer 東 makes or receives")
        st.table([{"名稱": i.name, "Item": i.name_en, unit: i.value, "Replaces 取代": replaced_names(rs, i)} for i in result.dealer_items])
    st.markdown("**Payments 付款**")
    st.table([{"From 付": WIND_LABELS[p.payer], "To 收": WIND_LABELS[p.payee], unit: p.points, "Amount 金額": p.amount}
              for p in result.payments])
    r = result.reading
    st.caption(f"Waits 聽: {' '.join(code(k) for k in r.waits) or '-'} · wait shape: {r.wait or '-'}")


def ledger_page(store: Store, context: dict, unit: str) -> None:
    st.caption(f"Ledger database: {store.path}")
    sessions = store.sessions()
    with st.expander("New session 新牌局", expanded=not sessions):
        cols = st.columns(4)
        for i, w in enumerate(WINDS):
            cols[i].text_input(f"Chair {i + 1} ({WIND_LABELS[w]} first hand)", key=f"player_{i}")
        st.button("Start session", key="new_session", on_click=_start_session, args=(context,))
    if st.session_state.get("ledger_error"):
        st.error(st.session_state.pop("ledger_error"))
    if not sessions:
        return
    labels = {sid: f"{created[:16]} · {t.get('ruleset', 'taiwan')} · {' '.join(t['players'])}" for sid, created, t in sessions}
    ids = list(labels)
    if st.session_state.get("ledger_pick") not in ids:
        st.session_state.ledger_pick = ids[-1]
    sid = st.selectbox("Session 牌局", ids, format_func=labels.get, key="ledger_pick")
    _, table = store.table(sid)
    records = [e.record for e in store.entries(sid)]
    try:
        statement = replay(table, records)  # once: the seats, the hands and the balances all come from it
    except HandError as e:  # no hand can follow a night that does not replay
        st.error(f"No hand can be added: {e}")
        st.error(str(e))
        return
    try:
        seats = next_seats(table, statement)
    except HandError as e:
        st.error(f"No hand can be added: {e}")
    else:
        record_hand(sid, table, statement, seats)
    st.subheader("Hands 每局")
    st.table(hand_rows(statement, records, unit) or [{"Hand 局": NONE, "Type 類": "no hands yet"}])
    if statement.pending:
        st.subheader("Open 拉 chains 拉莊中")
        st.table([{"from": c["from"], "to": c["to"], "set aside": c["amount"], "口": c["mouths"]} for c in statement.pending])
    st.subheader("Balances 結算")
    st.table([{"player": p, "balance": v} for p, v in statement.balances.items()])
    st.markdown("**Settle with 找數:** " + ("; ".join(f"{a} pays {b} {n}" for a, b, n in statement.transfers) or "nothing to settle"))
    st.download_button("Export CSV", statement_csv(statement).encode("utf-8-sig"), file_name=f"taiscore-{sid}.csv", mime="text/csv",
                       key="export_csv")  # with a BOM: Excel then reads 阿明 as UTF-8


def _start_session(context: dict) -> None:
    s = st.session_state
    table = {"players": [s.get(f"player_{i}", "") for i in range(4)], "ruleset": context["ruleset"], "options": context["options"],
             "stakes": context["stakes"]}
    store = Store()
    try:
        s.ledger_pick = store.create(table)  # the picker follows the new session
    except HandError as e:
        s.ledger_error = str(e)
    finally:
        store.close()


def record_hand(sid: str, table: Table, statement: Statement, seats: dict[str, str]) -> None:
    """Add the hand scored on the Score page (its seat, discarder and self-drawn as scored), a draw or a false win; undo the last.
    What a win books is shown before it is added: the night's dealer streak is the ledger's, not the sidebar's."""
    st.subheader("Record 記錄")
    players = list(table.players)
    player_at = {w: p for p, w in seats.items()}
    scored = st.session_state.get("scored_hand")
    use_hand = scored is not None and st.checkbox("Add the hand scored on the Score page", value=True, key="ledger_use_hand")
    winner_at, discarder_at = (scored["hand"]["seat"], scored["hand"].get("discarder")) if use_hand else ("E", None)
    if use_hand:
        how = "self-drawn 自摸" if scored["hand"]["self_drawn"] else f"on {player_at[discarder_at]}'s discard ({WIND_LABELS[discarder_at]})"
        st.info(f"Hand to add 將加入: {scored['summary']} — {player_at[winner_at]} ({WIND_LABELS[winner_at]}) wins {how}, {scored['total']} 台")
    c1, c2, c3 = st.columns(3)
    seen = f"{sid}-{player_at[winner_at]}-{player_at.get(discarder_at)}"  # a newly scored hand, or the deal passing on, sets the defaults again
    winner = c1.selectbox("Winner 胡牌", players, index=players.index(player_at[winner_at]), key=f"ledger_winner-{seen}")
    choices = [SELF_DRAWN] + [p for p in players if p != winner]
    default = player_at.get(discarder_at, SELF_DRAWN)
    discarder = c2.selectbox("Discarder 放槍", choices, index=choices.index(default) if default in choices else 0,
                             key=f"ledger_discarder-{seen}-{winner}")
    points = 0 if use_hand else c3.number_input("Points 台 (no scored hand)", min_value=0, value=0, key="ledger_points")
    winner_entry = {"player": winner, **({"hand": scored["hand"]} if use_hand else {"points": int(points)})}
    record = {"type": "win", "winners": [winner_entry], "discarder": None if discarder == SELF_DRAWN else discarder}
    try:
        st.caption(f"Add win books 加胡記入: {booked(table, statement, record)}")
        addable = True
    except HandError as e:
        st.caption(f"This win cannot be added: {e}")
        addable = False
    b1, b2, b3, b4 = st.columns(4)
    nonce = st.session_state.setdefault("ledger_nonce", uuid.uuid4().hex)
    b1.button("Add win 加胡", key="add_win", on_click=_ledger_write, args=(sid, "add", record, nonce), disabled=not addable)
    b2.button("Draw 流局", key="add_draw", on_click=_ledger_write, args=(sid, "add", {"type": "draw"}, nonce))
    b3.button(f"False win 詐胡 ({winner})", key="false_win", on_click=_ledger_write, args=(sid, "add", {"type": "false_win", "offender": winner}, nonce))
    b4.button("Undo last 撤銷", key="undo_last", on_click=_ledger_write, args=(sid, "undo", None, nonce))


def _ledger_write(sid: str, action: str, record: dict | None, nonce: str) -> None:
    """A button's callback. The nonce belongs to the page as drawn: a double click (or a
    repeated event) on the same page writes once."""
    if st.session_state.get("ledger_nonce") != nonce:
        return
    st.session_state.ledger_nonce = uuid.uuid4().hex
    store = Store()
    try:
        if action == "add":
            store.add(sid, record)
            if any("hand" in w for w in record.get("winners", [])):  # booked once: the next seats must not win it again
                st.session_state.pop("scored_hand", None)
                st.session_state.booked = st.session_state.get("correction")
        else:
            store.undo(sid)
    except HandError as e:
        st.session_state.ledger_error = str(e)
    finally:
        store.close()


def my_tiles_page() -> None:
    """Teach the reader the player's own set from a photo of the standard sheet, see what
    it learnt, choose the set photos are read with."""
    st.caption(f"Tile sets 牌組: {tileset.folder()}")
    st.subheader("Teach a set 教我的牌")
    st.caption("Lay out the 42 kinds in five rows (萬, 筒, 條, 東南西北白發中, 春夏秋冬梅蘭菊竹) and photograph them from above; "
               "a set without flowers 沒有花牌: the first four rows")
    generation = st.session_state.setdefault("sheet_generation", 0)  # a set learnt empties the uploader
    source = st.radio("Sheet from", ["Upload", "Camera"], horizontal=True, label_visibility="collapsed", key="sheet_source")
    if source == "Upload":
        st.file_uploader(f"Photo of the sheet 相片 ({LIMITS})", type=PHOTO_TYPES, key=f"sheet_upload-{generation}")
    else:
        st.camera_input("Take a photo of the sheet 拍照", key=f"sheet_camera-{generation}")
    s = st.session_state
    if "sheet_no_flowers" not in s:  # a visit: the form as the set named lays out its sheet
        s.setdefault("set_name", "home")
        s.sheet_no_flowers, s.sheet_tiles = False, tileset.SHEET
        _sheet_of_set()
    st.checkbox("A set without flowers: four rows 沒有花牌 (四行)", key="sheet_no_flowers", on_change=_sheet_rows,
                help="a set of 136 tiles, no 春夏秋冬梅蘭菊竹: the set learnt is told so, and no tile is read as a flower 不讀作花牌")
    c1, c2 = st.columns([3, 1])  # their values set in session state, not as the widgets' own: the box and the name change them
    c1.text_input("Tiles in the photo 牌 (rows top to bottom, each left to right)", key="sheet_tiles")
    c2.text_input("Set name 牌組名", key="set_name", on_change=_sheet_of_set)
    st.button("Learn 學習", key="learn_sheet", on_click=_learn_sheet)
    if s.get("learn_error"):
        st.error(s.pop("learn_error"))
    if s.get("learn_note"):
        st.success(s.pop("learn_note"))
    sets_section()


def _sheet_of_set() -> None:
    """A stored set named: the box and the sheet's tiles as that set lays them out, with
    its flowers or without; another name leaves them as they are."""
    s = st.session_state
    name = s.set_name.strip()
    try:
        flowers = tileset.load(name).flowers if name in tileset.names() else None
    except tileset.ProfileError:  # named on its entry below
        return
    if flowers is not None:
        s.sheet_no_flowers = not flowers
        _sheet_rows()


def _sheet_rows() -> None:
    """The sheet's tiles as a set with or without flowers lays them out."""
    s = st.session_state
    s.sheet_tiles = tileset.SHEET_WITHOUT_FLOWERS if s.sheet_no_flowers else tileset.SHEET


def _learn_sheet() -> None:
    """Everything checked before anything is stored: a photo that shows another number
    of tiles than named stores nothing."""
    s = st.session_state
    key = "sheet_upload" if s.sheet_source == "Upload" else "sheet_camera"
    upload = s.get(f"{key}-{s.sheet_generation}")
    if upload is None:
        s.learn_error = "Nothing learnt 未學習: take or upload a photo of the sheet first"
        return
    name = s.set_name.strip()
    try:
        img = load(upload.getvalue(), upload.name)
        tileset.kinds_of(s.sheet_tiles)
        stored = tileset.load(name) if name in tileset.names() else tileset.empty(name)
        if s.sheet_no_flowers:
            stored = stored.with_flowers(False)
        learnt = tileset.learn(detector(), stored, [(upload.name, img, s.sheet_tiles)])
    except ValueError as e:  # a photo, a TILES string, a name or a count refused: each says why
        s.learn_error = f"Nothing learnt 未學習: {e}"
        return
    learnt.save()
    s.learn_note = f"Learnt 學會 {name}: {len(learnt.counts())} of {len(learnt.faces)} kinds, {len(learnt.kinds)} examples"
    s.shown_set = name
    s.sheet_generation += 1


def sets_section() -> None:
    """The sets stored: which one photos are read with, and each one's examples and doubts."""
    stored = tileset.names()
    st.subheader("Your sets 我的牌組")
    if not stored:
        st.caption("No set yet 尚無牌組")
        return
    current = tileset.active()
    choices = [None, *stored]
    key = f"active_set-{current}-{'-'.join(stored)}"  # drawn again when a set comes, goes or is chosen elsewhere
    st.radio("Read photos with 讀牌使用", choices, index=choices.index(current), format_func=lambda n: "none 不用" if n is None else n,
             horizontal=True, key=key, on_change=_choose_set, args=(key,))
    for name in stored:
        label = f"{name} · active 使用中" if name == current else name
        with st.expander(label, expanded=name == st.session_state.get("shown_set")):
            set_view(name)


def set_view(name: str) -> None:
    try:
        profile = tileset.load(name)
    except tileset.ProfileError as e:
        st.error(str(e))
    else:
        st.markdown(f"**{name}: {len(profile.counts())} of {len(profile.faces)} kinds 種, {len(profile.kinds)} examples 張**")
        shown = bool(profile.shown_flowers)
        key = f"no_flowers-{name}-{profile.flowers}-{shown}"  # drawn again when the file says otherwise
        st.checkbox("No flowers 沒有花牌", value=not profile.flowers, key=key, disabled=shown,
                    help="it was shown flowers 已學花牌" if shown else "a set of 136 tiles: then no tile is read as a flower 不讀作花牌",
                    on_change=_tell_flowers, args=(name, key))
        for d in profile.doubts():
            st.warning(f"Doubt 疑問: {d}")
        if profile.kinds:
            picture = profile.picture(per_kind=min(max(profile.counts().values()), 3))
            st.image(picture, caption="萬 筒 條 字 花 in the sheet's order; each kind's first examples side by side, blank where none",
                     width="content")  # its own width, narrowed to a phone's
    if st.session_state.get("deleting_set") != name:
        st.button(f"Delete {name} 刪除", key=f"delete_set-{name}", on_click=_ask_delete, args=(name,))
        return
    st.warning(f"Delete {name} and every example it learnt? This cannot be undone 刪除後無法復原")
    sure, keep = st.columns(2)
    sure.button(f"Delete {name} for good 確定刪除", key=f"confirm_delete-{name}", on_click=_delete_set, args=(name,))
    keep.button("Keep it 保留", key=f"keep_set-{name}", on_click=_ask_delete, args=(None,))


def _ask_delete(name: str | None) -> None:
    """A set holds a player's teaching: deleting it takes a second, deliberate tap."""
    st.session_state.deleting_set = name


def _choose_set(key: str) -> None:
    try:
        tileset.choose(st.session_state[key])
    except tileset.ProfileError as e:  # deleted meanwhile, on another device
        st.session_state.learn_error = str(e)


def _tell_flowers(name: str, key: str) -> None:
    try:
        tileset.tell_flowers(name, not st.session_state[key])
    except tileset.ProfileError as e:  # shown flowers or deleted meanwhile, on another device
        st.session_state.learn_error = str(e)


def _delete_set(name: str) -> None:
    st.session_state.deleting_set = None
    try:
        tileset.delete(name)
    except tileset.ProfileError as e:
        st.session_state.learn_error = str(e)


def main() -> None:
    st.set_page_config(page_title="taiscore 台數", page_icon="🀄", layout="wide")
    st.title("taiscore 台灣麻將算台")
    context, rs = sidebar_context()
    # kept across reruns: a button never jumps pages
    page = st.radio("Page", PAGES, horizontal=True, label_visibility="collapsed", key="page", on_change=_new_uploader)
    if page == PAGES[0]:
        photo_section()
        manual_section()
        correction_section()
        result_section(context, rs)
        return
    if page == PAGES[2]:
        my_tiles_page()
        return
    store = Store()  # SQLite under the user's data directory, or $TAISCORE_DB (a path or a PostgreSQL URL)
    try:
        ledger_page(store, context, rs.unit)
    finally:
        store.close()


if __name__ == "__main__":
    main()

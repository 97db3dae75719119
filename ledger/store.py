"""Append-only session store on SQLite: a correction is a new event, nothing is deleted.

Every write is one transaction, and an event is only written once the session
still replays with it, so the store never holds a night that cannot be audited.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .replay import Statement, replay
from .session import HandRecord, SessionError, Table, hand_from_record, table_from_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    table_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL CHECK (kind IN ('hand', 'undo', 'amend')),
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_session ON events(session_id, id);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
"""


def default_path() -> Path:
    """TAISCORE_DB, else the user's data directory (XDG)."""
    if os.environ.get("TAISCORE_DB"):
        return Path(os.environ["TAISCORE_DB"])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "taiscore" / "ledger.sqlite3"


@dataclass(frozen=True)
class Entry:
    """A hand as it stands after undo and amend events: its event id and record."""

    event: int
    raw: dict
    record: HandRecord


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: Path | None = None):
        self.path = Path(path or default_path())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, table_obj: dict) -> str:
        table_from_json(table_obj)
        sid = uuid.uuid4().hex[:12]
        with self._tx():
            self.db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (sid, _now(), json.dumps(table_obj, ensure_ascii=False)))
        return sid

    def sessions(self) -> list[tuple[str, str, dict]]:
        rows = self.db.execute("SELECT id, created_at, table_json FROM sessions ORDER BY created_at, id").fetchall()
        return [(i, c, json.loads(t)) for i, c, t in rows]

    def table(self, sid: str) -> tuple[dict, Table]:
        row = self.db.execute("SELECT table_json FROM sessions WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise SessionError(f"no session {sid!r} in {self.path}")
        raw = json.loads(row[0])
        return raw, table_from_json(raw)

    def entries(self, sid: str) -> list[Entry]:
        """Replay the event log into the hands as they now stand."""
        _, table = self.table(sid)
        hands: dict[int, dict] = {}
        for eid, kind, payload in self.db.execute("SELECT id, kind, payload FROM events WHERE session_id = ? ORDER BY id", (sid,)):
            data = json.loads(payload)
            if kind == "hand":
                hands[eid] = data
            elif kind == "undo":
                hands.pop(data["event"], None)
            else:
                hands[data["event"]] = data["hand"]
        return [Entry(eid, raw, hand_from_record(raw, table)) for eid, raw in hands.items()]

    def statement(self, sid: str) -> Statement:
        _, table = self.table(sid)
        return replay(table, [e.record for e in self.entries(sid)])

    def add(self, sid: str, hand: dict) -> int:
        return self._append(sid, "hand", hand, [e.raw for e in self.entries(sid)] + [hand])

    def undo(self, sid: str, event: int | None = None) -> int:
        entries = self.entries(sid)
        if not entries:
            raise SessionError("nothing to undo: the session has no hands")
        target = event if event is not None else entries[-1].event
        if target not in {e.event for e in entries}:
            raise SessionError(f"event {target} is not a hand that stands in session {sid}")
        return self._append(sid, "undo", {"event": target}, [e.raw for e in entries if e.event != target])

    def amend(self, sid: str, event: int, hand: dict) -> int:
        entries = self.entries(sid)
        if event not in {e.event for e in entries}:
            raise SessionError(f"event {event} is not a hand that stands in session {sid}")
        return self._append(sid, "amend", {"event": event, "hand": hand}, [hand if e.event == event else e.raw for e in entries])

    def _append(self, sid: str, kind: str, payload: dict, standing: list[dict]) -> int:
        """Write one event, once the hands standing after it still replay."""
        _, table = self.table(sid)
        replay(table, [hand_from_record(r, table) for r in standing])
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO events (session_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (sid, kind, json.dumps(payload, ensure_ascii=False), _now()),
            )
        return int(cur.lastrowid)

    def _tx(self):
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, *_: Any) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")

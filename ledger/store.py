"""Append-only session store on SQLite: a correction is a new event, nothing is deleted.

Every write is one transaction, and an event is only written once the session
still replays with it, so the store never holds a night that cannot be audited.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .replay import Statement, replay
from .session import HandRecord, SessionError, Table, hand_from_record, table_from_json

SQLITE_SCHEMA = """
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

POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    table_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL CHECK (kind IN ('hand', 'undo', 'amend')),
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_session ON events(session_id, id);
CREATE OR REPLACE FUNCTION taiscore_append_only() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'the ledger is append-only'; END $$ LANGUAGE plpgsql;
CREATE OR REPLACE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
FOR EACH ROW EXECUTE FUNCTION taiscore_append_only();
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


def is_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


class Store:
    """The ledger database: a SQLite file, or PostgreSQL given a database URL."""

    def __init__(self, target: str | Path | None = None):
        target = target or default_path()
        self.postgres = is_url(target)
        if self.postgres:
            import psycopg

            self.db = psycopg.connect(str(target), autocommit=True)
            self.db.execute(POSTGRES_SCHEMA)
            self.path = str(target)
        else:
            self.path = Path(target)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SQLITE_SCHEMA)

    def _q(self, sql: str, args: tuple = ()) -> list[tuple]:
        cur = self.db.execute(sql.replace("?", "%s") if self.postgres else sql, args)
        return cur.fetchall() if cur.description else []

    def close(self) -> None:
        self.db.close()

    def create(self, table_obj: dict) -> str:
        table_from_json(table_obj)
        sid = uuid.uuid4().hex[:12]
        with self._tx():
            self._q("INSERT INTO sessions VALUES (?, ?, ?)", (sid, _now(), json.dumps(table_obj, ensure_ascii=False)))
        return sid

    def sessions(self) -> list[tuple[str, str, dict]]:
        rows = self._q("SELECT id, created_at, table_json FROM sessions ORDER BY created_at, id")
        return [(i, c, json.loads(t)) for i, c, t in rows]

    def table(self, sid: str) -> tuple[dict, Table]:
        rows = self._q("SELECT table_json FROM sessions WHERE id = ?", (sid,))
        if not rows:
            raise SessionError(f"no session {sid!r} in {self.path}")
        raw = json.loads(rows[0][0])
        return raw, table_from_json(raw)

    def entries(self, sid: str) -> list[Entry]:
        """Replay the event log into the hands as they now stand."""
        _, table = self.table(sid)
        hands: dict[int, dict] = {}
        for eid, kind, payload in self._q("SELECT id, kind, payload FROM events WHERE session_id = ? ORDER BY id", (sid,)):
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
        return self._append(sid, "hand", hand, lambda entries: [e.raw for e in entries] + [hand])

    def undo(self, sid: str, event: int | None = None) -> int:
        def standing(entries: list[Entry]) -> list[dict]:
            if not entries:
                raise SessionError("nothing to undo: the session has no hands")
            target = event if event is not None else entries[-1].event
            if target not in {e.event for e in entries}:
                raise SessionError(f"event {target} is not a hand that stands in session {sid}")
            payload["event"] = target
            return [e.raw for e in entries if e.event != target]

        payload: dict = {}
        return self._append(sid, "undo", payload, standing)

    def amend(self, sid: str, event: int, hand: dict) -> int:
        def standing(entries: list[Entry]) -> list[dict]:
            if event not in {e.event for e in entries}:
                raise SessionError(f"event {event} is not a hand that stands in session {sid}")
            return [hand if e.event == event else e.raw for e in entries]

        return self._append(sid, "amend", {"event": event, "hand": hand}, standing)

    def _append(self, sid: str, kind: str, payload: dict, standing: Callable[[list[Entry]], list[dict]]) -> int:
        """Write one event in one transaction, once the hands standing after it still
        replay; the session row is locked so two writers cannot both validate."""
        with self._tx():
            if self.postgres:
                self._q("SELECT id FROM sessions WHERE id = ? FOR UPDATE", (sid,))
            _, table = self.table(sid)
            replay(table, [hand_from_record(r, table) for r in standing(self.entries(sid))])
            rows = self._q(
                "INSERT INTO events (session_id, kind, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                (sid, kind, json.dumps(payload, ensure_ascii=False), _now()),
            )
        return int(rows[0][0])

    def _tx(self):
        return _Transaction(self)


class _Transaction:
    def __init__(self, store: Store):
        self.store = store

    def __enter__(self) -> None:
        self.store.db.execute("BEGIN" if self.store.postgres else "BEGIN IMMEDIATE")

    def __exit__(self, exc_type, *_: Any) -> None:
        self.store.db.execute("ROLLBACK" if exc_type else "COMMIT")

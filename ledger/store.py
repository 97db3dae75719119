"""Append-only session store on SQLite or PostgreSQL: a correction is a new event, nothing is deleted.

Every write is one transaction, and an event is only written once the session
still replays with it, so the store never holds a night that cannot be audited.
Each event keeps the position the night stands in after it (replay.Position), so
adding a hand replays that hand only. The schema is versioned: migrations run once,
under a lock, and opening a current database writes nothing (a read-only ledger can
still be shown). Every failure of the database itself is a StorageError naming it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import scoring
from scoring.hand import HandError

from .replay import Position, Statement, replay
from .session import HandRecord, SessionError, Table, hand_from_record, table_from_json

T = TypeVar("T")

LOCK_TIMEOUT_S = 30.0  # how long a reader or writer waits for one lock another holds
MAX_PAUSE_S = 0.02  # the longest pause between tries for a busy ledger's lock
SCHEMA_LOCK = 0x7A15C0  # pg_advisory_xact_lock key held while migrating

# Migration n (1-based) takes a database from schema n-1 to n, as (SQLite, PostgreSQL)
# statements. The first one adopts a ledger made before the schema had a version.
MIGRATIONS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        (
            "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, table_json TEXT NOT NULL)",
            """CREATE TABLE IF NOT EXISTS events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session_id TEXT NOT NULL REFERENCES sessions(id),
                kind TEXT NOT NULL CHECK (kind IN ('hand', 'undo', 'amend')),
                payload TEXT NOT NULL,
                created_at TEXT NOT NULL)""",
            "CREATE INDEX IF NOT EXISTS events_by_session ON events(session_id, id)",
            """CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
               BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END""",
            """CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
               BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END""",
        ),
        (
            "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, table_json TEXT NOT NULL)",
            """CREATE TABLE IF NOT EXISTS events (
                id BIGSERIAL PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id),
                kind TEXT NOT NULL CHECK (kind IN ('hand', 'undo', 'amend')),
                payload TEXT NOT NULL,
                created_at TEXT NOT NULL)""",
            "CREATE INDEX IF NOT EXISTS events_by_session ON events(session_id, id)",
            """CREATE OR REPLACE FUNCTION taiscore_append_only() RETURNS trigger AS $$
               BEGIN RAISE EXCEPTION 'the ledger is append-only'; END $$ LANGUAGE plpgsql""",
            """CREATE OR REPLACE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
               FOR EACH ROW EXECUTE FUNCTION taiscore_append_only()""",
        ),
    ),
    (
        ("ALTER TABLE events ADD COLUMN position TEXT",),
        ("ALTER TABLE events ADD COLUMN position TEXT",),
    ),
)
SCHEMA = len(MIGRATIONS)
LEDGER_COLUMNS = {"sessions": ("id", "created_at", "table_json"), "events": ("id", "session_id", "kind", "payload", "created_at")}


class StorageError(HandError):
    """The ledger database cannot be opened, read or written; the message names it and why.
    A HandError, so whatever reports bad input in one line reports this too."""


def default_target() -> str:
    """TAISCORE_DB (a SQLite path or a postgresql:// URL), else the user's data directory (XDG)."""
    if os.environ.get("TAISCORE_DB"):
        return os.environ["TAISCORE_DB"]
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / "taiscore" / "ledger.sqlite3")


def is_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class Entry:
    """A hand as it stands after undo and amend events: its event id and record."""

    event: int
    record: HandRecord


@cache
def code_version() -> str:
    """What a kept position depends on: the ledger's and the scorer's code and rule sets.
    A position kept by other code (taiscore upgraded mid-night) is not trusted: the night
    is replayed instead."""
    digest = hashlib.sha256()
    for root in (Path(__file__).parent, Path(scoring.__file__).parent):
        for f in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json")):
            digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _without_password(url: str) -> str:
    """A database URL as messages show it: a password, in the user part or the query, as ***."""
    return re.sub(r"(password=)[^&]*", r"\1***", re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", url))


def _one_line(e: BaseException | str) -> str:
    return " ".join(str(e).split()) or type(e).__name__


class Store:
    """The ledger database: a SQLite file, or PostgreSQL given a database URL."""

    def __init__(self, target: str | Path | None = None, lock_timeout: float | None = None):
        target = str(target or default_target())
        self.lock_timeout = LOCK_TIMEOUT_S if lock_timeout is None else lock_timeout
        self.in_transaction = False
        self.postgres = is_url(target)
        if self.postgres:
            self.path = _without_password(target)
            self.db = self._connect_postgres(target)
        else:
            if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", target):
                raise StorageError(f"{target}: a ledger database is a SQLite path or a postgresql:// URL")
            self.path = Path(target)
            self.db = self._connect_sqlite(self.path)
        try:
            self._check_schema()
        except BaseException:
            self.db.close()
            raise

    def _connect_postgres(self, url: str):
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        try:
            info = conninfo_to_dict(url)
        except psycopg.Error as e:
            # psycopg's message quotes the URL as given, password and all
            raise StorageError(f"malformed PostgreSQL URL {self.path}: {_without_password(_one_line(e))}") from None
        ports = str(info.get("port", 5432)).split(",")
        if not all(p.isdigit() and 0 < int(p) < 65536 for p in ports):
            raise StorageError(f"malformed PostgreSQL URL {self.path}: the port must be a number from 1 to 65535, not {info['port']!r}")
        where = f"{info.get('host', 'localhost')}:{info.get('port', 5432)}"
        try:
            db = psycopg.connect(url, autocommit=True, connect_timeout=10)
            db.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(self.lock_timeout * 1000)}ms",))
        except psycopg.Error as e:
            reason = str(e).strip().splitlines()[0].rsplit("failed: ", 1)[-1] if str(e).strip() else type(e).__name__
            raise StorageError(f"cannot connect to PostgreSQL at {where}: {_one_line(reason)}") from None
        return db

    def _connect_sqlite(self, path: Path) -> sqlite3.Connection:
        if path.is_dir():
            raise StorageError(f"{path} is a folder, not a SQLite database")
        new = not path.exists()
        if new:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):  # the OS's reason, "File exists", says too little
                blocker = next(p for p in path.parents if p.exists())
                raise StorageError(f"cannot create the folder {path.parent}: {blocker} is a file, not a folder") from None
            except OSError as e:
                raise StorageError(f"cannot create the folder {path.parent}: {e.strerror}") from None
        uri = "file:" + quote(str(path.absolute()))
        try:
            db = sqlite3.connect(uri + "?mode=rwc", uri=True, isolation_level=None, timeout=self.lock_timeout)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            if new:
                raise StorageError(f"cannot create the ledger {path}: {_one_line(e)}") from None
            if e.sqlite_errorname == "SQLITE_NOTADB":
                raise StorageError(f"{path} is not a SQLite database") from None
            if e.sqlite_errorname != "SQLITE_CANTOPEN" or not os.access(path, os.R_OK) or os.access(path.parent, os.W_OK):
                raise StorageError(f"cannot open {path}: {_one_line(e)}") from None
            # A WAL ledger in a folder nobody may write to: no writer can change it either, so
            # read it as it stands (the -shm file SQLite wants cannot be created there). Read
            # so, SQLite ignores the -wal file, and the hands committed only there would be missing.
            wal = Path(f"{path}-wal")
            if wal.exists() and wal.stat().st_size:
                raise StorageError(
                    f"{path}: hands may be kept only in {wal.name}, which SQLite cannot read in a read-only folder; "
                    "open the ledger once where the folder can be written"
                ) from None
            db = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")
        db.execute(f"PRAGMA busy_timeout={int(MAX_PAUSE_S * 1000)}")  # opened; from here _retrying waits
        return db

    def _q(self, sql: str, args: tuple = ()) -> list[tuple]:
        cur = self.db.execute(sql.replace("?", "%s") if self.postgres else sql, args)
        return cur.fetchall() if cur.description else []

    def close(self) -> None:
        self.db.close()

    # --- schema --------------------------------------------------------------------

    def _tables(self) -> set[str]:
        if self.postgres:
            return {r[0] for r in self._q("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        return {r[0] for r in self._q("SELECT name FROM sqlite_master WHERE type = 'table'")} - {"sqlite_sequence"}

    def _columns(self, table: str) -> tuple[str, ...]:
        if self.postgres:
            sql = (
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position"
            )
            return tuple(r[0] for r in self._q(sql, (table,)))
        return tuple(r[1] for r in self._q(f"PRAGMA table_info({table})"))

    def _version(self) -> int:
        """The schema version, 0 for an empty database; another program's tables are refused."""
        tables = self._tables()
        if "taiscore_schema" in tables:
            return int(self._q("SELECT max(version) FROM taiscore_schema")[0][0] or 0)
        ours = tables & set(LEDGER_COLUMNS)
        foreign = ours if self.postgres else tables
        if ours == set(LEDGER_COLUMNS) and all(self._columns(t)[: len(c)] == c for t, c in LEDGER_COLUMNS.items()):
            return 0  # a ledger from before the schema had a version: migration 1 adopts it
        if foreign:
            raise StorageError(f"{self.path} is another program's database (tables {', '.join(sorted(foreign))}), not a taiscore ledger")
        return 0

    def _check_schema(self) -> None:
        """Migrate once, under a lock, only when the schema is behind; a current one is only read."""
        version = self._reading(self._version)
        if version == 0 and not self.postgres:
            self._reading(lambda: self._q("PRAGMA journal_mode=WAL"))  # kept in the file; outside any transaction
        if version != SCHEMA:
            self._write(self._migrate)

    def _migrate(self) -> None:
        if self.postgres:
            self._q("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        version = self._version()  # again, under the lock: another process may have migrated
        if version > SCHEMA:
            raise StorageError(f"{self.path} holds ledger schema {version}, newer than this taiscore's {SCHEMA}: upgrade taiscore")
        if version == 0:
            self._q("CREATE TABLE IF NOT EXISTS taiscore_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        for n in range(version + 1, SCHEMA + 1):
            for sql in MIGRATIONS[n - 1][self.postgres]:
                self._q(sql)
            self._q("INSERT INTO taiscore_schema VALUES (?, ?)", (n, _now()))

    # --- reading -------------------------------------------------------------------

    def sessions(self) -> list[tuple[str, str, dict]]:
        rows = self._reading(lambda: self._q("SELECT id, created_at, table_json FROM sessions ORDER BY created_at, id"))
        return [(i, c, json.loads(t)) for i, c, t in rows]

    def table(self, sid: str) -> tuple[dict, Table]:
        rows = self._reading(lambda: self._q("SELECT table_json FROM sessions WHERE id = ?", (sid,)))
        if not rows:
            raise SessionError(f"no session {sid!r} in {self.path}")
        raw = json.loads(rows[0][0])
        return raw, table_from_json(raw)

    def entries(self, sid: str) -> list[Entry]:
        """Replay the event log into the hands as they now stand."""
        _, table = self.table(sid)
        hands: dict[int, dict] = {}
        rows = self._reading(lambda: self._q("SELECT id, kind, payload FROM events WHERE session_id = ? ORDER BY id", (sid,)))
        for eid, kind, payload in rows:
            data = json.loads(payload)
            if kind == "hand":
                hands[eid] = data
            elif kind == "undo":
                hands.pop(data["event"], None)
            else:
                hands[data["event"]] = data["hand"]
        return [Entry(eid, hand_from_record(raw, table)) for eid, raw in hands.items()]

    def statement(self, sid: str) -> Statement:
        _, table = self.table(sid)
        return replay(table, [e.record for e in self.entries(sid)])

    # --- writing -------------------------------------------------------------------

    def create(self, table_obj: dict) -> str:
        table_from_json(table_obj)
        sid = uuid.uuid4().hex[:12]
        self._write(lambda: self._q("INSERT INTO sessions VALUES (?, ?, ?)", (sid, _now(), json.dumps(table_obj, ensure_ascii=False))))
        return sid

    def add(self, sid: str, hand: dict) -> int:
        """Append a hand, checked against the position the night stands in after its last
        event: only the new hand is replayed."""

        def extend(table: Table) -> Position:
            rows = self._q("SELECT position FROM events WHERE session_id = ? ORDER BY id DESC LIMIT 1", (sid,))
            kept = json.loads(rows[0][0] or "{}") if rows else {}
            if not rows:
                start = None  # the night's first hand
            elif kept.get("code") == code_version():
                start = Position.from_json(kept["position"])
            else:  # kept by other code, or before events kept their position
                start = replay(table, [e.record for e in self.entries(sid)]).position
            return replay(table, [hand_from_record(hand, table)], start).position

        return self._append(sid, "hand", hand, extend)

    def undo(self, sid: str, event: int | None = None) -> int:
        payload: dict = {}

        def standing(table: Table) -> Position:
            entries = self.entries(sid)
            if not entries:
                raise SessionError("nothing to undo: the session has no hands")
            target = event if event is not None else entries[-1].event
            if target not in {e.event for e in entries}:
                raise SessionError(f"event {target} is not a hand that stands in session {sid}")
            payload["event"] = target
            return replay(table, [e.record for e in entries if e.event != target]).position

        return self._append(sid, "undo", payload, standing)

    def amend(self, sid: str, event: int, hand: dict) -> int:
        def standing(table: Table) -> Position:
            entries = self.entries(sid)
            if event not in {e.event for e in entries}:
                raise SessionError(f"event {event} is not a hand that stands in session {sid}")
            return replay(table, [hand_from_record(hand, table) if e.event == event else e.record for e in entries]).position

        return self._append(sid, "amend", {"event": event, "hand": hand}, standing)

    def _append(self, sid: str, kind: str, payload: dict, position: Callable[[Table], Position]) -> int:
        """Write one event, with the position the night stands in after it, once the hands
        standing after it still replay; the session row is locked so two writers cannot both validate."""

        def write() -> int:
            if self.postgres:
                self._q("SELECT id FROM sessions WHERE id = ? FOR UPDATE", (sid,))
            _, table = self.table(sid)
            after = json.dumps({"code": code_version(), "position": position(table).to_json()}, ensure_ascii=False)
            rows = self._q(
                "INSERT INTO events (session_id, kind, payload, created_at, position) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (sid, kind, json.dumps(payload, ensure_ascii=False), _now(), after),
            )
            return int(rows[0][0])

        return self._write(write)

    # --- transactions and failures -------------------------------------------------

    def _write(self, work: Callable[[], T]) -> T:
        """Run work in one write transaction, run again whole while the database is busy."""

        def transaction() -> T:
            with self._transaction():
                return work()

        return self._retrying(transaction)

    def _reading(self, work: Callable[[], T]) -> T:
        """Run a read; inside a write transaction its failure is left to _write."""
        return work() if self.in_transaction else self._retrying(work)

    def _retrying(self, work: Callable[[], T]) -> T:
        """Run work again, with backoff, while it meets a busy database, a deadlock or a
        serialization failure; any other failure is a StorageError. A read is run again as
        a write is: SQLite in WAL mode answers busy at once while another connection cleans
        up or recovers the WAL. It gives up once one lock has been held the lock timeout:
        while other writers keep committing, it waits its turn, polling as often as they do
        (SQLite's own busy handler polls a long waiter ever more rarely, so one writer among
        many that write in a loop could wait out the timeout behind the others' work)."""
        deadline, pause, seen = time.monotonic() + self.lock_timeout, 0.001, self._commits()
        while True:
            try:
                return work()
            except HandError:
                raise
            except Exception as e:
                if not self._transient(e):
                    raise self._failure(e) from None
                now, commits = time.monotonic(), self._commits()
                if commits != seen:
                    deadline, seen = now + self.lock_timeout, commits
                if now >= deadline:
                    raise self._failure(e) from None
            time.sleep(pause * random.uniform(0.5, 1.5))
            pause = min(MAX_PAUSE_S, pause * 2)

    def _commits(self) -> int | None:
        """What changes whenever another connection commits to a SQLite ledger; PostgreSQL
        queues lock waiters itself (lock_timeout), so it has none."""
        if self.postgres:
            return None
        try:
            return int(self.db.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN" if self.postgres else "BEGIN IMMEDIATE")
        self.in_transaction = True
        try:
            yield
            self._commit()
        except BaseException:
            try:
                self.db.execute("ROLLBACK")
            except Exception:  # the connection itself failed: the error that did it is raised
                pass
            raise
        finally:
            self.in_transaction = False

    def _commit(self) -> None:
        """A PostgreSQL connection lost during COMMIT leaves it unknown whether the event was
        written: never run again, and the message says to look before adding it once more."""
        try:
            self.db.execute("COMMIT")
        except Exception as e:
            if self.postgres and self.db.broken:
                raise StorageError(
                    f"{self.path}: the connection was lost while committing ({_one_line(e)}); "
                    "the change may have been written: look (ledger show) before trying again"
                ) from None
            raise

    def _transient(self, e: Exception) -> bool:
        if isinstance(e, sqlite3.OperationalError):
            return e.sqlite_errorname.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
        return getattr(e, "sqlstate", None) in ("40001", "40P01")  # serialization failure, deadlock

    def _failure(self, e: Exception) -> StorageError:
        if isinstance(e, StorageError):
            return e
        state, name = getattr(e, "sqlstate", None), getattr(e, "sqlite_errorname", "")
        if state == "55P03" or name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StorageError(f"{self.path}: another writer has held the ledger locked for over {self.lock_timeout:g} s; try again")
        if state == "25006" or name.startswith("SQLITE_READONLY"):
            return StorageError(f"{self.path} is read-only: the ledger cannot be written")
        if name == "SQLITE_NOTADB":
            return StorageError(f"{self.path} is not a SQLite database ({_one_line(e)})")
        return StorageError(f"{self.path}: {_one_line(e)}")

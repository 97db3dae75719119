"""A real PostgreSQL server for the ledger tests, started and stopped by the tests."""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import ExitStack, contextmanager

_shared: dict[str, str] = {}


def binaries() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    return os.path.dirname(found[-1]) if found else None


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def free_port() -> int:
    """A port nothing listens on (the OS just handed it out and it was closed again)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server():
    bindir = binaries()
    root = tempfile.mkdtemp(prefix="taiscore-pg-")
    data, sock = os.path.join(root, "data"), os.path.join(root, "sock")
    os.makedirs(sock)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    subprocess.run(_as_postgres([f"{bindir}/initdb", "-D", data, "-U", "taiscore", "--auth=trust", "-E", "UTF8"]), check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(
        _as_postgres([f"{bindir}/postgres", "-D", data, "-p", str(port), "-k", sock, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=on"]),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"postgresql://taiscore@127.0.0.1:{port}/postgres"
    try:
        import psycopg

        for _ in range(100):
            try:
                psycopg.connect(url).close()
                break
            except psycopg.OperationalError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)


def shared() -> str:
    """One server for the whole test run (every test module asks for it), stopped at exit."""
    if "url" not in _shared:
        stack = ExitStack()
        _shared["url"] = stack.enter_context(server())
        atexit.register(stack.close)
    return _shared["url"]


def new_database(url: str) -> str:
    """A fresh, empty database on the server at url: its own schema to create."""
    import psycopg

    name = f"t{os.getpid()}_{time.monotonic_ns()}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name

"""PostgreSQL for the tests: a throwaway cluster the suite starts itself (Debian's initdb and
pg_ctl, a unix socket in a temporary folder, fsync off), or the server PIECEPACK_TEST_PG names.

Each test that asks gets its own databases, cloned from `pp_template` (migrated once): the
same SQLite path maps to the same database within a test (`database_for`), so a test that
restarts its bot on "the same file" finds its games again.
"""

from __future__ import annotations

import asyncio
import atexit
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

TEMPLATE = "pp_template"
SKIPPED = "PostgreSQL half skipped: no server (install Debian's postgresql or set PIECEPACK_TEST_PG)"


def pg_bin() -> str | None:
    """The newest installed PostgreSQL's bin folder with initdb, or None."""
    found = [d for d in glob.glob("/usr/lib/postgresql/*/bin") if os.path.exists(f"{d}/initdb")]
    found.sort(key=lambda d: [int(n) for n in re.findall(r"\d+", d)])
    return found[-1] if found else None


def available() -> bool:
    return bool(os.environ.get("PIECEPACK_TEST_PG")) or pg_bin() is not None


class Server:
    """The session's server: started on first use, stopped at the end of the session."""

    def __init__(self):
        self.url: str | None = None
        self.folder: str | None = None
        self.bin = pg_bin()
        self.lock = threading.Lock()
        self.made: list[str] = []   # the current test's databases

    def _as_postgres(self, *command: str) -> list[str]:
        # PostgreSQL refuses to run as root: run its tools as the postgres user then
        return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)

    def start(self) -> str:
        with self.lock:
            if self.url is None:
                self.url = os.environ.get("PIECEPACK_TEST_PG") or self._start_cluster()
                self._make_template()
        return self.url

    def _start_cluster(self) -> str:
        self.folder = tempfile.mkdtemp(prefix="piecepack-pg-")
        atexit.register(self.stop)   # (also when the session ends without its fixture's teardown)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        data = f"{self.folder}/data"
        subprocess.run(self._as_postgres(f"{self.bin}/initdb", "-D", data, "-U", "postgres",
                                         "-A", "trust", "--no-sync", "-E", "UTF8",
                                         "--locale=C.UTF-8"),
                       check=True, capture_output=True)
        options = (f"-c listen_addresses='' -k {self.folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
        subprocess.run(self._as_postgres(f"{self.bin}/pg_ctl", "-D", data, "-l",
                                         f"{self.folder}/log", "-w", "-o", options, "start"),
                       check=True, capture_output=True)
        return f"postgresql://postgres@/postgres?host={self.folder}"

    def stop(self) -> None:
        if self.folder:
            subprocess.run(self._as_postgres(f"{self.bin}/pg_ctl", "-D", f"{self.folder}/data",
                                             "-m", "immediate", "-w", "stop"), capture_output=True)
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def url_of(self, database: str) -> str:
        """The URL of another database on the server."""
        base, _, query = self.url.partition("?")
        head = base.rsplit("/", 1)[0]
        return f"{head}/{database}" + (f"?{query}" if query else "")

    def admin(self, *statements: str) -> None:
        """Run statements on the server's maintenance database (from any thread)."""
        async def run():
            import asyncpg

            conn = await asyncpg.connect(self.url)
            try:
                for statement in statements:
                    await conn.execute(statement)
            finally:
                await conn.close()

        in_thread(run())

    def _make_template(self) -> None:
        from bot.storage import Store

        self.admin(f'DROP DATABASE IF EXISTS "{TEMPLATE}"', f'CREATE DATABASE "{TEMPLATE}"')

        async def migrate():
            store = await Store.open(self.url_of(TEMPLATE))
            await store.close()

        in_thread(migrate())

    def database(self, key: str) -> str:
        """A fresh database for `key` (a test's SQLite path), made once per test."""
        name = "t_" + hashlib.sha1(key.encode()).hexdigest()[:12]
        if name not in self.made:
            self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                       f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
            self.made.append(name)
        return self.url_of(name)

    def drop_made(self) -> None:
        if self.made:
            self.admin(*(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)' for name in self.made))
            self.made.clear()


def in_thread(coroutine):
    """Run a coroutine to the end on a loop of its own (callers may be inside a running loop)."""
    result = {}

    def run():
        try:
            result["value"] = asyncio.run(coroutine)
        except BaseException as exc:
            result["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")


SERVER = Server()
ENGINE = {"name": "sqlite"}   # the current test's engine (set by conftest's db_engine fixture)


def database_for(path: str | os.PathLike) -> str:
    """What PIECEPACK_DB is for the test's database at `path`: the path itself on SQLite, the
    URL of a database of its own on PostgreSQL."""
    if ENGINE["name"] == "sqlite":
        return str(path)
    return SERVER.database(str(Path(path).absolute()))

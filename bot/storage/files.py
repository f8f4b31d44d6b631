"""The database file: backups and restores (SQLite's online backup API), and the lock a running
bot holds on it."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
from pathlib import Path

class NoDatabase(FileNotFoundError):
    """An admin command found no database where it looked (it never creates one)."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        super().__init__(f"there is no database at {self.path}")


class BackupTargetError(OSError):
    """The file a copy goes to cannot be written (its folder, a permission): not the database's
    fault. `cause` is the OSError."""

    def __init__(self, path: str, cause: OSError):
        self.path = os.path.abspath(path)
        self.cause = cause
        super().__init__(f"cannot write {self.path}: {cause.strerror or cause}")


def existing(path: str) -> str:
    """The URI that opens the database at `path` only if it exists (sqlite3 would create it)."""
    if not os.path.isfile(path):
        raise NoDatabase(path)
    return Path(path).absolute().as_uri() + "?mode=rw"


def backup(source: str, target: str) -> int:
    """Copy the database at `source` to a new file `target` with SQLite's online backup API,
    safe while the bot runs (and writes); returns the copy's schema version. The copy is
    written beside `target` and renamed into place once complete, checked and on disk.
    Raises NoDatabase if `source` does not exist, BackupTargetError if `target` cannot be
    written, sqlite3.Error for a source that is not a usable database."""
    partial = f"{target}.partial"
    src = sqlite3.connect(existing(source), uri=True)
    try:
        src.execute("PRAGMA schema_version")   # a file that is not a database fails here
        try:   # the target's own problems (folder, permission) show here, in its name
            with open(partial, "wb"):
                pass
        except OSError as exc:
            raise BackupTargetError(target, exc) from None
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    raise sqlite3.DatabaseError("the copy failed SQLite's integrity check")
                row = dst.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                dst.execute("PRAGMA journal_mode=DELETE")   # one self-contained file
            finally:
                dst.close()
            _fsync(partial)
            os.replace(partial, target)
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
    finally:
        src.close()
    _fsync_folder(target)
    return int(row[0]) if row else 0


def restore(source: str, db_path: str, keep_as: str) -> tuple[int, str | None]:
    """Put the backup `source` in place of the database `db_path`, all or nothing; the
    database it replaces, if any, is kept as `keep_as` (returned; None if there was none).
    The caller holds the DatabaseLock, so no bot has the database open.

    The backup is copied (and checked, and flushed to disk) beside the database first; the
    old database is copied to `keep_as`; its WAL is checkpointed into the main file, so the
    -wal and -shm files hold nothing the main file lacks and can go (a WAL must never meet
    a database it does not belong to); then one rename puts the copy in place. Whatever
    fails before that rename leaves the database as it was."""
    partial = f"{db_path}.restoring"
    version = backup(source, partial)
    try:
        kept = None
        if os.path.exists(db_path):
            _keep(db_path, keep_as)
            kept = keep_as
            try:
                with contextlib.closing(sqlite3.connect(existing(db_path), uri=True)) as old:
                    old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError:
                pass   # damaged: its files as they were are in keep_as
        for side in ("-wal", "-shm"):
            if os.path.exists(db_path + side):
                os.remove(db_path + side)
        os.replace(partial, db_path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    _fsync_folder(db_path)
    return version, kept


def _keep(db_path: str, kept: str) -> None:
    try:
        backup(db_path, kept)   # through SQLite: the WAL's transactions included, one file
    except sqlite3.DatabaseError:
        # a damaged database (perhaps why it is replaced): keep its files as they are
        for side in ("", "-wal"):
            if os.path.exists(db_path + side):
                shutil.copyfile(db_path + side, kept + side)
                _fsync(kept + side)


def _fsync(path: str) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def _fsync_folder(path: str) -> None:
    """Make a rename in the folder of `path` durable (POSIX; Windows cannot open a folder)."""
    if os.name == "nt":
        return
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        pass   # some file systems cannot sync a folder
    finally:
        os.close(fd)


class DatabaseLock:
    """The lock on `PIECEPACK_DB + ".lock"` that a running bot holds for its whole life, and
    `restore` while it works. The operating system releases it when the process ends, however
    it ends (kill -9 included), so unlike a heartbeat or a pid file it never goes stale and
    never looks free while a bot still has the database open. flock on POSIX (per open file,
    so two opens conflict even in one process), msvcrt.locking on Windows. The file stays:
    removing a lock file while another process waits on it would let two holders in."""

    def __init__(self, db_path: str):
        self.path = f"{db_path}.lock"
        self._file = None

    def acquire(self) -> bool:
        """True if taken; False if another process holds it. OSError if the file cannot be
        made (a missing folder, a permission)."""
        f = open(self.path, "a+b")
        try:
            if os.name == "nt":
                import msvcrt

                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            f.close()
            if isinstance(exc, BlockingIOError) or exc.errno in (errno.EACCES, errno.EAGAIN,
                                                                 errno.EDEADLK):
                return False
            raise
        self._file = f
        return True

    def release(self) -> None:
        if self._file is not None:
            self._file.close()   # closing the file releases the lock
            self._file = None

    def __enter__(self) -> "DatabaseLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()

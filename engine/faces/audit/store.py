"""The audit's results store: one SQLite file, rows streaming in as claims finish.

SQLite because it is in the standard library (nothing to install on a laptop or a cluster's
client), one file a run can be resumed from, and one writer is all the audit has: the process
that drives the workers writes every row, so DuckDB's column store would add a dependency for no
gain at these sizes (a million rows of ~30 fields).

* **Commits.** Rows are committed in batches (WAL journal; a commit per row cost 0.57 ms, a ceiling
  of 1,750 claims a second): a row is committed at once when the last commit is ``COMMIT_EVERY``
  seconds old, else by a timer thread within ``COMMIT_EVERY`` + ``TICK`` seconds of its arrival,
  whether or not another row follows. A killed run loses at most the rows of that last 0.6 s (the
  rerun redoes them); an interrupted or finished one nothing.
* **Keys.** Rows are keyed by (file_hash, board, room, claim_index): a file copied under another
  name is the same file. The ``files`` table maps each path read to its content hash; when a path's
  content changed, the rows of its old content are dropped (unless another path still holds that
  content) and its problems replaced, so a changed file is never counted twice.
* **One writer.** A run holds an exclusive lock on ``STORE.lock`` (beside the store, left in place)
  for its life; a second run on the same store is refused in one line (``StoreBusy``). Readers
  (``claimlaw audit report``) take no lock.
* **Never mixed, never foreign.** A store holds the results of one claimlaw version, code
  fingerprint, mode and budget (``meta``); a run with other settings is refused (``StoreMismatch``).
  A file that is not a store (another SQLite database, any other file) is refused before anything
  is written to it.
* **Write failures** (a full disk, an I/O error) are a ``StoreWriteError``: one line; what was
  committed stays, and the same command run again finishes the rest.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path
from typing import IO, Any, TypeVar
from urllib.parse import quote

from claimlaw.engine.faces.audit.claims import AuditRow, Key
from claimlaw.engine.readers.records import ReadProblem

SCHEMA = 2
COMMIT_EVERY = 0.5  # seconds between commits at most, while rows arrive
TICK = 0.1  # seconds between the timer thread's looks at pending rows
MAGIC = b"SQLite format 3\x00"
_COLS = [f.name for f in fields(AuditRow)]
_T = TypeVar("_T")


class StoreError(ValueError):
    """A store that cannot be opened or read."""


class StoreMismatch(StoreError):
    """A store that holds results of other settings or another version."""


class StoreBusy(StoreError):
    """A store another run is writing to."""


class StoreWriteError(StoreError):
    """The store could not be written (a full disk, an I/O error); what was committed is kept."""


def describe(settings: dict[str, Any]) -> str:
    return (f"claimlaw {settings.get('claimlaw')} (code {settings.get('code')}, endplay {settings.get('endplay')}), "
            f"mode {settings.get('mode')}, budget {settings.get('budget')}")


def check_store_file(path: str, *, create: bool) -> None:
    """Refuse, before anything is written, what is not a results store and cannot become one."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if not create:
            raise StoreError(f"{path}: no such results store") from None
        return
    except OSError as e:
        raise StoreError(f"{path}: cannot open ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(f"{path}: is a directory; name a file for the store")
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path}: is not a regular file (a FIFO, socket or device); name a file for the store")
    if st.st_size == 0:
        if not create:
            raise StoreError(f"{path}: no such results store (the file is empty)")
        return
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
    except OSError as e:
        raise StoreError(f"{path}: cannot open ({e.strerror or e})") from None
    if head != MAGIC:
        raise StoreError(f"{path}: not a claimlaw results store (not an SQLite file); name a new file")
    try:
        con = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=5)
        try:
            tables = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
            schema = None
            if "meta" in tables:
                row = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                schema = row[0] if row else None
        finally:
            con.close()
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path}: not a claimlaw results store ({e})") from None
    if not tables:
        return  # an empty database: it becomes a store
    if schema is None:
        shown = ", ".join(sorted(tables)[:4]) + (", …" if len(tables) > 4 else "")
        raise StoreError(f"{path}: not a claimlaw results store (an SQLite database with tables {shown}); "
                         "name a new file")
    if str(schema) != str(SCHEMA):
        raise StoreError(f"{path}: store schema {schema}, this claimlaw reads schema {SCHEMA}; name a new file")


class _Lock:
    """An exclusive, non-blocking lock on ``PATH.lock``, released when the process ends however it ends."""

    def __init__(self, store: str) -> None:
        self.path = store + ".lock"
        try:
            self.f: IO[str] | None = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the run
        except OSError as e:
            raise StoreError(f"{self.path}: cannot create the store's lock file ({e.strerror or e})") from None
        try:
            _lock_file(self.f)
        except OSError:
            self.f.seek(0)
            holder = " ".join(self.f.read(200).split()) or "a process"
            self.f.close()
            self.f = None
            raise StoreBusy(f"{store}: another claimlaw audit is writing to this store ({holder}); wait for it to "
                            "finish, or name another --out") from None
        try:
            self.f.seek(0)
            self.f.truncate()
            self.f.write(f"pid {os.getpid()} on {socket.gethostname()} since {_now()}\n")
            self.f.flush()
        except OSError:
            pass  # the note is for people; the lock holds without it

    def release(self) -> None:
        if self.f is not None:
            try:
                self.f.seek(0)
                self.f.truncate()
            except OSError:
                pass
            self.f.close()  # closing releases the lock
            self.f = None


def _lock_file(f: IO[str]) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


class Store:
    """Open the store at ``path``: to write (``create``: made if need be, locked for this process), or
    only to read (``create=False``: no lock, nothing written)."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = str(path)
        self.writer = create
        self._committed = time.monotonic()
        self._mutex = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failure: StoreWriteError | None = None
        self.replaced = 0  # rows dropped because their file changed
        check_store_file(self.path, create=create)
        self._lock = _Lock(self.path) if create else None
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
            if create:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self._schema()
        except sqlite3.DatabaseError as e:
            self._release()
            raise self._write_error(e) if _is_io(e) else StoreError(
                f"{self.path}: not a claimlaw results store ({e})") from None
        except BaseException:
            self._release()
            raise

    def _schema(self) -> None:
        cols = ", ".join(f'"{c}"' for c in _COLS)
        self.db.executescript(f"""
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, started TEXT, finished TEXT, paths TEXT,
                                             "where" TEXT, timeout REAL, new_rows INTEGER);
            CREATE TABLE IF NOT EXISTS rows ({cols}, run_id INTEGER,
                                             PRIMARY KEY (file_hash, board, room, claim_index));
            CREATE TABLE IF NOT EXISTS problems (source TEXT, board TEXT, room TEXT, kind TEXT, reason TEXT,
                                                 run_id INTEGER, PRIMARY KEY (source, board, room, reason));
            CREATE TABLE IF NOT EXISTS files (source TEXT PRIMARY KEY, file_hash TEXT NOT NULL, run_id INTEGER);
            CREATE INDEX IF NOT EXISTS files_by_hash ON files (file_hash);
        """)
        have = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if have is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        elif have[0] != str(SCHEMA):
            raise StoreError(f"{self.path}: store schema {have[0]}, this claimlaw reads schema {SCHEMA}")

    # -- writing, with failures as one line -------------------------------------------------
    def _write_error(self, e: BaseException) -> StoreWriteError:
        what = " ".join(str(e).split()) or type(e).__name__
        return StoreWriteError(f"{self.path}: cannot write the store ({what}); every row committed before is kept: "
                               "free some space (or mend the error) and run the same command again to finish")

    def _write(self, fn: Callable[[], _T]) -> _T:
        """Run ``fn`` (SQL that writes) under the store's lock; a failure rolls back and is a StoreWriteError."""
        with self._mutex:
            if self._failure is not None:
                raise self._failure
            try:
                return fn()
            except sqlite3.Error as e:
                try:
                    if self.db.in_transaction:
                        self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                self._failure = self._write_error(e)
                raise self._failure from None

    def _begin(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")

    # -- settings ----------------------------------------------------------------------------
    def settings(self) -> dict[str, Any] | None:
        with self._mutex:
            row = self.db.execute("SELECT value FROM meta WHERE key='settings'").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def bind(self, settings: dict[str, Any]) -> None:
        """Tie the store to ``settings``; refuse if it already holds results of other ones."""
        have = self.settings()
        if have is None:
            self._write(lambda: self.db.execute("INSERT INTO meta VALUES ('settings', ?)",
                                                (json.dumps(settings, sort_keys=True),)))
        elif have != settings:
            raise StoreMismatch(f"{self.path} holds results of {describe(have)}; this run is {describe(settings)}: "
                                "results are never mixed, use another --out")

    # -- runs and rows -----------------------------------------------------------------------
    def begin_run(self, *, paths: list[str], where: str, timeout: float | None) -> int:
        cur = self._write(lambda: self.db.execute(
            'INSERT INTO runs (started, paths, "where", timeout) VALUES (?, ?, ?, ?)',
            (_now(), json.dumps(paths), where, timeout)))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def end_run(self, run_id: int, new_rows: int) -> None:
        self.commit()
        self._write(lambda: self.db.execute("UPDATE runs SET finished=?, new_rows=? WHERE id=?",
                                            (_now(), new_rows, run_id)))

    def file_read(self, source: str, file_hash: str, run_id: int) -> dict[Key, AuditRow]:
        """Note that ``source`` now holds the content ``file_hash``; the rows held for that content.

        When the path held other content before, the rows of that content are dropped (unless another
        path still holds it: then they are that path's) and the path's problems too; committed at once.
        """
        def note() -> None:
            got = self.db.execute("SELECT file_hash FROM files WHERE source=?", (source,)).fetchone()
            old = got[0] if got else None
            if old == file_hash:
                return
            self._begin()
            self.db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?)", (source, file_hash, run_id))
            if old is not None:
                other = self.db.execute("SELECT source FROM files WHERE file_hash=? AND source<>? LIMIT 1",
                                        (old, source)).fetchone()
                if other is None:
                    self.replaced += self.db.execute("DELETE FROM rows WHERE file_hash=?", (old,)).rowcount
                else:
                    self.db.execute("UPDATE rows SET source=? WHERE file_hash=? AND source=?",
                                    (other[0], old, source))
                self.db.execute("DELETE FROM problems WHERE source=?", (source,))
            self._commit()

        self._write(note)
        return {r.key: r for r in self._select("WHERE file_hash=?", (file_hash,))}

    def add(self, row: AuditRow, run_id: int) -> None:
        """Write one row (a row with the same key is replaced: a retried failure); committed within
        ``COMMIT_EVERY`` + ``TICK`` seconds."""
        data = asdict(row)
        marks = ", ".join("?" for _ in range(len(_COLS) + 1))

        def insert() -> None:
            self._begin()
            self.db.execute(f"INSERT OR REPLACE INTO rows VALUES ({marks})", [data[c] for c in _COLS] + [run_id])
            if time.monotonic() - self._committed >= COMMIT_EVERY:
                self._commit()

        self._write(insert)
        if self._thread is None:
            self._thread = threading.Thread(target=self._timer, name="claimlaw-store-commits", daemon=True)
            self._thread.start()

    def _timer(self) -> None:
        """Commit pending rows once the last commit is ``COMMIT_EVERY`` old, rows arriving or not."""
        while not self._stop.wait(TICK):
            with self._mutex:
                if self._failure is not None:
                    return
                if self.db.in_transaction and time.monotonic() - self._committed >= COMMIT_EVERY:
                    try:
                        self._write(self._commit)
                    except StoreWriteError:
                        return  # the next add raises it

    def _commit(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        self._committed = time.monotonic()

    def commit(self) -> None:
        self._write(self._commit)

    def add_problems(self, problems: list[ReadProblem], run_id: int) -> None:
        if not problems:
            return
        self._write(lambda: self.db.executemany(
            "INSERT OR REPLACE INTO problems VALUES (?, ?, ?, ?, ?, ?)",
            [(p.source, p.board or "", p.room or "", p.kind, p.reason, run_id) for p in problems]))

    def _select(self, where: str = "", args: tuple[Any, ...] = ()) -> list[AuditRow]:
        cols = ", ".join(f'"{c}"' for c in _COLS)
        out = []
        with self._mutex:
            found = self.db.execute(f"SELECT {cols} FROM rows {where} ORDER BY source, board, room, claim_index",
                                    args).fetchall()
        for values in found:
            data = dict(zip(_COLS, values, strict=True))
            for b in ("claimer_known", "disagrees", "proven"):
                data[b] = bool(data[b])
            out.append(AuditRow(**data))
        return out

    def rows(self) -> list[AuditRow]:
        return self._select()

    def rows_by_key(self) -> dict[Key, AuditRow]:
        return {r.key: r for r in self.rows()}

    def run_ids(self) -> dict[Key, int]:
        """Which run wrote each row."""
        q = "SELECT file_hash, board, room, claim_index, run_id FROM rows"
        with self._mutex:
            return {(a, b, c, d): e for a, b, c, d, e in self.db.execute(q)}

    def problems(self) -> list[ReadProblem]:
        q = "SELECT source, board, room, kind, reason FROM problems ORDER BY source, board, room"
        with self._mutex:
            found = self.db.execute(q).fetchall()
        return [ReadProblem(s, b or None, reason, kind, room or None)  # type: ignore[arg-type]
                for s, b, room, kind, reason in found]

    def runs(self) -> list[dict[str, Any]]:
        q = 'SELECT id, started, finished, paths, "where", timeout, new_rows FROM runs ORDER BY id'
        names = ("id", "started", "finished", "paths", "where", "timeout", "new_rows")
        with self._mutex:
            return [dict(zip(names, r, strict=True)) for r in self.db.execute(q)]

    def close(self) -> None:
        """Commit what is pending and close (a commit that fails still closes, then raises)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        try:
            if self.writer and self._failure is None:
                self.commit()
        finally:
            with self._mutex:
                try:
                    self.db.close()
                except sqlite3.Error:
                    pass
            self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def _is_io(e: sqlite3.Error) -> bool:
    text = str(e).lower()
    return any(w in text for w in ("disk", "i/o", "full", "readonly", "read-only", "unable to open"))


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def lock_path(store: str | os.PathLike[str]) -> Path:
    """Where a store's lock file is."""
    return Path(str(store) + ".lock")


__all__ = ["Store", "StoreBusy", "StoreError", "StoreMismatch", "StoreWriteError", "check_store_file", "describe",
           "lock_path"]

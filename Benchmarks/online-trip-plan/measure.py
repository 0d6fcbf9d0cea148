#!/usr/bin/env python3
"""Writer stalls of `migrate apply --online` on the benchmark's own plan (Fixtures/bench/trip-plan).

Usage (from the repository's root, after `swift build -c release --product migrate`):

    python3 Benchmarks/online-trip-plan/measure.py [TRIPS] [ROUNDS] [CHUNK_TARGET_MS]

Builds the peers harness's V1 database (Benchmarks/peers/scripts/gen-v1.sh, TRIPS trips and twice
as many bucket items, 1,000,000 by default) in WAL mode (or JOURNAL_MODE), then, ROUNDS times (1 by default), on
fresh copies:

- offline: `migrate apply` alone, timed;
- online: `migrate apply --online` while an application connection of its own (Python's sqlite3:
  SQLite's default busy handler, busy timeout 60 s) writes every 5 ms, in terms valid before and
  after the migration: it renames a trip, adds a bucket item to a trip, deletes a bucket item.

CHUNK_TARGET_MS, when given, is passed to the online run as `--chunk-target` (the default
otherwise). JOURNAL_MODE=delete (or truncate, persist) measures a rollback-journal database
instead of WAL; TIMEOUT=seconds stops an online run that takes longer and reports it.

It prints, per round, the migration's time, the offline time, their ratio, and the application's
write latencies (count, median, p99, longest), and checks that every write the application made is
in the migrated database.
"""

import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PLAN = os.path.join(ROOT, "Fixtures", "bench", "trip-plan")
GENERATE_V1 = os.path.join(ROOT, "Benchmarks", "peers", "scripts", "gen-v1.sh")
# Another build to measure (two builds alternated on one machine): MIGRATE_BINARY=path.
MIGRATE = os.environ.get("MIGRATE_BINARY") or os.path.join(ROOT, ".build", "release", "migrate")
JOURNAL_MODE = os.environ.get("JOURNAL_MODE", "wal").lower()
if JOURNAL_MODE not in ("wal", "delete", "truncate", "persist"):
    sys.exit("JOURNAL_MODE must be wal, delete, truncate or persist, not %r" % JOURNAL_MODE)
try:
    TIMEOUT = float(os.environ["TIMEOUT"]) if os.environ.get("TIMEOUT") else None
except ValueError:
    TIMEOUT = float("nan")
if TIMEOUT is not None and not 0 < TIMEOUT < float("inf"):
    sys.exit("TIMEOUT must be a number of seconds above 0, not %r" % os.environ["TIMEOUT"])


class Application(threading.Thread):
    """Writes every 5 ms until stopped, timing each write from its start to its commit."""

    def __init__(self, path, trips):
        super().__init__()
        self.path, self.trips = path, trips
        self.stopped = threading.Event()
        self.latencies, self.renamed, self.added, self.deleted = [], {}, [], []

    def run(self):
        db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        db.execute("PRAGMA foreign_keys = ON")
        n = 0
        while not self.stopped.is_set():
            n += 1
            trip = (n * 7919) % self.trips + 1
            began = time.perf_counter()
            kind = n % 3
            if kind == 0:
                db.execute("UPDATE trip SET name = ? WHERE id = ?", ("written %d" % n, trip))
                self.renamed[trip] = "written %d" % n
            elif kind == 1:
                cursor = db.execute("INSERT INTO bucket_item (trip_id, title) VALUES (?, ?)", (trip, "added %d" % n))
                self.added.append(cursor.lastrowid)
            else:
                target = (n * 104729) % 1000000 + 1
                db.execute("DELETE FROM bucket_item WHERE id = ?", (target,))
                self.deleted.append(target)
            self.latencies.append((time.perf_counter() - began) * 1000)
            time.sleep(0.005)
        db.close()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def apply(database, online, chunk_target=None):
    arguments = [MIGRATE, "apply", "--plan", PLAN, "--database", database, "--no-backup"]
    if online:
        arguments += ["--online"] + (["--chunk-target", chunk_target] if chunk_target else [])
    began = time.perf_counter()
    try:
        subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, timeout=TIMEOUT if online else None)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - began


def main():
    trips = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    chunk_target = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as scratch:
        pristine = os.path.join(scratch, "v1.db")
        subprocess.run([GENERATE_V1, str(trips), pristine], check=True, stdout=subprocess.DEVNULL)
        db = sqlite3.connect(pristine)
        db.execute("PRAGMA journal_mode = %s" % JOURNAL_MODE)
        db.close()
        for round in range(1, rounds + 1):
            offline = os.path.join(scratch, "offline.db")
            shutil.copyfile(pristine, offline)
            offline_time = apply(offline, online=False)
            online = os.path.join(scratch, "online.db")
            shutil.copyfile(pristine, online)
            application = Application(online, trips)
            application.start()
            time.sleep(0.2)
            online_time = apply(online, online=True, chunk_target=chunk_target)
            application.stopped.set()
            application.join()
            if online_time is None:
                print("round %d: online stopped after %.0f s (TIMEOUT), offline %.2f s; %d app writes: median %.1f ms, "
                      "p99 %.1f ms, longest %.1f ms" % (round, TIMEOUT, offline_time, len(application.latencies),
                      statistics.median(application.latencies), percentile(application.latencies, 0.99),
                      max(application.latencies)))
                continue
            check = sqlite3.connect(online)
            present = all(
                check.execute("SELECT name FROM trip WHERE id = ?", (trip,)).fetchone()[0] == name
                for trip, name in application.renamed.items()
            ) and all(check.execute("SELECT 1 FROM bucket_item WHERE id = ?", (i,)).fetchone() for i in application.added
                      if i not in application.deleted) and not any(
                check.execute("SELECT 1 FROM bucket_item WHERE id = ?", (i,)).fetchone() for i in application.deleted)
            version = check.execute("SELECT version FROM _schema_migrations ORDER BY seq DESC LIMIT 1").fetchone()[0]
            check.close()
            latencies = application.latencies
            print(
                "round %d: online %.2f s, offline %.2f s (%.1fx); %d app writes: median %.1f ms, p99 %.1f ms, "
                "longest %.1f ms; every write present: %s; version %s"
                % (round, online_time, offline_time, online_time / offline_time, len(latencies),
                   statistics.median(latencies), percentile(latencies, 0.99), max(latencies),
                   "yes" if present else "NO", version))
            for path in (offline, online):
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(path + suffix):
                        os.remove(path + suffix)


if __name__ == "__main__":
    main()

#!/bin/sh
# Makes history.sqlite with xonsh's own SQLite history backend (pip install xonsh; made with
# 0.25.0): a shell's history, one interactive session of a few commands (one failing, one
# writing output, which $XONSH_STORE_STDOUT keeps) typed through a pseudo-terminal. Its schema is
# xonsh's: one table with no declared key (rows are rowids), typed columns, a lower-case
# `default 1`, an index on the command text. xonsh leaves the file in WAL mode; it is VACUUMed
# back to a rollback journal so that one file is the whole database. The tests read the committed
# file; run this only to remake it (it types slowly: about 15 seconds).
set -e
cd "$(dirname "$0")"
rm -f history.sqlite history.sqlite-wal history.sqlite-shm
file="$PWD/history.sqlite"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Each line is typed after a pause, so that the shell reads it at its prompt.
{
    sleep 4
    for line in 'echo hello' 'ls /' 'x = 1 + 2' 'print(x)' 'false' 'cd /tmp' 'exit'; do
        echo "$line"
        sleep 1
    done
    sleep 2
} | (cd "$scratch" && HOME="$scratch" XONSH_HISTORY_BACKEND=sqlite XONSH_HISTORY_SQLITE_FILE="$file" \
    XONSH_STORE_STDOUT=1 script -qfc "xonsh --no-rc -i --shell-type readline" /dev/null >/dev/null)
python3 - <<PY
import sqlite3
db = sqlite3.connect("$file")
db.execute("PRAGMA journal_mode=DELETE")
db.execute("VACUUM")
db.close()
PY
chmod 644 history.sqlite

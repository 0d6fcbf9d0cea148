#!/bin/sh
# Makes repo.fossil with Fossil's own `init`, `open`, `add` and `commit` (apt-get install fossil;
# made with 2.21): a version-control repository, one check-in of one file. Its schema is
# Fossil's: tables without rowid, composite keys, UNIQUE constraints, CHECKs, indexes over
# expressions. The tests read the committed file; run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f repo.fossil
work=$(mktemp -d)
export USER=ada
fossil init repo.fossil > /dev/null
mkdir "$work/checkout"
(cd "$work/checkout" && fossil open "$OLDPWD/repo.fossil" > /dev/null && echo hello > greeting.txt \
    && fossil add greeting.txt > /dev/null && fossil commit -m "first" > /dev/null && fossil close)
rm -rf "$work"

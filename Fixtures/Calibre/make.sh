#!/bin/sh
# Makes metadata.db with calibre's own command-line tool, headless (apt-get install calibre; made
# with calibre 6.13, Debian bookworm's): an e-book library of three books without files, two
# authors, tags, a series, a publisher, a rating, a language, an ISBN, and two custom columns
# (a multiple-valued text column and an integer one). Its schema is calibre's: about forty tables
# (link tables with UNIQUE pairs, legacy `DEFAULT ""` spellings, TIMESTAMP and BOOL types, NOCASE
# collations), views and triggers that call calibre's own SQL functions (title_sort, uuid4,
# books_list_filter) and its custom columns' tables, views and triggers, and two FTS5 tables over
# annotations with their shadow tables. It is VACUUMed with 1 KB pages to keep it small. The tests
# read the committed file; run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f metadata.db
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME="$scratch/home" QT_QPA_PLATFORM=offscreen
library="$scratch/library"
calibredb() { command calibredb "$@" --library-path "$library" >/dev/null; }
calibredb add --empty --title "A Study in Scarlet" --authors "Arthur Conan Doyle" --tags "mystery,classic" \
    --series "Sherlock Holmes" --series-index 1
calibredb add --empty --title "The Sign of the Four" --authors "Arthur Conan Doyle" --tags mystery \
    --series "Sherlock Holmes" --series-index 2 --languages eng --identifier isbn:9780141395487
calibredb add --empty --title "Frankenstein" --authors "Mary Shelley" --tags "classic,horror" --languages eng
calibredb set_metadata 3 --field rating:4 --field publisher:Penguin
calibredb add_custom_column --is-multiple moods "Moods" text
calibredb add_custom_column pages "Pages" int
calibredb set_custom moods 1 "gloomy,clever"
calibredb set_custom moods 3 gloomy
calibredb set_custom pages 3 280
python3 - <<PY
import sqlite3
db = sqlite3.connect("$library/metadata.db")
db.execute("PRAGMA page_size=1024")
db.execute("VACUUM")
db.close()
PY
cp "$library/metadata.db" metadata.db

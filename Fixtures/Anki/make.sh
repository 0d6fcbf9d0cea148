#!/bin/sh
# Makes collection.anki2 with Anki's own library (pip install anki; made with 25.02): a
# flashcard collection with one note of the Basic note type. Its schema is Anki's: WITHOUT ROWID
# tables, a collation of its own (unicase) on several columns, indexes over them. The tests read
# the committed file; run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f collection.anki2
python3 - <<PY
from anki.collection import Collection
collection = Collection("$PWD/collection.anki2")
note = collection.new_note(collection.models.by_name("Basic"))
note["Front"], note["Back"] = "hello", "world"
collection.add_note(note, collection.decks.id("Default"))
collection.close()
PY
rm -rf collection.media

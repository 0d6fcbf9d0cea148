#!/bin/sh
# Makes blog.sqlite with sqlite-utils (pip install sqlite-utils; made with 4.2.1): a table with an
# external-content FTS5 index kept by three triggers, an index, a view and a foreign key, as
# sqlite-utils writes them. The tests read the committed file; run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f blog.sqlite
printf '%s' '[{"id":1,"title":"Hello world","body":"first post","author":"ada","score":3},{"id":2,"title":"Second","body":"more words","author":"bob","score":5}]' |
    sqlite-utils insert blog.sqlite posts - --pk id
sqlite-utils enable-fts blog.sqlite posts title body --create-triggers
sqlite-utils create-index blog.sqlite posts author
sqlite-utils create-view blog.sqlite by_author "select author, count(*) as n from posts group by author"
printf '%s' '[{"id":1,"post_id":1,"text":"nice"}]' | sqlite-utils insert blog.sqlite comments - --pk id
sqlite-utils add-foreign-key blog.sqlite comments post_id posts id

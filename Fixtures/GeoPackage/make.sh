#!/bin/sh
# Makes places.gpkg with GDAL's own ogr2ogr (apt-get install gdal-bin; made with 3.6.2): a
# GeoPackage, the OGC's SQLite file format for maps, with one layer of two points. Its schema is
# GDAL's: the gpkg_* tables with CHECKs and UNIQUE constraints, an R*Tree virtual table indexing
# the geometries, kept in step by triggers that call the geometry functions GDAL registers
# (ST_IsEmpty, ST_MinX...), and the feature-count triggers. The tests read the committed file;
# run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f places.gpkg
work=$(mktemp -d)
printf 'name,WKT\nharbour,"POINT (4.35 50.85)"\nlighthouse,"POINT (2.29 48.86)"\n' > "$work/places.csv"
ogr2ogr -f GPKG places.gpkg "$work/places.csv" -oo GEOM_POSSIBLE_NAMES=WKT -oo KEEP_GEOM_COLUMNS=NO \
    -a_srs EPSG:4326 -nln places
rm -rf "$work"

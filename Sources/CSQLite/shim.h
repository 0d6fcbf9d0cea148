#ifndef SCHEMAMIGRATIONS_CSQLITE_SHIM_H
#define SCHEMAMIGRATIONS_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot pass SQLITE_TRANSIENT (a function pointer cast from -1) directly.
static inline sqlite3_destructor_type schemamigrations_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic: wrap the integer form Swift needs.
static inline int schemamigrations_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif

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

// Loads an extension with loading enabled for the C call only while it loads (SQL's
// load_extension() stays off). Apple's system SQLite, and builds with SQLITE_OMIT_LOAD_EXTENSION,
// cannot load extensions: the call then fails with a message saying so.
static inline int schemamigrations_load_extension(sqlite3 *db, const char *file, const char *entry, char **error) {
#if defined(__APPLE__) || defined(SQLITE_OMIT_LOAD_EXTENSION)
    (void)db; (void)file; (void)entry;
    *error = sqlite3_mprintf("this SQLite library cannot load extensions");
    return SQLITE_ERROR;
#else
    int previous = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, &previous);
    int code = sqlite3_load_extension(db, file, entry, error);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &previous);
    return code;
#endif
}

#endif

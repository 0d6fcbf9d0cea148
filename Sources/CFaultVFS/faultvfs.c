// A fault-injecting VFS over the default one: see include/faultvfs.h.
#include "faultvfs.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>

/* An open file: our header, then the real VFS's file in the same allocation. */
typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
} FaultFile;

static sqlite3_vfs fault_vfs;
static sqlite3_vfs *real_vfs;
static char vfs_name[64];

static atomic_long counts[3];
static atomic_long injected;
static atomic_int armed_kind = -1;
static atomic_long armed_n;
static atomic_int armed_code;
static atomic_int armed_persistent;

/* Counts a call of `kind` and returns the result code to fail it with, or SQLITE_OK. */
static int fault_check(int kind) {
    long n = atomic_fetch_add(&counts[kind], 1) + 1;
    if (atomic_load(&armed_kind) != kind) return SQLITE_OK;
    long target = atomic_load(&armed_n);
    if (n == target || (atomic_load(&armed_persistent) && n > target)) {
        atomic_fetch_add(&injected, 1);
        return atomic_load(&armed_code);
    }
    return SQLITE_OK;
}

#define REAL(file) (((FaultFile *)(file))->real)

static int fault_close(sqlite3_file *file) {
    sqlite3_file *real = REAL(file);
    return real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
}

static int fault_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    int rc = fault_check(FAULTVFS_READ);
    if (rc != SQLITE_OK) return rc;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int fault_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int rc = fault_check(FAULTVFS_WRITE);
    if (rc != SQLITE_OK) return rc;
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int fault_truncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int fault_sync(sqlite3_file *file, int flags) {
    int rc = fault_check(FAULTVFS_SYNC);
    if (rc != SQLITE_OK) return rc;
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int fault_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int fault_lock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xLock(REAL(file), level); }
static int fault_unlock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xUnlock(REAL(file), level); }

static int fault_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}

static int fault_file_control(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}

static int fault_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }

static int fault_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int fault_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **pointer) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    return real->pMethods->xShmMap(real, page, size, extend, pointer);
}

static int fault_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    return real->pMethods->xShmLock(real, offset, n, flags);
}

static void fault_shm_barrier(sqlite3_file *file) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion >= 2) real->pMethods->xShmBarrier(real);
}

static int fault_shm_unmap(sqlite3_file *file, int delete_flag) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2) return SQLITE_OK;
    return real->pMethods->xShmUnmap(real, delete_flag);
}

/* Version 2: shared memory for WAL, but no xFetch, so SQLite never memory-maps and every read counts. */
static const sqlite3_io_methods fault_io_methods = {
    2,
    fault_close, fault_read, fault_write, fault_truncate, fault_sync, fault_file_size,
    fault_lock, fault_unlock, fault_check_reserved_lock, fault_file_control,
    fault_sector_size, fault_device_characteristics,
    fault_shm_map, fault_shm_lock, fault_shm_barrier, fault_shm_unmap,
    0, 0,
};

static int fault_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    FaultFile *fault = (FaultFile *)file;
    fault->real = (sqlite3_file *)&fault[1];
    memset(fault->real, 0, (size_t)real_vfs->szOsFile);
    int rc = real_vfs->xOpen(real_vfs, name, fault->real, flags, out_flags);
    /* SQLite reads pMethods after xOpen whether it succeeded or not: NULL means nothing to close. */
    file->pMethods = fault->real->pMethods ? &fault_io_methods : 0;
    return rc;
}

static int fault_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int fault_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void *fault_dl_open(sqlite3_vfs *vfs, const char *name) { (void)vfs; return real_vfs->xDlOpen(real_vfs, name); }
static void fault_dl_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; real_vfs->xDlError(real_vfs, size, out); }
static void (*fault_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}
static void fault_dl_close(sqlite3_vfs *vfs, void *handle) { (void)vfs; real_vfs->xDlClose(real_vfs, handle); }
static int fault_randomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return real_vfs->xRandomness(real_vfs, size, out); }
static int fault_sleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return real_vfs->xSleep(real_vfs, microseconds); }
static int fault_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return real_vfs->xCurrentTime(real_vfs, out); }
static int fault_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, size, out) : 0;
}
static int fault_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

int faultvfs_register(const char *name) {
    if (real_vfs) return strcmp(name, vfs_name) == 0 ? SQLITE_OK : SQLITE_MISUSE;
    sqlite3_vfs *found = sqlite3_vfs_find(0);
    if (!found || strlen(name) >= sizeof(vfs_name)) return SQLITE_ERROR;
    real_vfs = found;
    strcpy(vfs_name, name);
    memset(&fault_vfs, 0, sizeof(fault_vfs));
    fault_vfs.iVersion = found->iVersion < 2 ? found->iVersion : 2;
    fault_vfs.szOsFile = (int)sizeof(FaultFile) + found->szOsFile;
    fault_vfs.mxPathname = found->mxPathname;
    fault_vfs.zName = vfs_name;
    fault_vfs.xOpen = fault_open;
    fault_vfs.xDelete = fault_delete;
    fault_vfs.xAccess = fault_access;
    fault_vfs.xFullPathname = fault_full_pathname;
    fault_vfs.xDlOpen = fault_dl_open;
    fault_vfs.xDlError = fault_dl_error;
    fault_vfs.xDlSym = fault_dl_sym;
    fault_vfs.xDlClose = fault_dl_close;
    fault_vfs.xRandomness = fault_randomness;
    fault_vfs.xSleep = fault_sleep;
    fault_vfs.xCurrentTime = fault_current_time;
    fault_vfs.xGetLastError = fault_get_last_error;
    fault_vfs.xCurrentTimeInt64 = found->iVersion >= 2 ? fault_current_time_int64 : 0;
    return sqlite3_vfs_register(&fault_vfs, 0);
}

static void arm(int kind, long n, int errcode, int persistent) {
    atomic_store(&armed_kind, -1);
    for (int i = 0; i < 3; i++) atomic_store(&counts[i], 0);
    atomic_store(&injected, 0);
    atomic_store(&armed_n, n);
    atomic_store(&armed_code, errcode);
    atomic_store(&armed_persistent, persistent);
    atomic_store(&armed_kind, kind);
}

void faultvfs_arm(int kind, long n, int errcode) { arm(kind, n, errcode, 0); }
void faultvfs_arm_persistent(int kind, long n, int errcode) { arm(kind, n, errcode, 1); }

long faultvfs_count(int kind) { return (kind >= 0 && kind < 3) ? atomic_load(&counts[kind]) : -1; }

long faultvfs_injected(void) { return atomic_load(&injected); }

void faultvfs_disarm(void) {
    atomic_store(&armed_kind, -1);
    for (int i = 0; i < 3; i++) atomic_store(&counts[i], 0);
}

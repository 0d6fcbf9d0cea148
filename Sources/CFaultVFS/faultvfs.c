// A fault-injecting VFS over the default one: see include/faultvfs.h.
#include "faultvfs.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A write not yet made durable by an xSync of its file: what the bytes were before it. */
typedef struct UnsyncedWrite {
    sqlite3_int64 offset;
    int amount;
    unsigned char *old; /* `amount` bytes; zeros where the file was shorter */
} UnsyncedWrite;

/* An open file: our header, then the real VFS's file in the same allocation. */
typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
    /* Power-loss bookkeeping: the writes since the file's last xSync, and its size then. */
    UnsyncedWrite *unsynced;
    int unsynced_count, unsynced_capacity;
    sqlite3_int64 synced_size;
    int tracked;
} FaultFile;

/* Power loss: the open files, so a cut can reach every one of them. */
#define FAULTVFS_MAX_FILES 64
static FaultFile *open_files[FAULTVFS_MAX_FILES];
static int power_armed;          /* a cut is due at sync number power_at */
static long power_at;
static int power_mode;           /* FAULTVFS_POWER_DROP or FAULTVFS_POWER_TEAR */
static unsigned long long power_random;
static atomic_int power_cut;     /* after the cut every call that could reach the disk fails */
static long power_lost_writes, power_torn_writes;

static sqlite3_vfs fault_vfs;
static sqlite3_vfs *real_vfs;
static char vfs_name[64];

static atomic_long counts[FAULTVFS_KINDS];
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

static void forget_unsynced(FaultFile *fault) {
    for (int i = 0; i < fault->unsynced_count; i++) free(fault->unsynced[i].old);
    fault->unsynced_count = 0;
}

static void untrack(FaultFile *fault) {
    for (int i = 0; i < FAULTVFS_MAX_FILES; i++) if (open_files[i] == fault) open_files[i] = 0;
    forget_unsynced(fault);
    free(fault->unsynced);
    fault->unsynced = 0;
    fault->unsynced_capacity = 0;
    fault->tracked = 0;
}

static int fault_close(sqlite3_file *file) {
    FaultFile *fault = (FaultFile *)file;
    /* A file closed with unsynced writes keeps them only in the OS cache; the model forgets them
       (the sweep's cuts fall while the migration's files are open). */
    untrack(fault);
    sqlite3_file *real = REAL(file);
    return real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
}

static int fault_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (atomic_load(&power_cut)) return SQLITE_IOERR_READ;
    int rc = fault_check(FAULTVFS_READ);
    if (rc != SQLITE_OK) return rc;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

/* Remembers what `amount` bytes at `offset` hold before a write, so a power cut can undo it. */
static void remember_before_write(FaultFile *fault, int amount, sqlite3_int64 offset) {
    if (!power_armed || !fault->tracked) return;
    if (fault->unsynced_count == fault->unsynced_capacity) {
        int capacity = fault->unsynced_capacity ? fault->unsynced_capacity * 2 : 16;
        UnsyncedWrite *grown = realloc(fault->unsynced, sizeof(UnsyncedWrite) * (size_t)capacity);
        if (!grown) return;
        fault->unsynced = grown;
        fault->unsynced_capacity = capacity;
    }
    unsigned char *old = calloc(1, (size_t)amount);
    if (!old) return;
    sqlite3_file *real = fault->real;
    real->pMethods->xRead(real, old, amount, offset); /* a short read zero-fills the rest */
    fault->unsynced[fault->unsynced_count++] = (UnsyncedWrite){offset, amount, old};
}

static int fault_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (atomic_load(&power_cut)) return SQLITE_IOERR_WRITE;
    int rc = fault_check(FAULTVFS_WRITE);
    if (rc != SQLITE_OK) return rc;
    remember_before_write((FaultFile *)file, amount, offset);
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int fault_truncate(sqlite3_file *file, sqlite3_int64 size) {
    if (atomic_load(&power_cut)) return SQLITE_IOERR_TRUNCATE;
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static unsigned long long next_random(void) {
    power_random ^= power_random << 13;
    power_random ^= power_random >> 7;
    power_random ^= power_random << 17;
    return power_random;
}

/* The power cut: every open file loses its unsynced writes (drop), or each of them independently
   reaches the disk whole, not at all, or up to a byte where the power failed (tear): SQLite
   assumes a write is linear, not atomic, so a torn write is a new prefix and an old rest. */
static void cut_power(void) {
    for (int f = 0; f < FAULTVFS_MAX_FILES; f++) {
        FaultFile *fault = open_files[f];
        if (!fault) continue;
        sqlite3_file *real = fault->real;
        int all_dropped = 1;
        for (int i = fault->unsynced_count - 1; i >= 0; i--) {
            UnsyncedWrite *write = &fault->unsynced[i];
            int keep = 0; /* bytes of the write that reached the disk */
            if (power_mode == FAULTVFS_POWER_TEAR) {
                unsigned long long choice = next_random() % 3;
                keep = choice == 0 ? 0 : choice == 1 ? write->amount : (int)(next_random() % (unsigned long long)write->amount);
            }
            if (keep == write->amount) { all_dropped = 0; continue; }
            if (keep > 0) { all_dropped = 0; power_torn_writes++; } else { power_lost_writes++; }
            real->pMethods->xWrite(real, write->old + keep, write->amount - keep, write->offset + keep);
        }
        if (all_dropped && fault->unsynced_count > 0) real->pMethods->xTruncate(real, fault->synced_size);
        forget_unsynced(fault);
    }
    atomic_store(&power_cut, 1);
}

static int fault_sync(sqlite3_file *file, int flags) {
    if (atomic_load(&power_cut)) return SQLITE_IOERR_FSYNC;
    int rc = fault_check(FAULTVFS_SYNC);
    if (rc != SQLITE_OK) return rc;
    if (power_armed && atomic_load(&counts[FAULTVFS_SYNC]) == power_at) {
        cut_power(); /* the power fails before this sync completes */
        return SQLITE_IOERR_FSYNC;
    }
    rc = REAL(file)->pMethods->xSync(REAL(file), flags);
    FaultFile *fault = (FaultFile *)file;
    if (rc == SQLITE_OK && fault->tracked) {
        forget_unsynced(fault);
        REAL(file)->pMethods->xFileSize(REAL(file), &fault->synced_size);
    }
    return rc;
}

static int fault_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

/* Lock calls are counted, never failed. */
static int fault_lock(sqlite3_file *file, int level) {
    atomic_fetch_add(&counts[FAULTVFS_LOCK], 1);
    return REAL(file)->pMethods->xLock(REAL(file), level);
}
static int fault_unlock(sqlite3_file *file, int level) {
    atomic_fetch_add(&counts[FAULTVFS_LOCK], 1);
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}

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
    atomic_fetch_add(&counts[FAULTVFS_LOCK], 1);
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
    memset(fault, 0, sizeof(FaultFile));
    fault->real = (sqlite3_file *)&fault[1];
    memset(fault->real, 0, (size_t)real_vfs->szOsFile);
    if (atomic_load(&power_cut)) return SQLITE_CANTOPEN;
    int rc = real_vfs->xOpen(real_vfs, name, fault->real, flags, out_flags);
    /* SQLite reads pMethods after xOpen whether it succeeded or not: NULL means nothing to close. */
    file->pMethods = fault->real->pMethods ? &fault_io_methods : 0;
    if (rc == SQLITE_OK && file->pMethods) {
        for (int i = 0; i < FAULTVFS_MAX_FILES; i++) {
            if (!open_files[i]) {
                open_files[i] = fault;
                fault->tracked = 1;
                fault->real->pMethods->xFileSize(fault->real, &fault->synced_size);
                break;
            }
        }
    }
    return rc;
}

static int fault_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    if (atomic_load(&power_cut)) return SQLITE_IOERR_DELETE;
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
    for (int i = 0; i < FAULTVFS_KINDS; i++) atomic_store(&counts[i], 0);
    atomic_store(&injected, 0);
    atomic_store(&armed_n, n);
    atomic_store(&armed_code, errcode);
    atomic_store(&armed_persistent, persistent);
    atomic_store(&armed_kind, kind);
}

void faultvfs_arm(int kind, long n, int errcode) { arm(kind, n, errcode, 0); }
void faultvfs_arm_persistent(int kind, long n, int errcode) { arm(kind, n, errcode, 1); }

long faultvfs_count(int kind) { return (kind >= 0 && kind < FAULTVFS_KINDS) ? atomic_load(&counts[kind]) : -1; }

long faultvfs_injected(void) { return atomic_load(&injected); }

void faultvfs_disarm(void) {
    atomic_store(&armed_kind, -1);
    for (int i = 0; i < FAULTVFS_KINDS; i++) atomic_store(&counts[i], 0);
    power_armed = 0;
    atomic_store(&power_cut, 0);
    for (int i = 0; i < FAULTVFS_MAX_FILES; i++) if (open_files[i]) forget_unsynced(open_files[i]);
}

void faultvfs_arm_power_loss(long n, int mode, unsigned long long seed) {
    faultvfs_disarm();
    power_lost_writes = 0;
    power_torn_writes = 0;
    power_random = seed ? seed : 0x9E3779B97F4A7C15ULL;
    power_mode = mode;
    power_at = n;
    for (int i = 0; i < FAULTVFS_MAX_FILES; i++) {
        FaultFile *fault = open_files[i];
        if (fault) fault->real->pMethods->xFileSize(fault->real, &fault->synced_size);
    }
    power_armed = 1;
}

int faultvfs_power_was_cut(void) { return atomic_load(&power_cut); }

long faultvfs_power_lost_writes(void) { return power_lost_writes; }

long faultvfs_power_torn_writes(void) { return power_torn_writes; }

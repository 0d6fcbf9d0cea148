#ifndef SCHEMAMIGRATIONS_FAULTVFS_H
#define SCHEMAMIGRATIONS_FAULTVFS_H

/*
 * A fault-injecting SQLite VFS for the reliability tests.
 *
 * It is registered under a name of your choice over the default VFS (sqlite3_vfs_find(NULL)) and
 * forwards every call to it, counting the xWrite, xSync and xRead calls of the files it opens.
 * Armed, it makes the Nth call of one kind fail with a given result code (SQLITE_IOERR_WRITE,
 * SQLITE_FULL, SQLITE_IOERR_FSYNC, SQLITE_IOERR_READ...) without touching the file: once
 * (transient: later calls succeed again, as after a passing glitch) or from then on (persistent:
 * as a dead disk). Connections opened with another VFS are never affected.
 *
 * Memory-mapped I/O is declined (the io_methods are version 2), so every read is an xRead.
 * It can also simulate a power cut at a sync point (faultvfs_arm_power_loss).
 * The state is global: use it from one test at a time.
 *
 * Related SQLite documentation: https://www.sqlite.org/vfs.html
 */

/** The kinds of calls counted and failed. */
enum {
    FAULTVFS_WRITE = 0,
    FAULTVFS_SYNC = 1,
    FAULTVFS_READ = 2,
    /** xLock, xUnlock and xShmLock calls: counted only, never failed. */
    FAULTVFS_LOCK = 3,
    FAULTVFS_KINDS = 4,
};

/**
 * Registers the VFS as `name` (not as the default). Registering the same name again does nothing.
 * Returns SQLITE_OK, or SQLITE_ERROR when there is no default VFS.
 */
int faultvfs_register(const char *name);

/** Zeroes the counters and makes the `n`th (1-based) call of `kind` fail with `errcode`, once. */
void faultvfs_arm(int kind, long n, int errcode);

/** Like faultvfs_arm, but every call of `kind` from the `n`th on fails. */
void faultvfs_arm_persistent(int kind, long n, int errcode);

/** How many calls of `kind` were made since the last arm or disarm. */
long faultvfs_count(int kind);

/** How many calls were failed since the last arm. */
long faultvfs_injected(void);

/** Stops failing calls and zeroes the counters; ends a power cut (calls reach the disk again). */
void faultvfs_disarm(void);

/** What a power cut does to the writes not yet synced. */
enum {
    /** Every one is lost. */
    FAULTVFS_POWER_DROP = 0,
    /** Each, independently, is kept, lost, or torn: a prefix written, the rest as it was. */
    FAULTVFS_POWER_TEAR = 1,
};

/**
 * Simulates a power cut at the `n`th xSync (1-based, counted from now), the way SQLite's own crash
 * tests do: from now on the VFS remembers, for every open file, what each write replaced since the
 * file's last sync; when the `n`th sync is called it does not happen: the unsynced writes of every
 * open file are undone (`mode` says how, `seed` drives FAULTVFS_POWER_TEAR's choices), and every
 * later read, write, sync, truncate, delete and open fails, as if the machine had stopped, until
 * faultvfs_disarm. The files can then be reopened with another VFS, as after a reboot.
 * Writes of a file closed before the cut are taken as durable.
 */
void faultvfs_arm_power_loss(long n, int mode, unsigned long long seed);

/** True once the armed power cut happened. */
int faultvfs_power_was_cut(void);

/** How many unsynced writes the last cut lost entirely, and how many it tore. */
long faultvfs_power_lost_writes(void);
long faultvfs_power_torn_writes(void);

#endif

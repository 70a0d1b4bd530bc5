#ifndef VODAPP_CFILESHIMS_H
#define VODAPP_CFILESHIMS_H

/*
 * Linux file calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module does
 * not define.
 */
#include <stdint.h>

/* Starts writeback of a file range without waiting for it (sync_file_range with
   SYNC_FILE_RANGE_WRITE). Returns 0, or -1 with errno set. */
int vod_start_writeback(int fd, int64_t offset, int64_t length);

/* Reserves the disk blocks of length bytes from offset without changing the file's size
   (fallocate with FALLOC_FL_KEEP_SIZE). Returns 0, or -1 with errno set: ENOSPC when they do not
   fit, EOPNOTSUPP where the file system cannot reserve. */
int vod_reserve(int fd, int64_t offset, int64_t length);

/* Gives back the blocks of length bytes from offset (fallocate with FALLOC_FL_PUNCH_HOLE and
   FALLOC_FL_KEEP_SIZE): a reservation past what was written. Returns 0, or -1 with errno set. */
int vod_release_reserved(int fd, int64_t offset, int64_t length);

/* Renames from to to unless to exists (renameat2 with RENAME_NOREPLACE). Returns 0, or -1 with
   errno set: EEXIST when to exists; EINVAL or ENOSYS where the file system cannot promise it. */
int vod_rename_noreplace(const char *from, const char *to);

/* renameat2 with RENAME_NOREPLACE, relative to two directory descriptors. */
int vod_renameat_noreplace(int fromdir, const char *from, int todir, const char *to);

/* Swaps the names from and to, relative to the folders fromdir and todir (renameat2 with
   RENAME_EXCHANGE); -1 with errno set when it fails (EINVAL where the file system cannot). */
int vod_renameat_exchange(int fromdir, const char *from, int todir, const char *to);

/* Whether the directory open at fd is the root of a mount (statx's STATX_ATTR_MOUNT_ROOT):
   1 or 0, or -1 where the kernel does not tell (before Linux 5.8) or statx fails. */
int vod_is_mount_root(int fd);

/* The f_type of the file system of fd (fstatfs), such as 0x4d44 for FAT; -1 with errno set when
   fstatfs fails. */
int64_t vod_filesystem_type(int fd);

/* Has free() give a heap's free top back to the system past 128 KiB, in every arena, and blocks
   from 128 KiB up mapped on their own, for good: glibc otherwise raises both limits, up to 32 and
   64 MiB, each time a large block is freed (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD). */
void vod_keep_heap_trimmed(void);
/* A read lease on `fd` (opened read-only): 0, or EAGAIN when any process has the file open for
   writing, or why the file system has none. Held until `fd` is closed; an open for writing
   meanwhile waits for that. SIGIO, which signals a lease break, is ignored from then on. */
int vod_take_read_lease(int fd);
/* glibc's malloc makes at most `count` arenas (mallopt M_ARENA_MAX); call before any thread starts. */
void vod_limit_malloc_arenas(int count);

/* Gives the pages malloc holds free, in every arena, back to the system (glibc's malloc_trim). */
void vod_release_free_heap(void);

#endif

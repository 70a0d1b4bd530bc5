#define _GNU_SOURCE
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "CFileShims.h"

int vod_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

int vod_reserve(int fd, int64_t offset, int64_t length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, (off64_t)offset, (off64_t)length);
}

int vod_release_reserved(int fd, int64_t offset, int64_t length) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off64_t)offset, (off64_t)length);
}

int vod_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int vod_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) {
    return renameat2(fromdir, from, todir, to, RENAME_NOREPLACE);
}

int vod_renameat_exchange(int fromdir, const char *from, int todir, const char *to) {
    return renameat2(fromdir, from, todir, to, RENAME_EXCHANGE);
}

int vod_is_mount_root(int fd) {
    struct statx info;
    if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_TYPE, &info) != 0) return -1;
    if (!(info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) return -1;
    return (info.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
}

int64_t vod_filesystem_type(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return -1;
    return (int64_t)info.f_type;
}

void vod_keep_heap_trimmed(void) {
#ifdef __GLIBC__
    /* Fixed values also turn off glibc's raising of both as large blocks are freed. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

int vod_take_read_lease(int fd) {
    /* A lease break is signalled to the holder with SIGIO, whose default action ends the
       process: vodapp holds a lease for milliseconds and lets it go by closing, so the signal is
       of no use to it. Nothing else of vodapp's asks for SIGIO. */
    signal(SIGIO, SIG_IGN);
    return fcntl(fd, F_SETLEASE, F_RDLCK) == 0 ? 0 : errno;
}

void vod_limit_malloc_arenas(int count) {
#ifdef __GLIBC__
    mallopt(M_ARENA_MAX, count);
#endif
}

void vod_release_free_heap(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

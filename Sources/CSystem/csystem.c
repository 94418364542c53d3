#define _GNU_SOURCE
#include "csystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#endif

int hls_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    if (syscall(SYS_renameat2, from_dir, from, to_dir, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
#elif defined(__APPLE__)
    if (renameatx_np(from_dir, from, to_dir, to, RENAME_EXCL) == 0) return 0;
    if (errno != ENOTSUP && errno != EINVAL) return -1;
#endif
    // The filesystem cannot rename without replacing: a hard link fails with EEXIST instead.
    if (linkat(from_dir, from, to_dir, to, 0) != 0) return -1;
    return unlinkat(from_dir, from, 0);
}

int hls_lock_exclusive(int fd, int wait) {
    return flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
}

int hls_sync_filesystem(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

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

// glibc 2.29 added addchdir_np, 2.34 addclosefrom_np: both are wanted so that the child changes
// folder itself (the parent's working folder is shared by every thread) and inherits no
// descriptor but the three it is given, whatever other threads opened without O_CLOEXEC.
int hls_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 29)
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}

int hls_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions;
    (void)from;
    return ENOSYS;
#endif
}

int hls_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    errno = ENOSYS;
    return -1;
#endif
}

#ifndef HLSCHECK_CSYSTEM_H
#define HLSCHECK_CSYSTEM_H

#include <spawn.h>

/// Renames `from` (relative to folder descriptor `from_dir`) to `to` (relative to `to_dir`) only
/// when `to` does not exist, atomically: Linux renameat2(RENAME_NOREPLACE), macOS
/// renameatx_np(RENAME_EXCL); where neither is supported by the filesystem, linkat + unlinkat
/// (which also never replaces). Returns 0, or -1 with errno set (EEXIST when `to` exists).
int hls_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to);

/// flock(2), which Glibc's Swift module exports without its LOCK_* constants on every platform.
int hls_lock_exclusive(int fd, int wait);

/// Flushes every file of the filesystem holding `fd` to disk in one call: Linux syncfs(2), which
/// reports writeback errors since Linux 5.8. Elsewhere -1 with errno ENOSYS (flush file by file).
int hls_sync_filesystem(int fd);

/// What the test suite's process runner needs of posix_spawn and pipe2 that Glibc's Swift module
/// leaves out (they are GNU extensions, declared only under _GNU_SOURCE). Each returns 0 or an
/// errno value (the spawn actions, as posix_spawn's own functions do), or -1 with errno set
/// (hls_pipe_cloexec); ENOSYS where the C library lacks the call.
int hls_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
int hls_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from);
int hls_pipe_cloexec(int fds[2]);

#endif

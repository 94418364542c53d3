#ifndef HLSCHECK_CSYSTEM_H
#define HLSCHECK_CSYSTEM_H

/// Atomically exchanges two paths (files or folders) on the same filesystem: Linux
/// renameat2(RENAME_EXCHANGE), macOS renamex_np(RENAME_SWAP). Returns 0, or -1 with errno set.
int hls_exchange_paths(const char *first, const char *second);

#endif

#ifndef HLSCHECK_CLAZYLIBRARIES_H
#define HLSCHECK_CLAZYLIBRARIES_H
// FFmpeg, libxml2 and libcurl are loaded with dlopen the first time one of their functions is called
// (docs/benchmarks.md "Start-up"): the dynamic loader would otherwise map and relocate
// FFmpeg's ~130 dependent libraries before `main`, ~40 ms, even for `--version` or a
// `--playlist-only` check that never calls them. LazyLibraries.c defines, for every function the
// Swift code uses, a stub of the same name (hidden: never exported, so no library's own calls
// can bind to it) that calls the real function through a pointer looked up once.

/// Loads FFmpeg's libraries and looks up every function hlscheck uses (once per process;
/// thread-safe). NULL when they are loaded; otherwise one line naming the library that could not
/// be loaded, the loader's reason and the Debian package that provides it.
const char *_Nullable hls_load_ffmpeg(void);

/// As `hls_load_ffmpeg`, for libxml2 (the JUnit and HTML reports).
const char *_Nullable hls_load_libxml2(void);

/// As `hls_load_ffmpeg`, for libcurl and zlib (http(s) sources: HLSRemote).
const char *_Nullable hls_load_curl(void);

#endif

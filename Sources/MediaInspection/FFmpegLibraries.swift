internal import CLazyLibraries

/// FFmpeg's libraries are loaded the first time hlscheck needs them, not when it starts:
/// `--version`, `rules` or a `--playlist-only` check never pay for mapping them. A command that
/// will read media calls `load()` first, so that a missing library is one clear message and exit
/// status 2 rather than a failure in the middle of a run.
package enum FFmpegLibraries {
    /// Loads libavformat, libavcodec, libavutil, libswscale and libswresample (once per process,
    /// thread-safe). Throws when one cannot be loaded, naming it and the Debian package to install.
    package static func load() throws(LibraryUnavailable) {
        if let failure = hls_load_ffmpeg() {
            throw LibraryUnavailable(description: String(cString: failure))
        }
    }
}

/// A shared library hlscheck needs could not be loaded: which one, the loader's reason and the
/// Debian package that provides it.
package struct LibraryUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line, e.g. "cannot load libavformat.so.59 (…): install the Debian package libavformat59".
    package var description: String

    /// Makes an error with that message.
    package init(description: String) {
        self.description = description
    }
}

import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSPlaylist

/// `--max-…`, `--timeout`, `--root`, `--allow-outside-root`: what one run may read and cost
/// (docs/security.md). Shared by the commands that read streams.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-playlist-bytes"),
        help: ArgumentHelp("Largest playlist read, in bytes (default 16777216).", valueName: "bytes"))
    var maxPlaylistBytes: Int?

    @Option(
        name: .customLong("max-playlist-lines"),
        help: ArgumentHelp("Most lines in one playlist (default 1000000).", valueName: "lines"))
    var maxPlaylistLines: Int?

    @Option(
        name: .customLong("max-playlists"),
        help: ArgumentHelp(
            "Most playlists one stream names, root included, each spelling of one counted (default 1000).",
            valueName: "count"))
    var maxPlaylists: Int?

    @Option(
        name: .customLong("max-segments"),
        help: ArgumentHelp("Most segments in one media playlist (default 100000).", valueName: "count"))
    var maxSegments: Int?

    @Option(
        name: .customLong("max-segment-bytes"),
        help: ArgumentHelp("Largest segment read, in bytes (default 268435456).", valueName: "bytes"))
    var maxSegmentBytes: Int?

    @Option(
        name: .customLong("max-id3-bytes"),
        help: ArgumentHelp("Largest ID3 tag read from a segment, in bytes (default 16777216).", valueName: "bytes"))
    var maxID3Bytes: Int?

    @Option(
        name: .customLong("max-image-pixels"),
        help: ArgumentHelp("Largest poster decoded, in pixels (default 40000000).", valueName: "pixels"))
    var maxImagePixels: Int?

    @Option(
        help: ArgumentHelp(
            "Stop the run after this many seconds with exit code 2 (default 3600; 0: no limit).", valueName: "seconds"))
    var timeout: Int?

    @Option(
        help: ArgumentHelp(
            "Folder a local stream may read from (default: the folder given, else each input playlist's folder).",
            valueName: "folder"), completion: .directory)
    var root: String?

    @Flag(name: .customLong("allow-outside-root"), help: "Read local files outside the stream's root.")
    var allowOutsideRoot = false

    /// Each `--max-…` flag, the option that holds it and the limit it sets: what `validate()`
    /// checks and `limits` applies.
    private static var maxima: [(flag: String, option: KeyPath<Self, Int?>, limit: WritableKeyPath<Limits, Int>)] {
        [
            ("--max-playlist-bytes", \.maxPlaylistBytes, \.playlistBytes),
            ("--max-playlist-lines", \.maxPlaylistLines, \.playlistLines),
            ("--max-playlists", \.maxPlaylists, \.playlists),
            ("--max-segments", \.maxSegments, \.segmentsPerPlaylist),
            ("--max-segment-bytes", \.maxSegmentBytes, \.segmentBytes),
            ("--max-id3-bytes", \.maxID3Bytes, \.id3Bytes),
            ("--max-image-pixels", \.maxImagePixels, \.imagePixels),
        ]
    }

    func validate() throws {
        for maximum in Self.maxima {
            if let value = self[keyPath: maximum.option], value < 1 {
                throw ValidationError("\(maximum.flag) must be at least 1, got \(value)")
            }
        }
        if let timeout, timeout < 0 {
            throw ValidationError("--timeout must be 0 (no limit) or more seconds, got \(timeout)")
        }
        if let root {
            guard StreamDiscovery.isFolder(root) else {
                throw ValidationError("--root \(TerminalText.escaped(root)) is not a folder")
            }
        }
    }

    /// The defaults with every given flag applied.
    var limits: Limits {
        var limits = Limits()
        for maximum in Self.maxima {
            if let value = self[keyPath: maximum.option] { limits[keyPath: maximum.limit] = value }
        }
        if let timeout { limits.timeoutSeconds = timeout == 0 ? nil : timeout }
        return limits
    }

    var confinement: Confinement { Confinement(root: root, allowOutside: allowOutsideRoot) }

    func apply(to configuration: inout CheckConfiguration) {
        configuration.limits = limits
        configuration.confinement = confinement
    }

    /// Ends the process with exit code 2 once the run has taken `--timeout` seconds. A thread of
    /// its own, not a task: a read that blocks every worker of the concurrency pool must not
    /// block the watchdog too.
    func startWatchdog(command: String) {
        guard let seconds = limits.timeoutSeconds else { return }
        startDetachedThread {
            var left = timespec(tv_sec: Int(seconds), tv_nsec: 0)
            var remaining = timespec()
            // nanosleep stops early for a signal and says how long was left.
            while nanosleep(&left, &remaining) != 0 && errno == EINTR { left = remaining }
            printError(
                "hlscheck: \(command) stopped after \(seconds) s, the run time limit; nothing was reported (raise it with --timeout SECONDS, 0 for none)"
            )
            exitProcess(2)
        }
    }
}

import Dispatch
import FuzzSupport
import HLSCheck
import HLSPlaylist
import HLSReporting
import MediaInspection
import Synchronization

/// The three files of a fuzzed stream: every URI other than the root reads the media playlist,
/// every segment (and init section) reads the segment bytes.
struct FuzzedStream: PlaylistSource, SegmentByteSource {
    static let root = "fuzz/master.m3u8"
    let master: [UInt8], media: [UInt8], segment: [UInt8]

    func read(_ uri: String) async throws -> [UInt8] { uri == Self.root ? master : media }
    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] { segment }
}

final class Outcome: Sendable {
    let report = Mutex<CheckReport?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// Separates the three parts of an input (playlists never contain NUL bytes).
let separator: [UInt8] = [0, 0, 0, 0]

/// Whole checks of an in-memory stream: the loader, the inspector, the measurements (peak and
/// average bit rate from EXTINF and segment sizes) and every rule. Layout: one flag byte (bit 0:
/// --playlist-only), then multivariant playlist, NUL×4, media playlist, NUL×4, segment. The
/// report is then rendered in every format.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheck(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let flags = bytes.first else { return 0 }
    var parts: [[UInt8]] = []
    var rest = bytes.dropFirst()
    while parts.count < 2, let cut = rest.firstRange(of: separator) {
        parts.append(Array(rest[..<cut.lowerBound]))
        rest = rest[cut.upperBound...]
    }
    parts.append(Array(rest))
    while parts.count < 3 { parts.append([]) }
    let stream = FuzzedStream(master: parts[0], media: parts[1], segment: parts[2])
    // Every segment line is one libavformat inspection: past a few, an input teaches nothing
    // new and only slows the fuzzer down, so long playlists are checked without media.
    let segmentLines = parts[1].split(separator: 0x0A).count { !$0.isEmpty && $0.first != UInt8(ascii: "#") }
    let playlistOnly = flags & 1 != 0 || segmentLines > 8
    let checker = Checker(
        configuration: CheckConfiguration(playlistOnly: playlistOnly), source: stream, segmentSource: stream)
    let outcome = Outcome()
    Task {
        let report = try? await checker.check(FuzzedStream.root)
        outcome.report.withLock { $0 = report }
        outcome.done.signal()
    }
    outcome.done.wait()
    if let report = outcome.report.withLock({ $0 }) {
        for diagnostic in report.diagnostics {
            expectInvariant(!diagnostic.message.isEmpty, "a diagnostic without a message (\(diagnostic.rule))")
        }
        // Every report format: what the playlists say ends up in text, JSON and XML.
        _ = TextReporter().render([report])
        _ = JSONReporter().render([report])
        _ = SARIFReporter().render([report])
        _ = GitHubActionsReporter().render([report])
        expectInvariant((try? JUnitReporter(timestamp: "2026-01-01T00:00:00", hostname: "fuzz").render([report])) != nil,
                        "the JUnit report could not be written")
    }
    return 0
}

@main
enum CheckFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzCheck(data, size) }
    }
}

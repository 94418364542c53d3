import Dispatch
import FuzzSupport
@testable import HLSCheck
@testable import HLSPlaylist
@testable import HLSReporting
@testable import MediaInspection
import Synchronization

/// The three files of a fuzzed stream: every URI other than the root reads the media playlist,
/// every segment (and init section) reads the segment bytes.
struct FuzzedStream: PlaylistSource, SegmentByteSource {
    static let root = "fuzz/master.m3u8"
    let multivariant: [UInt8], media: [UInt8], segment: [UInt8]

    func read(_ uri: String) async throws -> [UInt8] { uri == Self.root ? multivariant : media }
    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] { segment }
}

final class Outcome: Sendable {
    let report = Mutex<CheckReport?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// The report size a fuzzed input may reach: `reportBytesPerInputByte` per byte of playlist,
/// plus `reportBytesFloor`. A short line legitimately makes a few findings of a few hundred
/// bytes each (≈ 100 bytes of JSON per input byte at worst); a line that repeats one thing, or
/// a cell that widens every row of a table, made thousands.
let reportBytesPerInputByte = 200
let reportBytesFloor = 256 << 10

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
    let stream = FuzzedStream(multivariant: parts[0], media: parts[1], segment: parts[2])
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
        let junit = try? JUnitReporter(timestamp: "2026-01-01T00:00:00", hostname: "fuzz").render([report])
        expectInvariant(junit != nil, "the JUnit report could not be written")
        let rendered = [
            ("text", TextReporter().render([report])), ("json", JSONReporter().render([report])),
            ("sarif", SARIFReporter().render([report])), ("github", GitHubActionsReporter().render([report])),
            ("junit", junit ?? ""),
        ]
        // A small input may not make a huge report: every format stays within a fixed multiple
        // of what the playlists hold (docs/security.md, "Limits"). Each URI of the multivariant
        // playlist reads the whole media playlist here, so the media playlist counts once per
        // URI line, as a stream of that many files would hold it.
        // EXT-X-DEFINE may add up to 4 × a playlist + 1 MiB of text (ValueLimits), which a
        // report may quote a few times (a variant's URI in the table and in a finding).
        let uriLines = parts[0].split(separator: 0x0A).count { !$0.isEmpty && $0.first != UInt8(ascii: "#") }
        let held = parts[0].count + parts[1].count * (uriLines + 1)
        let substitutes = bytes.firstRange(of: Array("{$".utf8)) != nil
        let expansion = substitutes ? 4 * held + ValueLimits.substitutionAllowance : 0
        let allowed = reportBytesPerInputByte * held + 16 * expansion + reportBytesFloor
        for (format, text) in rendered {
            expectInvariant(
                text.utf8.count <= allowed,
                "a \(format) report of \(text.utf8.count) bytes from playlists of \(held) bytes (at most \(allowed))")
        }
    }
    return 0
}

@main
enum CheckFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzCheck(data, size) }
    }
}

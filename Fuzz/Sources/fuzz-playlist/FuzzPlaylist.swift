import FuzzSupport
@testable import HLSPlaylist

/// Whole playlists through the tolerant parser: it must never trap or hang, and every problem
/// it reports must point at a line of the input.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    // Variables exercise EXT-X-DEFINE IMPORT/QUERYPARAM substitution too.
    let playlist = PlaylistParser.parse(
        bytes, uri: "https://example.com/a/fuzz.m3u8?token=1",
        importedVariables: ["v": "value"], queryParameters: ["token": "1"])
    let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    for problem in playlist.problems {
        expectInvariant(
            problem.location.line >= 0 && problem.location.line <= lineCount + 1,
            "problem at line \(problem.location.line) of a \(lineCount)-line input")
    }
    return 0
}

@main
enum PlaylistFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzPlaylist(data, size) }
    }
}

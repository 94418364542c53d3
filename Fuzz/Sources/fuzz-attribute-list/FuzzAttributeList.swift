import FuzzSupport
@testable import HLSPlaylist

/// Tags whose value is an attribute list (RFC 8216 §4.2, rfc8216bis §4.4), with a context line
/// that makes each one legal where it stands.
let attributeTags: [(prefix: String, suffix: String)] = [
    ("#EXTM3U\n#EXT-X-STREAM-INF:", "\nv.m3u8\n"),
    ("#EXTM3U\n#EXT-X-MEDIA:", "\n"),
    ("#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:", "\n"),
    ("#EXTM3U\n#EXT-X-SESSION-DATA:", "\n"),
    ("#EXTM3U\n#EXT-X-SESSION-KEY:", "\n"),
    ("#EXTM3U\n#EXT-X-CONTENT-STEERING:", "\n"),
    ("#EXTM3U\n#EXT-X-DEFINE:", "\n"),
    ("#EXTM3U\n#EXT-X-START:", "\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:", "\n#EXTINF:6,\ns.m4s\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-SERVER-CONTROL:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART-INF:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-SKIP:", "\n#EXTINF:6,\ns.ts\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-PRELOAD-HINT:", "\n"),
    ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-RENDITION-REPORT:", "\n"),
]

/// One attribute list on one line: the first byte picks the tag, the rest is the list (line
/// breaks become commas, so the input stays on the tag's line).
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttributeList(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let selector = bytes.first else { return 0 }
    let context = attributeTags[Int(selector) % attributeTags.count]
    let list = bytes.dropFirst().map { $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: ",") : $0 }
    let playlist = PlaylistParser.parse(
        Array(context.prefix.utf8) + list + Array(context.suffix.utf8), uri: "fuzz.m3u8")
    let tagLine = context.prefix.utf8.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    for problem in playlist.problems where problem.location.line == tagLine {
        expectInvariant(
            problem.location.column >= 0 && problem.location.column <= context.prefix.utf8.count + list.count + 1,
            "column \(problem.location.column) beyond the end of the tag line")
    }
    return 0
}

@main
enum AttributeListFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzAttributeList(data, size) }
    }
}

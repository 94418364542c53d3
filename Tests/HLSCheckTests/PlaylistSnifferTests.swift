import HLSCheck
import HLSPlaylist
import Testing
import StreamSources

/// Playlists from memory.
private struct StaticSource: PlaylistSource {
    var files: [String: [UInt8]]

    func read(_ uri: String) async throws -> [UInt8] {
        guard let bytes = files[uri] else { throw InputReadError(uri: uri, reason: "no such file") }
        return bytes
    }
}

@Suite struct PlaylistSnifferTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n",
        "#EXTM3U",
        "#EXTM3U\r\n",
        "\n\n  #EXTM3U\n",  // blank lines first: the parser warns, it is still a playlist
        "\u{FEFF}#EXTM3U\n",  // a byte order mark: RFC 8216 §4.1 forbids it, the parser's concern
    ])
    func acceptsWhatStartsWithTheHeader(_ text: String) {
        #expect(PlaylistSniffer.refusal(Self.bytes(text), uri: "a.m3u8") == nil)
    }

    @Test(
        arguments: [
            (
                [0x47] + [UInt8](repeating: 0, count: 187) + [0x47] + [UInt8](repeating: 0, count: 187),
                "an MPEG-TS segment", true
            ),
            (Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0], "a packed-audio segment", true),
            ([0xFF, 0xF1, 0x50, 0x80], "an audio segment (AAC ADTS or MPEG audio frames)", true),
            ([0x0B, 0x77, 0x00, 0x00], "an AC-3 or E-AC-3 audio segment", true),
            ([0, 0, 0, 24] + Array("ftypiso6".utf8), "an MP4 (fMP4/CMAF) segment", true),
            ([0, 0, 0, 24] + Array("moof".utf8), "an MP4 (fMP4/CMAF) segment", true),
            ([0xFF, 0xD8, 0xFF, 0xE0], "a JPEG image", false),
            ([0x89] + Array("PNG\r\n".utf8), "a PNG image", false),
            (Array("<!DOCTYPE html><html><body>502</body></html>".utf8), "an HTML page", false),
            (Array("<?xml version=\"1.0\"?><MPD>".utf8), "a DASH manifest (MPD)", false),
            (Array("{\"error\": 1}".utf8), "a JSON document", false),
        ] as [([UInt8], String, Bool)])
    func namesWhatTheBytesLookLike(_ bytes: [UInt8], _ kind: String, _ isSegment: Bool) throws {
        let reason = try #require(PlaylistSniffer.refusal(bytes, uri: "x/seg0.ts"))
        #expect(reason.hasPrefix("not a playlist: it looks like \(kind)"), "\(reason)")
        #expect(reason.contains("(a playlist starts with #EXTM3U, RFC 8216 §4.3.1.1)"))
        #expect(
            reason.hasSuffix("; to look inside a segment, run: hlscheck inspect x/seg0.ts") == isSegment, "\(reason)")
    }

    @Test func refusesAnEmptyFile() {
        #expect(PlaylistSniffer.refusal([], uri: "a.m3u8")?.hasPrefix("not a playlist: the file is empty") == true)
        #expect(
            PlaylistSniffer.refusal(Self.bytes("\n \n"), uri: "a.m3u8")?.hasPrefix("not a playlist: the file is empty")
                == true)
    }

    @Test func namesTheFirstLineOfTextThatIsNotAPlaylist() {
        #expect(
            PlaylistSniffer.refusal(Self.bytes("a.ts\nb.ts\n"), uri: "a.m3u8")
                == "not a playlist: its first line is \"a.ts\" (a playlist starts with #EXTM3U, RFC 8216 §4.3.1.1)")
        // A control character in the line is escaped, never echoed to a terminal.
        #expect(PlaylistSniffer.refusal(Self.bytes("x\u{7F}y\n"), uri: "a.m3u8")?.contains("\"x\\x7fy\"") == true)
    }

    @Test(arguments: ["#EXT-X-VERSION:3\n#EXTM3U\n", "# made by a script\n#EXTM3U\n", "#EXTM3Ux\n"])
    func leavesAMisplacedHeaderToTheParser(_ text: String) {
        // A playlist with its header missing or late: checked, with a playlist-syntax finding.
        #expect(PlaylistSniffer.refusal(Self.bytes(text), uri: "a.m3u8") == nil)
    }

    @Test func refusesBinaryItCannotName() {
        #expect(
            PlaylistSniffer.refusal([0x01, 0x02, 0x00, 0x41], uri: "a.m3u8")
                == "not a playlist: it holds binary data (a playlist starts with #EXTM3U, RFC 8216 §4.3.1.1)")
    }

    @Test func aShortTextStartingWithGIsNotTransportStream() {
        // 0x47 is "G": only a second sync byte 188 bytes on makes it MPEG-TS.
        let reason = PlaylistSniffer.refusal(Self.bytes("GET /master.m3u8\n"), uri: "a.m3u8")
        #expect(reason?.contains("its first line is \"GET /master.m3u8\"") == true, "\(reason ?? "")")
    }

    @Test func theCheckerRefusesASegmentAsInputWithoutParsingIt() async throws {
        let source = StaticSource(files: ["seg.ts": [0x47] + [UInt8](repeating: 0xFF, count: 187)])
        do {
            let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true), source: source).check(
                "seg.ts")
            Issue.record("a segment was checked as a playlist: \(report.diagnostics)")
        } catch {
            #expect(error.description.contains("not a playlist: it looks like an MPEG-TS segment"), "\(error)")
        }
    }
}

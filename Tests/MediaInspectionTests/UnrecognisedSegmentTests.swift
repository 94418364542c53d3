import Testing
@testable import MediaInspection

/// Bytes whose name has no segment extension and whose first bytes are no container hlscheck
/// knows go to libavformat's own probing. When that fails, libav's error is whatever the closest
/// demuxer returned — ENOMEM from its HLS demuxer, EPERM from concat, EINVAL — which tells a user
/// nothing true; the problem must say what the file is instead.
struct UnrecognisedSegmentTests {
    static let cases: [(name: String, bytes: [UInt8], says: String)] = [
        (
            "index.m3u8", Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg0.ts\n#EXT-X-ENDLIST\n".utf8),
            "is a playlist (it starts with #EXTM3U), not a media segment"
        ),
        ("evil.seg", Array("ffconcat version 1.0\nfile /etc/hosts\n".utf8), "is not a media segment"),
        ("blob.bin", (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }, "is not a media segment"),
    ]

    @Test(arguments: cases)
    func aFileThatIsNoSegmentSaysWhatItIsNotWhatLibavReturned(_ name: String, _ bytes: [UInt8], _ says: String)
        async throws
    {
        let facts = try await SegmentInspector(source: MemorySource(files: [name: bytes])).inspect(
            SegmentRequest(uri: name, wantsStreamInfo: true))
        let problem = try #require(facts.problem)
        #expect(problem.contains(says), "\(problem)")
        for raw in ["avformat_open_input", "Cannot allocate memory", "Operation not permitted", "Invalid argument"] {
            #expect(!problem.contains(raw), "\(problem)")
        }
    }
}

/// A segment named like a container libavformat then cannot open (a runt: a transfer cut short
/// inside its first frame): the problem says what to check, not only libav's
/// "avformat_open_input: Invalid argument".
struct RuntSegmentTests {
    @Test(arguments: [4, 200])
    func aRuntMP3SaysItHoldsNoCompleteFrame(_ count: Int) async throws {
        let bytes = Array(try Fixtures.bytes("audio-apic.mp3").prefix(count))
        let facts = try await SegmentInspector(source: MemorySource(files: ["seg0.mp3": bytes]))
            .inspect(SegmentRequest(uri: "seg0.mp3", wantsStreamInfo: true))
        let problem = try #require(facts.problem)
        #expect(
            problem.contains("cannot be opened as MP3: its \(count) bytes hold no complete MP3 frame"), "\(problem)")
        #expect(problem.contains("check the file with ffprobe"))
        #expect(!problem.hasPrefix("avformat_open_input"))
    }
}

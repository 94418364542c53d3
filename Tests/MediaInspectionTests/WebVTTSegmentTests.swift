import Testing
@testable import MediaInspection

/// WebVTT segments of SUBTITLES renditions are measured for their bytes and recognised by their
/// signature (W3C WebVTT §4.1), whatever their name; bytes that do not start with it are no
/// WebVTT file, whatever their name says.
struct WebVTTSegmentTests {
    static func inspect(_ name: String, _ text: [UInt8]) async throws -> SegmentFacts {
        try await SegmentInspector(source: MemorySource(files: [name: text])).inspect(
            SegmentRequest(uri: name, wantsStreamInfo: true))
    }

    @Test(arguments: [
        ("en0.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"),
        ("en0.vtt", "\u{FEFF}WEBVTT - with a header comment\r\n"),
        ("cue?lang=en", "WEBVTT\tX\n"),
        ("en0.webvtt", "WEBVTT"),
    ])
    func aWebVTTSegmentCountsItsBytesAndIsNotDemuxed(_ name: String, _ text: String) async throws {
        let bytes = Array(text.utf8)
        let facts = try await Self.inspect(name, bytes)
        #expect(facts.container == .webVTT)
        #expect(facts.problem == nil)
        #expect(facts.byteCount == bytes.count)
        #expect(facts.tracks.map(\.kind) == [.subtitles])
        // Cue times are not the stream's timeline (X-TIMESTAMP-MAP maps them): none is reported.
        #expect(facts.firstPTS == nil && facts.duration == nil)
        #expect(facts.codecStrings.isEmpty)
    }

    @Test(arguments: [
        (
            "en0.vtt", "1\n00:00:00,000 --> 00:00:01,000\nan SRT cue\n",
            "does not start like webvtt (expected the WEBVTT signature"
        ),
        ("en0.vtt", "WEBVTTX\n", "does not start like webvtt"),
        ("en0.vtt", "", "segment is empty"),
    ])
    func bytesNamedVTTThatAreNoWebVTTAreAProblem(_ name: String, _ text: String, _ says: String) async throws {
        let facts = try await Self.inspect(name, Array(text.utf8))
        let problem = try #require(facts.problem)
        #expect(problem.contains(says), "\(problem)")
    }
}

import Foundation
import Testing
@testable import MediaInspection
import MediaFormats
import TestSupport

/// The first segment of a playlist gets `avformat_find_stream_info`; in MPEG-TS its H.264 and
/// HEVC frames are no longer decoded there (Demuxer.findStreamInfo). Every fact must
/// stay what it was when libavformat decoded them: each TS segment the tests know (the
/// fixtures, the samples, the shared corpus when present, and generated streams with B-frames
/// and HEVC that the others lack) is inspected both ways and the facts compared whole.
struct StreamInfoDifferentialTests {
    /// Every `.ts` file under `folder`, sorted.
    static func transportStreams(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".ts") }.sorted()
    }

    static let committedSegments: [String] =
        transportStreams(under: Fixtures.directory)
        + transportStreams(under: PackageRoot.url.appendingPathComponent("Samples"))

    static let corpusSegments: [String] = CorpusTests.segments.filter { $0.hasSuffix(".ts") }

    /// Facts with libavformat decoding video in find_stream_info (`decoding`) or not.
    static func facts(_ path: String, decoding: Bool) throws -> SegmentFacts {
        let source = try LocalSegmentSource().openSync(path, range: nil)
        return try SegmentInspector.inspect(
            uri: path, segment: source, initSection: nil, wantsStreamInfo: true, streamInfoDecodesVideo: decoding)
    }

    static func expectSameFacts(_ paths: [String]) throws {
        for path in paths {
            let decoded = try facts(path, decoding: true)
            let parsed = try facts(path, decoding: false)
            #expect(parsed == decoded, "\(path): facts differ without decoding video in find_stream_info")
        }
    }

    @Test func committedSegmentsHaveTheSameFactsWithoutDecodingVideo() throws {
        #expect(Self.committedSegments.count >= 5, "the fixtures and samples hold TS segments")
        try Self.expectSameFacts(Self.committedSegments)
    }

    @Test(.enabled(if: !corpusSegments.isEmpty, "shared corpus not present"))
    func corpusSegmentsHaveTheSameFactsWithoutDecodingVideo() throws {
        try Self.expectSameFacts(Self.corpusSegments)
    }

    /// H.264 with B-frames (a reordering delay that decoding would have measured), HEVC, and a
    /// stream cut in the middle of a frame.
    @Test func generatedStreamsHaveTheSameFactsWithoutDecodingVideo() throws {
        let folder = try TemporaryFolder()
        let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
        let audio = [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2", "-c:a", "aac", "-b:a", "64k",
        ]
        try StreamingInspectionTests.ffmpeg(
            video + audio + ["-c:v", "libx264", "-bf", "3", "-g", "25", "-f", "mpegts", folder.path("bframes.ts")])
        try StreamingInspectionTests.ffmpeg(
            video + [
                "-c:v", "libx265", "-x265-params", "log-level=none", "-g", "25", "-f", "mpegts", folder.path("hevc.ts"),
            ])
        let bframes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("bframes.ts"))))
        try Data(bframes.prefix(bframes.count / 2)).write(to: URL(fileURLWithPath: folder.path("cut.ts")))
        let paths = ["bframes.ts", "hevc.ts", "cut.ts"].map(folder.path)
        try Self.expectSameFacts(paths)
        // The facts are those a rule needs, not empty ones that agree by accident.
        let hevc = try Self.facts(folder.path("hevc.ts"), decoding: false)
        let track = try #require(hevc.tracks.first { $0.kind == .video })
        #expect(track.width == 320 && track.height == 240)
        #expect(track.codecString?.hasPrefix("hvc1.") == true || track.codecString?.hasPrefix("hev1.") == true)
    }
}

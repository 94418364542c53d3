import Foundation
import HLSCheck
import HLSPlaylist
import MediaInspection
import Testing
import TestSupport

/// Streams whose check trapped instead of reporting (found with Fuzz/fuzz-check, `make fuzz`):
/// extreme but grammatical EXTINF values made bit rates and durations too large for an Int.
@Suite("Fuzzing regressions: checking")
struct CheckFuzzRegressionTests {
    /// One audio-only variant, one segment (the sample's real TS segment) with the given EXTINF.
    struct OneSegmentStream: PlaylistSource, SegmentByteSource {
        var media: String
        var segment: [UInt8]

        func read(_ uri: String) async throws -> [UInt8] {
            uri == "mem/master.m3u8"
                ? Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n".utf8)
                : Array(media.utf8)
        }

        func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] { segment }
    }

    static let sampleSegment = PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg0.ts")

    static func check(media: String) async throws -> CheckReport {
        let stream = OneSegmentStream(media: media, segment: try [UInt8](Data(contentsOf: sampleSegment)))
        return try await Checker(source: stream, segmentSource: stream).check("mem/master.m3u8")
    }

    /// Each of these EXTINF values trapped the check once. The parser now refuses them (a located
    /// playlist-syntax error, docs/security.md) and the check completes.
    @Test(
        "extreme EXTINF values are located errors, not traps",
        arguments: [
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:0.0000000000000000001,\nseg0.ts\n#EXT-X-ENDLIST\n",
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:99999999999999999999999,\nseg0.ts\n#EXT-X-ENDLIST\n",
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:99999999999999999999999,\nseg0.ts\n#EXT-X-ENDLIST\n",
        ])
    func extremeExtinfIsALocatedError(_ media: String) async throws {
        let report = try await Self.check(media: media)
        let syntax = try #require(
            report.diagnostics.first {
                $0.rule == "playlist-syntax" && $0.location?.uri == "mem/audio.m3u8"
                    && $0.message.contains("out of range")
            })
        #expect(syntax.location?.line == (media.hasPrefix("#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF") ? 3 : 4))
    }

    @Test("bit-rate windows clamp instead of trapping")
    func bitrateWindowSaturates() {
        let vanishing = [BitrateWindow.Segment(bytes: 1000, duration: 1e-19)]
        #expect(BitrateWindow.peak(vanishing, targetDuration: 6) == BitrateWindow.maximumBitrate)
        #expect(BitrateWindow.average(vanishing) == BitrateWindow.maximumBitrate)
        let endless = [PosterBudget.Segment(bytesWithoutPoster: 1000, duration: 1e300, layout: .inExistingTag)]
        #expect(PosterBudget.largestPoster(within: 64_000, endless, targetDuration: 6) != nil)
    }
}

extension CheckFuzzRegressionTests {
    /// A variant and its audio rendition both at a saturated peak: their sum saturates too.
    struct VariantWithRendition: PlaylistSource, SegmentByteSource {
        var segment: [UInt8]

        func read(_ uri: String) async throws -> [UInt8] {
            if uri == "mem/master.m3u8" {
                return Array(
                    """
                    #EXTM3U
                    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="main",DEFAULT=YES,URI="audio.m3u8"
                    #EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS="mp4a.40.2",AUDIO="a"
                    main.m3u8

                    """.utf8)
            }
            return Array(
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:0.0000000000000000001,\nseg0.ts\n#EXT-X-ENDLIST\n"
                    .utf8)
        }

        func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] { segment }
    }

    @Test("a variant and its rendition at saturated peaks add up without trapping")
    func saturatedPeaksAddUp() async throws {
        let stream = VariantWithRendition(segment: try [UInt8](Data(contentsOf: Self.sampleSegment)))
        let report = try await Checker(source: stream, segmentSource: stream).check("mem/master.m3u8")
        // The 10⁻¹⁹ s EXTINF is refused, so nothing is measured at an absurd rate; no trap.
        #expect(report.diagnostics.contains { $0.rule == "playlist-syntax" })
        #expect((report.variants.first?.measuredPeakBitrate ?? 0) <= 2 * BitrateWindow.maximumBitrate)
    }
}

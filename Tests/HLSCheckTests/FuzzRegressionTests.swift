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

    @Test("a 10⁻¹⁹ s segment reports a peak bit rate instead of trapping")
    func vanishingExtinfReportsThePeak() async throws {
        let report = try await Self.check(media: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:0.0000000000000000001,\nseg0.ts\n#EXT-X-ENDLIST\n")
        let peak = try #require(report.variants.first?.measuredPeakBitrate)
        #expect(peak == Int.max)
        #expect(report.diagnostics.contains { $0.rule == "bandwidth-below-peak" })
    }

    @Test("a 10²³ s segment without EXT-X-TARGETDURATION is measured instead of trapping")
    func hugeExtinfWithoutTargetDurationIsMeasured() async throws {
        let report = try await Self.check(media: "#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:99999999999999999999999,\nseg0.ts\n#EXT-X-ENDLIST\n")
        #expect(report.variants.first?.measuredPeakBitrate == 1)   // 8 bits per 10²³ s, rounded up
        #expect(report.diagnostics.contains { $0.severity == .error })
    }

    @Test("a 10²³ s segment under a target duration names both durations instead of trapping")
    func hugeExtinfNamesTheDurations() async throws {
        let report = try await Self.check(media: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:99999999999999999999999,\nseg0.ts\n#EXT-X-ENDLIST\n")
        let mismatch = try #require(report.diagnostics.first { $0.message.contains("by its timestamps") })
        #expect(mismatch.message.contains("EXTINF says 9223372036854775.807 s"))
    }

    @Test("bit-rate windows saturate instead of trapping")
    func bitrateWindowSaturates() {
        let vanishing = [BitrateWindow.Segment(bytes: 1000, duration: 1e-19)]
        #expect(BitrateWindow.peak(vanishing, targetDuration: 6) == Int.max)
        #expect(BitrateWindow.average(vanishing) == Int.max)
        let endless = [BitrateWindow.Segment(bytes: 1000, duration: 1e300)]
        #expect(BitrateWindow.largestAdditionWithin(64_000, endless, targetDuration: 6) == Int.max)
    }
}

extension CheckFuzzRegressionTests {
    /// A variant and its audio rendition both at a saturated peak: their sum saturates too.
    struct VariantWithRendition: PlaylistSource, SegmentByteSource {
        var segment: [UInt8]

        func read(_ uri: String) async throws -> [UInt8] {
            if uri == "mem/master.m3u8" {
                return Array("""
                    #EXTM3U
                    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="main",DEFAULT=YES,URI="audio.m3u8"
                    #EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS="mp4a.40.2",AUDIO="a"
                    main.m3u8

                    """.utf8)
            }
            return Array("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:0.0000000000000000001,\nseg0.ts\n#EXT-X-ENDLIST\n".utf8)
        }

        func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] { segment }
    }

    @Test("a variant and its rendition at saturated peaks add up without trapping")
    func saturatedPeaksAddUp() async throws {
        let stream = VariantWithRendition(segment: try [UInt8](Data(contentsOf: Self.sampleSegment)))
        let report = try await Checker(source: stream, segmentSource: stream).check("mem/master.m3u8")
        #expect(report.variants.first?.measuredPeakBitrate == Int.max)
    }
}

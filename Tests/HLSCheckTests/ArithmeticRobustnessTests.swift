@testable import HLSCheck
import TestSupport
import Testing

/// Defence in depth (docs/security.md, "Numbers from files"): the parser refuses absurd numbers,
/// and the arithmetic after it is total anyway — no Double or Int makes it trap.
@Suite("Arithmetic on any number")
struct ArithmeticRobustnessTests {
    typealias S = BitrateWindow.Segment

    static let durations: [Double] = [
        0, -6, 1e-300, .leastNonzeroMagnitude, 6, 1e17, 4e23, .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]
    static let sizes: [Int] = [0, -1, 1, 48_000, .max, .min]
    static let targets: [Int] = [0, -1, 6, 1_000_000, .max, .min]

    @Test("every bit-rate function returns a value in range", arguments: durations, sizes)
    func bitrateWindowIsTotal(duration: Double, bytes: Int) {
        let segments = [
            S(bytes: bytes, duration: duration), S(bytes: 48_000, duration: 6), S(bytes: bytes, duration: duration),
        ]
        for target in Self.targets {
            if let peak = BitrateWindow.peak(segments, targetDuration: target) {
                #expect((0...BitrateWindow.maximumBitrate).contains(peak))
            }
            let posterSegments = segments.map {
                PosterBudget.Segment(bytesWithoutPoster: $0.bytes, duration: $0.duration, layout: .inExistingTag)
            }
            if let bytes = PosterBudget.largestPoster(within: 64_000, posterSegments, targetDuration: target) {
                #expect(bytes >= 0)
            }
        }
        if let average = BitrateWindow.average(segments) {
            #expect((0...BitrateWindow.maximumBitrate).contains(average))
        }
    }

    @Test func aSegmentOfNoTimeAtAllPeaksAtTheClamp() {
        #expect(
            BitrateWindow.peak([S(bytes: 1_000, duration: 1e-300)], targetDuration: 6) == BitrateWindow.maximumBitrate)
        #expect(BitrateWindow.average([S(bytes: .max, duration: 1e-300)]) == BitrateWindow.maximumBitrate)
        // A negative or non-finite duration counts as none: no bit rate rather than a made-up one.
        #expect(BitrateWindow.peak([S(bytes: 1_000, duration: -6)], targetDuration: 6) == nil)
        #expect(BitrateWindow.average([S(bytes: 1_000, duration: .nan)]) == nil)
    }

    /// A target duration far beyond the segments used to make every window start scan to the end
    /// of the playlist: 20 000 segments meant 2·10^8 steps. Now a run holds at most
    /// `maximumRunLength` segments; no run qualifies, so the peak is the whole playlist's rate.
    @Test func hugeTargetDurationFallsBackToTheWholePlaylist() throws {
        let segments = Array(repeating: S(bytes: 1_000, duration: 0.5), count: 20_000)
        let peak = BitrateWindow.peak(segments, targetDuration: 1_000_000)
        #expect(peak == 16_000)
        #expect(peak == BitrateWindow.average(segments))
        // 64 kbit/s over 0.5 s segments leaves 3 000 bytes each; the APIC frame takes its header.
        let posterSegments = segments.map {
            PosterBudget.Segment(bytesWithoutPoster: $0.bytes, duration: $0.duration, layout: .inExistingTag)
        }
        let poster = try #require(PosterBudget.largestPoster(within: 64_000, posterSegments, targetDuration: 1_000_000))
        #expect(PosterBudget.pictureFrameBytes(imageBytes: poster) == 3_000)
    }

    @Test func zeroLengthSegmentsHaveNoBitrate() {
        let segments = Array(repeating: S(bytes: 1_000, duration: 0), count: 20_000)
        #expect(BitrateWindow.peak(segments, targetDuration: 6) == nil)
        #expect(BitrateWindow.average(segments) == nil)
    }

    @Test(
        "bit rates format on every Int",
        arguments: [
            (0, "0.0 kbit/s"), (49, "0.0 kbit/s"), (50, "0.1 kbit/s"), (9_999, "10.0 kbit/s"), (64_000, "64 kbit/s"),
            (1_250_000, "1.3 Mbit/s"), (-1_500, "-1.5 kbit/s"), (Int.max, "9223372036854.8 Mbit/s"),
            (Int.min, "-9223372036854.8 Mbit/s"),
        ])
    func formatsBitrate(_ value: Int, _ expected: String) {
        #expect(value.formattedBitrate == expected)
    }

    /// Seconds and percentages in findings (extinf-duration-mismatch, bandwidth-below-peak).
    @Test(
        "seconds format with one sign, on every Double",
        arguments: [
            (6.013967, "6.014"), (0, "0.000"), (-1.5, "-1.500"), (-0.0001, "0.000"), (999_999.9996, "1000000.000"),
            (1e17, "1e+17"), (Double.infinity, "inf"), (-Double.infinity, "-inf"),
        ])
    func formatsSeconds(_ value: Double, _ expected: String) {
        #expect(seconds(value) == expected)
    }

    @Test func percentagesNeverOverflow() {
        #expect(percent(110, of: 100) == "10 %")
        #expect(percent(.max, of: 1) == "\(Int.max) %")
        #expect(percent(.min, of: 1) == "\(Int.min) %")
        #expect(percent(5, of: 0) == "∞")
        #expect(seconds(.nan) == "nan")
    }
}

/// A multivariant playlist whose N variants all name one audio group of N renditions used to cost
/// N² rendition copies (3 000 × 3 000: 46 s and 4 GB); each group's list is now built once and
/// shared.
@Suite struct RenditionGroupScaleTests {
    @Test func variantsShareTheirGroupsRenditionList() async throws {
        let count = 1_000
        var multivariant = "#EXTM3U\n"
        for index in 0..<count {
            multivariant += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\(index)\",LANGUAGE=\"en\"\n"
        }
        for _ in 0..<count {
            multivariant += "#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"mp4a.40.2\",AUDIO=\"a\"\nv.m3u8\n"
        }
        let stream = try TemporaryFolder([
            "master.m3u8": multivariant,
            "v.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
        ])
        let checker = Checker(configuration: CheckConfiguration(playlistOnly: true))
        let analysis = try await checker.analyse(stream.path("master.m3u8"))
        #expect(analysis.variants.count == count)
        #expect(analysis.variants.allSatisfy { $0.audioRenditions.count == count })
        let storage = Set(
            analysis.variants.map { $0.audioRenditions.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
        #expect(storage.count == 1, "every variant of the group shares one list")
        #expect(checker.diagnose(analysis).allSatisfy { $0.rule != "playlist-syntax" })
    }
}

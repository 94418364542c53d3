import HLSCheck
import Testing

// Hand-computed cases for docs/measurement.md.
@Suite struct BitrateWindowTests {
    typealias S = BitrateWindow.Segment

    @Test func singleSegmentPeakIsItsOwnRate() {
        // 48 000 bytes in 6 s = 64 000 bit/s.
        #expect(BitrateWindow.peak([S(bytes: 48_000, duration: 6)], targetDuration: 6) == 64_000)
    }

    @Test func peakTakesTheRichestRunInsideTheWindow() {
        // TD 6: runs may last 3…9 s. Segments of 3 s: 12 000 B (32 kbit/s), 30 000 B (80 kbit/s),
        // 6 000 B (16 kbit/s). Best run: the 3 s segment alone at 80 000 bit/s.
        let segments = [S(bytes: 12_000, duration: 3), S(bytes: 30_000, duration: 3), S(bytes: 6_000, duration: 3)]
        #expect(BitrateWindow.peak(segments, targetDuration: 6) == 80_000)
        // Average: 48 000 B × 8 / 9 s = 42 666.7 → 42 667.
        #expect(BitrateWindow.average(segments) == 42_667)
    }

    @Test func shortRuntCountsOnlyWithItsNeighbour() {
        // The 23 ms, 752-byte runt alone would be 261 565 bit/s; with its 6 s neighbour:
        // (28 576 + 752) × 8 / 6.023 = 38 954.7 → 38 955.
        let segments = [S(bytes: 28_576, duration: 6.0), S(bytes: 752, duration: 0.023)]
        #expect(BitrateWindow.peak(segments, targetDuration: 6) == 38_955)
    }

    @Test func overlongSegmentStandsAlone() {
        // TD 4: window 2…6 s. A 10 s segment of 100 000 B = 80 000 bit/s stands alone.
        let segments = [S(bytes: 100_000, duration: 10), S(bytes: 10_000, duration: 4)]
        #expect(BitrateWindow.peak(segments, targetDuration: 4) == 80_000)
    }

    @Test func playlistShorterThanHalfTheTargetIsOneRun() {
        let segments = [S(bytes: 1_000, duration: 1), S(bytes: 3_000, duration: 1)]
        #expect(BitrateWindow.peak(segments, targetDuration: 10) == 16_000)
    }

    @Test func emptyOrZeroDurationHasNoRate() {
        #expect(BitrateWindow.peak([], targetDuration: 6) == nil)
        #expect(BitrateWindow.average([S(bytes: 100, duration: 0)]) == nil)
    }
}

@Suite struct PosterBudgetArithmeticTests {
    typealias S = BitrateWindow.Segment

    @Test func largestPosterThatFitsIsComputedPerSegment() {
        // 6 s segments of 30 000 B = 40 kbit/s. Budget 64 kbit/s leaves 24 kbit/s × 6 s / 8 =
        // 18 000 B per segment.
        let segments = [S(bytes: 30_000, duration: 6), S(bytes: 30_000, duration: 6)]
        #expect(BitrateWindow.largestAdditionWithin(64_000, segments, targetDuration: 6) == 18_000)
        // Adding exactly that many bytes lands on the budget, one more goes over.
        let full = segments.map { S(bytes: $0.bytes + 18_000, duration: $0.duration) }
        #expect(BitrateWindow.peak(full, targetDuration: 6) == 64_000)
    }

    @Test func nothingFitsWhenTheAudioAloneIsOverBudget() {
        #expect(BitrateWindow.largestAdditionWithin(64_000, [S(bytes: 60_000, duration: 6)], targetDuration: 6) == nil)
    }
}

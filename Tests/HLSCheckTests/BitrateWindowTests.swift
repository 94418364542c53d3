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
    typealias P = PosterBudget.Segment

    @Test func largestPosterThatFitsCountsTheFrameHeader() {
        // 6 s segments of 30 000 B = 40 kbit/s. Budget 64 kbit/s leaves 24 kbit/s × 6 s / 8 =
        // 18 000 B per segment, of which the APIC frame takes 24 (JPEG, empty description).
        let segments = [
            P(bytesWithoutPoster: 30_000, duration: 6, layout: .inExistingTag),
            P(bytesWithoutPoster: 30_000, duration: 6, layout: .inExistingTag),
        ]
        #expect(PosterBudget.largestPoster(within: 64_000, segments, targetDuration: 6) == 17_976)
        // A PNG's MIME type is one byte shorter, a description costs its bytes.
        #expect(
            PosterBudget.largestPoster(within: 64_000, segments, targetDuration: 6, mimeType: "image/png") == 17_977)
        #expect(PosterBudget.largestPoster(within: 64_000, segments, targetDuration: 6, description: "cover") == 17_971)
    }

    @Test func transportStreamPostersCostWholePackets() {
        // 6 s TS segments of 30 080 B (160 packets): 18 000 B may be added per segment, that is
        // 95 whole packets; the PES header (14), tag header (10) and frame header (24) leave
        // 95 × 184 − 48 = 17 432 image bytes.
        let segments = [P(bytesWithoutPoster: 30_080, duration: 6, layout: .transportStream(otherTagBytes: nil))]
        let fits = PosterBudget.largestPoster(within: 64_000, segments, targetDuration: 6)
        #expect(fits == 17_432)
        let frame = PosterBudget.pictureFrameBytes(imageBytes: fits ?? 0)
        #expect(PosterBudget.growth(.transportStream(otherTagBytes: nil), frameBytes: frame) <= 18_000)
        #expect(PosterBudget.growth(.transportStream(otherTagBytes: nil), frameBytes: frame + 1) > 18_000)
    }

    @Test func nothingFitsWhenTheAudioAloneIsOverBudget() {
        let segments = [P(bytesWithoutPoster: 60_000, duration: 6, layout: .inExistingTag)]
        #expect(PosterBudget.largestPoster(within: 64_000, segments, targetDuration: 6) == nil)
    }

    @Test func anUnreadableSegmentIsAHoleNotZeroBytes() {
        // 3 s segments, TD 6 (runs of 3–9 s): 12 000 B, missing, 12 000 B. Counted as 0 bytes the
        // missing one would halve every run through it; as a hole each neighbour stands alone.
        let segments = [
            BitrateWindow.Segment(bytes: 12_000, duration: 3),
            BitrateWindow.Segment(bytes: 0, duration: 3, measured: false),
            BitrateWindow.Segment(bytes: 12_000, duration: 3),
        ]
        #expect(BitrateWindow.peak(segments, targetDuration: 6) == 32_000)
        #expect(BitrateWindow.average(segments) == 32_000)
    }
}

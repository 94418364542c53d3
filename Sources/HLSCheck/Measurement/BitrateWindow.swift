/// Peak and average bit rate of a run of segments, as docs/measurement.md defines them
/// (RFC 8216 §4.3.4.2 "peak segment bit rate", windowed as in §4.1 of rfc8216bis).
///
/// Total on any input (docs/security.md, "Numbers from files"): a segment without a positive,
/// finite duration (EXTINF 0, or one the parser rejected — 1e20, NaN, negative — and left at 0)
/// is a hole like an unreadable segment, a negative byte count counts as 0, every result is
/// clamped to `maximumBitrate`, and the work is at most `maximumRunLength` steps per segment,
/// whatever the target duration.
package enum BitrateWindow {
    /// One segment as the arithmetic sees it.
    package struct Segment: Sendable, Hashable {
        /// The segment's size in bytes (what a client downloads).
        package var bytes: Int
        /// EXTINF duration in seconds.
        package var duration: Double
        /// False when the segment could not be read (missing, truncated, undemuxable): it is a
        /// hole, not a segment of 0 bytes — no run crosses it and the average leaves it out.
        package var measured: Bool

        /// Makes a segment; `duration` in seconds.
        package init(bytes: Int, duration: Double, measured: Bool = true) {
            self.bytes = bytes
            self.duration = duration
            self.measured = measured
        }

        /// Bits and seconds as the window sums them: never negative, never infinite.
        var bits: Double { Double(max(0, bytes)) * 8 }
        var seconds: Double { duration.isFinite && duration > 0 ? duration : 0 }
        /// Whether the segment takes part in any rate: read, and with a duration to spread its
        /// bits over. A segment of no usable duration would otherwise lend its bytes to its
        /// neighbours' window and make up a rate (RFC 8216 §4.3.4.2 divides by EXTINF).
        var counts: Bool { measured && seconds > 0 }
    }

    /// The largest bit rate a measurement reports, 2^53 − 1 bit/s: sums of a few of them still
    /// fit an Int, and JSON readers hold it exactly. Only absurd input gets near it.
    package static let maximumBitrate = 9_007_199_254_740_991

    /// The longest run of contiguous segments a window considers. A real window (≤ 1.5 × the
    /// target duration) holds a handful of segments; without this bound a huge target duration
    /// or thousands of zero-length segments would make every start scan to the end of the
    /// playlist (quadratic time).
    package static let maximumRunLength = 256

    /// A run of contiguous segments that qualifies for the peak.
    struct Run {
        var bits: Double
        var seconds: Double
        var count: Int
        /// The segments the run spans: contiguous ones, or for the whole-playlist run the first
        /// to the last measured segment (holes inside are not counted).
        var span: Range<Int> = 0..<0
    }

    /// Calls `body` with every qualifying run: contiguous measured segments lasting 0.5–1.5 × the
    /// target duration, a single segment longer than 1.5 × TD on its own; the whole playlist (its
    /// measured segments) when none qualifies (it is shorter than 0.5 × TD). No run crosses an
    /// segment that does not count (unmeasured, or without a duration). Nothing when nothing counts.
    static func forEachRun(_ segments: [Segment], targetDuration: Int, _ body: (Run) -> Void) {
        let target = Double(max(0, targetDuration))
        let low = 0.5 * target, high = 1.5 * target
        var found = false
        for start in segments.indices {
            var run = Run(bits: 0, seconds: 0, count: 0, span: start..<start)
            // Stops as soon as the run outgrows the window: a few segments per start in practice.
            for segment in segments[start...].prefix(maximumRunLength) {
                guard segment.counts else { break }
                run.bits += segment.bits
                run.seconds += segment.seconds
                run.count += 1
                run.span = start..<start + run.count
                if run.seconds > 0,
                    (run.seconds >= low && run.seconds <= high) || (run.count == 1 && run.seconds > high)
                {
                    found = true
                    body(run)
                }
                if run.seconds > high { break }
            }
        }
        if !found {
            let counted = segments.filter(\.counts)
            let whole = Run(
                bits: counted.reduce(0) { $0 + $1.bits },
                seconds: counted.reduce(0) { $0 + $1.seconds }, count: counted.count,
                span: (segments.firstIndex(where: \.counts) ?? 0)..<((segments.lastIndex(where: \.counts) ?? -1) + 1))
            if whole.seconds > 0 { body(whole) }
        }
    }

    /// The largest Σbits / Σseconds over the qualifying runs; nil without duration.
    package static func peak(_ segments: [Segment], targetDuration: Int) -> Int? {
        var peak: Double?
        forEachRun(segments, targetDuration: targetDuration) { run in
            let rate = run.bits / run.seconds
            if peak.map({ rate > $0 }) ?? true { peak = rate }
        }
        return peak.map { clampedBitrate($0.rounded(.up)) }
    }

    /// The segments of the run that sets `peak` (the first such run when several tie): what the
    /// HTML report shades as the peak window. For a playlist shorter than half the target
    /// duration, from its first to its last measured segment. Nil when `peak` is nil.
    package static func peakWindow(_ segments: [Segment], targetDuration: Int) -> Range<Int>? {
        var best: (rate: Double, range: Range<Int>)?
        forEachRun(segments, targetDuration: targetDuration) { run in
            let rate = run.bits / run.seconds
            if best.map({ rate > $0.rate }) ?? true { best = (rate, run.span) }
        }
        return best?.range
    }

    /// Whether a segment of `duration` seconds at the end of a playlist of `count` segments is a
    /// *final runt* (docs/measurement.md, "Runt segments"): shorter than half the target
    /// duration, after at least one other segment. The peak windows run over 0.5–1.5 × TD
    /// (rfc8216bis-22 §4.1, RFC 8216 §4.3.4.2), so such a segment is never a window of its own;
    /// the only windows that hold it are the ones it shares with the segments before it. A
    /// poster in it is therefore measured only as a second poster inside its neighbour's window
    /// — a 6.5 KB poster beside a 21 ms runt adds 8.6 kbit/s to a 6-second window a player
    /// spends one poster on — so it may go without one, and checker and packager agree that it may.
    package static func isFinalRunt(duration: Double, count: Int, targetDuration: Int) -> Bool {
        count > 1 && duration.isFinite && duration > 0 && duration < 0.5 * Double(max(0, targetDuration))
    }

    /// Total bits over total seconds of the measured segments; nil when they have no duration.
    package static func average(_ segments: [Segment]) -> Int? {
        // Summed in place, in segment order (no copy of a long playlist's segments).
        var seconds = 0.0, bits = 0.0
        for segment in segments where segment.counts {
            seconds += segment.seconds
            bits += segment.bits
        }
        guard seconds > 0, seconds.isFinite else { return nil }
        return clampedBitrate((bits / seconds).rounded(.up))
    }

    /// A bit rate as an Int: NaN as 0, anything too large (or infinite) as `maximumBitrate`.
    static func clampedBitrate(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        if value >= Double(maximumBitrate) { return maximumBitrate }
        if value <= 0 { return 0 }
        return Int(value)
    }
}

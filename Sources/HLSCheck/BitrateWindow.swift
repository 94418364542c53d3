/// Peak and average bit rate of a run of segments, as docs/measurement.md defines them
/// (RFC 8216 §4.3.4.2 "peak segment bit rate", windowed as in §4.1 of rfc8216bis).
public enum BitrateWindow {
    public struct Segment: Sendable, Hashable {
        public var bytes: Int
        /// EXTINF duration in seconds.
        public var duration: Double

        public init(bytes: Int, duration: Double) {
            self.bytes = bytes
            self.duration = duration
        }
    }

    /// A run of contiguous segments that qualifies for the peak.
    struct Run {
        var bits: Double
        var seconds: Double
        var count: Int
    }

    /// Every qualifying run: contiguous segments lasting 0.5–1.5 × the target duration, a single
    /// segment longer than 1.5 × TD on its own; the whole playlist when none qualifies (it is
    /// shorter than 0.5 × TD). Empty when the playlist has no duration.
    static func runs(_ segments: [Segment], targetDuration: Int) -> [Run] {
        let low = 0.5 * Double(targetDuration), high = 1.5 * Double(targetDuration)
        var runs: [Run] = []
        for start in segments.indices {
            var run = Run(bits: 0, seconds: 0, count: 0)
            // Stops as soon as the run outgrows the window: a few segments per start in practice.
            for segment in segments[start...] {
                run.bits += Double(segment.bytes) * 8
                run.seconds += segment.duration
                run.count += 1
                if run.seconds > 0, (run.seconds >= low && run.seconds <= high) || (run.count == 1 && run.seconds > high) {
                    runs.append(run)
                }
                if run.seconds > high { break }
            }
        }
        if runs.isEmpty {
            let whole = Run(
                bits: Double(segments.reduce(0) { $0 + $1.bytes }) * 8,
                seconds: segments.reduce(0) { $0 + $1.duration }, count: segments.count)
            if whole.seconds > 0 { runs.append(whole) }
        }
        return runs
    }

    /// The largest Σbits / Σseconds over the qualifying runs; nil without duration.
    public static func peak(_ segments: [Segment], targetDuration: Int) -> Int? {
        runs(segments, targetDuration: targetDuration).map { $0.bits / $0.seconds }.max()
            .map { Int(saturating: $0.rounded(.up)) }
    }

    /// Total bits over total seconds; nil when the playlist has no duration.
    public static func average(_ segments: [Segment]) -> Int? {
        let seconds = segments.reduce(0) { $0 + $1.duration }
        guard seconds > 0 else { return nil }
        return Int(saturating: (Double(segments.reduce(0) { $0 + $1.bytes }) * 8 / seconds).rounded(.up))
    }

    /// The largest number of bytes that can be added to *every* segment while the peak stays
    /// within `budget` bit/s: the poster size that fits. Nil when even 0 bytes do not fit.
    public static func largestAdditionWithin(_ budget: Int, _ segments: [Segment], targetDuration: Int) -> Int? {
        // For every qualifying run of n segments: (bits + 8·b·n) / seconds ≤ budget, so
        // b ≤ (budget·seconds − bits) / (8·n). The answer is the minimum over runs.
        let allowed = runs(segments, targetDuration: targetDuration)
            .map { (Double(budget) * $0.seconds - $0.bits) / (8 * Double($0.count)) }.min()
        guard let allowed, allowed >= 0 else { return nil }
        return Int(saturating: allowed.rounded(.down))
    }
}

extension Int {
    /// `value` (already rounded) as an Int, or Int.max / Int.min beyond that range, and 0 for NaN.
    /// EXTINF:0.0000000000000000001 and EXTINF:1e23 are valid decimal-floating-point values: the
    /// bit rates and durations they lead to do not fit an Int, and Int(_:) traps on them.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {
            self = .max
        } else if value <= -0x1p63 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}

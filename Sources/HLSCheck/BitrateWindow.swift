/// Peak and average bit rate of a run of segments, as docs/measurement.md defines them
/// (RFC 8216 §4.3.4.2 "peak segment bit rate", windowed as in §4.1 of rfc8216bis).
public enum BitrateWindow {
    public struct Segment: Sendable, Hashable {
        public var bytes: Int
        /// EXTINF duration in seconds.
        public var duration: Double
        /// False when the segment could not be read (missing, truncated, undemuxable): it is a
        /// hole, not a segment of 0 bytes — no run crosses it and the average leaves it out.
        public var measured: Bool

        public init(bytes: Int, duration: Double, measured: Bool = true) {
            self.bytes = bytes
            self.duration = duration
            self.measured = measured
        }
    }

    /// A run of contiguous segments that qualifies for the peak.
    struct Run {
        var bits: Double
        var seconds: Double
        var count: Int
    }

    /// Every qualifying run: contiguous measured segments lasting 0.5–1.5 × the target duration,
    /// a single segment longer than 1.5 × TD on its own; the whole playlist (its measured
    /// segments) when none qualifies (it is shorter than 0.5 × TD). Empty when nothing measured
    /// has a duration.
    static func runs(_ segments: [Segment], targetDuration: Int) -> [Run] {
        let low = 0.5 * Double(targetDuration), high = 1.5 * Double(targetDuration)
        var runs: [Run] = []
        for start in segments.indices {
            var run = Run(bits: 0, seconds: 0, count: 0)
            // Stops as soon as the run outgrows the window: a few segments per start in practice.
            for segment in segments[start...] {
                guard segment.measured else { break }
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
            let measured = segments.filter(\.measured)
            let whole = Run(
                bits: Double(measured.reduce(0) { $0 + $1.bytes }) * 8,
                seconds: measured.reduce(0) { $0 + $1.duration }, count: measured.count)
            if whole.seconds > 0 { runs.append(whole) }
        }
        return runs
    }

    /// The largest Σbits / Σseconds over the qualifying runs; nil without duration.
    public static func peak(_ segments: [Segment], targetDuration: Int) -> Int? {
        runs(segments, targetDuration: targetDuration).map { $0.bits / $0.seconds }.max()
            .map { Int($0.rounded(.up)) }
    }

    /// Total bits over total seconds of the measured segments; nil when they have no duration.
    public static func average(_ segments: [Segment]) -> Int? {
        let segments = segments.filter(\.measured)
        let seconds = segments.reduce(0) { $0 + $1.duration }
        guard seconds > 0 else { return nil }
        return Int((Double(segments.reduce(0) { $0 + $1.bytes }) * 8 / seconds).rounded(.up))
    }
}

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

    /// The largest Σbits / Σseconds over contiguous runs lasting 0.5–1.5 × the target duration;
    /// a segment longer than 1.5 × TD stands alone; the whole playlist when it is shorter than
    /// 0.5 × TD. Nil for an empty playlist or one without duration.
    public static func peak(_ segments: [Segment], targetDuration: Int) -> Int? {
        let low = 0.5 * Double(targetDuration), high = 1.5 * Double(targetDuration)
        var best: Double?
        // Two pointers would be O(n) but the window is at most a few segments long in practice;
        // the inner loop stops as soon as the run is longer than 1.5 × TD.
        for start in segments.indices {
            var bits = 0.0, seconds = 0.0
            for index in start..<segments.count {
                bits += Double(segments[index].bytes) * 8
                seconds += segments[index].duration
                let alone = index == start && seconds > high
                if seconds > 0, (seconds >= low && seconds <= high) || alone {
                    best = max(best ?? 0, bits / seconds)
                }
                if seconds > high { break }
            }
        }
        return (best ?? averageRate(segments)).map { Int($0.rounded(.up)) }
    }

    /// Total bits over total seconds; nil when the playlist has no duration.
    public static func average(_ segments: [Segment]) -> Int? {
        averageRate(segments).map { Int($0.rounded(.up)) }
    }

    private static func averageRate(_ segments: [Segment]) -> Double? {
        let seconds = segments.reduce(0) { $0 + $1.duration }
        guard seconds > 0 else { return nil }
        return Double(segments.reduce(0) { $0 + $1.bytes }) * 8 / seconds
    }
}

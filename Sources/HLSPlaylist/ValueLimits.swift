// The ranges the parser accepts for numbers that later feed arithmetic (docs/security.md,
// "Numbers from files").
//
// RFC 8216 lets a decimal-integer reach 2^64-1 and a decimal-floating-point any finite value;
// no stream needs that much. A value outside these ranges is a located playlist-syntax error and
// the parser then treats it as absent, so that bit-rate windows, measurements, rules and reporters
// only ever see numbers whose sums and products fit in an Int or a finite Double.

/// The largest (and smallest) values the parser accepts for numbers; see the file comment.
package enum ValueLimits {
    /// Longest duration of one segment or part (EXTINF, EXT-X-PART DURATION, PART-TARGET,
    /// HOLD-BACK, …): 1 000 000 s, about 11.6 days.
    package static let maximumDuration: Double = 1_000_000
    /// Shortest non-zero duration: 1 µs, the finest precision real playlists write (one in the
    /// corpus has `#EXTINF:0.000011,`). A zero EXTINF means "unknown" and is kept; 1e-30 would
    /// turn a segment's bytes into a bit rate no integer holds.
    package static let minimumNonZeroDuration: Double = 0.000_001
    /// EXT-X-TARGETDURATION, in seconds.
    package static let maximumTargetDuration = 1_000_000
    /// BANDWIDTH and AVERAGE-BANDWIDTH, in bit/s: 1 Tbit/s.
    package static let maximumBandwidth: UInt64 = 1_000_000_000_000
    /// EXT-X-BITRATE, in kbit/s (the same 1 Tbit/s).
    package static let maximumBitrateTag = 1_000_000_000
    /// Integers that are counted or added (MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE, byte-range
    /// lengths, offsets and ends, SKIPPED-SEGMENTS, LAST-MSN, …): 2^53 − 1, the largest integer a
    /// JSON reader and a Double hold exactly. Other decimal-integer attributes (PROGRAM-ID, client
    /// attributes) keep the full RFC range, 0 to 2^64 − 1: nothing computes with them.
    package static let maximumInteger = 9_007_199_254_740_991
    /// Each side of RESOLUTION, in pixels.
    package static let maximumResolutionSide = 65_535
    /// FRAME-RATE, in frames per second.
    package static let maximumFrameRate: Double = 1_000
    /// Magnitude of any other decimal-floating-point value (EXT-X-START TIME-OFFSET,
    /// EXT-X-DATERANGE DURATION, SCORE, …).
    package static let maximumMagnitude: Double = 1_000_000_000

    /// At most this many problems are kept for one line; the rest are summed up in one more.
    package static let maximumProblemsPerLine = 20
    /// At most this many problems are kept for one file; the rest are summed up in one more.
    package static let maximumProblemsPerFile = 10_000
    /// Variable substitution (EXT-X-DEFINE) may add at most this many bytes to a playlist, plus
    /// four times the playlist's own size: a chain of definitions cannot expand a small file into
    /// gigabytes ("billion laughs").
    package static let substitutionAllowance = 1 << 20

    /// Is `value` an acceptable duration: 0, or 1 ms to `maximumDuration`?
    package static func isAcceptableDuration(_ value: Double) -> Bool {
        value == 0 || (value >= minimumNonZeroDuration && value <= maximumDuration)
    }

    /// The accepted range of a duration, as a message says it.
    static let durationRangeText = "0, or 0.000001 to 1000000 seconds"
}

/// Text of a value for a message: at most 40 characters, so that a 2 MB number does not become
/// a 2 MB message.
func excerpt<S: StringProtocol>(_ text: S) -> String {
    let limit = 40
    var count = 0
    var end = text.startIndex
    while end < text.endIndex, count < limit {
        end = text.index(after: end)
        count += 1
    }
    return end == text.endIndex ? String(text) : String(text[..<end]) + "…"
}

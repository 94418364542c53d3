/// "The largest poster that fits": one answer for the check (artwork-over-budget, artwork-missing,
/// the JSON report), for `hlscheck embed`'s refusal and for `embed --fit` (docs/measurement.md).
///
/// A poster of S image bytes grows each segment by what `hlscheck embed` writes for it: an ID3v2.4
/// APIC frame (ID3v2.4 frames §4.14), inside the tag already there (packed audio, an fMP4 ID3
/// `emsg`, a timed-ID3 PES), in a new `emsg` box (fMP4), or in a new timed-ID3 PES cut into
/// 188-byte transport packets (MPEG-TS, ISO/IEC 13818-1 §2.4.3).
package enum PosterBudget {
    /// Where a segment's poster goes, as `hlscheck embed` lays it out.
    package enum Layout: Sendable, Hashable {
        /// Inside an ID3 tag that stays in place (packed audio's leading tag, an fMP4 ID3 emsg):
        /// the frame's bytes only.
        case inExistingTag
        /// A new fMP4 `emsg` v1 box around a new tag.
        case newEventMessage
        /// MPEG-TS: in a timed-ID3 PES holding a tag of `otherTagBytes` (header and frames other
        /// than APIC); nil when the poster gets a PES of its own.
        case transportStream(otherTagBytes: Int?)
    }

    /// One segment as the arithmetic sees it.
    package struct Segment: Sendable, Hashable {
        /// The segment's bytes without its current poster (and what that poster's layout costs).
        package var bytesWithoutPoster: Int
        /// EXTINF duration in seconds.
        package var duration: Double
        /// Where a poster would go in this segment.
        package var layout: Layout
        /// False when the segment could not be read: a hole, not 0 bytes.
        package var measured: Bool
        /// False for a final runt (`BitrateWindow.isFinalRunt`): `hlscheck embed` leaves the
        /// poster out of it, so the poster's size does not grow it.
        package var carriesPoster: Bool

        /// Makes a segment; `duration` in seconds.
        package init(
            bytesWithoutPoster: Int, duration: Double, layout: Layout, measured: Bool = true, carriesPoster: Bool = true
        ) {
            self.bytesWithoutPoster = bytesWithoutPoster
            self.duration = duration
            self.layout = layout
            self.measured = measured
            self.carriesPoster = carriesPoster
        }
    }

    /// The MIME type the check assumes for a poster it has not seen (embed passes the real one).
    package static let assumedMimeType = "image/jpeg"

    /// Bytes of an ID3v2.4 APIC frame (10-byte header; encoding, MIME + NUL, picture type,
    /// description + NUL, image) as `Poster.frame` serializes it, ISO-8859-1 description.
    package static func pictureFrameBytes(imageBytes: Int, mimeType: String = assumedMimeType, description: String = "")
        -> Int
    {
        10 + 1 + mimeType.utf8.count + 1 + 1 + description.utf8.count + 1 + imageBytes
    }

    /// Transport packets for a timed-ID3 PES holding a tag of `tagBytes`: a 14-byte PES header
    /// (PTS only) and 184 payload bytes per 188-byte packet, the last one stuffed.
    package static func transportStreamBytes(tagBytes: Int) -> Int {
        188 * ((14 + tagBytes + 183) / 184)
    }

    /// Bytes a picture frame of `frameBytes` adds to a segment laid out as `layout`.
    package static func growth(_ layout: Layout, frameBytes: Int) -> Int {
        switch layout {
        case .inExistingTag:
            return frameBytes
        case .newEventMessage:
            // box header 8, version/flags 4, timescale, presentation_time (64-bit), duration, id,
            // "https://aomedia.org/emsg/ID3" + NUL, "" + NUL, then a tag header of 10.
            return 8 + 4 + 4 + 8 + 4 + 4 + 29 + 1 + 10 + frameBytes
        case .transportStream(let other):
            guard let other else { return transportStreamBytes(tagBytes: 10 + frameBytes) }
            return transportStreamBytes(tagBytes: other + frameBytes) - transportStreamBytes(tagBytes: other)
        }
    }

    /// The largest image, in bytes, that every segment can carry while the peak stays at or
    /// under `budget` bit/s; nil when even the segments without a poster exceed it. Exact: with
    /// an image of this size the peak is within budget, with one byte more it is not.
    package static func largestPoster(
        within budget: Int, _ segments: [Segment], targetDuration: Int,
        mimeType: String = assumedMimeType, description: String = ""
    ) -> Int? {
        func fits(_ image: Int) -> Bool {
            let frame = pictureFrameBytes(imageBytes: image, mimeType: mimeType, description: description)
            let grown = segments.map {
                BitrateWindow.Segment(
                    bytes: saturatingSum(
                        $0.bytesWithoutPoster, $0.carriesPoster ? growth($0.layout, frameBytes: frame) : 0),
                    duration: $0.duration,
                    measured: $0.measured)
            }
            guard let peak = BitrateWindow.peak(grown, targetDuration: targetDuration) else { return false }
            return peak <= budget
        }
        guard fits(0) else { return nil }
        // Growth is monotonic in the image size: bisect between a size that fits and one that
        // does not (the budget's worth of bytes over the whole stream cannot fit).
        // Only real durations count, and the bound stays an Int whatever a playlist says.
        let seconds = min(segments.reduce(0) { $0 + ($1.duration.isFinite && $1.duration > 0 ? $1.duration : 0) }, 1e9)
        let bound = min(Double(max(0, budget)) * max(seconds, 1) / 8, Double(BitrateWindow.maximumBitrate))
        var low = 0, high = max(1, Int(bound.rounded(.up)) + 1)
        guard !fits(high) else { return high }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// a + b, or Int.max when a hostile size would overflow (BitrateWindow clamps the rate).
    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }
}

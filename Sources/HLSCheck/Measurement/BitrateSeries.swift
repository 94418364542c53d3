/// A variant's own segments as bit rates over time: what the HTML report draws (docs/html-report.md).
///
/// Only what was read is here: a segment whose bytes could not be read has no `bytes`, one whose
/// content is unknown (an encrypted segment without its key) has no `posterBytes`. A reader
/// draws holes as holes; nothing is interpolated.
package struct BitrateSeries: Sendable, Hashable {
    package struct Segment: Sendable, Hashable {
        /// Seconds from the start of the playlist: the sum of the EXTINFs before it.
        package var start: Double
        /// EXTINF, seconds.
        package var duration: Double
        /// Bytes read, nil when the segment could not be read (a hole).
        package var bytes: Int?
        /// Bytes the poster costs this segment (PosterBudget), nil when its content is unknown.
        package var posterBytes: Int?
        /// The segment's EXTINF line (or URI line) in its media playlist.
        package var line: Int

        package init(start: Double, duration: Double, bytes: Int?, posterBytes: Int?, line: Int) {
            self.start = start
            self.duration = duration
            self.bytes = bytes
            self.posterBytes = posterBytes
            self.line = line
        }

        /// bytes × 8 / EXTINF, nil for a hole or a segment without duration.
        package var bitrate: Int? { Self.rate(bytes, duration) }
        /// The poster's part of `bitrate`, nil when unknown.
        package var posterBitrate: Int? { Self.rate(posterBytes, duration) }

        static func rate(_ bytes: Int?, _ duration: Double) -> Int? {
            guard let bytes, duration.isFinite, duration > 0 else { return nil }
            return BitrateWindow.clampedBitrate((Double(max(0, bytes)) * 8 / duration).rounded(.up))
        }
    }

    /// The media playlist the segments belong to (resolved URI).
    package var playlist: String
    package var segments: [Segment]
    /// The peak's window is 0.5–1.5 × this (RFC 8216 §4.3.4.2, docs/measurement.md).
    package var targetDuration: Int
    /// The segments of the run that sets this playlist's peak, nil when nothing was measured.
    package var peakWindow: Range<Int>?
    /// This playlist's own peak and average (without the renditions it plays with).
    package var peakBitrate: Int?
    package var averageBitrate: Int?
    /// Content hashes (SHA-256) of the posters its segments carry, each once, in order of first appearance.
    package var posterHashes: [String]

    package init(
        playlist: String, segments: [Segment], targetDuration: Int, peakWindow: Range<Int>?, peakBitrate: Int?,
        averageBitrate: Int?, posterHashes: [String] = []
    ) {
        self.playlist = playlist
        self.segments = segments
        self.targetDuration = targetDuration
        self.peakWindow = peakWindow
        self.peakBitrate = peakBitrate
        self.averageBitrate = averageBitrate
        self.posterHashes = posterHashes
    }

    package init(_ measurement: PlaylistMeasurement) {
        playlist = measurement.playlistURI
        targetDuration = measurement.targetDuration
        peakBitrate = measurement.peakBitrate
        averageBitrate = measurement.averageBitrate
        var start = 0.0
        var hashes: [String] = []
        segments = measurement.records.map { record in
            defer { if record.extinf.isFinite && record.extinf > 0 { start += record.extinf } }
            if let hash = record.artwork?.contentHash, record.isInspected, !hashes.contains(hash) {
                hashes.append(hash)
            }
            return Segment(
                start: start, duration: record.extinf, bytes: record.isMeasured ? record.bytes : nil,
                posterBytes: record.isInspected ? record.posterOverhead : nil, line: record.line)
        }
        posterHashes = hashes
        peakWindow = BitrateWindow.peakWindow(
            measurement.records.map {
                BitrateWindow.Segment(bytes: $0.bytes, duration: $0.extinf, measured: $0.isMeasured)
            },
            targetDuration: measurement.targetDuration)
    }

    /// Seconds covered by the segments.
    package var duration: Double {
        segments.last.map { $0.start + max(0, $0.duration.isFinite ? $0.duration : 0) } ?? 0
    }
}

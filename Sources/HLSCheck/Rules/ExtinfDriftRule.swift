import HLSPlaylist

/// EXTINF durations whose sum over a run of segments drifts from the media's own duration by
/// more than one frame, although each segment passes `extinf-duration-mismatch`'s tolerance.
package struct ExtinfDriftRule: Rule {
    package static let description = RuleDescription(
        id: "extinf-drift", name: "EXTINF durations drift from the media", defaultSeverity: .warning, scope: .variant,
        summary:
            "Over a run of consecutive segments, the EXTINF durations add up to more than one video frame away from the duration of their media (one audio frame in a stream without video), measured from the packet timestamps of each segment's first video track (its first audio track without video).",
        rationale:
            "Players place each segment on the timeline by the EXTINF durations before it: small errors that add up move seeking, subtitles and EXT-X-PROGRAM-DATE-TIME away from the media, and bis-22 §4.4.4.1 asks for durations accurate enough that their sum shows no perceptible error. Apple holds the sum over any run of segments to one video frame (AS 8.1): this rule allows one frame of the playlist's own video, one frame of the stream's slowest video for audio that goes with video (an audio rendition, an audio-only variant), and one audio frame for a stream without video; audio gets one of its own frames more, as its segments hold whole frames and those at a run's ends straddle its boundaries (the measurement's grain). Segments whose EXTINF is off by more than the duration tolerance on their own are extinf-duration-mismatch's and end a run; so does a segment that was not read, and EXT-X-DISCONTINUITY, after which the timeline starts again.",
        specItems: [
            .apple(
                "8.1", .must,
                "The EXTINF durations of any run of segments add up to their real duration within one video frame."),
            .bis(
                "4.4.4.1", rfc: "4.3.2.1", .should,
                "EXTINF durations are accurate enough that their sum over segments shows no perceptible error."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.timedPlaylists
        // AS 8.1 counts in video frames: audio that goes with video (a rendition, an audio-only
        // variant) is held to one frame of the stream's slowest video; audio alone to one of
        // its own frames.
        let videoFrame = playlists.compactMap(\.measuredFrameRate).filter { $0 > 0 }.min().map { 1 / $0 }
        return playlists.compactMap { measurement in
            let floor = measurement.containsVideo ? nil : videoFrame
            return Self.firstDrift(in: measurement, tolerance: configuration.durationTolerance, frameFloor: floor).map {
                drift in
                let count = drift.last - drift.first + 1
                let records = measurement.records
                let first = records[drift.first], last = records[drift.last]
                let run = count == 1 ? "segment \(last.uri)" : "the \(count) segments from \(first.uri) to \(last.uri)"
                let reason =
                    measurement.containsVideo
                    ? "one video frame"
                    : floor != nil
                        ? "one video frame, and one audio frame for the frames that straddle segment boundaries"
                        : "one audio frame, and one more for the frames that straddle segment boundaries"
                return Finding(
                    "the EXTINF durations of \(run) add up to \(seconds(drift.listed)) s, but their media lasts \(seconds(drift.measured)) s: \(seconds(abs(drift.listed - drift.measured))) s apart, more than the \(seconds(drift.allowed)) s allowed (\(reason)); give each segment its measured duration in EXTINF",
                    at: measurement.location(of: last))
            }
        }
    }

    /// The duration of a segment's timing track: in fMP4 exactly, from its fragment's decode
    /// times (tfdt and sample durations), else from its packet timestamps.
    static func mediaDuration(_ record: SegmentRecord) -> Double? {
        if !record.decodeSpans.isEmpty {
            let tracks = Array(zip(record.trackIDs, record.trackFormats.map(\.kind)))
            let timing = tracks.first { $0.1 == .video } ?? tracks.first { $0.1 == .audio }
            if let id = timing?.0, let span = record.decodeSpans.first(where: { $0.trackID == id }), span.timeScale > 0,
                span.end >= span.start
            {
                return Double(span.end - span.start) / Double(span.timeScale)
            }
        }
        return record.timingDuration
    }

    /// A run of records (indices `first`...`last`) whose EXTINF sum `listed` is more than
    /// `allowed` away from their measured sum `measured`.
    struct Drift: Equatable {
        var first: Int
        var last: Int
        var listed: Double
        var measured: Double
        var allowed: Double
    }

    /// The drifting run that ends first in `measurement`, and of those the longest. Linear: with
    /// D(k) the difference of the sums up to segment k, a run from i + 1 to k drifts by
    /// D(k) − D(i), so the extremes of D before k tell whether any run ending at k drifts.
    static func firstDrift(in measurement: PlaylistMeasurement, tolerance: Double, frameFloor: Double? = nil) -> Drift?
    {
        let records = measurement.records
        // The run so far: the extremes of D before the current record (with the index they were
        // reached after: the run they bound starts at the next record), and its largest frame.
        var difference = 0.0
        var low = (value: 0.0, after: -1), high = (value: 0.0, after: -1)
        var ownFrame = 0.0
        var previousSequence: Int?
        for index in records.indices {
            let record = records[index]
            guard record.isInspected, let media = Self.mediaDuration(record), let frameDuration = record.frameDuration,
                frameDuration > 0,
                record.extinf.isFinite, record.extinf > 0,
                abs((record.measuredDuration ?? media) - record.extinf) <= tolerance,
                previousSequence.map({ record.mediaSequence == $0 + 1 }) ?? true
            else {
                // Not measured, or extinf-duration-mismatch's: the next run starts after it.
                difference = 0
                low = (0, index)
                high = (0, index)
                ownFrame = 0
                previousSequence = nil
                continue
            }
            previousSequence = record.mediaSequence
            if record.discontinuity {
                // The timeline starts again here: a player places the segment at the EXTINF sum
                // before it, and no error from before carries over.
                difference = 0
                low = (0, index - 1)
                high = (0, index - 1)
                ownFrame = 0
            }
            ownFrame = max(ownFrame, frameDuration)
            difference += record.extinf - media
            // One video frame (AS 8.1; the stream's, for audio beside video), or one audio frame
            // without video. Audio segments hold whole frames, and those at a run's two ends
            // straddle its boundaries: the audio's own frame on top is the measurement's grain.
            // A millionth of a second for the decimals EXTINF and timestamps are written with.
            let audioTimed = !measurement.containsVideo
            let allowed = max(ownFrame, frameFloor ?? 0) + (audioTimed ? ownFrame : 0) + 1e-6
            for (extreme, drifts) in [
                (low, difference - low.value > allowed), (high, high.value - difference > allowed),
            ] where drifts {
                let first = extreme.after + 1
                let runRecords = (first...index).map { records[$0] }
                let listed = runRecords.reduce(0) { $0 + $1.extinf }
                let measured = runRecords.reduce(0) { $0 + (Self.mediaDuration($1) ?? 0) }
                return Drift(first: first, last: index, listed: listed, measured: measured, allowed: allowed - 1e-6)
            }
            if difference < low.value { low = (difference, index) }
            if difference > high.value { high = (difference, index) }
        }
        return nil
    }
}

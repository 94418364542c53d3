import HLSPlaylist

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

/// Timestamps that jump or restart between segments without EXT-X-DISCONTINUITY.
package struct DiscontinuityMissingRule: Rule {
    package static let description = RuleDescription(
        id: "discontinuity-missing", name: "Timestamp jump without EXT-X-DISCONTINUITY", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A segment's first timestamp is not where the previous segment ended (by more than the duration tolerance), and no EXT-X-DISCONTINUITY marks the join.",
        rationale:
            "RFC 8216 §4.3.2.3: the EXT-X-DISCONTINUITY tag MUST be present if there is a change in the timestamp sequence. Without it a player schedules the segment at the wrong time: it stalls, skips or loses lip sync.",
        specItems: [
            .bis(
                "4.4.4.3", rfc: "4.3.2.3", .must,
                "EXT-X-DISCONTINUITY marks a change of file format, of tracks or of the timestamp sequence."),
            .apple("8.13", .must, "Breaks of encoding continuity are marked with EXT-X-DISCONTINUITY."),
            .apple(
                "7.3", .must, "In fMP4, a segment's track fragment decode time follows on from the previous segment's."),
        ],
        needsMedia: true)

    /// Timestamps are 33-bit 90 kHz values in TS and packed audio (ISO/IEC 13818-1 §2.4.3.7): a
    /// stream may wrap once every 26.5 hours, which is no jump.
    static let wrapPeriod = Double(1 << 33) / 90_000

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.flatMap { measurement in
            measurement.joins.compactMap { previous, next -> Finding? in
                guard let start = previous.firstPTS, let nextStart = next.firstPTS else { return nil }
                let duration = previous.measuredDuration ?? previous.extinf
                var jump = nextStart - (start + duration)
                if next.container != .fragmentedMP4 {
                    jump = jump.remainder(dividingBy: Self.wrapPeriod)
                }
                guard jump.isFinite, abs(jump) > configuration.durationTolerance else { return nil }
                let direction = jump < 0 ? "back" : "forward"
                return Finding(
                    "segment \(next.uri) starts at \(seconds(nextStart)) s, but \(previous.uri) started at \(seconds(start)) s and lasts \(seconds(duration)) s: the timestamps jump \(direction) by \(seconds(abs(jump))) s without EXT-X-DISCONTINUITY before the segment",
                    at: SourceLocation(uri: measurement.playlistURI, line: next.line))
            }
        }
    }
}

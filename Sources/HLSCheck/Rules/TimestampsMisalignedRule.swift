import HLSPlaylist

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

/// Variants and renditions of one stream whose matching segments start at different times.
package struct TimestampsMisalignedRule: Rule {
    /// More than one frame apart: a video frame at 24 fps lasts 42 ms, an AAC frame 21–23 ms.
    static let tolerance = 0.05

    package static let description = RuleDescription(
        id: "timestamps-misaligned", name: "Variants not aligned in time", defaultSeverity: .error,
        summary:
            "In a VOD stream, the first segments of the media playlists start more than one frame (50 ms) apart; in a stream dated with EXT-X-PROGRAM-DATE-TIME, the segments of one date do.",
        rationale:
            "bis-22 §6.2.4: matching content in every variant and rendition has matching timestamps, and in a VOD stream the first segment of every media playlist starts at the same media timestamp; renditions that start apart play out of sync (an audio rendition 112 ms ahead of the video, as separately encoded ffmpeg audio is). Segments are matched by their place in time — the start of a VOD playlist, or a date — never by media sequence number, which bis-22 §4.4.3.2 lets differ between playlists. Packed audio counts from its ID3 PRIV timestamp (§3.4).",
        specItems: [
            .bis("6.2.4", rfc: "6.2.4", .must, "Matching content in variant streams has matching timestamps."),
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "In a VOD stream the first segment of every media playlist starts at the same media timestamp."),
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "The same EXT-X-PROGRAM-DATE-TIME maps to the same media timestamps in every media playlist."),
        ],
        needsMedia: true)

    /// One measured playlist's start: the media timestamp of the content the comparison matches.
    private struct Start {
        var uri: String
        var record: SegmentRecord
        var start: Double
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let measured = stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }
        guard measured.count > 1 else { return [] }
        let playlists = measured.compactMap { measurement in
            stream.loaded.mediaPlaylists[measurement.playlistURI]?.media.map { (measurement, $0) }
        }
        // VOD: every playlist holds the whole presentation, so their first segments hold the
        // same content and start at the same media timestamp.
        if playlists.count == measured.count, playlists.allSatisfy({ $0.1.endList }) {
            let starts = playlists.compactMap { measurement, _ -> Start? in
                guard let first = measurement.records.first, first.isInspected, let start = first.firstPTS else {
                    return nil
                }
                return Start(uri: measurement.playlistURI, record: first, start: start)
            }
            return Self.report(starts) { start, offset, others, reference in
                "the first segment, \(start.record.uri), starts at \(seconds(start.start)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the \(others) other playlist\(others == 1 ? "" : "s") of this VOD stream (\(seconds(reference)) s): the first segment of every media playlist must start at the same media timestamp, or its media plays out of sync with the others; cut or pad it to start with them"
            }
        }
        // Live or event: windows start at different places and sequence numbers may differ
        // between playlists; a date is what names the same content in each.
        var dated: [(uri: String, byDate: [Int: (SegmentRecord, Double)])] = []
        for (measurement, media) in playlists {
            var dates: [Int: Double] = [:]  // media sequence number -> date
            var next: Double?
            for segment in media.segments {
                let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) ?? next
                if let date { dates[segment.mediaSequence] = date }
                next = date.map { $0 + segment.duration }
            }
            var byDate: [Int: (SegmentRecord, Double)] = [:]
            for record in measurement.inspectedRecords {
                guard let start = record.firstPTS, let date = dates[record.mediaSequence] else { continue }
                byDate[Int((date * 1000).rounded())] = (record, start)
            }
            if !byDate.isEmpty { dated.append((measurement.playlistURI, byDate)) }
        }
        guard dated.count > 1 else { return [] }
        // The earliest date every dated playlist has a segment for.
        let common = dated.dropFirst().reduce(Set(dated[0].byDate.keys)) { $0.intersection($1.byDate.keys) }
        guard let date = common.min() else { return [] }
        let starts = dated.compactMap { uri, byDate in byDate[date].map { Start(uri: uri, record: $0.0, start: $0.1) } }
        return Self.report(starts) { start, offset, others, reference in
            "segment \(start.record.uri) starts at \(seconds(start.start)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the segments of the same EXT-X-PROGRAM-DATE-TIME in the \(others) other playlist\(others == 1 ? "" : "s") of this stream (\(seconds(reference)) s): the same content must have the same timestamps in every variant, or players switching to it jump in time"
        }
    }

    /// A finding for each start more than `tolerance` from the one most playlists agree on (the
    /// earliest such in a tie).
    private static func report(_ starts: [Start], message: (Start, Double, Int, Double) -> String) -> [Finding] {
        guard starts.count > 1 else { return [] }
        let agreeing = starts.map { candidate in
            (candidate.start, starts.filter { abs($0.start - candidate.start) <= tolerance }.count)
        }
        guard let reference = agreeing.max(by: { ($0.1, -$0.0) < ($1.1, -$1.0) })?.0 else { return [] }
        let others = starts.filter { abs($0.start - reference) <= tolerance }.count
        return starts.compactMap { start in
            let offset = start.start - reference
            guard abs(offset) > tolerance else { return nil }
            return Finding(
                message(start, offset, others, reference), at: SourceLocation(uri: start.uri, line: start.record.line))
        }
    }
}

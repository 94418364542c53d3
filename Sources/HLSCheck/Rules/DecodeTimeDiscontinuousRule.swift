import HLSPlaylist

/// An fMP4 fragment whose decode time does not continue exactly where the previous segment's
/// fragment of the same track ended, at a join without EXT-X-DISCONTINUITY.
package struct DecodeTimeDiscontinuousRule: Rule {
    package static let description = RuleDescription(
        id: "decode-time-discontinuous", name: "fMP4 decode time does not follow on", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary:
            "In fMP4, a track's fragment does not start at the decode time where the same track's fragment in the previous segment ended (its tfdt plus the durations of its samples), to the unit of the track's timescale, and no EXT-X-DISCONTINUITY marks the join.",
        rationale:
            "Apple's authoring specification asks for fMP4 decode times that follow on exactly from segment to segment (AS 7.3): a player stitches fragments by their decode times, and a gap or overlap of even a few timescale units inserts or drops samples there, which is heard as a click or seen as a stutter, and which adds up over a stream. Jumps larger than the duration tolerance are discontinuity-missing's; this rule reports the smaller ones that only an exact comparison sees.",
        specItems: [
            .apple(
                "7.3", .must,
                "In fMP4, each fragment's decode time follows on exactly from the previous segment's decode time and duration."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.timedPlaylists.flatMap { measurement -> [Finding] in
            var findings: [Finding] = []
            for (before, record) in measurement.joins where !record.decodeSpans.isEmpty {
                let mismatches = record.decodeSpans.compactMap { span -> String? in
                    guard
                        let end = before.decodeSpans.first(where: {
                            $0.trackID == span.trackID && $0.timeScale == span.timeScale
                        })?.end,
                        span.start != end
                    else { return nil }
                    let (gap, overflow) = span.start.subtractingReportingOverflow(end)
                    // Larger jumps are discontinuity-missing's to report.
                    guard !overflow, abs(Double(gap) / Double(span.timeScale)) <= configuration.durationTolerance else {
                        return nil
                    }
                    return
                        "track \(span.trackID) starts at decode time \(span.start) where it ended at \(end) (timescale \(span.timeScale)): \(gap > 0 ? "a gap" : "an overlap") of \(gap.magnitude) unit\(gap.magnitude == 1 ? "" : "s")"
                }
                guard !mismatches.isEmpty else { continue }
                findings.append(
                    Finding(
                        "segment \(record.uri) does not continue the decode times of \(before.uri): \(mismatches.joined(separator: "; ")); each fragment's tfdt must equal the previous fragment's tfdt plus its sample durations, or EXT-X-DISCONTINUITY must mark the join",
                        at: measurement.location(of: record)))
            }
            return findings
        }
    }
}

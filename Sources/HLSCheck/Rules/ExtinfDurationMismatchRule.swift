import HLSPlaylist

/// EXTINF far from the duration measured from packet timestamps.
package struct ExtinfDurationMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "extinf-duration-mismatch", name: "EXTINF differs from the media", defaultSeverity: .warning,
        scope: .variant, settings: .errorForApple,
        summary: "A segment's EXTINF differs from its duration measured from packet timestamps by more than 0.5 s.",
        rationale:
            "RFC 8216 §4.3.2.1: EXTINF is the segment's duration; wrong values shift seeking, the timeline and every bit rate computed from them.",
        specItems: [
            .bis(
                "4.4.4.1", rfc: "4.3.2.1", .should,
                "EXTINF gives the segment's duration, accurately enough that summed durations add no perceptible error."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredRecords.compactMap { measurement, record in
            guard let measured = record.measuredDuration, record.problem == nil,
                abs(measured - record.extinf) > configuration.durationTolerance
            else { return nil }
            return Finding(
                "segment \(record.uri) lasts \(seconds(measured)) s by its timestamps but EXTINF says \(seconds(record.extinf)) s",
                at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
    }
}

import HLSPlaylist

/// `--sample N`: the report says which share of the segments was read.
package struct SegmentsSampledRule: Rule {
    package static let description = RuleDescription(
        id: "segments-sampled", name: "Segments sampled", defaultSeverity: .note,
        summary:
            "Only some segments of a media playlist were read (--sample N): measured bit rates and content findings cover those alone.",
        rationale:
            "A quick check of a long stream reads N segments spread over each media playlist. Peak and average bit rates are then lower bounds, and a problem in an unread segment goes unseen; the report says so every time.",
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            let skipped = measurement.records.count(where: \.sampledOut)
            guard skipped > 0 else { return nil }
            let read = measurement.records.count - skipped
            return Finding(
                "sampled: \(read) of \(measurement.records.count) segments of this playlist were read (--sample \(configuration.sampleSegments ?? read)); bit rates and content findings cover those only",
                at: SourceLocation(uri: measurement.playlistURI, line: measurement.records.first?.line ?? 0))
        }
    }
}

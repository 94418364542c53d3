import HLSPlaylist

/// A segment with more than one audio track.
package struct AudioStreamsMultipleRule: Rule {
    package static let description = RuleDescription(
        id: "audio-streams-multiple", name: "Several audio tracks in a segment", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "A media segment carries more than one audio track.",
        rationale:
            "A player plays one audio track of a segment; the others (a second language, a commentary) are never heard. Each belongs in its own rendition, declared with EXT-X-MEDIA.",
        specItems: [.apple("2.17", .must, "A media segment holds at most one audio stream.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let record = measurement.records.firstInspected(whereContent: { _, formats in
                    formats.count { $0.kind == .audio } > 1
                })
            else { return nil }
            let audio = record.trackFormats.filter { $0.kind == .audio }
            return Finding(
                "segment \(record.uri) carries \(audio.count) audio tracks (\(audio.map { $0.codecString ?? $0.codecName }.joined(separator: ", "))): keep one per segment and offer the others as EXT-X-MEDIA audio renditions",
                at: measurement.location(of: record))
        }
    }
}

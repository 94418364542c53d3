import HLSPlaylist

/// Packed audio without the PRIV timestamp tag at its start.
package struct PackedAudioTimestampMissingRule: Rule {
    package static let description = RuleDescription(
        id: "packed-audio-timestamp-missing", name: "Packed audio without timestamp", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A packed-audio segment (AAC, MP3, AC-3, E-AC-3) does not start with an ID3 PRIV transportStreamTimestamp.",
        rationale:
            "RFC 8216 §3.4: each packed-audio segment MUST signal the timestamp of its first sample with an ID3 PRIV tag at the beginning of the segment.",
        specItems: [
            SpecItem(
                "RFC 8216 §3.4", .must,
                "Each packed-audio segment signals the timestamp of its first sample with an ID3 PRIV transportStreamTimestamp at its start."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredRecords.compactMap { measurement, record in
            guard record.container?.isPackedAudio == true, record.problem == nil, !record.encrypted,
                !record.startsWithTimestampTag
            else { return nil }
            return Finding(
                "packed-audio segment \(record.uri) does not start with an ID3 tag carrying the com.apple.streaming.transportStreamTimestamp PRIV frame",
                at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
    }
}

import HLSPlaylist

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

/// A video segment that does not begin with a keyframe, or whose keyframe lacks its parameter sets.
package struct SegmentStartsWithoutKeyframeRule: Rule {
    package static let description = RuleDescription(
        id: "segment-starts-without-keyframe", name: "Video segment does not start with a keyframe",
        defaultSeverity: .warning, scope: .variant,
        summary:
            "A video segment's first frame is not a keyframe (IDR), or an in-band H.264/HEVC keyframe has no SPS/PPS before it.",
        rationale:
            "Apple's HLS Authoring Specification: every video segment starts with an IDR frame (with its parameter sets) so a player can start or switch variants there; with EXT-X-INDEPENDENT-SEGMENTS the playlist promises it (RFC 8216 §4.3.5.1: every segment decodes without information from other segments).",
        specItems: [
            .apple("7.4", .must, "Video segments start with an IDR frame.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.demuxedRecords.flatMap { measurement, records in
            records.compactMap { record -> Finding? in
                let location = SourceLocation(uri: measurement.playlistURI, line: record.line)
                if record.videoStartsWithKeyframe == false {
                    return Finding(
                        "segment \(record.uri) does not start with a keyframe: a player that starts or switches here shows nothing until the next IDR frame; cut segments at keyframes",
                        at: location)
                }
                if record.videoStartsWithKeyframe == true, record.keyframeHasParameterSets == false {
                    return Finding(
                        "segment \(record.uri) starts with a keyframe but carries no parameter sets (SPS/PPS) before it: it cannot be decoded on its own; repeat them before every keyframe (x264: --repeat-headers; ffmpeg: -bsf:v dump_extra)",
                        at: location)
                }
                return nil
            }
        }
    }
}

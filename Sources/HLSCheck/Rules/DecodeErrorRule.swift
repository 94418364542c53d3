import HLSPlaylist
import MediaInspection

/// With `--decode`: audio or video frames of a segment that libavcodec cannot decode cleanly.
package struct DecodeErrorRule: Rule {
    package static let description = RuleDescription(
        id: "decode-error", name: "Frames fail to decode", defaultSeverity: .error, scope: .variant,
        summary:
            "With --decode: audio or video frames of a segment fail to decode with libavcodec (a transport packet dropped from a frame, damaged bytes inside a frame).",
        rationale:
            "A player decodes every frame it presents; a frame that fails shows as a glitch, a frozen picture or a gap in the sound (RFC 8216 §3: segments carry media in a format the client decodes). Checked only with --decode, since decoding costs CPU; without it the rule says nothing.",
        specItems: [
            SpecItem(
                "RFC 8216 §3", .must,
                "A media segment holds media in a supported format that clients decode as it is.")
        ],
        needsMedia: true, needsDecoding: true,
        nonTriggering: [
            RuleExample(
                "a stream checked without --decode",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                    "audio.m3u8": Examples.media([6]),
                    "seg0.ts": "not a transport stream",
                ])
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { measurement in
            measurement.records.flatMap { record -> [Finding] in
                // A segment that did not read or demux whole is segment-unreadable's finding.
                guard record.problem == nil, let decoding = record.decoding else { return [] }
                return decoding.filter { $0.failedFrameCount > 0 }.map { track in
                    let reasons = track.reasons.isEmpty ? "" : ": " + track.reasons.joined(separator: "; ")
                    return Finding(
                        "segment \(record.uri): \(track.failedFrameCount) of \(track.frameCount) \(track.kind.rawValue) frames (\(track.codecName)) fail to decode\(reasons)",
                        at: SourceLocation(uri: measurement.playlistURI, line: record.line))
                }
            }
        }
    }
}

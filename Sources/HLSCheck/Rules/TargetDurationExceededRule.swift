import HLSPlaylist

/// A segment that, rounded to the nearest integer, lasts longer than EXT-X-TARGETDURATION: by
/// its EXTINF, or by its packet timestamps where the segments were read.
package struct TargetDurationExceededRule: Rule {
    package static let description = RuleDescription(
        id: "target-duration-exceeded", name: "Segment longer than target duration", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A segment's EXTINF duration or, where segments are read, its duration measured from packet timestamps, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION.",
        rationale:
            "RFC 8216 §4.3.3.1: the EXTINF duration of each segment, rounded to the nearest integer, MUST be less than or equal to the target duration; bis-22 §6.2.1 holds the media itself to it (a segment whose duration rounds above the target duration), and Apple to at most 0.5 s over it (AS 7.7). A player paces its playlist reloads and its buffer by the target duration; a longer segment, whatever its EXTINF says, can stall it. Without segments (--playlist-only) only EXTINF is compared.",
        specItems: [
            .bis(
                "4.4.3.1", rfc: "4.3.3.1", .must,
                "Each EXTINF duration, rounded to the nearest integer, is at most the target duration."),
            .bis(
                "6.2.1", .must,
                "Each segment's measured duration, rounded to the nearest integer (to divide the stream into segments), is at most the target duration."
            ),
            .apple(
                "7.7", .must,
                "Media segments, by their measured duration, do not exceed the target duration by more than 0.5 s."),
        ],
        triggering: [
            RuleExample(
                "7 s segment with target 6",
                files: Examples.audioStream(Examples.media([6, 7], target: 6))
            ).expecting(line: 7, "segment seg1.ts lasts 7.0 s, longer than")
        ],
        nonTriggering: [
            RuleExample(
                "6.4 s rounds down to 6",
                files: Examples.audioStream(Examples.media([6.4, 6], target: 6)))
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media, let target = media.targetDuration else { return [] }
            var findings: [Finding] = []
            var reported: Set<Int> = []
            for segment in media.segments where segment.duration.rounded() > Double(target) {
                let line = segment.extinfLine ?? segment.uriLine
                reported.insert(line)
                findings.append(
                    Finding(
                        "segment \(segment.uri) lasts \(segment.duration) s, longer than EXT-X-TARGETDURATION \(target) s",
                        at: playlist.location(line: line)))
            }
            // The media's own duration (bis-22 §6.2.1, AS 7.7), where EXTINF did not say it already.
            guard let measurement = stream.measurements[playlist.uri] else { return findings }
            for record in measurement.inspectedRecords {
                guard let measured = record.measuredDuration, measured.rounded() > Double(target),
                    !reported.contains(record.line)
                else { continue }
                findings.append(
                    Finding(
                        "segment \(record.uri) lasts \(seconds(measured)) s by its timestamps (EXTINF says \(seconds(record.extinf)) s), which rounds to more than EXT-X-TARGETDURATION \(target) s: cut shorter segments, or raise EXT-X-TARGETDURATION",
                        at: playlist.location(line: record.line)))
            }
            return findings
        }
    }
}

import HLSPlaylist

// What one version of a low-latency media playlist (EXT-X-PART-INF) must hold about its partial
// segments, their tags and its rendition reports (bis-22 §4.4.3.8, §4.4.4.9, §4.4.5.4). The
// attribute ranges of EXT-X-SERVER-CONTROL are LowLatencyInvalidRule's.

/// EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP or EXT-X-PROGRAM-DATE-TIME after a segment's first part.
package struct PartTagMisplacedRule: Rule {
    /// The tags that apply to a whole parent segment, and so must precede its parts.
    static let segmentTags = ["#EXT-X-DISCONTINUITY", "#EXT-X-KEY", "#EXT-X-MAP", "#EXT-X-PROGRAM-DATE-TIME"]

    package static let description = RuleDescription(
        id: "part-tag-misplaced", name: "Segment tag after the segment's first part", defaultSeverity: .error,
        summary:
            "An EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP or EXT-X-PROGRAM-DATE-TIME stands between the partial segments of one parent segment instead of before its first EXT-X-PART.",
        rationale:
            "bis-22 §4.4.4.9: these tags apply to the whole parent segment, so they come before its first partial segment. A client in low-latency mode plays the parts as they appear; a key, map, date or discontinuity that arrives after the first part is seen too late for it.",
        specItems: [
            .bis(
                "4.4.4.9", .must,
                "EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP and EXT-X-PROGRAM-DATE-TIME of a segment come before its first EXT-X-PART."
            )
        ],
        triggering: [
            RuleExample(
                "a key between the parts of a segment",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-KEY:METHOD=NONE\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\"\n"
                )
            )
            .expecting(line: 15, "EXT-X-KEY comes after an EXT-X-PART of the segment it applies to"),
            RuleExample(
                "a discontinuity after the first part of the segment it starts",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\ns11.mp4\n"
                )),
        ],
        nonTriggering: [
            RuleExample(
                "the tags before the first part of their segment",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-DISCONTINUITY\n#EXT-X-KEY:METHOD=NONE\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04.000Z\n#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media else { return nil }
            let partLines = (media.segments.flatMap(\.parts) + media.trailingParts).map(\.line).sorted()
            guard !partLines.isEmpty else { return nil }
            // A segment ends at its URI line: a part seen since the last one belongs to the
            // segment the tag would apply to.
            let ends = media.segments.map(\.uriLine).sorted()
            func lastBefore(_ line: Int, in sorted: [Int]) -> Int? {
                var low = 0, high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle] < line { low = middle + 1 } else { high = middle }
                }
                return low > 0 ? sorted[low - 1] : nil
            }
            var misplaced: [(line: Int, tag: String)] = []
            for tag in Self.segmentTags {
                for line in playlist.tagLines(named: tag) {
                    guard let part = lastBefore(line, in: partLines), part > (lastBefore(line, in: ends) ?? 0) else {
                        continue
                    }
                    misplaced.append((line, tag))
                }
            }
            guard let first = misplaced.min(by: { $0.line < $1.line }) else { return nil }
            return Finding(
                "\(first.tag.dropFirst()) comes after an EXT-X-PART of the segment it applies to\(misplaced.count > 1 ? " (\(misplaced.count) such tags)" : ""); move it before the segment's first EXT-X-PART",
                at: playlist.location(line: first.line))
        }
    }
}

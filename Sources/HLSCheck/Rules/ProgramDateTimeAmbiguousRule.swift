import HLSPlaylist

/// EXT-X-PROGRAM-DATE-TIME tags that give two segments the same dates.
package struct ProgramDateTimeAmbiguousRule: Rule {
    static func media(_ second: String) -> [String: String] {
        [
            "master.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6,\ns0.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:\(second)\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"
        ]
    }

    package static let description = RuleDescription(
        id: "program-date-time-ambiguous", name: "Two segments share dates", defaultSeverity: .error,
        summary:
            "An EXT-X-PROGRAM-DATE-TIME dates a segment a second or more before the previous segments end, or inside a segment before it.",
        rationale:
            "bis-22 §6.2.1: the dates of a playlist must map to one segment each; overlaps under a second are tolerated, and where segments overlap the later one may overlap the earlier only in part. A player seeking to a date (or placing a date range) cannot tell which of two segments plays it.",
        specItems: [
            .bis(
                "6.2.1", .must,
                "No EXT-X-PROGRAM-DATE-TIME makes the mapping between date and segment ambiguous; overlaps under a second are allowed."
            ),
            .bis(
                "6.2.1", .must,
                "Where the dates of two segments overlap, the later segment overlaps the earlier one only partially."),
        ],
        triggering: [
            RuleExample("the second segment dated 3 s into the first", files: media("2026-01-01T00:00:03.000Z"))
                .expecting(line: 10, "3 s before the segment on line 6 ends"),
            RuleExample("the second segment dated back to the first", files: media("2026-01-01T00:00:00.000Z")),
        ],
        nonTriggering: [
            RuleExample("a date right after the first segment", files: media("2026-01-01T00:00:06.000Z")),
            RuleExample("an overlap of 200 ms", files: media("2026-01-01T00:00:05.800Z")),
            RuleExample("a gap of an hour", files: media("2026-01-01T01:00:00.000Z")),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.flatMap { _, playlist, media -> [Finding] in
            var findings: [Finding] = []
            // The segment dated so far that ends last, and where the previous segment ends.
            var furthest: (start: Double, end: Double, line: Int)?
            var next: Double?
            for segment in media.segments {
                let explicit = segment.programDateTime.flatMap(ISO8601Instant.seconds)
                guard let start = explicit ?? next else { continue }
                let end = start + segment.duration
                if explicit != nil, let earlier = furthest {
                    let line = segment.extinfLine ?? segment.uriLine
                    if start >= earlier.start, end <= earlier.end, segment.duration > 0 {
                        findings.append(
                            Finding(
                                "EXT-X-PROGRAM-DATE-TIME dates this segment inside the segment on line \(earlier.line) (\(compactSeconds(start - earlier.start)) s after its start, ending before it does): its dates belong to two segments; date it after the earlier one ends",
                                at: playlist.location(line: line)))
                    } else if start <= earlier.end - 1 {
                        findings.append(
                            Finding(
                                "EXT-X-PROGRAM-DATE-TIME dates this segment \(compactSeconds(earlier.end - start)) s before the segment on line \(earlier.line) ends: those dates map to two segments; overlaps of a second or more make the date-to-segment mapping ambiguous",
                                at: playlist.location(line: line)))
                    }
                }
                if end > (furthest?.end ?? -.infinity) {
                    furthest = (start, end, segment.extinfLine ?? segment.uriLine)
                }
                next = end
            }
            return findings
        }
    }
}

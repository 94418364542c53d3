import HLSPlaylist

/// An EXTINF that, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION.
package struct TargetDurationExceededRule: Rule {
    /// Makes the rule; it holds no state, so one instance serves every check.
    package init() {}

    package static let description = RuleDescription(
        id: "target-duration-exceeded", name: "Segment longer than target duration", defaultSeverity: .error, scope: .variant,
        summary: "An EXTINF duration, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION.",
        rationale: "RFC 8216 §4.3.3.1: the EXTINF duration of each segment, rounded to the nearest integer, MUST be less than or equal to the target duration.",
        specItems: [
            .bis("4.4.3.1", rfc: "4.3.3.1", .must, "Each EXTINF duration, rounded to the nearest integer, is at most the target duration."),
            .apple("7.7", .must, "Media segments do not exceed the target duration by more than 0.5 s."),
        ],
        triggering: [
            RuleExample("7 s segment with target 6", files: [
                "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                "audio.m3u8": Examples.media([6, 7], target: 6),
            ]).expecting(line: 7, "segment seg1.ts lasts 7.0 s, longer than")
        ],
        nonTriggering: [
            RuleExample("6.4 s rounds down to 6", files: [
                "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                "audio.m3u8": Examples.media([6.4, 6], target: 6),
            ])
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media, let target = media.targetDuration else { return [] }
            return media.segments.compactMap { segment in
                guard (segment.duration).rounded() > Double(target) else { return nil }
                return Finding(
                    "segment \(segment.uri) lasts \(segment.duration) s, longer than EXT-X-TARGETDURATION \(target) s",
                    at: playlist.location(line: segment.extinfLine ?? segment.uriLine))
            }
        }
    }
}

import HLSPlaylist

/// A media playlist the multivariant playlist references that cannot be read.
public struct PlaylistUnreadableRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "playlist-unreadable", name: "Referenced playlist unreadable", defaultSeverity: .error,
        summary: "A referenced media playlist is missing or cannot be read.",
        rationale: "A player that switches to this variant or rendition stalls (RFC 8216 §4.3.4).",
        triggering: [
            RuleExample("variant playlist missing", files: [
                "master.m3u8": "#EXTM3U\n" + Examples.audioVariant() + Examples.videoVariant,
                "video.m3u8": Examples.media(),
            ])
        ],
        nonTriggering: [RuleExample("all playlists present", files: Examples.stream(Examples.audioVariant()))]
    )

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.loaded.failures.map { failure in
            Finding("cannot read \(failure.uri): \(failure.reason)", at: failure.referencedFrom)
        }
    }
}

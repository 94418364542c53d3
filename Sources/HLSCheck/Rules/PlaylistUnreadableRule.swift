import HLSPlaylist

/// A media playlist the multivariant playlist references that cannot be read.
package struct PlaylistUnreadableRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-unreadable", name: "Referenced playlist unreadable", defaultSeverity: .error, scope: .variant,
        summary: "A referenced media playlist is missing or cannot be read.",
        rationale: "A player that switches to this variant or rendition stalls (RFC 8216 §4.3.4).",
        specItems: [
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "The URI line after EXT-X-STREAM-INF identifies the variant's media playlist, which clients load.")
        ],
        triggering: [
            RuleExample(
                "variant playlist missing",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant() + Examples.videoVariant,
                    "video.m3u8": Examples.media(),
                ]
            ).expecting(line: 3, column: 1, "cannot read "),
            RuleExample(
                "variant is a multivariant playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant() + Examples.videoVariant,
                    "audio.m3u8": Examples.media(),
                    "video.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                ]),
        ],
        nonTriggering: [RuleExample("all playlists present", files: Examples.stream(Examples.audioVariant()))]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let unreadable = stream.loaded.failures.map { failure in
            Finding("cannot read \(LocalPath.shown(failure.uri)): \(failure.reason)", at: failure.referencedFrom)
        }
        // A variant that points at another multivariant playlist has no segments to play.
        let notMedia = stream.variants.compactMap { variant -> Finding? in
            guard variant.stream != nil, stream.loaded.mediaPlaylists[variant.playlistURI]?.multivariant != nil else {
                return nil
            }
            return Finding("\(variant.uri) is a multivariant playlist, not a media playlist", at: variant.location)
        }
        return unreadable + notMedia
    }
}

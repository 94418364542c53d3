import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

/// EXT-X-INDEPENDENT-SEGMENTS in neither the multivariant playlist nor the video media playlists.
package struct IndependentSegmentsMissingRule: Rule {
    package static let description = RuleDescription(
        id: "independent-segments-missing", name: "EXT-X-INDEPENDENT-SEGMENTS missing", defaultSeverity: .error,
        settings: .appleOnly,
        summary: "Neither the multivariant playlist nor every video media playlist carries EXT-X-INDEPENDENT-SEGMENTS.",
        rationale:
            "Apple's authoring specification requires video segments to start with an IDR frame and the playlists to say so with EXT-X-INDEPENDENT-SEGMENTS, in the multivariant playlist or else in every video media playlist: without it a player switching variants downloads more than it needs to find a frame it can decode.",
        specItems: [
            .apple(
                "9.12", .must,
                "When video segments start with an IDR and the multivariant playlist has no EXT-X-INDEPENDENT-SEGMENTS, every video media playlist carries it."
            ),
            .apple(
                "9.11", .should,
                "When video segments start with an IDR, the multivariant playlist carries EXT-X-INDEPENDENT-SEGMENTS."),
        ],
        triggering: [
            RuleExample("video ladder without the tag", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 1, "EXT-X-INDEPENDENT-SEGMENTS is neither in the")
        ],
        nonTriggering: [
            RuleExample(
                "the tag in the multivariant playlist",
                files: Examples.stream(
                    Examples.videoVariant, header: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n")),
            RuleExample(
                "the tag in the video media playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant,
                    "video.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n"),
                ]),
            RuleExample("audio-only stream", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant, !multivariant.independentSegments else { return [] }
        var without: [String] = []
        for variant in stream.variants where variant.carriesVideo {
            if let media = variant.playlist, !media.independentSegments, !without.contains(variant.uri) {
                without.append(variant.uri)
            }
        }
        guard let first = without.first else { return [] }
        let others =
            without.count > 1 ? " and \(without.count - 1) other video playlist\(without.count > 2 ? "s" : "")" : ""
        return [
            Finding(
                "EXT-X-INDEPENDENT-SEGMENTS is neither in the multivariant playlist nor in \(first)\(others): start every video segment with an IDR frame and add #EXT-X-INDEPENDENT-SEGMENTS to the multivariant playlist",
                at: stream.root.location(line: 1))
        ]
    }
}

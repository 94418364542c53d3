import HLSPlaylist

/// An EXT-X-I-FRAME-STREAM-INF whose playlist is not an I-frame playlist.
package struct IFramesOnlyMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframes-only-missing", name: "I-frame stream without EXT-X-I-FRAMES-ONLY", defaultSeverity: .error,
        summary: "The media playlist an EXT-X-I-FRAME-STREAM-INF points to has no EXT-X-I-FRAMES-ONLY tag.",
        rationale:
            "A player scrubbing through an I-frame stream downloads one frame per segment; a playlist without EXT-X-I-FRAMES-ONLY is a list of whole segments, so it downloads the full media instead, and the durations mean something else.",
        specItems: [
            .bis(
                "4.4.6.3", rfc: "4.3.4.3", .must,
                "The playlist named by the URI of EXT-X-I-FRAME-STREAM-INF contains an EXT-X-I-FRAMES-ONLY tag."),
            .apple("6.8", .must, "I-frame playlists contain the EXT-X-I-FRAMES-ONLY tag."),
        ],
        triggering: [
            RuleExample(
                "I-frame stream pointing at a regular playlist",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream()
                ).merging(["iframes.m3u8": Examples.media()]) { $1 }
            ).expecting(line: 5, column: 83, "I-frame stream iframes.m3u8 is a playlist")
        ],
        nonTriggering: [
            RuleExample(
                "I-frame stream with EXT-X-I-FRAMES-ONLY",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream()))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        return multivariant.iFrameVariants.compactMap { iFrame in
            guard let media = stream.loaded.playlist(for: iFrame)?.media, !media.iFramesOnly else { return nil }
            return Finding(
                "I-frame stream \(iFrame.uri) is a playlist without EXT-X-I-FRAMES-ONLY: point URI at an I-frame playlist (one I-frame per segment, each a byte range) or add the tag to one that is",
                at: stream.root.location(line: iFrame.line, column: iFrame.attributes["URI"]?.column ?? 0))
        }
    }
}

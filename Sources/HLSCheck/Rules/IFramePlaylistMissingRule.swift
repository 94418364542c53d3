import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

/// A stream with video and no I-frame stream.
package struct IFramePlaylistMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframe-playlist-missing", name: "No I-frame playlist", defaultSeverity: .error, settings: .appleOnly,
        summary: "A multivariant playlist with video variants has no EXT-X-I-FRAME-STREAM-INF.",
        rationale:
            "Apple's authoring specification requires I-frame playlists: players show their frames while the user scrubs or scans; without them the timeline shows nothing but a spinner.",
        specItems: [
            .apple(
                "6.1", .must,
                "I-frame playlists (EXT-X-I-FRAME-STREAM-INF) are provided to support scrubbing and scanning.")
        ],
        triggering: [
            RuleExample("video ladder without I-frame playlist", files: Examples.stream(Examples.videoVariant))
                .expecting(line: 1, "the stream has video (video.m3u8) but no I-frame")
        ],
        nonTriggering: [
            RuleExample(
                "an EXT-X-I-FRAME-STREAM-INF", files: Examples.stream(Examples.videoVariant, Examples.iFrameStream())),
            RuleExample("audio-only stream", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant, multivariant.iFrameVariants.isEmpty,
            let video = stream.variants.first(where: \.carriesVideo)
        else { return [] }
        return [
            Finding(
                "the stream has video (\(video.uri)) but no I-frame playlist: add an EXT-X-I-FRAME-STREAM-INF for each video resolution, for scrubbing and scanning",
                at: stream.root.location(line: 1))
        ]
    }
}

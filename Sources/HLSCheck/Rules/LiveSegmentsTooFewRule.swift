import HLSPlaylist

// What a live media playlist (no EXT-X-ENDLIST) must hold at every moment, read from one
// version of it; what must hold across its reloads is the live rules' (`--live-duration`).

/// A live (linear) playlist of fewer than six segments.
package struct LiveSegmentsTooFewRule: Rule {
    package static let description = RuleDescription(
        id: "live-segments-too-few", name: "Live playlist with fewer than six segments", defaultSeverity: .error,
        settings: .appleOnly,
        summary: "A live (linear) media playlist lists fewer than six segments.",
        rationale:
            "Apple's authoring specification asks for at least six segments in a live playlist, so that a player joining at the live edge has room to buffer and to recover from a late reload.",
        specItems: [
            .apple("8.11", .must, "A live (linear) playlist provides at least six segments.")
        ],
        triggering: [
            RuleExample(
                "three live segments",
                files: Examples.audioStream(Examples.live([6, 6, 6], target: 6))
            ).expecting(line: 3, "the live playlist lists 3 segments: keep at")
        ],
        nonTriggering: [
            RuleExample(
                "six live segments",
                files: Examples.audioStream(Examples.live(Array(repeating: 6, count: 6), target: 6))),
            RuleExample("VOD", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.compactMap { _, playlist, media in
            // A delta update (EXT-X-SKIP) lists fewer segments than the playlist has.
            guard media.isLinear, media.skippedSegments == nil, !media.iFramesOnly, media.segments.count < 6 else {
                return nil
            }
            return Finding(
                "the live playlist lists \(media.segments.count) segment\(media.segments.count == 1 ? "" : "s"): keep at least six in it",
                at: playlist.location(line: media.targetDurationLine ?? 1))
        }
    }
}

import HLSPlaylist

// What a live media playlist (no EXT-X-ENDLIST) must hold at every moment, read from one
// version of it; what must hold across its reloads is the live rules' (`--live-duration`).

/// A live (linear) playlist without EXT-X-PROGRAM-DATE-TIME.
package struct ProgramDateTimeMissingRule: Rule {
    package static let description = RuleDescription(
        id: "program-date-time-missing", name: "Live playlist without EXT-X-PROGRAM-DATE-TIME", defaultSeverity: .error,
        settings: .appleOnly,
        summary: "A live (linear) media playlist has no EXT-X-PROGRAM-DATE-TIME tag.",
        rationale:
            "Apple's authoring specification requires EXT-X-PROGRAM-DATE-TIME in every live playlist: players map the live timeline to wall-clock time with it (the program guide, seeking back, SharePlay).",
        specItems: [
            .apple("8.4", .must, "The EXT-X-PROGRAM-DATE-TIME tag is present in every live (linear) media playlist.")
        ],
        triggering: [
            RuleExample(
                "live playlist without the tag",
                files: Examples.audioStream(Examples.live())
            ).expecting(line: 3, "the live playlist has no")
        ],
        nonTriggering: [
            RuleExample(
                "live playlist with the tag",
                files: Examples.audioStream(
                    Examples.live().replacing(
                        "#EXTINF", with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF"))),
            RuleExample("VOD", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.compactMap { _, playlist, media in
            guard media.isLinear, !media.segments.isEmpty,
                !media.segments.contains(where: { $0.programDateTime != nil })
            else { return nil }
            return Finding(
                "the live playlist has no EXT-X-PROGRAM-DATE-TIME: give its first segment the wall-clock time it starts at",
                at: playlist.location(line: media.targetDurationLine ?? 1))
        }
    }
}

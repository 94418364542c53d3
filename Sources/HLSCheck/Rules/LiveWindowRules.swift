import HLSPlaylist

// What a live media playlist (no EXT-X-ENDLIST) must hold at every moment, read from one
// version of it; what must hold across its reloads is LiveRules' (`--live-duration`).

extension MediaPlaylist {
    /// Live and linear: no EXT-X-ENDLIST, and not an EVENT playlist (which only grows).
    var isLinear: Bool { !endList && playlistType == nil }
}

/// A live playlist shorter than three target durations after segments were removed.
package struct LiveWindowShortRule: Rule {
    package static let description = RuleDescription(
        id: "live-window-short", name: "Live playlist window too short", defaultSeverity: .error,
        summary: "A live media playlist that has dropped segments lasts less than three target durations.",
        rationale:
            "A client starts playing three target durations from the live edge (bis-22 §6.3.3) and reloads once per target duration; a window shorter than that leaves it nothing to buffer, and a late reload finds its next segment already gone.",
        specItems: [
            .bis(
                "6.2.2", rfc: "6.2.2", .must,
                "A segment is not removed from a live playlist if the playlist would then last less than three target durations."
            )
        ],
        triggering: [
            RuleExample(
                "two 6 s segments after dropping some",
                files: Examples.audioStream(
                    Examples.live([6, 6], target: 6).replacing(
                        "#EXT-X-TARGETDURATION:6\n", with: "#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:40\n"))
            ).expecting(line: 3, "the live playlist lasts 12.0 s after dropping")
        ],
        nonTriggering: [
            RuleExample(
                "three 6 s segments",
                files: Examples.audioStream(
                    Examples.live([6, 6, 6], target: 6).replacing(
                        "#EXT-X-TARGETDURATION:6\n", with: "#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:40\n"))),
            RuleExample(
                "a live stream that has only begun",
                files: Examples.audioStream(Examples.live([6], target: 6))),
            RuleExample("VOD", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.compactMap { _, playlist, media in
            // Only removal is restricted: a stream that has just started may be shorter.
            // A VOD playlist never drops segments; a delta update (EXT-X-SKIP) lists only part.
            guard !media.endList, media.playlistType != .vod, media.mediaSequence > 0, media.skippedSegments == nil,
                !media.segments.isEmpty, let target = media.targetDuration
            else { return nil }
            let duration = media.totalDuration
            guard duration < Double(3 * target) else { return nil }
            let tenths = Int((duration * 10).rounded())
            return Finding(
                "the live playlist lasts \(tenths / 10).\(tenths % 10) s after dropping segments, less than three target durations (\(3 * target) s): keep at least \(3 * target) s of segments in it",
                at: playlist.location(line: media.targetDurationLine ?? 1))
        }
    }
}

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

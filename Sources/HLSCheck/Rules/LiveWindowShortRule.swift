import HLSPlaylist

// What a live media playlist (no EXT-X-ENDLIST) must hold at every moment, read from one
// version of it; what must hold across its reloads is the live rules' (`--live-duration`).

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

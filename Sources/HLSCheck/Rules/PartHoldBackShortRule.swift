import HLSPlaylist

// What one version of a low-latency media playlist (EXT-X-PART-INF) must hold about its partial
// segments, their tags and its rendition reports (bis-22 §4.4.3.8, §4.4.4.9, §4.4.5.4). The
// attribute ranges of EXT-X-SERVER-CONTROL are LowLatencyInvalidRule's.

/// PART-HOLD-BACK under three part target durations.
package struct PartHoldBackShortRule: Rule {
    package static let description = RuleDescription(
        id: "part-hold-back-short", name: "PART-HOLD-BACK under three part targets", defaultSeverity: .warning,
        summary: "EXT-X-SERVER-CONTROL's PART-HOLD-BACK is less than three times PART-TARGET.",
        rationale:
            "A client in low-latency mode starts PART-HOLD-BACK from the live edge. bis-22 §4.4.3.8 requires at least two part targets and recommends three; Apple's authoring specification (14.3) requires three, so that one late part does not stall playback. Under two is low-latency-invalid's; this rule is the recommendation, an error in the Apple profiles.",
        specItems: [
            .bis("4.4.3.8", .should, "PART-HOLD-BACK is at least three part target durations."),
            .apple("14.3", .must, "PART-HOLD-BACK is at least three times the part target duration."),
        ],
        triggering: [
            RuleExample("PART-HOLD-BACK of 2.5 part targets", files: LowLatencyExamples.media(holdBack: "2.5"))
                .expecting(line: 5, "PART-HOLD-BACK=2.5 is less than three times PART-TARGET (3 s)")
        ],
        nonTriggering: [
            RuleExample("PART-HOLD-BACK of three part targets", files: LowLatencyExamples.media()),
            RuleExample(
                "PART-HOLD-BACK=1.0 over PART-TARGET=0.33334",
                files: LowLatencyExamples.media(
                    parts: ["0.33334", "0.33334", "0.33334"], partTarget: "0.33334", holdBack: "1.0")),
            RuleExample("no parts", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, let partTarget = media.partTarget,
                let holdBack = media.serverControl?.decimalFloatingPoint("PART-HOLD-BACK"),
                // Under twice is low-latency-invalid's error already.
                holdBack >= 2 * partTarget,
                // Within a millisecond is three part targets as written: PART-TARGET=0.33334
                // with PART-HOLD-BACK=1.0, Apple's own example, is not 20 µs short.
                holdBack < 3 * partTarget - 0.001
            else { return nil }
            return Finding(
                "PART-HOLD-BACK=\(compactSeconds(holdBack)) is less than three times PART-TARGET (\(compactSeconds(3 * partTarget)) s); set it to at least \(compactSeconds(3 * partTarget)) s",
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-SERVER-CONTROL").first ?? 1))
        }
    }
}

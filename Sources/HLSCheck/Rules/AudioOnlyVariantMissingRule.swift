import HLSPlaylist

/// A stream with video must offer an audio-only variant within the budget.
package struct AudioOnlyVariantMissingRule: Rule {
    package static let description = RuleDescription(
        id: "audio-only-variant-missing", name: "No audio-only variant within budget", defaultSeverity: .error,
        settings: [.rfc8216: .off, .appleIOS: .severity(.warning), .appleTVOS: .off],
        summary: "No variant is audio-only with BANDWIDTH within the audio-only budget (default 64 kbit/s).",
        rationale:
            "App Store Review Guideline 9.4 (historic) and Apple QA1767: apps streaming video over cellular must offer an audio-only variant of at most 64 kbit/s.",
        specItems: [
            SpecItem(
                "QA1767", .must,
                "An app that streams video over cellular networks offers an audio-only variant of at most 64 kbit/s (App Store rule, historical)."
            )
        ],
        triggering: [
            RuleExample("video variants only", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 1, "no audio-only variant: add one of at most 64"),
            RuleExample(
                "audio-only variant at 96 kbit/s",
                files: Examples.stream(
                    Examples.videoVariant, Examples.audioVariant(bandwidth: 96000))),
        ],
        nonTriggering: [
            RuleExample(
                "audio-only variant at 48 kbit/s",
                files: Examples.stream(
                    Examples.videoVariant, Examples.audioVariant(bandwidth: 48000))),
            RuleExample("audio stream without video", files: Examples.stream(Examples.audioVariant(bandwidth: 128000))),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil else { return [] }
        let audioOnly = stream.variants.filter(\.isAudioOnly)
        // A variant whose kind nothing tells (no CODECS, no RESOLUTION, segments not read) may
        // be the audio-only one: no finding from a guess.
        if audioOnly.isEmpty, stream.variants.contains(where: \.isKindUnknown) { return [] }
        // The rule is about video streams: a pure audio stream has nothing to fall back from.
        guard audioOnly.count < stream.variants.count else { return [] }
        let budget = configuration.audioOnlyBudget
        if audioOnly.contains(where: { ($0.declaredBandwidth ?? Int.max) <= budget }) { return [] }
        let message: String
        if audioOnly.isEmpty {
            message = "no audio-only variant: add one of at most \(budget.formattedBitrate) for cellular fallback"
        } else {
            let list = audioOnly.map { "\($0.uri) (\(($0.declaredBandwidth ?? 0).formattedBitrate(beside: budget)))" }
            message =
                "no audio-only variant within \(budget.formattedBitrate): \(list.joined(separator: ", ")) \(list.count == 1 ? "exceeds" : "exceed") it"
        }
        return [Finding(message, at: stream.root.location(line: 1))]
    }
}

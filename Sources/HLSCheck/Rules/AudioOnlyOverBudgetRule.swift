import HLSPlaylist

/// An audio-only variant whose declared BANDWIDTH exceeds the budget.
package struct AudioOnlyOverBudgetRule: Rule {
    package static let description = RuleDescription(
        id: "audio-only-over-budget", name: "Audio-only variant over budget", defaultSeverity: .error, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "An audio-only variant's declared BANDWIDTH or measured peak exceeds the audio-only budget.",
        rationale:
            "Apple QA1767: the audio-only variant must have a maximum measured bit rate of 64 kbit/s; BANDWIDTH is what players use to pick it.",
        specItems: [
            SpecItem("QA1767", .must, "The audio-only variant peaks at 64 kbit/s or less, measured.")
        ],
        triggering: [
            RuleExample(
                "BANDWIDTH=96000",
                files: Examples.stream(Examples.videoVariant, Examples.audioVariant(bandwidth: 96000))
            ).expecting(line: 5, "audio-only variant audio.m3u8 declares")
        ],
        nonTriggering: [
            RuleExample(
                "BANDWIDTH=64000",
                files: Examples.stream(Examples.videoVariant, Examples.audioVariant(bandwidth: 64000)))
        ],
        profileExamples: [
            // apple-ios: the budget is the cellular fallback for video; a radio stream has none.
            ProfileExample(
                .appleIOS, triggers: false,
                RuleExample(
                    "audio stream without video at 128 kbit/s",
                    files: Examples.stream(Examples.audioVariant(bandwidth: 128000)))),
            ProfileExample(
                .audioOnly64k, triggers: true,
                RuleExample(
                    "audio stream without video at 128 kbit/s",
                    files: Examples.stream(Examples.audioVariant(bandwidth: 128000)))),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // A stream without video has no video to fall back from (docs/profiles.md).
        guard configuration.budgetAppliesWithoutVideo || stream.hasVideo else { return [] }
        let budget = configuration.audioOnlyBudget
        return stream.variants.filter(\.isAudioOnly).flatMap { variant -> [Finding] in
            var findings: [Finding] = []
            if let declared = variant.declaredBandwidth, declared > budget {
                findings.append(
                    Finding(
                        "audio-only variant \(variant.uri) declares BANDWIDTH=\(declared) (\(declared.formattedBitrate(beside: budget))), over the \(budget.formattedBitrate) budget",
                        at: variant.location))
            }
            // The measured peak without the poster: when only the poster pushes the variant over
            // the budget, artwork-over-budget says so with the size that fits.
            if let measurement = variant.measurement, let audio = measurement.peakBitrateWithoutPoster, audio > budget {
                findings.append(
                    Finding(
                        "audio-only variant \(variant.uri) peaks at \(audio.formattedBitrate(beside: budget)) measured (without any poster), over the \(budget.formattedBitrate) budget: lower the audio bit rate",
                        at: variant.location))
            }
            return findings
        }
    }
}

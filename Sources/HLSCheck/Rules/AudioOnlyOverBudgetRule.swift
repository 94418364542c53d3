public import HLSPlaylist

/// An audio-only variant whose declared BANDWIDTH exceeds the budget.
public struct AudioOnlyOverBudgetRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "audio-only-over-budget", name: "Audio-only variant over budget", defaultSeverity: .error,
        summary: "An audio-only variant's declared BANDWIDTH or measured peak exceeds the audio-only budget.",
        rationale: "Apple QA1767: the audio-only variant must have a maximum measured bit rate of 64 kbit/s; BANDWIDTH is what players use to pick it.",
        triggering: [
            RuleExample("BANDWIDTH=96000", files: Examples.stream(Examples.videoVariant, Examples.audioVariant(bandwidth: 96000)))
        ],
        nonTriggering: [
            RuleExample("BANDWIDTH=64000", files: Examples.stream(Examples.videoVariant, Examples.audioVariant(bandwidth: 64000)))
        ]
    )

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let budget = configuration.audioOnlyBudget
        return stream.variants.filter(\.isAudioOnly).compactMap { variant in
            guard let declared = variant.declaredBandwidth, declared > budget else { return nil }
            return Finding(
                "audio-only variant \(variant.uri) declares BANDWIDTH=\(declared) (\(declared.formattedBitrate)), over the \(budget.formattedBitrate) budget",
                at: variant.location)
        }
    }
}

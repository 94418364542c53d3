import HLSPlaylist

// Rules of Apple's HLS Authoring Specification for Apple Devices that RFC 8216 does not ask for.
// They are off in the default profile and on in apple-ios / apple-tvos (docs/profiles.md).

/// No variant light enough for cellular networks.
package struct CellularVariantMissingRule: Rule {
    package static let description = RuleDescription(
        id: "cellular-variant-missing", name: "No cellular variant", defaultSeverity: .error,
        // AS 9.21 is amended for iOS alone: Apple TV is not on cellular networks.
        settings: [.audioOnly64k: .off, .rfc8216: .off, .appleTVOS: .off],
        summary: "No variant declares a BANDWIDTH within the cellular budget (Apple: 192 kbit/s).",
        rationale:
            "Apple HLS Authoring Specification: a stream for cellular networks must offer a variant whose peak is at most 192 kbit/s.",
        specItems: [
            .apple(
                "9.21", platform: "iOS", .must,
                "A multivariant playlist delivered over cellular networks contains a variant whose peak BANDWIDTH is at most 192 kbit/s."
            )
        ],
        triggering: [
            RuleExample("only an 800 kbit/s variant", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 1, "no variant is within 192 kbit/s for cellular")
        ],
        nonTriggering: [
            RuleExample("a 48 kbit/s variant", files: Examples.stream(Examples.videoVariant, Examples.audioVariant()))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil, !stream.variants.isEmpty else { return [] }
        if stream.variants.contains(where: { ($0.declaredBandwidth ?? .max) <= configuration.cellularBudget }) {
            return []
        }
        return [
            Finding(
                "no variant is within \(configuration.cellularBudget.formattedBitrate) for cellular networks: add one",
                at: stream.root.location(line: 1))
        ]
    }
}

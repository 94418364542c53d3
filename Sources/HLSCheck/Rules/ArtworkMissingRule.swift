import HLSPlaylist

/// An audio-only variant without a still image: the viewer sees a black screen.
package struct ArtworkMissingRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-missing", name: "Audio-only variant without poster", defaultSeverity: .warning, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "An audio-only variant carries no still image (ID3 APIC) in its segments.",
        rationale:
            "Apple's HLS authoring guidance recommends a still image in the audio-only variant so players show something while they sit on it.",
        specItems: [.audioOnlyPoster],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.audioOnlyMeasurements.compactMap { variant, measurement in
            let inspected = measurement.inspectedRecords
            guard !inspected.isEmpty, !inspected.contains(where: { $0.artwork != nil }) else { return nil }
            let room =
                variant.largestPoster(within: configuration.audioOnlyBudget).map {
                    "; up to \($0) bytes (as a JPEG) would fit the budget"
                } ?? ""
            return Finding(
                "audio-only variant \(variant.uri) carries no poster (ID3 APIC) in any of its \(inspected.count) segments\(room): a still image in every segment shows while players sit on this variant",
                at: variant.location)
        }
    }
}

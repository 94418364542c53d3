import HLSPlaylist

/// The poster is what pushes an audio-only variant over the budget.
package struct ArtworkOverBudgetRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-over-budget", name: "Poster blows the budget", defaultSeverity: .error, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "With its poster, an audio-only variant's measured peak exceeds the budget.",
        rationale:
            "The APIC image is repeated in every segment, so it counts against the 64 kbit/s audio-only budget (Apple QA1767): a 20 KiB JPEG in 6 s segments adds about 27 kbit/s.",
        specItems: [
            SpecItem(
                "QA1767", .must,
                "The audio-only variant peaks at 64 kbit/s or less, measured, with the still image it carries.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard configuration.budgetAppliesWithoutVideo || stream.hasVideo else { return [] }
        let budget = configuration.audioOnlyBudget
        return stream.audioOnlyMeasurements.compactMap { variant, measurement in
            guard let peak = measurement.peakBitrate, peak > budget,
                let audio = measurement.peakBitrateWithoutPoster, audio <= budget,
                let largest = measurement.records.lazy.compactMap(\.artwork).max(by: { $0.byteCount < $1.byteCount })
            else { return nil }
            let fits: String
            if let partial = variant.partialMeasurementPhrase
                ?? (measurement.isComplete ? nil : "some segments could not be inspected")
            {
                fits = "\(partial), so no poster size can be promised"
            } else if let bytes = variant.largestPoster(within: budget) {
                fits = "a poster of at most \(bytes) bytes (as a JPEG) fits in every segment"
            } else {
                fits = "no poster fits"
            }
            return Finding(
                "the \(largest.byteCount)-byte poster raises \(variant.uri) to a \(peak.formattedBitrate(beside: budget)) peak against the \(budget.formattedBitrate) budget (\(audio.formattedBitrate(beside: budget)) without it): \(fits)",
                at: variant.location)
        }
    }
}

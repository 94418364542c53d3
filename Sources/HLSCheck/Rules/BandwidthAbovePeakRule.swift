import HLSPlaylist

/// BANDWIDTH far above the measured peak: players skip a variant the network could carry.
package struct BandwidthAbovePeakRule: Rule {
    package static let description = RuleDescription(
        id: "bandwidth-above-peak", name: "BANDWIDTH far above measured peak", defaultSeverity: .note, scope: .variant,
        settings: [.rfc8216: .severity(.error)],
        summary:
            "Declared BANDWIDTH exceeds the measured peak of every playable combination (SUBTITLES included) by more than the tolerance (10 %; none in rfc8216).",
        rationale:
            "Apple's HLS Authoring Specification: for VOD the measured peak must be within 10 % of BANDWIDTH; an inflated BANDWIDTH keeps players on a lower variant than the network allows. bis-22 §4.4.6.2 defines BANDWIDTH as the peak, not a ceiling: the rfc8216 profile, which follows it, makes any excess over the measured peak an error.",
        specItems: [
            .vodPeakWithinTenPercentOfBandwidth,
            .bandwidthIsMeasuredPeak,
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // From some segments only, the real peak may be anywhere above: no verdict. A live
            // stream's segments do not all exist yet: BANDWIDTH bounds them (AS 1.29), no more.
            guard variant.isMeasurementComplete, !variant.isLive, let declared = variant.declaredBandwidth,
                let peak = variant.measuredPeakBitrate, peak > 0,
                Double(declared) > Double(peak) * (1 + configuration.bandwidthTolerance)
            else { return nil }
            return Finding(
                "BANDWIDTH=\(declared) but \(variant.uri) peaks at only \(peak) bit/s measured\(variant.combinationPhrase) (\(percent(declared, of: peak)) above): declare BANDWIDTH=\(peak)",
                at: variant.location(ofAttribute: "BANDWIDTH"))
        }
    }
}

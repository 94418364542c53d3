import HLSPlaylist

/// BANDWIDTH lower than the measured peak: players pick a variant the network cannot carry.
package struct BandwidthBelowPeakRule: Rule {
    package static let description = RuleDescription(
        id: "bandwidth-below-peak", name: "BANDWIDTH below measured peak", defaultSeverity: .error, scope: .variant,
        summary:
            "Declared BANDWIDTH is below the measured peak of a playable combination (the variant with one rendition of each group, SUBTITLES included) by more than the tolerance (10 %; none in rfc8216).",
        rationale:
            "RFC 8216 §4.3.4.2: BANDWIDTH is the largest sum of peak segment bit rates over every playable combination of renditions; Apple's authoring spec allows 10 % for VOD. The rfc8216 profile, which follows bis-22, allows nothing: BANDWIDTH is the peak, measured to the bit.",
        specItems: [
            .bandwidthIsMeasuredPeak,
            .apple(
                "9.13", .must,
                "BANDWIDTH is the largest sum of peak segment bit rates of any playable combination of renditions."),
            .vodPeakWithinTenPercentOfBandwidth,
            .apple("1.29", .must, "For live, the measured peak bit rate stays below 125 % of BANDWIDTH."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            let tolerance = variant.isLive ? configuration.liveBandwidthTolerance : configuration.bandwidthTolerance
            guard let declared = variant.declaredBandwidth, let peak = variant.measuredPeakBitrate,
                Double(peak) > Double(declared) * (1 + tolerance)
            else { return nil }
            // A partial measurement still proves BANDWIDTH too low, but the real peak may be higher.
            let advice =
                variant.partialMeasurementPhrase.map {
                    "\($0), so the real peak may be higher: declare at least BANDWIDTH=\(peak) once every segment is readable"
                } ?? "declare at least BANDWIDTH=\(peak)"
            let allowance =
                variant.isLive && tolerance > 0
                ? ", more than the \(Int((tolerance * 100).rounded())) % a live stream may peak above it (AS 1.29)" : ""
            return Finding(
                "BANDWIDTH=\(declared) but \(variant.uri) peaks at \(peak) bit/s measured\(variant.combinationPhrase) (\(percent(peak, of: declared)) over\(allowance)): \(advice)",
                at: variant.location(ofAttribute: "BANDWIDTH"))
        }
    }
}

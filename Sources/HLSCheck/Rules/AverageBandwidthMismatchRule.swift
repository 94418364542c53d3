import HLSPlaylist

/// AVERAGE-BANDWIDTH off the measured average.
package struct AverageBandwidthMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "average-bandwidth-mismatch", name: "AVERAGE-BANDWIDTH off", defaultSeverity: .warning, scope: .variant,
        settings: [.rfc8216: .severity(.error)],
        summary:
            "AVERAGE-BANDWIDTH differs from the measured average bit rate (largest over the playable combinations, SUBTITLES included) by more than the tolerance (10 %; none in rfc8216).",
        rationale:
            "RFC 8216 §4.3.4.2: AVERAGE-BANDWIDTH is the largest sum of average segment bit rates over the playable combinations; Apple's authoring spec allows 10 % for VOD. The rfc8216 profile, which follows bis-22 §4.4.6.2, holds it to the measured average to the bit, an error.",
        specItems: [
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "Once every segment exists, AVERAGE-BANDWIDTH is the largest sum of average segment bit rates over the playable combinations."
            ),
            .apple("1.26", .must, "For VOD, the average segment bit rate is within 10 % of AVERAGE-BANDWIDTH."),
            .apple("1.28", .must, "For live, the average bit rate stays below 110 % of AVERAGE-BANDWIDTH."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // An average over some segments says nothing about the real one: no verdict, no advice.
            // A live average only has to stay under the declared one plus the tolerance (AS 1.28).
            guard variant.isMeasurementComplete, let declared = variant.declaredAverageBandwidth, declared > 0,
                let measured = variant.measuredAverageBitrate, measured > 0,
                (variant.isLive ? Double(measured) - Double(declared) : abs(Double(measured) - Double(declared)))
                    > Double(declared) * configuration.bandwidthTolerance
            else { return nil }
            return Finding(
                "AVERAGE-BANDWIDTH=\(declared) but \(variant.uri) averages \(measured) bit/s measured: declare AVERAGE-BANDWIDTH=\(measured)",
                at: variant.location(ofAttribute: "AVERAGE-BANDWIDTH"))
        }
    }
}

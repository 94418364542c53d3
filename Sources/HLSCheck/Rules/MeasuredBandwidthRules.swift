import HLSPlaylist

/// BANDWIDTH lower than the measured peak: players pick a variant the network cannot carry.
public struct BandwidthBelowPeakRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "bandwidth-below-peak", name: "BANDWIDTH below measured peak", defaultSeverity: .error,
        summary: "Declared BANDWIDTH is below the measured peak segment bit rate by more than the tolerance (10 %).",
        rationale: "RFC 8216 §4.3.4.2: BANDWIDTH is the peak segment bit rate; Apple's authoring spec allows 10 % for VOD.",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.declaredBandwidth, let peak = variant.measuredPeakBitrate,
                  Double(peak) > Double(declared) * (1 + configuration.bandwidthTolerance)
            else { return nil }
            let column = variant.stream?.attributes["BANDWIDTH"]?.column ?? 0
            return Finding(
                "BANDWIDTH=\(declared) but \(variant.uri) peaks at \(peak) bit/s measured (\(percent(peak, of: declared)) over): declare at least BANDWIDTH=\(peak)",
                at: SourceLocation(uri: variant.location.uri, line: variant.location.line, column: column))
        }
    }
}

/// AVERAGE-BANDWIDTH off the measured average.
public struct AverageBandwidthMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "average-bandwidth-mismatch", name: "AVERAGE-BANDWIDTH off", defaultSeverity: .warning,
        summary: "AVERAGE-BANDWIDTH differs from the measured average bit rate by more than the tolerance (10 %).",
        rationale: "RFC 8216 §4.3.4.2: AVERAGE-BANDWIDTH is the average segment bit rate; Apple's authoring spec allows 10 % for VOD.",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.declaredAverageBandwidth, declared > 0,
                  let measured = variant.measuredAverageBitrate,
                  abs(Double(measured - declared)) > Double(declared) * configuration.bandwidthTolerance
            else { return nil }
            let column = variant.stream?.attributes["AVERAGE-BANDWIDTH"]?.column ?? 0
            return Finding(
                "AVERAGE-BANDWIDTH=\(declared) but \(variant.uri) averages \(measured) bit/s measured: declare AVERAGE-BANDWIDTH=\(measured)",
                at: SourceLocation(uri: variant.location.uri, line: variant.location.line, column: column))
        }
    }
}

func percent(_ value: Int, of base: Int) -> String {
    guard base > 0 else { return "∞" }
    return "\(Int(saturating: ((Double(value) - Double(base)) / Double(base) * 100).rounded())) %"
}

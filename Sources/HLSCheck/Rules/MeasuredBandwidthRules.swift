import HLSPlaylist

extension VariantAnalysis {
    /// " over video.m3u8 + audio/en.m3u8": the playable combination that sets the peak, when it
    /// is more than the variant's own playlist.
    var combinationPhrase: String {
        guard let combination = peakCombination, combination != [playlistURI] else { return "" }
        let names = combination.map { uri in uri == playlistURI ? self.uri : renditionName(uri) }
        return " over \(names.joined(separator: " + "))"
    }

    /// A rendition playlist as its EXT-X-MEDIA wrote it.
    func renditionName(_ playlistURI: String) -> String {
        (allRenditions.first { $0.playlistURI == playlistURI }
            ?? subtitleRenditions.first { $0.playlistURI == playlistURI })?.rendition.uri
            ?? playlistURI
    }

    /// "measured 4 of 6 segments" over the combinations' playlists, and the playlists that were
    /// not read at all ("subs/en.m3u8 was not read"), nil when complete.
    var partialMeasurementPhrase: String? {
        guard !isMeasurementComplete else { return nil }
        let measurements = combinationMeasurements
        let measured = measurements.reduce(0) { $0 + $1.measuredSegmentCount }
        let total = measurements.reduce(0) { $0 + $1.records.count }
        let unread = combinationPlaylists.filter { measurement(of: $0) == nil }.map(renditionName)
        let playlists =
            unread.isEmpty ? "" : " (\(unread.joined(separator: ", ")) \(unread.count == 1 ? "was" : "were") not read)"
        return "measured \(measured) of \(total) segments\(playlists)"
    }
}

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

extension VariantAnalysis {
    /// Whether the variant's media playlist is live (no EXT-X-ENDLIST): its bit rates are held
    /// to AS 1.28–1.29, not to VOD's 1.26–1.27.
    var isLive: Bool { playlist.map { !$0.endList && $0.playlistType != .vod } ?? false }
}

/// How far `value` is from `base`, for a message: "12 %", or in bits below 1 % ("500 bit/s"),
/// where a rounded "0 %" would say there is no difference at all.
package func percent(_ value: Int, of base: Int) -> String {
    guard base > 0 else { return "∞" }
    // In Doubles, and clamped: two Ints from a file must not overflow a subtraction here.
    let difference = Double(value) - Double(base)
    if abs(difference) < Double(base) / 100, let bits = Int(exactly: difference) {
        return "\(bits.groupedDigits) bit/s"
    }
    let ratio = (difference / Double(base) * 100).rounded()
    return "\(Int(exactly: ratio) ?? (ratio > 0 ? Int.max : Int.min)) %"
}

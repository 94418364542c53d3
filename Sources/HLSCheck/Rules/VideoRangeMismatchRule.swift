import HLSPlaylist

/// VIDEO-RANGE that does not match the transfer characteristics of the video.
package struct VideoRangeMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "video-range-mismatch", name: "VIDEO-RANGE differs from the video", defaultSeverity: .error,
        scope: .variant,
        summary:
            "VIDEO-RANGE (SDR when absent) is not what the transfer characteristics in the video bitstream call for: SDR for 1, 6, 13, 14, 15; HLG for 18; PQ for 16.",
        rationale:
            "Players choose between SDR and HDR variants by VIDEO-RANGE and set the display up for it; PQ declared on SDR video, or HDR video without VIDEO-RANGE, shows with wrong brightness and colours, or is offered to a display that cannot show it.",
        specItems: [
            .bis("4.4.6.2", .must, "VIDEO-RANGE is SDR for video with transfer characteristics 1, 6, 13, 14 or 15."),
            .bis(
                "4.4.6.2", .must,
                "VIDEO-RANGE is HLG for video with transfer characteristics 18 (possibly mixed with SDR)."),
            .bis(
                "4.4.6.2", .must,
                "VIDEO-RANGE is PQ for video with transfer characteristics 16 (possibly mixed with SDR or HLG)."),
            .apple("9.16", .must, "VIDEO-RANGE is given unless all video is SDR."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declaration = variant.stream else { return nil }
            let transfers = variant.measuredTransfers
            let declared = VideoRange.declared(declaration.videoRange)
            guard let required = VideoRange.required(by: transfers), ["SDR", "HLG", "PQ"].contains(declared),
                required != declared
            else { return nil }
            let measured = transfers.sorted().map(VideoRange.name).joined(separator: ", ")
            let what = declaration.videoRange.map { "VIDEO-RANGE=\($0)" } ?? "no VIDEO-RANGE (SDR implied)"
            let fix = required == "SDR" ? "declare VIDEO-RANGE=SDR or leave it out" : "declare VIDEO-RANGE=\(required)"
            return Finding(
                "\(variant.uri) has \(what) but its video has transfer characteristics \(measured), which is \(required): \(fix)",
                at: variant.location(ofAttribute: "VIDEO-RANGE"))
        }
    }
}

extension VariantAnalysis {
    /// The transfer characteristics of the video in the variant's segments and its video renditions.
    fileprivate var measuredTransfers: Set<Int> {
        let measurements = [measurement] + videoRenditions.map(\.measurement)
        return Set(
            measurements.compactMap { $0 }.flatMap { $0.records.distinctTrackFormats.joined() }
                .filter { $0.kind == .video }.compactMap(\.transferCharacteristics))
    }
}

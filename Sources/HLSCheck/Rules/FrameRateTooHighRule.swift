import HLSPlaylist

/// Video above 60 frames per second.
package struct FrameRateTooHighRule: Rule {
    /// 60 frames per second, with the 2 % by which `frame-rate-mismatch` tells two rates apart.
    static let limit = 60.0 * (1 + FrameRateMismatchRule.tolerance)

    package static let description = RuleDescription(
        id: "frame-rate-too-high", name: "Video above 60 fps", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "A playlist's video runs at more than 60 frames per second (measured from the segments).",
        rationale:
            "Apple's authoring specification caps HLS video at 60 frames per second; faster video is not played on every device.",
        specItems: [.apple("1.19", .must, "No video runs above 60 fps.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard let rate = measurement.measuredFrameRate, rate > Self.limit,
                let record = measurement.inspectedRecords.first(where: { ($0.videoFrameRate ?? 0) > Self.limit })
            else { return nil }
            return Finding(
                "segment \(record.uri) runs at \(FrameRateMissingRule.rate(record.videoFrameRate ?? rate)) frames per second: video must not exceed 60; encode at 60 or less (e.g. ffmpeg -r 60)",
                at: measurement.location(of: record))
        }
    }
}

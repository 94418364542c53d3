import HLSPlaylist

/// FRAME-RATE that does not match the video in the segments.
package struct FrameRateMismatchRule: Rule {
    /// How far the declared rate may be from the measured one: 29.97 written as 30, or 23.976 as
    /// 24, is 0.1 %; a different nominal rate (25 for 30, 50 for 60) is 17 % or more.
    static let tolerance = 0.02

    package static let description = RuleDescription(
        id: "frame-rate-mismatch", name: "FRAME-RATE differs from the video", defaultSeverity: .warning,
        scope: .variant, settings: .errorForApple,
        summary: "FRAME-RATE differs by more than 2 % from the highest frame rate of the video in the segments.",
        rationale:
            "FRAME-RATE is the maximum frame rate of all the video in the variant; players leave out variants whose declared rate the device cannot decode, and pick by it between variants of one resolution. A wrong value hides a variant the device could play, or offers one it cannot.",
        specItems: [.frameRateOnVideoVariants],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream?.frameRate, declared > 0,
                let measured = variant.combinationMeasurements.compactMap(\.measuredFrameRate).max(), measured > 0,
                abs(declared - measured) > Self.tolerance * measured
            else { return nil }
            return Finding(
                "FRAME-RATE=\(FrameRateMissingRule.rate(declared)) but the video of \(variant.uri) runs at \(FrameRateMissingRule.rate(measured)) frames per second: declare FRAME-RATE=\(FrameRateMissingRule.rate(measured))",
                at: variant.location(ofAttribute: "FRAME-RATE"))
        }
    }
}

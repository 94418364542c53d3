import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

/// A video variant without FRAME-RATE.
package struct FrameRateMissingRule: Rule {
    package static let description = RuleDescription(
        id: "frame-rate-missing", name: "FRAME-RATE missing", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "An EXT-X-STREAM-INF of a variant with video has no FRAME-RATE attribute.",
        rationale:
            "Apple's authoring specification requires FRAME-RATE on every variant with video; players use it to leave out variants the device cannot decode in time. bis-22 asks for it above 30 frames per second.",
        specItems: [
            .frameRateOnVideoVariants,
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .should,
                "FRAME-RATE is included when any video in the variant stream exceeds 30 frames per second."),
        ],
        triggering: [
            RuleExample("video variant without FRAME-RATE", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 3, "video variant video.m3u8 has no FRAME-RATE")
        ],
        nonTriggering: [
            RuleExample(
                "video variant with FRAME-RATE",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,FRAME-RATE=25.000\nvideo.m3u8\n"
                )),
            RuleExample("audio-only variant", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream, declared.frameRate == nil, variant.carriesVideo else { return nil }
            let measured =
                variant.measurement?.measuredFrameRate.map { ": the video runs at \(Self.rate($0)) frames per second" }
                ?? ""
            return Finding("video variant \(variant.uri) has no FRAME-RATE attribute\(measured)", at: variant.location)
        }
    }

    /// A frame rate with three decimals, as FRAME-RATE is written.
    static func rate(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

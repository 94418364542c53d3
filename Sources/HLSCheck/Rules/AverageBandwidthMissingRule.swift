import HLSPlaylist

// Rules of Apple's HLS Authoring Specification for Apple Devices that RFC 8216 does not ask for.
// They are off in the default profile and on in apple-ios / apple-tvos (docs/profiles.md).

/// EXT-X-STREAM-INF without AVERAGE-BANDWIDTH.
package struct AverageBandwidthMissingRule: Rule {
    package static let description = RuleDescription(
        id: "average-bandwidth-missing", name: "AVERAGE-BANDWIDTH missing", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "An EXT-X-STREAM-INF has no AVERAGE-BANDWIDTH attribute.",
        rationale:
            "Apple HLS Authoring Specification: every variant must declare AVERAGE-BANDWIDTH; players use it to estimate sustained throughput.",
        specItems: [
            .apple("9.14", .must, "EXT-X-STREAM-INF includes AVERAGE-BANDWIDTH.")
        ],
        triggering: [
            RuleExample("variant without AVERAGE-BANDWIDTH", files: Examples.stream(Examples.audioVariant())).expecting(
                line: 3, "variant audio.m3u8 has no AVERAGE-BANDWIDTH")
        ],
        nonTriggering: [
            RuleExample(
                "variant with AVERAGE-BANDWIDTH",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=48000,AVERAGE-BANDWIDTH=45000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n"))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream, declared.averageBandwidth == nil else { return nil }
            return Finding("variant \(variant.uri) has no AVERAGE-BANDWIDTH attribute", at: variant.location)
        }
    }
}

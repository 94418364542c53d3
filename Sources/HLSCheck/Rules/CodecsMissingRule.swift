import HLSPlaylist

/// EXT-X-STREAM-INF without CODECS: players must download segments to learn what they hold.
public struct CodecsMissingRule: Rule {
    /// Makes the rule; it holds no state, so one instance serves every check.
    public init() {}

    public static let description = RuleDescription(
        id: "codecs-missing", name: "CODECS missing", defaultSeverity: .warning,
        summary: "An EXT-X-STREAM-INF has no CODECS attribute.",
        rationale: "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag SHOULD include CODECS; without it a player cannot tell an audio-only variant from a video one before downloading it.",
        specItems: [
            .bis("4.4.6.2", rfc: "4.3.4.2", .should, "Every EXT-X-STREAM-INF includes a CODECS attribute."),
            .apple("9.1", .must, "EXT-X-STREAM-INF always provides CODECS."),
        ],
        triggering: [
            RuleExample("variant without CODECS", files: Examples.stream(
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nvideo.m3u8\n", Examples.audioVariant()))
        ],
        nonTriggering: [RuleExample("CODECS everywhere", files: Examples.stream(Examples.videoVariant, Examples.audioVariant()))]
    )

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream, declared.codecs == nil else { return nil }
            return Finding("variant \(variant.uri) has no CODECS attribute", at: variant.location)
        }
    }
}

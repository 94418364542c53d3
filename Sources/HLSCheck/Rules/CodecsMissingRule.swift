import HLSPlaylist

/// EXT-X-STREAM-INF without CODECS: players must download segments to learn what they hold.
package struct CodecsMissingRule: Rule {
    package static let description = RuleDescription(
        id: "codecs-missing", name: "CODECS missing", defaultSeverity: .warning, scope: .variant,
        settings: .errorForApple,
        summary: "An EXT-X-STREAM-INF or EXT-X-I-FRAME-STREAM-INF has no CODECS attribute.",
        rationale:
            "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag SHOULD include CODECS; without it a player cannot tell an audio-only variant from a video one before downloading it.",
        specItems: [
            .bis("4.4.6.2", rfc: "4.3.4.2", .should, "Every EXT-X-STREAM-INF includes a CODECS attribute."),
            .apple("9.1", .must, "EXT-X-STREAM-INF always provides CODECS."),
            .apple("9.3", .must, "EXT-X-I-FRAME-STREAM-INF always provides CODECS."),
        ],
        triggering: [
            RuleExample(
                "variant without CODECS",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nvideo.m3u8\n", Examples.audioVariant())
            ).expecting(line: 3, "variant video.m3u8 has no CODECS attribute"),
            RuleExample(
                "I-frame stream without CODECS",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream(codecs: nil))),
        ],
        nonTriggering: [
            RuleExample("CODECS everywhere", files: Examples.stream(Examples.videoVariant, Examples.audioVariant()))
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let variants = stream.variants.compactMap { variant -> Finding? in
            guard let declared = variant.stream, declared.codecs == nil else { return nil }
            return Finding("variant \(variant.uri) has no CODECS attribute", at: variant.location)
        }
        // bis-22 §4.4.6.3: an I-frame stream has the attributes of EXT-X-STREAM-INF, CODECS among them.
        let iFrameStreams = (stream.multivariant?.iFrameVariants ?? []).compactMap { iFrame -> Finding? in
            guard iFrame.codecs == nil else { return nil }
            return Finding(
                "I-frame stream \(iFrame.uri) has no CODECS attribute", at: stream.root.location(line: iFrame.line))
        }
        return variants + iFrameStreams
    }
}

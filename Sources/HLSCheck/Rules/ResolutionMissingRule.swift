import HLSPlaylist

// Rules of Apple's HLS Authoring Specification for Apple Devices that RFC 8216 does not ask for.
// They are off in the default profile and on in apple-ios / apple-tvos (docs/profiles.md).

/// A video variant without RESOLUTION.
package struct ResolutionMissingRule: Rule {
    package static let description = RuleDescription(
        id: "resolution-missing", name: "RESOLUTION missing", defaultSeverity: .error, scope: .variant,
        settings: [.audioOnly64k: .off, .rfc8216: .severity(.warning)],
        summary: "A variant with video, or an I-frame stream, has no RESOLUTION attribute.",
        rationale:
            "RFC 8216 §4.3.4.2: RESOLUTION SHOULD be included for variants with video; Apple's authoring specification requires it.",
        specItems: [
            .apple("9.2", .must, "EXT-X-STREAM-INF always provides RESOLUTION when the variant includes video."),
            .apple("9.4", .must, "EXT-X-I-FRAME-STREAM-INF always provides RESOLUTION."),
        ],
        triggering: [
            RuleExample(
                "video variant without RESOLUTION",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\"\nvideo.m3u8\n")
            ).expecting(line: 3, "video variant video.m3u8 has no RESOLUTION"),
            RuleExample(
                "I-frame stream without RESOLUTION",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream(resolution: nil))),
        ],
        nonTriggering: [RuleExample("video variant with RESOLUTION", files: Examples.stream(Examples.videoVariant))])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream, declared.resolution == nil else { return nil }
            let declaresVideo = declared.codecs?.contains { CodecKind(codec: $0) == .video } ?? false
            guard declaresVideo || variant.measurement?.containsVideo == true else { return nil }
            return Finding("video variant \(variant.uri) has no RESOLUTION attribute", at: variant.location)
        }
            + (stream.multivariant?.iFrameVariants ?? []).compactMap { iFrame in
                // An I-frame stream is video by definition (bis-22 §4.4.6.3).
                guard iFrame.resolution == nil else { return nil }
                return Finding(
                    "I-frame stream \(iFrame.uri) has no RESOLUTION attribute",
                    at: stream.root.location(line: iFrame.line))
            }
    }
}

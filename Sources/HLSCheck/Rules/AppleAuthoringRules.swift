import HLSPlaylist

// Rules of Apple's HLS Authoring Specification for Apple Devices that RFC 8216 does not ask for.
// They are off in the default profile and on in apple-ios / apple-tvos (docs/profiles.md).

/// No variant light enough for cellular networks.
package struct CellularVariantMissingRule: Rule {
    package static let description = RuleDescription(
        id: "cellular-variant-missing", name: "No cellular variant", defaultSeverity: .error,
        // AS 9.21 is amended for iOS alone: Apple TV is not on cellular networks.
        settings: [.audioOnly64k: .off, .rfc8216: .off, .appleTVOS: .off],
        summary: "No variant declares a BANDWIDTH within the cellular budget (Apple: 192 kbit/s).",
        rationale:
            "Apple HLS Authoring Specification: a stream for cellular networks must offer a variant whose peak is at most 192 kbit/s.",
        specItems: [
            .apple(
                "9.21", platform: "iOS", .must,
                "A multivariant playlist delivered over cellular networks contains a variant whose peak BANDWIDTH is at most 192 kbit/s."
            )
        ],
        triggering: [
            RuleExample("only an 800 kbit/s variant", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 1, "no variant is within 192 kbit/s for cellular")
        ],
        nonTriggering: [
            RuleExample("a 48 kbit/s variant", files: Examples.stream(Examples.videoVariant, Examples.audioVariant()))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil, !stream.variants.isEmpty else { return [] }
        if stream.variants.contains(where: { ($0.declaredBandwidth ?? .max) <= configuration.cellularBudget }) {
            return []
        }
        return [
            Finding(
                "no variant is within \(configuration.cellularBudget.formattedBitrate) for cellular networks: add one",
                at: stream.root.location(line: 1))
        ]
    }
}

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

/// An audio-only variant in the multivariant playlist where the platform forbids it.
package struct AudioOnlyVariantPresentRule: Rule {
    package static let description = RuleDescription(
        id: "audio-only-variant-present", name: "Audio-only variant not allowed", defaultSeverity: .error,
        settings: [.audioOnly64k: .off, .rfc8216: .off, .appleIOS: .off, .appleTVOS: .severity(.error)],
        summary: "The multivariant playlist lists an audio-only variant (not allowed on tvOS).",
        rationale:
            "Apple HLS Authoring Specification (tvOS): audio-only variants must not be listed in the multivariant playlist of a video stream; offer audio through EXT-X-MEDIA renditions instead.",
        specItems: [
            .apple("9.20", platform: "tvOS", .must, "No audio-only variant is listed in the multivariant playlist.")
        ],
        triggering: [
            RuleExample(
                "audio-only variant listed", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())
            ).expecting(line: 5, "audio-only variant audio.m3u8 must not be listed")
        ],
        nonTriggering: [
            RuleExample("video variants only", files: Examples.stream(Examples.videoVariant)),
            // Without CODECS and RESOLUTION, and with the segments unread, the kind is unknown.
            RuleExample(
                "a variant declared by BANDWIDTH alone",
                files: Examples.stream(
                    Examples.videoVariant, "#EXT-X-STREAM-INF:BANDWIDTH=400000\nvideo2.m3u8\n")),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil else { return [] }
        return stream.variants.filter(\.isAudioOnly).map { variant in
            Finding(
                "audio-only variant \(variant.uri) must not be listed in the multivariant playlist",
                at: variant.location)
        }
    }
}

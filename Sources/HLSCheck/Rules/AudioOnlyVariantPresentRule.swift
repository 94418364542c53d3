import HLSPlaylist

// Rules of Apple's HLS Authoring Specification for Apple Devices that RFC 8216 does not ask for.
// They are off in the default profile and on in apple-ios / apple-tvos (docs/profiles.md).

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

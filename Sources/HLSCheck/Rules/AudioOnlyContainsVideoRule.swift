import HLSPlaylist

/// A variant declared audio-only whose segments carry video.
package struct AudioOnlyContainsVideoRule: Rule {
    package static let description = RuleDescription(
        id: "audio-only-contains-video", name: "Audio-only variant carries video", defaultSeverity: .error,
        scope: .variant,
        summary: "A variant declared audio-only (by CODECS) carries a video track.",
        rationale:
            "Players pick the audio-only variant by its CODECS; video inside it wastes the cellular budget and contradicts the declaration (RFC 8216 §4.3.4.2).",
        specItems: [
            .bis("6.2.4", .must, "CODECS lists every media format present in any segment of the variant stream.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard variant.isDeclaredAudioOnly, let measurement = variant.measurement, measurement.containsVideo,
                let first = measurement.records.first(where: \.hasVideo)
            else { return nil }
            return Finding(
                "variant \(variant.uri) is declared audio-only (CODECS=\"\(variant.stream?.codecs?.joined(separator: ",") ?? "")\") but \(first.uri) carries video",
                at: variant.location)
        }
    }
}

import HLSPlaylist

/// CODECS names the right format with the other sample entry (avc1 for avc3, hvc1 for hev1).
package struct CodecsSampleEntryMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "codecs-sample-entry-mismatch", name: "CODECS names the other sample entry", defaultSeverity: .warning,
        scope: .variant,
        summary: "CODECS declares avc1 where the fMP4 segments use avc3 (or hvc1 for hev1, and the reverse).",
        rationale:
            "RFC 6381 §3.3 and ISO/IEC 14496-15: avc3/hev1 carry parameter sets in band, avc1/hvc1 in the sample entry; some players (Apple's among them for HEVC) accept only the one they were told about.",
        specItems: [
            SpecItem(
                "RFC 6381 §3.3", .must,
                "avc1/hvc1 and avc3/hev1 name different sample entries (parameter sets in the sample entry or in band); the codec string names the one used."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // Only fMP4 has sample entries; in MPEG-TS both spellings describe the same stream.
            let pairs = variant.sampleEntryMismatches
            guard !pairs.isEmpty else { return nil }
            return Finding(
                "CODECS of \(variant.uri): \(pairs.joined(separator: "; ")): declare the sample entry the segments use",
                at: variant.location(ofAttribute: "CODECS"))
        }
    }
}

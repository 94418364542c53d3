import HLSPlaylist

/// CODECS that does not match what the segments contain.
package struct CodecsMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "codecs-mismatch", name: "CODECS differs from the media", defaultSeverity: .error, scope: .variant,
        summary:
            "CODECS does not match the RFC 6381 codec strings of what the segments of the playable combinations contain, or, for an I-frame stream, what its I-frames contain.",
        rationale:
            "RFC 8216 §4.3.4.2: CODECS MUST list every media format present in the variant's segments; players use it to skip variants they cannot decode. An I-frame stream's formats are read from the first I-frame of each resource and of each run after EXT-X-DISCONTINUITY, the only places where a format may change.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "CODECS lists every media format present in any segment of the variant stream, and nothing else."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "CODECS of a variant with IMSC subtitle renditions (fMP4 with the stpp sample entry) names them, such as stpp.ttml.im1t."
            ),
        ],
        needsMedia: true)

    /// Codec strings compared by format (sample entry folded, MP3 spellings merged).
    static func comparable(_ codec: String) -> String { CodecEquivalence.format(codec) }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // The verdict `hlscheck fix` acts on too (FixPlan).
            guard let declared = variant.stream?.codecs, let verdict = variant.codecsVerdict, verdict.isWrong else {
                return nil
            }
            return Finding(
                "CODECS=\"\(declared.joined(separator: ","))\" of \(variant.uri): \(verdict.phrase) (detected: \(variant.detectedCodecs.joined(separator: ",")))",
                at: variant.location(ofAttribute: "CODECS"))
        } + Self.iFrameFindings(stream)
    }
}

extension CodecsMismatchRule {
    /// bis-22 §6.2.4 for I-frame streams: the CODECS of each EXT-X-I-FRAME-STREAM-INF against the
    /// codecs of its I-frames (IFramePlaylistInspection), judged as a variant's are (CodecsVerdict).
    static func iFrameFindings(_ stream: StreamAnalysis) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        return multivariant.iFrameVariants.compactMap { iFrame in
            guard let declared = iFrame.codecs, !declared.isEmpty,
                let inspection = stream.iFramePlaylists[stream.loaded.resolvedURI(of: iFrame)],
                let verdict = CodecsVerdict(
                    declared: declared, detected: inspection.codecs, complete: inspection.isComplete),
                verdict.isWrong
            else { return nil }
            return Finding(
                "CODECS=\"\(declared.joined(separator: ","))\" of I-frame stream \(iFrame.uri): \(verdict.phrase.replacing("the segments hold", with: "the I-frames hold")) (detected: \(inspection.codecs.joined(separator: ",")))",
                at: stream.root.location(line: iFrame.line, column: iFrame.attributes["CODECS"]?.column ?? 0))
        }
    }
}

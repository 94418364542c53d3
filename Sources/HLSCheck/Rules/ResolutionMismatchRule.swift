import HLSPlaylist

/// RESOLUTION that does not match the decoded video.
package struct ResolutionMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "resolution-mismatch", name: "RESOLUTION differs from the video", defaultSeverity: .warning,
        scope: .variant,
        summary:
            "RESOLUTION differs from the width × height of the video in the segments of the variant or of a video rendition of its VIDEO group.",
        rationale:
            "RFC 8216 §4.3.4.2: RESOLUTION is the optimal pixel resolution of the video; players use it to pick a variant for the screen. bis-22 §4.4.6.2.1: with a VIDEO group, every video rendition of the group has that resolution, since a player that switches angle keeps the variant it chose for the screen.",
        specItems: [
            .bis(
                "4.4.6.2.1", rfc: "4.3.4.2.1", .must,
                "The video of a variant has the optimal pixel resolution its RESOLUTION declares."),
            .bis(
                "4.4.6.2.1", rfc: "4.3.4.2.1", .must,
                "With RESOLUTION and VIDEO, every video rendition of the group has the optimal resolution RESOLUTION declares."
            ),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var findings: [Finding] = []
        var renditionsSeen: Set<String> = []
        for variant in stream.variants {
            guard let declared = variant.stream?.resolution else { continue }
            if let actual = variant.measuredResolution, actual != declared {
                findings.append(
                    Finding(
                        "RESOLUTION=\(declared) but the video of \(variant.uri) is \(actual)",
                        at: variant.location(ofAttribute: "RESOLUTION")))
            }
            // bis-22 §4.4.6.2.1: each video rendition of the VIDEO group, told once per
            // rendition and declared resolution, at its EXT-X-MEDIA line.
            for rendition in variant.videoRenditions {
                guard let uri = rendition.playlistURI, uri != variant.playlistURI,
                    let actual = rendition.measurement?.records.lazy.compactMap(\.videoResolution).first,
                    actual != declared,
                    renditionsSeen.insert("\(rendition.rendition.line) \(declared)").inserted
                else { continue }
                findings.append(
                    Finding(
                        "the video of rendition \"\(rendition.rendition.name ?? "")\" (\(rendition.rendition.uri ?? uri)) is \(actual), but the variant on line \(variant.location.line) that uses its VIDEO group \"\(rendition.rendition.groupID ?? "")\" declares RESOLUTION=\(declared); every video rendition of a group must have the variant's resolution: move it to a group of its own",
                        at: stream.root.location(line: rendition.rendition.line)))
            }
        }
        return findings
    }
}

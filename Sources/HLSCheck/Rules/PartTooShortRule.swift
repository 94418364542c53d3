import HLSPlaylist

// What one version of a low-latency media playlist (EXT-X-PART-INF) must hold about its partial
// segments, their tags and its rendition reports (bis-22 §4.4.3.8, §4.4.4.9, §4.4.5.4). The
// attribute ranges of EXT-X-SERVER-CONTROL are LowLatencyInvalidRule's.

/// Partial segments shorter than 85 % of PART-TARGET where the protocol allows none.
package struct PartTooShortRule: Rule {
    package static let description = RuleDescription(
        id: "part-too-short", name: "Partial segment shorter than 85 % of PART-TARGET", defaultSeverity: .error,
        summary:
            "An EXT-X-PART lasts less than 85 % of the part target duration, and it is neither its segment's last part, nor INDEPENDENT, nor a gap, nor the part before a gap.",
        rationale:
            "bis-22 §4.4.4.9 keeps partial segments close to PART-TARGET, so that a client in low-latency mode, which reloads and fetches once per part target, gets a steady supply of media. Only the part that ends a segment, a part that starts with an independent frame (INDEPENDENT=YES), a gap part and the part before a gap may be shorter.",
        specItems: [
            .bis(
                "4.4.4.9", .must,
                "A partial segment lasts at least 85 % of the part target duration, except an independent part, a gap part, the part preceding a gap, and a segment's last part."
            )
        ],
        triggering: [
            RuleExample(
                "a 0.5 s part in the middle of a segment with PART-TARGET 1",
                files: LowLatencyExamples.media(parts: ["1", "0.5", "1", "1"])
            )
            .expecting(line: 9, "partial segment s10.1.mp4 lasts 0.5 s, less than 85 % of PART-TARGET 1 s")
        ],
        nonTriggering: [
            RuleExample("parts of the full part target", files: LowLatencyExamples.media()),
            RuleExample(
                "a short last part of a segment, a short INDEPENDENT part, a short part before a gap",
                files: LowLatencyExamples.media(
                    parts: ["0.4", "1", "1", "0.6"],
                    tail:
                        "#EXT-X-PART:DURATION=0.3,URI=\"s11.0.mp4\"\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\",GAP=YES\n#EXT-X-PART:DURATION=0.2,URI=\"s11.2.mp4\"\n"
                )),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, let partTarget = media.partTarget, partTarget > 0 else { return nil }
            let minimum = 0.85 * partTarget
            var short: [PartialSegment] = []
            // A complete segment's last part is exempt; of the trailing parts (the segment still
            // being written) the latest may yet turn out to be its last.
            for parts in media.segments.map(\.parts) + [media.trailingParts] {
                for (index, part) in parts.enumerated().dropLast()
                where part.duration < minimum && !part.independent && !part.gap && !parts[index + 1].gap {
                    short.append(part)
                }
            }
            guard let first = short.first else { return nil }
            return Finding(
                "partial segment \(first.uri) lasts \(compactSeconds(first.duration)) s, less than 85 % of PART-TARGET \(compactSeconds(partTarget)) s (\(compactSeconds(minimum)) s)\(short.count > 1 ? " (\(short.count) such parts)" : ""); only a segment's last part, an INDEPENDENT or GAP part and the part before a gap may be shorter: cut parts of the part target duration",
                at: playlist.location(line: first.line))
        }
    }
}

import HLSPlaylist

/// Variants (and their audio and video renditions) that declare different target durations.
public struct TargetDurationInconsistentRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "target-duration-inconsistent", name: "Target durations differ between variants", defaultSeverity: .warning,
        summary: "The media playlists of one stream (variants, audio and video renditions) declare different EXT-X-TARGETDURATION values.",
        rationale: "Apple's HLS Authoring Specification asks for the same target duration in every variant, so that segments line up and a player switching variants keeps its buffer; RFC 8216 §6.3.4 ties reload timing to it.",
        triggering: [
            RuleExample("6 s video, 10 s audio-only", files: [
                "master.m3u8": "#EXTM3U\n" + Examples.videoVariant + Examples.audioVariant(),
                "video.m3u8": Examples.media([6, 6], target: 6),
                "audio.m3u8": Examples.media([10], target: 10),
            ])
        ],
        nonTriggering: [
            RuleExample("6 s everywhere", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())),
            RuleExample("a single media playlist", files: ["master.m3u8": Examples.media()]),
        ])

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil else { return [] }
        // Every media playlist once, in the order the multivariant playlist names them.
        var seen: Set<String> = []
        var declared: [(name: String, location: SourceLocation, target: Int)] = []
        for variant in stream.variants {
            if let target = variant.playlist?.targetDuration, seen.insert(variant.playlistURI).inserted {
                declared.append((variant.uri, variant.location, target))
            }
            for rendition in variant.audioRenditions + variant.videoRenditions {
                guard let uri = rendition.playlistURI, let target = rendition.playlist?.targetDuration,
                      seen.insert(uri).inserted else { continue }
                declared.append((rendition.rendition.uri ?? uri, stream.root.location(line: rendition.rendition.line), target))
            }
        }
        let values = Set(declared.map(\.target))
        guard values.count > 1 else { return [] }
        // The most common value (the smallest on a tie) is the stream's; the others deviate.
        let usual = values.max { a, b in
            let (ca, cb) = (declared.filter { $0.target == a }.count, declared.filter { $0.target == b }.count)
            return ca != cb ? ca < cb : a > b
        } ?? 0
        let groups = values.sorted().map { target in
            "\(target) s in \(declared.filter { $0.target == target }.map(\.name).joined(separator: ", "))"
        }
        guard let first = declared.first(where: { $0.target != usual }) else { return [] }
        return [Finding(
            "EXT-X-TARGETDURATION differs between the playlists of this stream (\(groups.joined(separator: "; "))): cut every variant and rendition to one target duration, \(usual) s like most",
            at: first.location)]
    }
}

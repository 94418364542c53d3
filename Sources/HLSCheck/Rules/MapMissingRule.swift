import HLSPlaylist

// Apple authoring MUSTs about the set of variants and renditions a multivariant playlist offers,
// and the fMP4 media playlists' initialization sections. Apple-only (`settings: .appleOnly`).

/// An fMP4 media playlist without EXT-X-MAP.
package struct MapMissingRule: Rule {
    /// File extensions of ISO BMFF segments (CMAF included).
    static let fragmentedMP4Extensions: Set<String> = ["m4s", "mp4", "m4a", "m4v", "cmfv", "cmfa", "cmft", "cmf"]

    static func fmp4Media(map: Bool) -> String {
        "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + (map ? "#EXT-X-MAP:URI=\"init.mp4\"\n" : "")
            + "#EXTINF:6.0,\nseg0.m4s\n#EXTINF:6.0,\nseg1.m4s\n#EXT-X-ENDLIST\n"
    }

    package static let description = RuleDescription(
        id: "map-missing", name: "fMP4 media playlist without EXT-X-MAP", defaultSeverity: .error, settings: .appleOnly,
        summary:
            "A media playlist of fragmented MP4 segments (by their measured container, or else by their file extension) has no EXT-X-MAP.",
        rationale:
            "Apple's authoring specification requires EXT-X-MAP in fMP4 media playlists: the initialization section it names holds the track descriptions a player needs to decode every fragment.",
        specItems: [
            .apple("8.20", .must, "Media playlists of fMP4 segments contain an EXT-X-MAP tag.")
        ],
        triggering: [
            RuleExample(
                "fMP4 segments without EXT-X-MAP",
                files: Examples.audioStream(fmp4Media(map: false))
            ).expecting(line: 1, "fragmented MP4 (seg0.m4s) but it has no EXT-X-MAP")
        ],
        nonTriggering: [
            RuleExample(
                "fMP4 segments with EXT-X-MAP",
                files: Examples.audioStream(fmp4Media(map: true))),
            RuleExample("MPEG-TS segments", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.compactMap { uri, playlist, media in
            guard let first = media.segments.first, !media.segments.contains(where: { $0.map != nil }) else {
                return nil
            }
            let measured = stream.measurements[uri]?.records.lazy.compactMap(\.container).first
            let isFragmentedMP4: Bool
            if let measured {
                isFragmentedMP4 = measured == .fragmentedMP4
            } else {
                let path = first.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? first.uri
                let fileExtension = path.split(separator: "/").last?.split(separator: ".").dropFirst().last.map {
                    $0.lowercased()
                }
                isFragmentedMP4 = fileExtension.map(Self.fragmentedMP4Extensions.contains) ?? false
            }
            guard isFragmentedMP4 else { return nil }
            return Finding(
                "this playlist's segments are fragmented MP4 (\(first.uri)) but it has no EXT-X-MAP: add #EXT-X-MAP:URI=\"…\" naming the initialization section (ftyp and moov) before the first segment",
                at: playlist.location(line: 1))
        }
    }
}

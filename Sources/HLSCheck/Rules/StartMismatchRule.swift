import HLSPlaylist

// MUSTs of bis-22 that relate tags of the multivariant playlist to each other or to the media
// playlists it names: each tag is well formed on its own, the stream as a whole is not.

/// EXT-X-START in the multivariant playlist and a media playlist with other values.
package struct StartMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "start-mismatch", name: "EXT-X-START differs between playlists", defaultSeverity: .error,
        summary:
            "EXT-X-START appears in both the multivariant playlist and a media playlist with a different TIME-OFFSET or PRECISE.",
        rationale:
            "bis-22 §4.4.2.2: a preferred start point given in both places must be the same, or the player starts at one place or the other depending on which playlist it read last.",
        specItems: [
            .bis(
                "4.4.2.2", rfc: "4.3.5.2", .must,
                "EXT-X-START in both the multivariant playlist and a media playlist has the same value.")
        ],
        triggering: [
            RuleExample(
                "TIME-OFFSET 10 in the multivariant playlist, 20 in the media playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n" + Examples.audioVariant(),
                    "audio.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-START:TIME-OFFSET=20\n"),
                ]
            ).expecting(
                line: 5, "EXT-X-START:TIME-OFFSET=20.0 differs from the multivariant playlist's TIME-OFFSET=10.0")
        ],
        nonTriggering: [
            RuleExample(
                "the same start point in both",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n" + Examples.audioVariant(),
                    "audio.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n",
                        with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-START:TIME-OFFSET=10.0,PRECISE=NO\n"),
                ]),
            RuleExample(
                "a start point in the multivariant playlist only",
                files: Examples.stream(
                    Examples.audioVariant(), header: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n")),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let start = stream.multivariant?.start, let offset = start.timeOffset else { return [] }
        return stream.mediaPlaylists.compactMap { uri, playlist, media in
            guard let own = media.start, let ownOffset = own.timeOffset,
                ownOffset != offset || own.precise != start.precise
            else { return nil }
            return Finding(
                "EXT-X-START:TIME-OFFSET=\(ownOffset)\(own.precise ? ",PRECISE=YES" : "") differs from the multivariant playlist's TIME-OFFSET=\(offset)\(start.precise ? ",PRECISE=YES" : "") (line \(start.line)): give the same start point in both, or keep it in the multivariant playlist only",
                at: playlist.location(line: own.line))
        }
    }
}

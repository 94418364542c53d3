import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// EXT-X-PLAYLIST-TYPE on some media playlists but not all, or with different values.
package struct PlaylistTypeInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-type-inconsistent", name: "EXT-X-PLAYLIST-TYPE differs between media playlists",
        defaultSeverity: .error,
        summary: "One media playlist of the stream has EXT-X-PLAYLIST-TYPE and another has none, or another value.",
        rationale:
            "bis-22 §6.2.4: if any media playlist of a multivariant playlist has EXT-X-PLAYLIST-TYPE, all have it with the same value; a player treats the stream as VOD, EVENT or live from the playlist it happens to load.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "If any media playlist has EXT-X-PLAYLIST-TYPE, every media playlist has EXT-X-PLAYLIST-TYPE with the same value."
            )
        ],
        triggering: [
            RuleExample(
                "VOD video, no type on the audio rendition",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                        + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
                    "video.m3u8": Examples.media(),
                    "audio.m3u8": Examples.media().replacing("#EXT-X-PLAYLIST-TYPE:VOD\n", with: ""),
                ]
            ).expecting(line: 1, "has no EXT-X-PLAYLIST-TYPE, but video.m3u8 says EXT-X-PLAYLIST-TYPE:VOD")
        ],
        nonTriggering: [
            RuleExample("VOD everywhere", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())),
            RuleExample(
                "no type anywhere",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
                    "video.m3u8": Examples.live(), "audio.m3u8": Examples.live(),
                ]),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists
        guard let typed = playlists.first(where: { $0.media.playlistType != nil }), let type = typed.media.playlistType
        else { return [] }
        return playlists.compactMap { uri, playlist, media in
            guard media.playlistType != type else { return nil }
            let line = playlist.tagLines(named: "#EXT-X-PLAYLIST-TYPE").first ?? 1
            let own =
                media.playlistType.map { "says EXT-X-PLAYLIST-TYPE:\($0.rawValue)" } ?? "has no EXT-X-PLAYLIST-TYPE"
            return Finding(
                "this media playlist \(own), but \(stream.shortName(ofPlaylist: typed.uri)) says EXT-X-PLAYLIST-TYPE:\(type.rawValue): every media playlist of the stream carries the same type, or none does",
                at: playlist.location(line: line))
        }
    }
}

import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

/// A VOD media playlist without EXT-X-PLAYLIST-TYPE:VOD.
package struct PlaylistTypeMissingRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-type-missing", name: "VOD playlist without EXT-X-PLAYLIST-TYPE:VOD", defaultSeverity: .error,
        settings: .appleOnly,
        summary: "A media playlist that ends with EXT-X-ENDLIST (VOD) has no EXT-X-PLAYLIST-TYPE.",
        rationale:
            "Apple's authoring specification requires EXT-X-PLAYLIST-TYPE:VOD on media playlists made from static content: it tells the player that the playlist will not change, so it neither reloads it nor treats it as live.",
        specItems: [
            .apple(
                "8.6", .must,
                "Media playlists created from static source content (VOD) carry EXT-X-PLAYLIST-TYPE with the value VOD."
            )
        ],
        triggering: [
            RuleExample(
                "VOD playlist without the tag",
                files: Examples.audioStream(Examples.media().replacing("#EXT-X-PLAYLIST-TYPE:VOD\n", with: ""))
            ).expecting(line: 8, "the playlist ends with EXT-X-ENDLIST but has no")
        ],
        nonTriggering: [
            RuleExample("EXT-X-PLAYLIST-TYPE:VOD", files: Examples.stream(Examples.audioVariant())),
            RuleExample(
                "a finished EVENT playlist",
                files: Examples.audioStream(Examples.media().replacing("TYPE:VOD", with: "TYPE:EVENT"))),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.mediaPlaylists.compactMap { _, playlist, media in
            guard media.endList, media.playlistType == nil else { return nil }
            let line = playlist.tagLines(named: "#EXT-X-ENDLIST").first ?? 1
            return Finding(
                "the playlist ends with EXT-X-ENDLIST but has no EXT-X-PLAYLIST-TYPE: add #EXT-X-PLAYLIST-TYPE:VOD to its header",
                at: playlist.location(line: line))
        }
    }
}

import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// EXT-X-PROGRAM-DATE-TIME in some media playlists but not all.
package struct ProgramDateTimeInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "program-date-time-inconsistent", name: "EXT-X-PROGRAM-DATE-TIME in some media playlists only",
        defaultSeverity: .error,
        summary: "One media playlist of the stream has EXT-X-PROGRAM-DATE-TIME and another has none.",
        rationale:
            "bis-22 §6.2.4: if any media playlist has EXT-X-PROGRAM-DATE-TIME, all have it, with consistent mappings of date to media timestamp; a player that seeks by date or shows the wall-clock time loses it when it switches to a variant without.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "If any media playlist has EXT-X-PROGRAM-DATE-TIME, every media playlist has EXT-X-PROGRAM-DATE-TIME.")
        ],
        triggering: [
            RuleExample(
                "dates in the video playlist only",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
                    "video.m3u8": Examples.media().replacing(
                        "#EXTINF:6.0,\nseg0.ts",
                        with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6.0,\nseg0.ts"),
                    "audio.m3u8": Examples.media(),
                ]
            ).expecting(line: 1, "has no EXT-X-PROGRAM-DATE-TIME, but video.m3u8 has")
        ],
        nonTriggering: [
            RuleExample(
                "dates in every playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
                    "video.m3u8": Examples.media().replacing(
                        "#EXTINF:6.0,\nseg0.ts",
                        with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6.0,\nseg0.ts"),
                    "audio.m3u8": Examples.media().replacing(
                        "#EXTINF:6.0,\nseg0.ts",
                        with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6.0,\nseg0.ts"),
                ])
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists
        func dated(_ media: MediaPlaylist) -> Bool { media.segments.contains { $0.programDateTime != nil } }
        guard let reference = playlists.first(where: { dated($0.media) }) else { return [] }
        return playlists.compactMap { uri, playlist, media in
            // An empty playlist (a live one between windows) has no segment to date.
            guard !media.segments.isEmpty, !dated(media) else { return nil }
            return Finding(
                "this media playlist has no EXT-X-PROGRAM-DATE-TIME, but \(stream.shortName(ofPlaylist: reference.uri)) has: date every media playlist of the stream, with the same date for the same media timestamp",
                at: playlist.location(line: 1))
        }
    }
}

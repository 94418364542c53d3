import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// Finished media playlists of one stream that last noticeably different times.
package struct DurationMismatchRule: Rule {
    static func files(audio: [Double]) -> [String: String] {
        [
            "master.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
            "video.m3u8": Examples.media([6, 6, 6, 6]),
            "audio.m3u8": Examples.media(audio),
        ]
    }

    package static let description = RuleDescription(
        id: "duration-mismatch", name: "Media playlists of different lengths", defaultSeverity: .error,
        summary:
            "In a finished stream (every media playlist ends with EXT-X-ENDLIST), a variant or audio/video rendition playlist lasts longer than another by more than the smaller of their target durations, by the sum of its EXTINF durations.",
        rationale:
            "bis-22 §6.2.4: content that one variant or rendition has and another lacks may only be at the start or the end, and no longer than the smallest target duration; Apple's authoring specification asks audio and video playlists, and alternative audio, to cover the same content. A player switching to the shorter playlist, or playing a shorter audio rendition, loses picture or sound at the end.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "Content present in one variant but not another is only at the beginning or end, and no longer than the smallest target duration."
            ),
            .audioAndVideoCoverSameDuration,
            .alternativeAudioLastsWholeContent,
        ],
        triggering: [
            RuleExample("audio 12 s shorter than video", files: files(audio: [6, 6])).expecting(
                line: 9, "12 s less than video.m3u8")
        ],
        nonTriggering: [RuleExample("audio 40 ms longer than video", files: files(audio: [6, 6, 6, 6.04]))])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.isEnded, let multivariant = stream.multivariant else { return [] }
        // Variants and their audio and video renditions: subtitle cues and I-frames end where
        // their last cue or frame does, not where the media ends.
        // Each file once (every spelling of it is one file: `canonicalURI(of:)`), through a set:
        // linear in the variants and renditions.
        var uris: [String] = []
        var seen: Set<String> = []
        func add(_ uri: String?) {
            if let uri, seen.insert(stream.loaded.canonicalURI(of: uri)).inserted { uris.append(uri) }
        }
        for variant in multivariant.variants { add(stream.loaded.resolvedURI(of: variant)) }
        for rendition in multivariant.renditions where rendition.type == .audio || rendition.type == .video {
            add(stream.loaded.resolvedURI(of: rendition))
        }
        let playlists = uris.compactMap { uri in
            stream.loaded.mediaPlaylists[uri].flatMap { playlist in playlist.media.map { (uri, playlist, $0) } }
        }
        .filter { !$0.2.segments.isEmpty }
        guard let longest = playlists.max(by: { $0.2.totalDuration < $1.2.totalDuration }) else { return [] }
        return playlists.compactMap { uri, playlist, media in
            let shortfall = longest.2.totalDuration - media.totalDuration
            let allowed = Double(min(media.targetDuration ?? 1, longest.2.targetDuration ?? 1))
            guard shortfall > allowed else { return nil }
            return Finding(
                "this playlist lasts \(compactSeconds(media.totalDuration)) s, \(compactSeconds(shortfall)) s less than \(stream.shortName(ofPlaylist: longest.0)) (\(compactSeconds(longest.2.totalDuration)) s): every variant and rendition covers the same content, give or take one target duration (\(Int(allowed)) s) at the start or end",
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-ENDLIST").first ?? 1))
        }
    }
}

import HLSPlaylist

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

/// Media playlists of one stream that declare different target durations.
package struct TargetDurationInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "target-duration-inconsistent", name: "Target durations differ between variants", defaultSeverity: .error,
        summary:
            "The media playlists of the variants and renditions of one stream declare different EXT-X-TARGETDURATION values.",
        rationale:
            "RFC 8216 §6.2.4: each Media Playlist in each Variant Stream MUST have the same target duration; only SUBTITLES renditions and I-frame playlists of VOD streams are exempt. A live player reloads every playlist it plays at the pace of its target duration: a live subtitle or I-frame playlist with another one falls out of step.",
        specItems: [
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "Every media playlist of every variant stream has the same target duration; only subtitle and I-frame playlists of VOD may differ."
            ),
            .apple("8.2", .must, "Audio and video playlists all use the same target duration."),
            .apple(
                "5.6", .must, "For live content, subtitle playlists have the same target duration as the other media."),
            .apple(
                "6.11", .must, "For live content, I-frame playlists have the same target duration as the other media."),
        ],
        triggering: [
            RuleExample(
                "audio at 6 s, video at 10 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant + Examples.audioVariant(),
                    "video.m3u8": Examples.media([10, 10], target: 10),
                    "audio.m3u8": Examples.media([6, 6], target: 6),
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 10 s here, 6 s in the other playlists"),
            RuleExample(
                "live subtitles at 30 s, live video at 6 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.subtitles + Examples.subtitledVariant,
                    "video.m3u8": Examples.live([6, 6], target: 6),
                    "subs.m3u8": Examples.live([30], target: 30),
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 30 s here, 6 s in the other playlists"),
            RuleExample(
                "live I-frame playlist at 10 s, live video at 6 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant + Examples.iFrameStream(),
                    "video.m3u8": Examples.live([6, 6], target: 6),
                    "iframes.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:6,\n#EXT-X-BYTERANGE:5000@0\nseg0.ts\n",
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 10 s here, 6 s in the other playlists"),
        ],
        nonTriggering: [
            RuleExample(
                "every playlist at 6 s", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())),
            RuleExample("a single media playlist", files: ["master.m3u8": Examples.media()]),
            RuleExample(
                "VOD subtitles at 30 s",
                files: Examples.stream(Examples.subtitles, Examples.subtitledVariant)
                    .merging(["subs.m3u8": Examples.media([30], target: 30)]) { $1 }),
            RuleExample(
                "VOD I-frame playlist at 10 s",
                files: Examples.stream(Examples.videoVariant, Examples.iFrameStream())
                    .merging([
                        "iframes.m3u8": Examples.iFrameMedia.replacing("TARGETDURATION:6", with: "TARGETDURATION:10")
                    ]) { $1 }),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var declared: [(uri: String, target: Int, line: Int)] = []
        var seen: Set<String> = []
        func add(_ uri: String, _ playlist: MediaPlaylist?) {
            guard let playlist, let target = playlist.targetDuration, seen.insert(uri).inserted else { return }
            declared.append((uri, target, playlist.targetDurationLine ?? 1))
        }
        // Each group once: its variants share one rendition list.
        var groupsSeen: Set<String> = []
        for variant in stream.variants {
            add(variant.playlistURI, variant.playlist)
            let groups = [
                ("AUDIO", variant.stream?.audioGroup, variant.audioRenditions),
                ("VIDEO", variant.stream?.videoGroup, variant.videoRenditions),
            ]
            for (kind, group, renditions) in groups {
                guard let group, groupsSeen.insert(kind + "/" + group).inserted else { continue }
                for rendition in renditions {
                    if let uri = rendition.playlistURI { add(uri, rendition.playlist) }
                }
            }
        }
        // Subtitle renditions and I-frame playlists may differ only in VOD (bis-22 §6.2.4, AS 5.6,
        // AS 6.11): a live one is held to the same target duration. A playlist that has
        // EXT-X-ENDLIST will not change either, so it counts as VOD here (playlist-type-missing
        // asks for the tag where Apple requires it).
        let mains = declared.count
        if let multivariant = stream.multivariant {
            func isLive(_ media: MediaPlaylist) -> Bool { media.playlistType != .vod && !media.endList }
            for rendition in multivariant.renditions where rendition.type == .subtitles {
                guard let uri = stream.loaded.resolvedURI(of: rendition),
                    let media = stream.loaded.playlist(for: rendition)?.media,
                    isLive(media)
                else { continue }
                add(uri, media)
            }
            for iFrame in multivariant.iFrameVariants {
                guard let media = stream.loaded.playlist(for: iFrame)?.media, isLive(media) else { continue }
                add(stream.loaded.resolvedURI(of: iFrame), media)
            }
        }
        guard Set(declared.map(\.target)).count > 1 else { return [] }
        // The value most playlists declare (the smaller in a tie) is the reference: of the
        // variants and their audio and video renditions when there are any, whatever the number
        // of subtitle and I-frame playlists.
        let counts = Dictionary(
            (mains > 0 ? declared.prefix(mains) : declared[...]).map { ($0.target, 1) }, uniquingKeysWith: +)
        guard let reference = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return [] }
        return declared.filter { $0.target != reference }.map { uri, target, line in
            Finding(
                "EXT-X-TARGETDURATION is \(target) s here, \(reference) s in the other playlists of this stream: every variant and rendition must use the same target duration",
                at: SourceLocation(uri: uri, line: line))
        }
    }
}

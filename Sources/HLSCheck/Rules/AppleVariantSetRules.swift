import HLSPlaylist

// Apple authoring MUSTs about the set of variants and renditions a multivariant playlist offers,
// and the fMP4 media playlists' initialization sections. Apple-only (Profile.appleOnlyRules).

/// SCORE on some EXT-X-STREAM-INF tags but not all.
package struct ScoreInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "score-inconsistent", name: "SCORE on some variants only", defaultSeverity: .error, settings: .appleOnly,
        summary: "One EXT-X-STREAM-INF has a SCORE attribute and another has none.",
        rationale:
            "Apple's authoring specification: if any variant has SCORE, every variant must; the player ranks variants by SCORE, and a variant without one cannot be ranked against the others.",
        specItems: [
            .apple(
                "9.19", .must, "If any EXT-X-STREAM-INF tag has a SCORE attribute, every EXT-X-STREAM-INF tag has one."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .should, "If any variant stream has SCORE, every variant stream has SCORE."),
        ],
        triggering: [
            RuleExample(
                "SCORE on one of two variants",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,SCORE=2.0\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nvideo2.m3u8\n"
                )
            ).expecting(line: 5, "has no SCORE, but the variant on line 3 has")
        ],
        nonTriggering: [
            RuleExample(
                "SCORE on every variant",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,SCORE=1.0\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,SCORE=2.0\nvideo2.m3u8\n"
                )),
            RuleExample("no SCORE", files: Examples.stream(Examples.videoVariant)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant,
            let scored = master.variants.first(where: { $0.attributes.contains("SCORE") })
        else { return [] }
        return master.variants.filter { !$0.attributes.contains("SCORE") }.map { variant in
            Finding(
                "variant \(variant.uri) has no SCORE, but the variant on line \(scored.line) has: give every EXT-X-STREAM-INF a SCORE, or none",
                at: stream.root.location(line: variant.line))
        }
    }
}

/// A stream whose video comes at one bit rate only.
package struct VideoBitRatesTooFewRule: Rule {
    package static let description = RuleDescription(
        id: "video-bit-rates-too-few", name: "Video at one bit rate only", defaultSeverity: .error,
        settings: .appleOnly,
        summary:
            "Every variant with video declares the same BANDWIDTH (or there is one): the video is offered at one bit rate.",
        rationale:
            "Apple's authoring specification requires video at several bit rates: adaptive streaming is choosing among them, and with one a viewer on a slow network stalls instead of dropping to a lower rate.",
        specItems: [
            .apple("9.9", .must, "Video is provided at multiple bit rates (variant streams of different BANDWIDTH).")
        ],
        triggering: [
            RuleExample(
                "one video variant and an audio-only one",
                files: Examples.stream(Examples.videoVariant, Examples.audioVariant())
            )
            .expecting(line: 1, "the video is offered at one bit rate only (variant video.m3u8)")
        ],
        nonTriggering: [
            RuleExample(
                "two video variants",
                files: Examples.stream(
                    Examples.videoVariant,
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nvideo2.m3u8\n"
                )),
            RuleExample("an audio-only stream", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.multivariant != nil else { return [] }
        let video = stream.variants.filter(\.carriesVideo)
        guard let first = video.first, Set(video.compactMap(\.declaredBandwidth)).count < 2 else { return [] }
        return [
            Finding(
                "the video is offered at one bit rate only (\(video.count == 1 ? "variant \(first.uri)" : "\(video.count) variants of BANDWIDTH=\(first.declaredBandwidth ?? 0)")): add variants at lower and higher bit rates so players can adapt",
                at: stream.root.location(line: 1))
        ]
    }
}

/// An audio description rendition without AUTOSELECT=YES or without LANGUAGE.
package struct AudioDescriptionInvalidRule: Rule {
    /// bis-22 §4.4.6.1 / Apple 2.12: how an audio description is marked.
    static let describesVideo = "public.accessibility.describes-video"

    static func stream(_ attributes: String) -> [String: String] {
        Examples.stream(
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English (described)\",CHARACTERISTICS=\"\(describesVideo)\"\(attributes),URI=\"described.m3u8\"\n",
            "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
        )
    }

    package static let description = RuleDescription(
        id: "audio-description-invalid", name: "Audio description not selectable", defaultSeverity: .error,
        settings: .appleOnly,
        summary:
            "An EXT-X-MEDIA audio rendition marked public.accessibility.describes-video lacks AUTOSELECT=YES or LANGUAGE.",
        rationale:
            "Apple's authoring specification: audio description must have AUTOSELECT=YES, so that players pick it for viewers who ask for described video, and LANGUAGE naming the language of the descriptions, so that they pick the right one.",
        specItems: [
            .apple("2.13", .must, "An audio description rendition has AUTOSELECT=YES."),
            .apple(
                "2.27", .must,
                "An audio description rendition has a LANGUAGE attribute naming the language of the descriptions."),
        ],
        triggering: [
            RuleExample("described audio without AUTOSELECT", files: stream(",LANGUAGE=\"en\"")).expecting(
                line: 4, "lacks AUTOSELECT=YES"),
            RuleExample("described audio without LANGUAGE", files: stream(",AUTOSELECT=YES")),
        ],
        nonTriggering: [RuleExample("described audio with both", files: stream(",LANGUAGE=\"en\",AUTOSELECT=YES"))])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        return master.renditions.compactMap { rendition in
            guard rendition.type == .audio,
                rendition.characteristics?.split(separator: ",").contains(where: {
                    $0.filter { !$0.isWhitespace } == Self.describesVideo
                }) == true
            else { return nil }
            var missing: [String] = []
            if !rendition.autoselect { missing.append("AUTOSELECT=YES") }
            if rendition.language == nil { missing.append("LANGUAGE (the language of the descriptions)") }
            guard !missing.isEmpty else { return nil }
            return Finding(
                "audio description NAME=\"\(rendition.name ?? "")\" lacks \(missing.joined(separator: " and ")): players select described audio for viewers who ask for it only with both",
                at: stream.root.location(line: rendition.line))
        }
    }
}

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

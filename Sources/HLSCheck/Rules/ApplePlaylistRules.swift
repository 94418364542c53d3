import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

extension VariantAnalysis {
    /// Whether the variant carries video: by CODECS, by a VIDEO rendition group, or by its
    /// measured segments. Without CODECS and without measurement, RESOLUTION says so.
    var carriesVideo: Bool {
        if let codecs = stream?.codecs, codecs.contains(where: { CodecKind(codec: $0) == .video }) { return true }
        if !videoRenditions.isEmpty { return true }
        if measurement?.containsVideo == true { return true }
        return stream?.codecs == nil && measurement == nil && stream?.resolution != nil
    }
}

extension StreamAnalysis {
    /// The media playlists of the stream that were read, with their resolved URIs, in URI order:
    /// the variants', the renditions' and the I-frame streams'.
    var mediaPlaylists: [(uri: String, playlist: Playlist, media: MediaPlaylist)] {
        if let media = root.media { return [(loaded.rootURI, root, media)] }
        return loaded.mediaPlaylists.sorted { $0.key < $1.key }.compactMap { uri, playlist in
            playlist.media.map { (uri, playlist, $0) }
        }
    }
}

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

/// A video variant without FRAME-RATE.
package struct FrameRateMissingRule: Rule {
    package static let description = RuleDescription(
        id: "frame-rate-missing", name: "FRAME-RATE missing", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "An EXT-X-STREAM-INF of a variant with video has no FRAME-RATE attribute.",
        rationale:
            "Apple's authoring specification requires FRAME-RATE on every variant with video; players use it to leave out variants the device cannot decode in time. bis-22 asks for it above 30 frames per second.",
        specItems: [
            .frameRateOnVideoVariants,
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .should,
                "FRAME-RATE is included when any video in the variant stream exceeds 30 frames per second."),
        ],
        triggering: [
            RuleExample("video variant without FRAME-RATE", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 3, "video variant video.m3u8 has no FRAME-RATE")
        ],
        nonTriggering: [
            RuleExample(
                "video variant with FRAME-RATE",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,FRAME-RATE=25.000\nvideo.m3u8\n"
                )),
            RuleExample("audio-only variant", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream, declared.frameRate == nil, variant.carriesVideo else { return nil }
            let measured =
                variant.measurement?.measuredFrameRate.map { ": the video runs at \(Self.rate($0)) frames per second" }
                ?? ""
            return Finding("video variant \(variant.uri) has no FRAME-RATE attribute\(measured)", at: variant.location)
        }
    }

    /// A frame rate with three decimals, as FRAME-RATE is written.
    static func rate(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// EXT-X-INDEPENDENT-SEGMENTS in neither the multivariant playlist nor the video media playlists.
package struct IndependentSegmentsMissingRule: Rule {
    package static let description = RuleDescription(
        id: "independent-segments-missing", name: "EXT-X-INDEPENDENT-SEGMENTS missing", defaultSeverity: .error,
        settings: .appleOnly,
        summary: "Neither the multivariant playlist nor every video media playlist carries EXT-X-INDEPENDENT-SEGMENTS.",
        rationale:
            "Apple's authoring specification requires video segments to start with an IDR frame and the playlists to say so with EXT-X-INDEPENDENT-SEGMENTS, in the multivariant playlist or else in every video media playlist: without it a player switching variants downloads more than it needs to find a frame it can decode.",
        specItems: [
            .apple(
                "9.12", .must,
                "When video segments start with an IDR and the multivariant playlist has no EXT-X-INDEPENDENT-SEGMENTS, every video media playlist carries it."
            ),
            .apple(
                "9.11", .should,
                "When video segments start with an IDR, the multivariant playlist carries EXT-X-INDEPENDENT-SEGMENTS."),
        ],
        triggering: [
            RuleExample("video ladder without the tag", files: Examples.stream(Examples.videoVariant)).expecting(
                line: 1, "EXT-X-INDEPENDENT-SEGMENTS is neither in the")
        ],
        nonTriggering: [
            RuleExample(
                "the tag in the multivariant playlist",
                files: Examples.stream(
                    Examples.videoVariant, header: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n")),
            RuleExample(
                "the tag in the video media playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant,
                    "video.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n"),
                ]),
            RuleExample("audio-only stream", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant, !master.independentSegments else { return [] }
        var without: [String] = []
        for variant in stream.variants where variant.carriesVideo {
            if let media = variant.playlist, !media.independentSegments, !without.contains(variant.uri) {
                without.append(variant.uri)
            }
        }
        guard let first = without.first else { return [] }
        let others =
            without.count > 1 ? " and \(without.count - 1) other video playlist\(without.count > 2 ? "s" : "")" : ""
        return [
            Finding(
                "EXT-X-INDEPENDENT-SEGMENTS is neither in the multivariant playlist nor in \(first)\(others): start every video segment with an IDR frame and add #EXT-X-INDEPENDENT-SEGMENTS to the multivariant playlist",
                at: stream.root.location(line: 1))
        ]
    }
}

/// A stream with video and no I-frame stream.
package struct IFramePlaylistMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframe-playlist-missing", name: "No I-frame playlist", defaultSeverity: .error, settings: .appleOnly,
        summary: "A multivariant playlist with video variants has no EXT-X-I-FRAME-STREAM-INF.",
        rationale:
            "Apple's authoring specification requires I-frame playlists: players show their frames while the user scrubs or scans; without them the timeline shows nothing but a spinner.",
        specItems: [
            .apple(
                "6.1", .must,
                "I-frame playlists (EXT-X-I-FRAME-STREAM-INF) are provided to support scrubbing and scanning.")
        ],
        triggering: [
            RuleExample("video ladder without I-frame playlist", files: Examples.stream(Examples.videoVariant))
                .expecting(line: 1, "the stream has video (video.m3u8) but no I-frame")
        ],
        nonTriggering: [
            RuleExample(
                "an EXT-X-I-FRAME-STREAM-INF", files: Examples.stream(Examples.videoVariant, Examples.iFrameStream())),
            RuleExample("audio-only stream", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant, master.iFrameVariants.isEmpty,
            let video = stream.variants.first(where: \.carriesVideo)
        else { return [] }
        return [
            Finding(
                "the stream has video (\(video.uri)) but no I-frame playlist: add an EXT-X-I-FRAME-STREAM-INF for each video resolution, for scrubbing and scanning",
                at: stream.root.location(line: 1))
        ]
    }
}

/// An EXT-X-MEDIA other than TYPE=VIDEO without LANGUAGE.
package struct LanguageMissingRule: Rule {
    package static let description = RuleDescription(
        id: "language-missing", name: "LANGUAGE missing", defaultSeverity: .error, settings: .appleOnly,
        summary: "An EXT-X-MEDIA tag of TYPE AUDIO, SUBTITLES or CLOSED-CAPTIONS has no LANGUAGE attribute.",
        rationale:
            "Apple's authoring specification requires LANGUAGE on every rendition that is not video: players pick audio and subtitles by the user's language preferences and list them by language in their menus.",
        specItems: [
            .apple(
                "8.10", .must, "Every EXT-X-MEDIA tag that does not have TYPE=VIDEO includes the LANGUAGE attribute."),
            .apple("4.4", .must, "Closed captions are declared with an EXT-X-MEDIA tag that carries LANGUAGE."),
            .apple("4.7", .must, "The EXT-X-MEDIA tag of a subtitles track includes LANGUAGE."),
        ],
        triggering: [
            RuleExample(
                "audio rendition without LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"main\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )
            ).expecting(line: 3, "EXT-X-MEDIA TYPE=AUDIO NAME=\"main\" has no")
        ],
        nonTriggering: [
            RuleExample(
                "audio rendition with LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "video rendition without LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"vid\",NAME=\"angle 1\",DEFAULT=YES,AUTOSELECT=YES\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,VIDEO=\"vid\"\nvideo.m3u8\n"
                )),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        return master.renditions.compactMap { rendition in
            guard let type = rendition.type, type != .video, rendition.language == nil else { return nil }
            return Finding(
                "EXT-X-MEDIA TYPE=\(type.rawValue) NAME=\"\(rendition.name ?? "")\" has no LANGUAGE attribute: add the RFC 5646 tag of its language (LANGUAGE=\"en\")",
                at: stream.root.location(line: rendition.line))
        }
    }
}

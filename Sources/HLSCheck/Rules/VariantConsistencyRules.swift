import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

extension StreamAnalysis {
    /// The media playlists the multivariant playlist names (variants, renditions, I-frame
    /// streams) that were read, in URI order; empty when the input is a media playlist, whose
    /// siblings hlscheck does not see.
    var siblingMediaPlaylists: [(uri: String, playlist: Playlist, media: MediaPlaylist)] {
        multivariant == nil ? [] : mediaPlaylists
    }

    /// Whether every media playlist is complete (EXT-X-ENDLIST): all of them then start at the
    /// start of the presentation and can be compared position by position.
    var isEnded: Bool {
        let playlists = siblingMediaPlaylists
        return !playlists.isEmpty && playlists.allSatisfy(\.media.endList)
    }
}

/// A short name for a media playlist in a message: its URI as resolved, relative to the root's
/// folder where it lies below it.
private func shortName(_ uri: String, in stream: StreamAnalysis) -> String {
    // Resolved URIs drop a leading "./" that the root's may keep.
    var root = Substring(stream.loaded.rootURI)
    while root.hasPrefix("./") { root = root.dropFirst(2) }
    guard let slash = root.lastIndex(of: "/") else { return uri }
    let folder = root[...slash]
    return uri.hasPrefix(folder) ? String(uri.dropFirst(folder.count)) : uri
}

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
                "this media playlist \(own), but \(shortName(typed.uri, in: stream)) says EXT-X-PLAYLIST-TYPE:\(type.rawValue): every media playlist of the stream carries the same type, or none does",
                at: playlist.location(line: line))
        }
    }
}

/// EXT-X-SERVER-CONTROL on some media playlists but not all, or with other attributes.
package struct ServerControlInconsistentRule: Rule {
    static func files(_ video: String, _ audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:9\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n\(video)#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n\(audio)#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n",
        ]
    }

    package static let description = RuleDescription(
        id: "server-control-inconsistent", name: "EXT-X-SERVER-CONTROL differs between media playlists",
        defaultSeverity: .error,
        summary:
            "One media playlist of the stream has EXT-X-SERVER-CONTROL and another has none, or one with other attributes.",
        rationale:
            "bis-22 §6.2.4: if any media playlist has EXT-X-SERVER-CONTROL, all have the same one; the hold-back and the delivery directives a player relies on must not change when it switches variants.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "If any media playlist has EXT-X-SERVER-CONTROL, every media playlist has the same EXT-X-SERVER-CONTROL."
            )
        ],
        triggering: [
            RuleExample(
                "HOLD-BACK 18 in one playlist, 24 in the other",
                files: files(
                    "#EXT-X-SERVER-CONTROL:HOLD-BACK=18\n", "#EXT-X-SERVER-CONTROL:HOLD-BACK=24\n")
            ).expecting(line: 4, "differs in HOLD-BACK from audio.m3u8")
        ],
        nonTriggering: [
            RuleExample(
                "the same server control in both",
                files: files(
                    "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=18\n",
                    "#EXT-X-SERVER-CONTROL:HOLD-BACK=18.0,CAN-BLOCK-RELOAD=YES\n"))
        ])

    /// The attributes, each with its value as written or, for numbers, as a number.
    static func normalised(_ list: AttributeList) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list.attributes {
            result[attribute.name] = list.decimalFloatingPoint(attribute.name).map { "\($0)" } ?? attribute.rawValue
        }
        return result
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists
        guard let reference = playlists.first(where: { $0.media.serverControl != nil }),
            let control = reference.media.serverControl
        else { return [] }
        let expected = Self.normalised(control)
        return playlists.compactMap { uri, playlist, media in
            let own = media.serverControl.map(Self.normalised)
            guard own != expected else { return nil }
            let line = playlist.tagLines(named: "#EXT-X-SERVER-CONTROL").first ?? 1
            let what: String
            if let own {
                let differing = Set(own.keys).union(expected.keys).sorted().filter { own[$0] != expected[$0] }
                what = "its EXT-X-SERVER-CONTROL differs in \(differing.joined(separator: ", ")) from"
            } else {
                what = "it has no EXT-X-SERVER-CONTROL, unlike"
            }
            return Finding(
                "\(what) \(shortName(reference.uri, in: stream)): every media playlist of the stream carries the same EXT-X-SERVER-CONTROL",
                at: playlist.location(line: line))
        }
    }
}

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
                "this media playlist has no EXT-X-PROGRAM-DATE-TIME, but \(shortName(reference.uri, in: stream)) has: date every media playlist of the stream, with the same date for the same media timestamp",
                at: playlist.location(line: 1))
        }
    }
}

/// Discontinuities at different places, or numbered differently, in the media playlists of a
/// finished stream.
package struct DiscontinuitiesMisalignedRule: Rule {
    static func files(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(video)#EXT-X-ENDLIST\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(audio)#EXT-X-ENDLIST\n",
        ]
    }

    /// A live stream: the two media playlists without EXT-X-ENDLIST, target duration 6.
    static func liveFiles(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n\(video)",
            "audio.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n\(audio)",
        ]
    }

    /// EXT-X-PROGRAM-DATE-TIME `seconds` after midnight on 1 January 2026.
    static func dated(_ seconds: Int) -> String {
        "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:\(seconds < 10 ? "0" : "")\(seconds).000Z\n"
    }

    static let withBreakAt12 = "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n"

    package static let description = RuleDescription(
        id: "discontinuities-misaligned", name: "Discontinuities differ between media playlists",
        defaultSeverity: .error,
        summary:
            "The media playlists of a stream have EXT-X-DISCONTINUITY at different times, a different number of them, or number the same break differently. Finished streams are compared by EXTINF position; live windows by the discontinuity sequence number of each break and its time: its EXT-X-PROGRAM-DATE-TIME, else the media timestamps of the segments around it, else its EXTINF distance from a break both windows hold.",
        rationale:
            "bis-22 §6.2.4: matching content in every variant and rendition has matching discontinuity sequence numbers; Apple's authoring specification (8.15) asks for discontinuities at the same times in all of them. A player switching variants across a break it does not expect resets its timeline in the wrong place. Live playlists loaded at one moment hold different windows and may number their segments differently (bis-22 §6.3.2): a break is named by its discontinuity sequence number (EXT-X-DISCONTINUITY-SEQUENCE counts those the server dropped, §6.2.2) and placed by date or by media timestamp (§6.2.4: matching content has matching timestamps). A break is the same one within the smaller target duration, as segments of different playlists end at different instants.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "Matching content in every variant stream and rendition has matching Discontinuity Sequence Numbers."),
            .apple("8.15", .must, "All variants and renditions have discontinuities at the same points in time."),
        ],
        triggering: [
            RuleExample(
                "a break in the video playlist only",
                files: files(
                    video: withBreakAt12, audio: "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n")
            )
            .expecting(line: 1, "has 0 EXT-X-DISCONTINUITY tags, video.m3u8 has 1 (at 12 s)"),
            RuleExample(
                "the break 6 s later in the audio playlist",
                files: files(
                    video: withBreakAt12,
                    audio:
                        "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n"
                )),
            RuleExample(
                "live, dated: the break 6 s later in the audio playlist",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: dated(0) + "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n")
            ).expecting(
                line: 12, "discontinuity 1 comes 6 s later here than in video.m3u8, by EXT-X-PROGRAM-DATE-TIME"),
            RuleExample(
                "live, dated: the same break numbered 2 in the audio playlist's later window",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: "#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n" + dated(6)
                        + "#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n")
            ).expecting(line: 10, "this discontinuity is number 2 here"),
            RuleExample(
                "live, undated: 6 s between the two breaks in the audio playlist, 12 s in the video",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n")
            ).expecting(
                line: 10,
                "discontinuity 2 comes 6 s earlier here than in video.m3u8, counted by EXTINF from discontinuity 1"
            ),
            RuleExample(
                "live, undated: the audio playlist plays through the video's second break",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXTINF:6,\nseg3.ts\n")
            ).expecting(line: 11, "video.m3u8 breaks during this segment (discontinuity 2"),
        ],
        nonTriggering: [
            RuleExample(
                "the break after 12 s in both",
                files: files(
                    video: withBreakAt12,
                    audio:
                        "#EXTINF:4,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n#EXTINF:4,\nseg2.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n"
                )),
            RuleExample(
                "live, dated: the audio window starts 6 s later, its break at the video's date",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: "#EXT-X-MEDIA-SEQUENCE:7\n" + dated(6)
                        + "#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n#EXTINF:6,\nseg3.ts\n")),
            RuleExample(
                "live, dated: the audio window has dropped the break and counts it in EXT-X-DISCONTINUITY-SEQUENCE",
                files: liveFiles(
                    video: dated(0) + withBreakAt12 + "#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXT-X-MEDIA-SEQUENCE:2\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n" + dated(12)
                        + "#EXTINF:6,\nseg2.ts\n#EXTINF:6,\nseg3.ts\n")),
            RuleExample(
                "live, undated: windows a segment apart, 12 s between the same two breaks",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n#EXTINF:6,\nseg4.ts\n")),
        ])

    /// When each discontinuity of `media` happens, in seconds from the playlist's start.
    static func breaks(_ media: MediaPlaylist) -> [Double] {
        var time = 0.0, result: [Double] = []
        for segment in media.segments {
            if segment.discontinuity { result.append(time) }
            time += segment.duration
        }
        return result
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // Live playlists hold different windows of the presentation: their positions do not
        // compare without matching their segments in time.
        guard stream.isEnded else { return liveFindings(stream) }
        let playlists = stream.siblingMediaPlaylists.filter { !$0.media.segments.isEmpty }
        guard
            let reference = playlists.first(where: { $0.uri == stream.variants.first?.playlistURI }) ?? playlists.first
        else { return [] }
        let expected = Self.breaks(reference.media)
        let referenceName = shortName(reference.uri, in: stream)
        var findings: [Finding] = []
        for (uri, playlist, media) in playlists where uri != reference.uri {
            let own = Self.breaks(media)
            // Segments of different playlists end at different instants (audio frames are not
            // video frames): a break is the same one within the smaller target duration.
            let tolerance = Double(min(media.targetDuration ?? 1, reference.media.targetDuration ?? 1))
            let location = playlist.location(line: media.segments.first { $0.discontinuity }?.extinfLine ?? 1)
            if media.discontinuitySequence != reference.media.discontinuitySequence {
                findings.append(
                    Finding(
                        "EXT-X-DISCONTINUITY-SEQUENCE is \(media.discontinuitySequence) here but \(reference.media.discontinuitySequence) in \(referenceName): the same content has the same discontinuity sequence number in every playlist",
                        at: playlist.location(
                            line: playlist.tagLines(named: "#EXT-X-DISCONTINUITY-SEQUENCE").first ?? 1)))
            } else if own.count != expected.count {
                findings.append(
                    Finding(
                        "this playlist has \(own.count) EXT-X-DISCONTINUITY tag\(own.count == 1 ? "" : "s"), \(referenceName) has \(expected.count)\(expected.isEmpty ? "" : " (at \(expected.map { Self.seconds($0) + " s" }.joined(separator: ", ")))"): every variant and rendition breaks at the same points of the content",
                        at: location))
            } else if let index = Array(zip(own, expected)).firstIndex(where: { abs($0 - $1) >= tolerance }) {
                findings.append(
                    Finding(
                        "discontinuity \(index + 1) comes \(Self.seconds(own[index])) s into this playlist but \(Self.seconds(expected[index])) s into \(referenceName): every variant and rendition breaks at the same points of the content",
                        at: playlist.location(line: media.segments.filter(\.discontinuity)[index].extinfLine ?? 1)))
            }
        }
        return findings
    }
}

// Live windows start at different points of the presentation, and their media sequence numbers
// need not match (bis-22 §6.3.2). What names the same break in two windows is its discontinuity
// sequence number: EXT-X-DISCONTINUITY-SEQUENCE counts the breaks the server has dropped from
// the window (§6.2.2), each tag left in it adds one (§4.4.3.3). Where each break falls is then
// compared in time: by EXT-X-PROGRAM-DATE-TIME when both playlists are dated, else by the media
// timestamps of the measured segments (§6.2.4: matching content has matching timestamps), else
// by EXTINF from a break both windows hold.
extension DiscontinuitiesMisalignedRule {
    /// A live window as its discontinuities divide it.
    struct LiveWindow {
        /// One EXT-X-DISCONTINUITY: the discontinuity sequence number of the segment after it,
        /// that segment's line, its start in seconds from the window's first segment (by
        /// EXTINF) and, in a dated playlist, its date.
        struct Break {
            var number: Int
            var line: Int
            var offset: Double
            var date: Double?
        }

        /// Where the measured segments of one discontinuity sequence lie on the media timeline,
        /// and whether the window holds the break that starts it and the one that ends it.
        struct Span {
            var start: Double
            var end: Double
            var firstLine: Int
            var lastLine: Int
            var startsAtBreak: Bool
            var endsAtBreak: Bool
        }

        var breaks: [Break] = []
        /// The dates of the window's start and end; nil when the playlist is undated.
        var dates: (start: Double, end: Double)?
        /// The dated segments: line, start and end date.
        var segmentDates: [(line: Int, start: Double, end: Double)] = []
        /// The measured media timestamps of each discontinuity sequence, by its number.
        var spans: [Int: Span] = [:]

        /// The window with its times counted from `offset` (seconds from its first segment)
        /// instead of its dates.
        func rebased(at offset: Double) -> LiveWindow {
            var window = self
            var time = -offset
            window.segmentDates = durations.enumerated().map { index, duration in
                defer { time += duration }
                return (lines[index], time, time + duration)
            }
            window.dates = window.segmentDates.first.flatMap { first in
                window.segmentDates.last.map { (first.start, $0.end) }
            }
            window.breaks = breaks.map {
                Break(number: $0.number, line: $0.line, offset: $0.offset, date: $0.offset - offset)
            }
            return window
        }

        /// EXTINF duration and line of each segment.
        var durations: [Double] = []
        var lines: [Int] = []

        /// The window of `media`, with the timestamps `measurement` read from its segments.
        init(_ media: MediaPlaylist, measurement: PlaylistMeasurement?) {
            var offsets: [Double] = [], time = 0.0
            // A date names its own segment and, through EXTINF, the segments before it.
            var anchor: Double?
            for segment in media.segments {
                offsets.append(time)
                if anchor == nil, let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) {
                    anchor = date - time
                }
                time += segment.duration
            }
            // Clients count every EXT-X-DISCONTINUITY in the window, the first segment's too:
            // the server increments EXT-X-DISCONTINUITY-SEQUENCE only when it drops the tag.
            var number = media.discontinuitySequence
            var numbers: [Int: Int] = [:], indices: [Int: Int] = [:]
            for (index, segment) in media.segments.enumerated() {
                if let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) { anchor = date - offsets[index] }
                let date = anchor.map { $0 + offsets[index] }
                let line = segment.extinfLine ?? 1
                if segment.discontinuity {
                    number += 1
                    breaks.append(Break(number: number, line: line, offset: offsets[index], date: date))
                }
                numbers[segment.mediaSequence] = number
                indices[segment.mediaSequence] = index
                durations.append(segment.duration)
                lines.append(line)
                if let date { segmentDates.append((line, date, date + segment.duration)) }
            }
            if let first = segmentDates.first, let last = segmentDates.last, segmentDates.count == media.segments.count
            {
                dates = (first.start, last.end)
            }
            for record in measurement.map({ Array($0.inspectedRecords) }) ?? [] {
                guard let number = numbers[record.mediaSequence], let index = indices[record.mediaSequence],
                    let start = record.timingStart ?? record.firstPTS
                else { continue }
                let end = start + (record.timingDuration ?? record.measuredDuration ?? record.extinf)
                let endsAtBreak = index + 1 < media.segments.count && media.segments[index + 1].discontinuity
                if var span = spans[number] {
                    if start < span.start { (span.start, span.firstLine) = (start, record.line) }
                    if end > span.end { (span.end, span.lastLine, span.endsAtBreak) = (end, record.line, endsAtBreak) }
                    spans[number] = span
                } else {
                    spans[number] = Span(
                        start: start, end: end, firstLine: record.line, lastLine: record.line,
                        startsAtBreak: media.segments[index].discontinuity, endsAtBreak: endsAtBreak)
                }
            }
        }
    }

    func liveFindings(_ stream: StreamAnalysis) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists.filter { !$0.media.segments.isEmpty }
        guard
            let reference = playlists.first(where: { $0.uri == stream.variants.first?.playlistURI }) ?? playlists.first
        else { return [] }
        let theirs = LiveWindow(reference.media, measurement: stream.measurements[reference.uri])
        let name = shortName(reference.uri, in: stream)
        return playlists.compactMap { uri, playlist, media -> Finding? in
            guard uri != reference.uri else { return nil }
            let mine = LiveWindow(media, measurement: stream.measurements[uri])
            // As in a finished stream, a break is the same one within the smaller target duration.
            let tolerance = Double(min(media.targetDuration ?? 1, reference.media.targetDuration ?? 1))
            let problem =
                Self.byDate(mine, theirs, tolerance, name) ?? Self.byTimestamps(mine, theirs, tolerance, name)
                ?? Self.byAnchor(mine, theirs, tolerance, name)
            return problem.map {
                Finding(
                    $0.message + ": every variant and rendition breaks at the same points of the content",
                    at: playlist.location(line: $0.line))
            }
        }
    }

    /// Both windows dated: the same break at the same date, and each break of one in the other
    /// wherever the other's window holds that date.
    static func byDate(
        _ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String,
        basis: String = "by EXT-X-PROGRAM-DATE-TIME"
    ) -> (message: String, line: Int)? {
        guard let myDates = mine.dates, let theirDates = theirs.dates else { return nil }
        func holds(_ dates: (start: Double, end: Double), _ date: Double) -> Bool {
            date >= dates.start + tolerance && date <= dates.end - tolerance
        }
        // Breaks by number and by date, so that the cost stays linear in the number of breaks
        // (some ad-inserted playlists break at every segment).
        let width = max(tolerance, 1)
        func index(_ breaks: [LiveWindow.Break]) -> (
            byNumber: [Int: LiveWindow.Break], byTime: [Int: [LiveWindow.Break]]
        ) {
            var byNumber: [Int: LiveWindow.Break] = [:], byTime: [Int: [LiveWindow.Break]] = [:]
            for item in breaks {
                if byNumber[item.number] == nil { byNumber[item.number] = item }
                if let date = item.date { byTime[Int((date / width).rounded(.down)), default: []].append(item) }
            }
            return (byNumber, byTime)
        }
        func near(_ date: Double, in byTime: [Int: [LiveWindow.Break]]) -> LiveWindow.Break? {
            let bucket = Int((date / width).rounded(.down))
            return (bucket - 1...bucket + 1).lazy.compactMap { byTime[$0] }.joined().first {
                $0.date.map { abs($0 - date) < tolerance } ?? false
            }
        }
        let ownIndex = index(mine.breaks), theirIndex = index(theirs.breaks)
        for own in mine.breaks {
            guard let date = own.date else { continue }
            if let same = theirIndex.byNumber[own.number], let other = same.date {
                guard abs(date - other) >= tolerance else { continue }
                return (
                    "discontinuity \(own.number) comes \(seconds(abs(date - other))) s \(date > other ? "later" : "earlier") here than in \(name), \(basis)",
                    own.line
                )
            }
            if let near = near(date, in: theirIndex.byTime) {
                return (
                    "this discontinuity is number \(own.number) here (EXT-X-DISCONTINUITY-SEQUENCE plus the EXT-X-DISCONTINUITY tags up to it) but \(near.number) in \(name), at the same time (\(basis)): the same break has the same discontinuity sequence number in every playlist",
                    own.line
                )
            }
            if holds(theirDates, date) {
                return (
                    "\(name) plays through the time of this discontinuity (discontinuity \(own.number), \(basis)) without one",
                    own.line
                )
            }
        }
        for other in theirs.breaks {
            guard let date = other.date, holds(myDates, date), ownIndex.byNumber[other.number] == nil,
                near(date, in: ownIndex.byTime) == nil,
                let segment = mine.segmentDates.first(where: { $0.start <= date && date < $0.end })
            else { continue }
            return (
                "\(name) breaks during this segment (discontinuity \(other.number), \(basis)) but this playlist plays through without EXT-X-DISCONTINUITY",
                segment.line
            )
        }
        return nil
    }

    /// Both windows measured: the segments of one discontinuity sequence span the same media
    /// timestamps in both, as far as each window holds them.
    static func byTimestamps(_ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String) -> (
        message: String, line: Int
    )? {
        for number in Set(mine.spans.keys).intersection(theirs.spans.keys).sorted() {
            guard let own = mine.spans[number], let other = theirs.spans[number] else { continue }
            if own.startsAtBreak, other.startsAtBreak, abs(own.start - other.start) >= tolerance {
                return (
                    "discontinuity \(number) comes at media timestamp \(seconds(own.start)) s here but \(seconds(other.start)) s in \(name)",
                    own.firstLine
                )
            }
            if other.startsAtBreak, !own.startsAtBreak, own.start <= other.start - tolerance {
                return (
                    "the segments after discontinuity \(number) start at media timestamp \(seconds(own.start)) s here, but \(name) breaks into them only at \(seconds(other.start)) s",
                    own.firstLine
                )
            }
            if own.startsAtBreak, !other.startsAtBreak, other.start <= own.start - tolerance {
                return (
                    "discontinuity \(number) comes at media timestamp \(seconds(own.start)) s here, but \(name) holds the content after it from \(seconds(other.start)) s",
                    own.firstLine
                )
            }
            if other.endsAtBreak, !own.endsAtBreak, own.end >= other.end + tolerance {
                return (
                    "the segments before discontinuity \(number + 1) run to media timestamp \(seconds(own.end)) s here, past where \(name) breaks (\(seconds(other.end)) s)",
                    own.lastLine
                )
            }
            if own.endsAtBreak, !other.endsAtBreak, other.end >= own.end + tolerance,
                let next = mine.breaks.first(where: { $0.number == number + 1 })
            {
                return (
                    "discontinuity \(number + 1) comes at media timestamp \(seconds(own.end)) s here, but \(name) plays on without a break to \(seconds(other.end)) s",
                    next.line
                )
            }
        }
        return nil
    }

    /// Neither dated nor measured: a break both windows hold places each on the other's
    /// timeline, by EXTINF from it, and the other breaks are compared as dated ones are.
    static func byAnchor(_ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String) -> (
        message: String, line: Int
    )? {
        let numbers = Set(theirs.breaks.map(\.number))
        guard let anchor = mine.breaks.first(where: { numbers.contains($0.number) }),
            let other = theirs.breaks.first(where: { $0.number == anchor.number })
        else { return nil }
        return byDate(
            mine.rebased(at: anchor.offset), theirs.rebased(at: other.offset), tolerance, name,
            basis: "counted by EXTINF from discontinuity \(anchor.number), which both hold")
    }

}

/// Date ranges missing from a playable combination, or described differently in two playlists.
package struct DateRangesInconsistentRule: Rule {
    static let dated = "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
    static let ad = "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:06.000Z\",DURATION=6\n"

    static func files(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio-only.m3u8\n",
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(video)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(audio)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
            "audio-only.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(ad)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
        ]
    }

    package static let description = RuleDescription(
        id: "date-ranges-inconsistent", name: "Date ranges differ between playable combinations",
        defaultSeverity: .error,
        summary:
            "An EXT-X-DATERANGE of the stream is in no playlist of some playable combination (a variant with one rendition of each of its groups) of a finished stream, or two playlists describe the range of one ID differently.",
        rationale:
            "bis-22 §6.2.4: date ranges (ad breaks, chapters, interstitials) must reach the player whatever it plays: each must appear in every playable combination, and be the same wherever it appears.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "Date Ranges (EXT-X-DATERANGE) appear in at least one media playlist of every playable combination, identical wherever they appear."
            )
        ],
        triggering: [
            RuleExample("an ad break missing from the video variant and its audio", files: files(video: "", audio: ""))
                .expecting(line: 4, "variant video.m3u8 can play without EXT-X-DATERANGE ID=\"ad\""),
            RuleExample(
                "the same ID with another duration",
                files: files(
                    video: ad.replacing("DURATION=6", with: "DURATION=12"), audio: "")),
        ],
        nonTriggering: [
            RuleExample(
                "the range in the audio rendition, which every combination of the video variant plays",
                files: files(video: "", audio: ad))
        ])

    /// The date ranges of `media` by ID, each as its attributes (NAME=value as written).
    static func ranges(_ media: MediaPlaylist) -> [String: (line: Int, attributes: [String: String])] {
        var result: [String: (line: Int, attributes: [String: String])] = [:]
        for range in media.dateRanges {
            guard let id = range.id else { continue }
            var entry = result[id] ?? (range.line, [:])
            for attribute in range.attributes.attributes where entry.attributes[attribute.name] == nil {
                entry.attributes[attribute.name] = attribute.rawValue
            }
            result[id] = entry
        }
        return result
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        let playlists = stream.siblingMediaPlaylists
        var byURI: [String: [String: (line: Int, attributes: [String: String])]] = [:]
        var findings: [Finding] = []
        // The first description of each ID, to compare the others with.
        var first: [String: (uri: String, attributes: [String: String])] = [:]
        // A live playlist read a moment later may already carry the tag that completes a range
        // (END-DATE, DURATION): there only the attributes both playlists have must agree.
        let ended = stream.isEnded
        for (uri, playlist, media) in playlists {
            let ranges = Self.ranges(media)
            byURI[uri] = ranges
            for (id, range) in ranges.sorted(by: { $0.value.line < $1.value.line }) {
                guard let earlier = first[id] else {
                    first[id] = (uri, range.attributes)
                    continue
                }
                let names =
                    ended
                    ? Set(range.attributes.keys).union(earlier.attributes.keys)
                    : Set(range.attributes.keys).intersection(earlier.attributes.keys)
                let differing = names.sorted().filter { range.attributes[$0] != earlier.attributes[$0] }
                if let name = differing.first {
                    findings.append(
                        Finding(
                            "EXT-X-DATERANGE ID=\"\(id)\" says \(name)=\(range.attributes[name] ?? "nothing") here but \(name)=\(earlier.attributes[name] ?? "nothing") in \(shortName(earlier.uri, in: stream)): a date range is the same in every playlist that carries it",
                            at: playlist.location(line: range.line)))
                }
            }
        }
        // Live playlists hold different windows: a range may have left one and not yet another.
        guard stream.isEnded, !first.isEmpty else { return findings }
        let all = Set(first.keys)
        for variant in master.variants {
            let uri = stream.loaded.resolvedURI(of: variant)
            guard byURI[uri] != nil else { continue }
            // An ID is in every combination when the variant's own playlist has it, or every
            // member of one of its rendition groups does.
            var covered = Set(byURI[uri]?.keys ?? [:].keys)
            let groups: [(MediaType, String?)] = [
                (.audio, variant.audioGroup), (.video, variant.videoGroup), (.subtitles, variant.subtitlesGroup),
            ]
            for (type, group) in groups {
                guard let group else { continue }
                let members = master.renditions(ofType: type, group: group)
                let sets = members.map { rendition in
                    stream.loaded.resolvedURI(of: rendition).flatMap { byURI[$0] }.map { Set($0.keys) } ?? []
                }
                if let common = sets.first.map({ sets.dropFirst().reduce($0) { $0.intersection($1) } }),
                    !members.isEmpty
                {
                    covered.formUnion(common)
                }
            }
            let missing = all.subtracting(covered).sorted()
            if let id = missing.first {
                findings.append(
                    Finding(
                        "variant \(variant.uri) can play without EXT-X-DATERANGE ID=\"\(id)\"\(missing.count > 1 ? " (and \(missing.count - 1) more date range\(missing.count > 2 ? "s" : ""))" : ""), which \(shortName(first[id]?.uri ?? "", in: stream)) carries: put every date range in the variant's playlist, or in every rendition of one of its groups",
                        at: stream.root.location(line: variant.line)))
            }
        }
        return findings
    }
}

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
        guard stream.isEnded, let master = stream.multivariant else { return [] }
        // Variants and their audio and video renditions: subtitle cues and I-frames end where
        // their last cue or frame does, not where the media ends.
        var uris: [String] = []
        func add(_ uri: String?) { if let uri, !uris.contains(uri) { uris.append(uri) } }
        for variant in master.variants { add(stream.loaded.resolvedURI(of: variant)) }
        for rendition in master.renditions where rendition.type == .audio || rendition.type == .video {
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
                "this playlist lasts \(DiscontinuitiesMisalignedRule.seconds(media.totalDuration)) s, \(DiscontinuitiesMisalignedRule.seconds(shortfall)) s less than \(shortName(longest.0, in: stream)) (\(DiscontinuitiesMisalignedRule.seconds(longest.2.totalDuration)) s): every variant and rendition covers the same content, give or take one target duration (\(Int(allowed)) s) at the start or end",
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-ENDLIST").first ?? 1))
        }
    }
}

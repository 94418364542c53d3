import HLSPlaylist

/// A variant offering several video angles whose audio travels inside the video.
///
/// A VIDEO group of several renditions offers the same presentation from several angles
/// (bis-22 §4.4.6.1.1: each member is an alternative rendition of the same content); a client
/// plays one angle at a time and switches between them. Apple's authoring specification asks
/// for the audio in separate streams then, so that it plays on unchanged whichever angle is
/// chosen, and is not fetched once per angle.
package struct VideoAnglesAudioMuxedRule: Rule {
    /// Two angles of group "cam", each with a playlist of its own.
    static let angles = """
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Stage",DEFAULT=YES,AUTOSELECT=YES,URI="stage.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Crowd",DEFAULT=NO,AUTOSELECT=YES,URI="crowd.m3u8"

        """

    package static let description = RuleDescription(
        id: "video-angles-audio-muxed", name: "Audio muxed with several video angles", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary:
            "A variant whose VIDEO group offers several renditions (angles) carries its audio in the video: it has no AUDIO group while CODECS lists an audio codec, an AUDIO rendition without URI, or (measured) an angle's segments hold audio tracks.",
        rationale:
            "Apple's authoring specification (item 9.8): with several video angles, audio must be in separate streams. A viewer switching angles keeps the same sound, which a separate EXT-X-MEDIA TYPE=AUDIO rendition with its own URI plays on unchanged; audio muxed into each angle is fetched again with every angle and restarts at each switch. With the segments read, the angles' own segments are judged; with --playlist-only, the declaration (AUDIO, CODECS, the renditions' URIs).",
        specItems: [.apple("9.8", .must, "With several video angles, audio is in separate streams.")],
        triggering: [
            RuleExample(
                "two angles, no AUDIO group, CODECS with AAC",
                files: Examples.stream(
                    angles,
                    "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,VIDEO=\"cam\"\nstage.m3u8\n"
                )
            ).expecting(
                line: 5, column: 37, "declares audio (mp4a.40.2) in CODECS but no AUDIO group"),
            RuleExample(
                "two angles, an AUDIO rendition without URI",
                files: Examples.stream(
                    angles,
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,VIDEO=\"cam\",AUDIO=\"aac\"\nstage.m3u8\n"
                )
            ).expecting(line: 6, column: 100, "AUDIO rendition \"English\" (line 5) has no URI"),
        ],
        nonTriggering: [
            RuleExample(
                "two angles and an AUDIO rendition of its own",
                files: Examples.stream(
                    angles,
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,VIDEO=\"cam\",AUDIO=\"aac\"\nstage.m3u8\n"
                )),
            RuleExample(
                "one video rendition with muxed audio",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"cam\",NAME=\"Stage\",DEFAULT=YES,AUTOSELECT=YES,URI=\"stage.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,VIDEO=\"cam\"\nstage.m3u8\n"
                )),
            RuleExample(
                "two angles without audio",
                files: Examples.stream(
                    angles,
                    "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f\",RESOLUTION=1280x720,VIDEO=\"cam\"\nstage.m3u8\n"
                )),
            RuleExample("no VIDEO group", files: Examples.stream(Examples.videoVariant)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var findings: [Finding] = []
        // An angle's playlist is shared by every variant of its group: its audio is told once.
        var judged: Set<String> = []
        for variant in stream.variants {
            guard let declaration = variant.stream, variant.videoRenditions.count > 1 else { continue }
            let group = declaration.videoGroup ?? ""
            let angles = "VIDEO group \"\(group)\" offers \(variant.videoRenditions.count) angles"
            // The playlists that play video: the variant's own and each angle's.
            var videoPlaylists = [variant.playlistURI]
            for uri in variant.videoRenditions.compactMap(\.playlistURI) where !videoPlaylists.contains(uri) {
                videoPlaylists.append(uri)
            }
            let audioPlaylists = Set(variant.audioRenditions.compactMap(\.playlistURI))
            let measured = videoPlaylists.filter { !audioPlaylists.contains($0) }.compactMap(variant.measurement(of:))
                .filter(\.hasInspectedSegments)
            if !measured.isEmpty {
                for measurement in measured where measurement.containsVideo && measurement.containsAudio {
                    guard judged.insert(measurement.playlistURI).inserted,
                        let (record, audio) = measurement.firstTrack(where: { $0.kind == .audio })
                    else { continue }
                    findings.append(
                        Finding(
                            "segment \(record.uri) carries \(audio.codecString ?? audio.codecName) audio inside the video, while \(angles): put the audio in EXT-X-MEDIA TYPE=AUDIO renditions with their own URI, and the angles' segments without it (AS 9.8)",
                            at: measurement.location(of: record)))
                }
                continue
            }
            // Not measured: what the declaration says.
            if let muxed = variant.audioRenditions.first(where: { $0.playlistURI == nil }) {
                findings.append(
                    Finding(
                        "variant \(variant.uri): its AUDIO rendition \"\(muxed.rendition.name ?? "")\" (line \(muxed.rendition.line)) has no URI, so the audio is carried in the video, while \(angles): give the audio renditions their own media playlists (AS 9.8)",
                        at: stream.root.location(
                            line: declaration.line, column: declaration.attributes["AUDIO"]?.column ?? 0)))
            } else if declaration.audioGroup == nil,
                let audio = declaration.codecs?.first(where: { CodecKind(codec: $0) == .audio })
            {
                findings.append(
                    Finding(
                        "variant \(variant.uri) declares audio (\(audio)) in CODECS but no AUDIO group, so the audio is muxed into the video, while \(angles): put the audio in EXT-X-MEDIA TYPE=AUDIO renditions with their own URI and name their group in AUDIO (AS 9.8)",
                        at: stream.root.location(
                            line: declaration.line, column: declaration.attributes["CODECS"]?.column ?? 0)))
            }
        }
        return findings
    }
}

import HLSPlaylist

/// Rendition groups that break RFC 8216's group rules: a group reference that matches no
/// EXT-X-MEDIA, two members with one NAME, several DEFAULT=YES members, DEFAULT=YES with
/// AUTOSELECT=NO. The parser finds them (it has the columns); this rule gives them their id.
package struct MediaGroupInvalidRule: Rule {
    package static let description = RuleDescription(
        id: "media-group-invalid", name: "Rendition group broken", defaultSeverity: .error,
        summary:
            "A rendition group reference matches no EXT-X-MEDIA, or a group has duplicate NAMEs, several DEFAULT=YES members, or DEFAULT=YES with AUTOSELECT=NO.",
        rationale:
            "RFC 8216 §4.3.4.2: AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA of that TYPE; §4.3.4.1.1: members of a group MUST have different NAMEs and at most one DEFAULT=YES; §4.3.4.1: AUTOSELECT MUST be YES when DEFAULT is YES.",
        specItems: [
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS name the GROUP-ID of an EXT-X-MEDIA of that TYPE."),
            .bis(
                "4.4.6.1.1", rfc: "4.3.4.1.1", .must,
                "The members of a rendition group have different NAMEs, and at most one has DEFAULT=YES."),
            .bis("4.4.6.1", rfc: "4.3.4.1", .must, "AUTOSELECT is YES when DEFAULT is YES."),
        ],
        triggering: [
            RuleExample(
                "AUDIO group without EXT-X-MEDIA",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
                    Examples.audioVariant())
            ).expecting(line: 3, column: 86, "EXT-X-STREAM-INF: AUDIO=\"aud\" names no"),
            RuleExample(
                "two defaults",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"French\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "duplicate NAME",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",URI=\"audio.m3u8\"\n",
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "DEFAULT=YES with AUTOSELECT=NO",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=NO,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
        ],
        nonTriggering: [
            RuleExample(
                "AUDIO group defined",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
                    Examples.audioVariant())),
            RuleExample(
                "two languages, one default",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"French\",DEFAULT=NO,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.parserFindings { $0.kind == .renditionGroup }
    }
}

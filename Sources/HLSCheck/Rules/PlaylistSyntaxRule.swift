import HLSPlaylist

/// Grammar and structure errors the parser found in any playlist of the stream.
package struct PlaylistSyntaxRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-syntax", name: "Playlist syntax", defaultSeverity: .error,
        summary: "A line, tag or attribute breaks the RFC 8216 grammar.",
        rationale: "RFC 8216 §4 defines the playlist grammar; players reject or misread playlists that break it.",
        specItems: [
            .bis(
                "4.1", rfc: "4.1", .must,
                "A playlist is UTF-8 without a byte order mark and without control characters other than CR and LF."),
            .bis(
                "4.2", rfc: "4.2", .must,
                "An attribute list is comma-separated NAME=value pairs, and an attribute name appears at most once in a list."
            ),
            .bis("4.4.1.1", rfc: "4.3.1.1", .must, "The first line of every playlist is the tag EXTM3U."),
            .bis("4.4.3.1", rfc: "4.3.3.1", .must, "A media playlist carries EXT-X-TARGETDURATION."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "Every EXT-X-STREAM-INF carries BANDWIDTH and is followed by the URI of its media playlist."),
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must,
                "EXT-X-MEDIA carries TYPE, GROUP-ID and NAME; SUBTITLES need a URI, CLOSED-CAPTIONS must not have one and need INSTREAM-ID."
            ),
            .bis(
                "4.4.6.3", rfc: "4.3.4.3", .must,
                "EXT-X-I-FRAME-STREAM-INF carries BANDWIDTH and URI, and none of FRAME-RATE, AUDIO, SUBTITLES and CLOSED-CAPTIONS."
            ),
            .bis("4.2", rfc: "4.2", .must, "A quoted-string is not empty unless its attribute allows it."),
            .bis(
                "4.4.2.3", .must,
                "The percent-decoded value of a query parameter that a variable takes holds no line feed, carriage return or double quote."
            ),
            .bis("4.4.3.1", rfc: "4.3.3.1", .must, "The target duration is at least 1."),
            .bis("4.4.4.4", rfc: "4.3.2.4", .must, "EXT-X-KEY with METHOD=AES-256-GCM has no IV attribute."),
            .bis("4.4.4.4", rfc: "4.3.2.4", .must, "EXT-X-KEY with METHOD=SAMPLE-AES-CTR has no IV attribute."),
            .bis(
                "4.4.4.5", rfc: "4.3.2.5", .must,
                "The EXT-X-KEY that applies to an AES-128-encrypted EXT-X-MAP has an IV."),
            .bis(
                "4.4.5.1", rfc: "4.3.2.7", .must,
                "An X- attribute value is a quoted-string, a hexadecimal-sequence or a signed decimal floating point."),
            .bis("4.4.5.1", rfc: "4.3.2.7", .must, "The value of END-ON-NEXT is YES."),
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must,
                "STABLE-RENDITION-ID uses only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'."),
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must, "A closed-caption INSTREAM-ID is CC1 to CC4 or SERVICE1 to SERVICE63."
            ),
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must, "BIT-DEPTH, SAMPLE-RATE and CHANNELS appear only on AUDIO renditions."
            ),
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must, "A CHANNELS value with a third parameter has a non-empty second one."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "STABLE-VARIANT-ID uses only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'."),
            .bis("4.4.6.2", rfc: "4.3.4.2", .must, "REQ-VIDEO-LAYOUT and each of its entries are not empty."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "The first field of each SUPPLEMENTAL-CODECS element is a valid CODECS format."),
        ],
        triggering: [
            RuleExample(
                "missing BANDWIDTH",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
                    "audio.m3u8": Examples.media(),
                ]
            ).expecting(line: 2, column: 1, "EXT-X-STREAM-INF is missing the required"),
            RuleExample(
                "FRAME-RATE on an I-frame stream",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream().replacing(",URI=", with: ",FRAME-RATE=25,URI="))),
            RuleExample(
                "AUDIO on an I-frame stream",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream().replacing(",URI=", with: ",AUDIO=\"aud\",URI="))),
            RuleExample(
                "EXT-X-TARGETDURATION:0",
                files: Examples.audioStream(Examples.media().replacing("TARGETDURATION:6", with: "TARGETDURATION:0"))),
            RuleExample(
                "an empty NAME",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"\",LANGUAGE=\"en\",URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "CHANNELS on a subtitles rendition",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",CHANNELS=\"2\",URI=\"subs.m3u8\"\n",
                    Examples.subtitledVariant)),
            RuleExample(
                "closed captions on channel CC5",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",LANGUAGE=\"en\",INSTREAM-ID=\"CC5\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,CLOSED-CAPTIONS=\"cc\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "an AES-128 key without IV over an EXT-X-MAP",
                files: Examples.audioStream(
                    "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6.0,\nseg0.m4s\n#EXT-X-ENDLIST\n"
                )),
            RuleExample(
                "a STABLE-VARIANT-ID with a space",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\",STABLE-VARIANT-ID=\"audio low\"\naudio.m3u8\n"
                )),
            RuleExample(
                "a date range attribute X-COUNT=ten",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",X-COUNT=ten\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n"
                ]),
            RuleExample(
                "media playlist without #EXTM3U",
                files: Examples.audioStream(String(Examples.media().dropFirst("#EXTM3U\n".count)))),
        ],
        nonTriggering: [
            RuleExample("valid stream", files: Examples.stream(Examples.audioVariant())),
            RuleExample(
                "caption channels, stable ids and client attributes as the grammar allows",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:7\n"
                        + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",LANGUAGE=\"en\",INSTREAM-ID=\"SERVICE63\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",CHANNELS=\"16/JOC\",STABLE-RENDITION-ID=\"en+main/1=a.b_c-d\",URI=\"audio.m3u8\"\n"
                        + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,ec-3\",RESOLUTION=640x360,AUDIO=\"aud\",CLOSED-CAPTIONS=\"cc\",STABLE-VARIANT-ID=\"v1\"\nvideo.m3u8\n",
                    "video.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",X-COUNT=-10.5,X-ID=0x1F,X-NOTE=\"a\"\n#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n",
                    "audio.m3u8": Examples.media(),
                ]),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.parserFindings { $0.severity == .error && !PlaylistProblem.Kind.ownRules.contains($0.kind) }
    }
}

import HLSPlaylist

/// EXT-X-VERSION lower than what the features used require (RFC 8216 §7).
package struct VersionTooLowRule: Rule {
    package static let description = RuleDescription(
        id: "version-too-low", name: "EXT-X-VERSION too low", defaultSeverity: .error,
        summary: "EXT-X-VERSION is lower than the features the playlist uses require.",
        rationale:
            "RFC 8216 §7: a playlist MUST indicate the version of the features it uses, or older clients misparse it.",
        specItems: [
            .bis(
                "8", rfc: "7", .must,
                "A playlist that uses a feature of a later protocol version carries an EXT-X-VERSION at least that version."
            ),
            .bis(
                "4.4.1.2", rfc: "4.3.1.2", .must,
                "A playlist that is not compatible with version 1 carries EXT-X-VERSION."),
        ],
        triggering: [
            RuleExample(
                "EXT-X-BYTERANGE in a version 3 playlist",
                files: Examples.audioStream(
                    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:1000@0\nseg0.ts\n#EXT-X-ENDLIST\n"
                )
            ).expecting(line: 5, column: 1, "EXT-X-BYTERANGE requires EXT-X-VERSION 4 or"),
            RuleExample(
                "METHOD=SAMPLE-AES in a version 3 playlist",
                files: Examples.audioStream(
                    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key.bin\"\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n"
                )
            ).expecting(line: 4, column: 12, "EXT-X-KEY with METHOD=SAMPLE-AES requires EXT-X-VERSION 5"),
            RuleExample(
                "REQ-VIDEO-LAYOUT in a version 11 playlist",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,REQ-VIDEO-LAYOUT=\"CH-STEREO\"\nvideo.m3u8\n",
                    header: "#EXTM3U\n#EXT-X-VERSION:11\n")
            ).expecting(line: 3, column: 86, "the REQ-VIDEO-LAYOUT attribute requires EXT-X-VERSION 12"),
        ],
        nonTriggering: [
            RuleExample(
                "EXT-X-BYTERANGE in a version 4 playlist",
                files: Examples.audioStream(
                    "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n#EXT-X-BYTERANGE:1000@0\nseg0.ts\n#EXT-X-ENDLIST\n"
                )),
            // A removed attribute is not a version too low: playlist-lenient reports it.
            RuleExample(
                "PROGRAM-ID in a version 6 multivariant playlist",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
                    header: "#EXTM3U\n#EXT-X-VERSION:6\n")),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.parserFindings { $0.kind == .versionTooLow }
    }
}

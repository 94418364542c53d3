import HLSPlaylist

/// Things the parser accepted but that bend the specification.
package struct PlaylistLenientRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-lenient", name: "Playlist bends the spec", defaultSeverity: .warning,
        summary: "The playlist bends RFC 8216 in a way most players tolerate.",
        rationale:
            "Tolerated deviations (unknown attribute values, odd whitespace, SHOULDs) still trip strict players.",
        specItems: [
            .bis(
                "4.2", rfc: "4.2", .must,
                "No whitespace around the '=' of an attribute: strict parsers reject what lenient ones accept.")
        ],
        triggering: [
            RuleExample(
                "EXTINF without its trailing comma",
                files: Examples.audioStream(
                    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6\nseg0.ts\n#EXT-X-ENDLIST\n")
            ).expecting(line: 4, column: 10, "EXTINF: a comma must follow the duration"),
            RuleExample(
                "PROGRAM-ID in a version 6 multivariant playlist",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
                    header: "#EXTM3U\n#EXT-X-VERSION:6\n")),
        ],
        nonTriggering: [RuleExample("valid stream", files: Examples.stream(Examples.audioVariant()))]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.parserFindings { $0.severity == .warning && !PlaylistProblem.Kind.ownRules.contains($0.kind) }
    }
}

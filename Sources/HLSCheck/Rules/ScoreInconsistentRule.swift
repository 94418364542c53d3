import HLSPlaylist

// Apple authoring MUSTs about the set of variants and renditions a multivariant playlist offers,
// and the fMP4 media playlists' initialization sections. Apple-only (`settings: .appleOnly`).

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
        guard let multivariant = stream.multivariant,
            let scored = multivariant.variants.first(where: { $0.attributes.contains("SCORE") })
        else { return [] }
        return multivariant.variants.filter { !$0.attributes.contains("SCORE") }.map { variant in
            Finding(
                "variant \(variant.uri) has no SCORE, but the variant on line \(scored.line) has: give every EXT-X-STREAM-INF a SCORE, or none",
                at: stream.root.location(line: variant.line))
        }
    }
}

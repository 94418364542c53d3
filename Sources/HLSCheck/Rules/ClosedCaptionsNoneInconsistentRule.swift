import HLSPlaylist

// MUSTs of bis-22 that relate tags of the multivariant playlist to each other or to the media
// playlists it names: each tag is well formed on its own, the stream as a whole is not.

/// CLOSED-CAPTIONS=NONE on some variants but not all.
package struct ClosedCaptionsNoneInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "closed-captions-none-inconsistent", name: "CLOSED-CAPTIONS=NONE on some variants only",
        defaultSeverity: .error,
        summary: "One EXT-X-STREAM-INF says CLOSED-CAPTIONS=NONE and another does not.",
        rationale:
            "bis-22 §4.4.6.2: CLOSED-CAPTIONS=NONE says the variant carries no captions; when one variant says so, all must, or a player switching to a variant that does not say so may show captions the viewer did not have a moment ago (or the reverse).",
        specItems: [
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "If one EXT-X-STREAM-INF has CLOSED-CAPTIONS=NONE, every EXT-X-STREAM-INF has CLOSED-CAPTIONS=NONE.")
        ],
        triggering: [
            RuleExample(
                "NONE on one of two variants",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,CLOSED-CAPTIONS=NONE\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nvideo2.m3u8\n"
                )
            ).expecting(line: 5, "has no CLOSED-CAPTIONS=NONE")
        ],
        nonTriggering: [
            RuleExample(
                "NONE on every variant",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,CLOSED-CAPTIONS=NONE\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,CLOSED-CAPTIONS=NONE\nvideo2.m3u8\n"
                )),
            RuleExample("NONE on no variant", files: Examples.stream(Examples.videoVariant)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant,
            let none = multivariant.variants.first(where: \.closedCaptionsNone)
        else {
            return []
        }
        let without = multivariant.variants.filter { !$0.closedCaptionsNone }
        guard let first = without.first else { return [] }
        let others = without.count > 1 ? " (and \(without.count - 1) other variant\(without.count > 2 ? "s" : ""))" : ""
        return [
            Finding(
                "variant \(first.uri)\(others) has no CLOSED-CAPTIONS=NONE, but the variant on line \(none.line) has: once one variant says NONE, every variant must; add CLOSED-CAPTIONS=NONE or give every variant its caption group",
                at: stream.root.location(line: first.line))
        ]
    }
}

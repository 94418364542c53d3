import HLSPlaylist

// Apple authoring MUSTs about the set of variants and renditions a multivariant playlist offers,
// and the fMP4 media playlists' initialization sections. Apple-only (`settings: .appleOnly`).

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

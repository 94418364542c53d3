import HLSPlaylist

/// I-frame streams that are all HDR.
package struct SDRIFrameStreamMissingRule: Rule {
    package static let description = RuleDescription(
        id: "sdr-iframe-missing", name: "No SDR I-frame stream", defaultSeverity: .error, settings: .appleOnly,
        summary: "I-frame streams are offered, but every one declares VIDEO-RANGE=PQ or HLG.",
        rationale:
            "Trick play (scrubbing, fast forward) on a device or display without HDR needs an SDR I-frame stream. iframe-playlist-missing reports a stream with no I-frame stream at all.",
        specItems: [
            .apple("6.16", .must, "SDR trick play streams are provided."),
            .apple("6.16", platform: "tvOS", .must, "SDR trick play streams are provided."),
        ],
        triggering: [
            RuleExample(
                "PQ I-frame stream only",
                files: Examples.stream(
                    Examples.videoVariant,
                    "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,CODECS=\"hvc1.2.4.L123.B0\",RESOLUTION=640x360,VIDEO-RANGE=PQ,URI=\"iframes.m3u8\"\n"
                )
            ).expecting(line: 5, "every I-frame stream declares VIDEO-RANGE=PQ or HLG")
        ],
        nonTriggering: [
            RuleExample(
                "an SDR I-frame stream", files: Examples.stream(Examples.videoVariant, Examples.iFrameStream())),
            RuleExample(
                "SDR beside PQ",
                files: Examples.stream(
                    Examples.videoVariant, Examples.iFrameStream(),
                    "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,CODECS=\"hvc1.2.4.L123.B0\",RESOLUTION=640x360,VIDEO-RANGE=PQ,URI=\"iframes-hdr.m3u8\"\n"
                )),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let iFrames = stream.multivariant?.iFrameVariants, let first = iFrames.first,
            iFrames.allSatisfy({ VideoRange.isHDR($0.attributes["VIDEO-RANGE"]?.rawValue) })
        else { return [] }
        return [
            Finding(
                "every I-frame stream declares VIDEO-RANGE=PQ or HLG: add an SDR I-frame stream for trick play on devices and displays without HDR",
                at: stream.root.location(line: first.line))
        ]
    }
}

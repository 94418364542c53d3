import HLSPlaylist

/// Only HDR video variants.
package struct SDRVariantMissingRule: Rule {
    package static let description = RuleDescription(
        id: "sdr-variant-missing", name: "No SDR video", defaultSeverity: .error, settings: .appleOnly,
        summary: "Every video variant declares VIDEO-RANGE=PQ or HLG: no SDR video is offered.",
        rationale:
            "Devices and displays without HDR play the SDR variants; a stream of HDR variants only leaves them nothing to play. video-range-mismatch checks that what is declared SDR is SDR.",
        specItems: [.apple("1.24", .must, "SDR video is provided.")],
        triggering: [
            RuleExample(
                "PQ variants only",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",RESOLUTION=1280x720,VIDEO-RANGE=PQ\nvideo.m3u8\n"
                )
            ).expecting(line: 3, "every video variant declares VIDEO-RANGE=PQ or HLG")
        ],
        nonTriggering: [
            RuleExample(
                "an SDR variant beside the PQ one",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",RESOLUTION=1280x720,VIDEO-RANGE=PQ\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nsdr.m3u8\n"
                )),
            RuleExample("audio only", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let video = stream.variants.filter(\.carriesVideo)
        guard let first = video.first, video.allSatisfy({ VideoRange.isHDR($0.stream?.videoRange) }) else { return [] }
        return [
            Finding(
                "every video variant declares VIDEO-RANGE=PQ or HLG: add SDR variants (no VIDEO-RANGE, or VIDEO-RANGE=SDR) for devices and displays without HDR",
                at: first.location)
        ]
    }
}

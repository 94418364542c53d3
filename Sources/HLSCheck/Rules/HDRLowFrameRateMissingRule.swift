import HLSPlaylist

/// HDR content without an HDR variant at 30 frames per second or less.
package struct HDRLowFrameRateMissingRule: Rule {
    package static let description = RuleDescription(
        id: "hdr-low-frame-rate-missing", name: "No HDR variant at 30 fps or less", defaultSeverity: .warning,
        settings: .appleOnly,
        summary: "HDR variants (VIDEO-RANGE=PQ or HLG) are offered, but none at 30 frames per second or less.",
        rationale:
            "Devices that decode HDR only up to 30 frames per second (older Apple TVs among them) need an HDR variant at that rate, or they fall back to SDR.",
        specItems: [
            .apple("1.20", .should, "HDR content is also offered at 30 fps or less."),
            .apple("1.20", platform: "tvOS", .must, "HDR content is also offered at 30 fps or less."),
        ],
        triggering: [
            RuleExample(
                "PQ at 60 fps only",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",RESOLUTION=1280x720,FRAME-RATE=60.000,VIDEO-RANGE=PQ\nhdr.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,FRAME-RATE=30.000\nsdr.m3u8\n"
                )
            ).expecting(line: 3, "the HDR variants run at 60.000 frames per second")
        ],
        nonTriggering: [
            RuleExample(
                "PQ at 60 and at 30 fps",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",RESOLUTION=1280x720,FRAME-RATE=60.000,VIDEO-RANGE=PQ\nhdr.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",RESOLUTION=1280x720,FRAME-RATE=30.000,VIDEO-RANGE=PQ\nhdr30.m3u8\n"
                )),
            RuleExample("SDR only", files: Examples.stream(Examples.videoVariant)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let hdr = stream.variants.filter { $0.carriesVideo && VideoRange.isHDR($0.stream?.videoRange) }
        guard let first = hdr.first else { return [] }
        let rates = hdr.map { $0.stream?.frameRate ?? $0.measurement?.measuredFrameRate }
        // A rate that is neither declared nor measured may be the low one.
        guard rates.allSatisfy({ ($0 ?? 0) > 30 }) else { return [] }
        let lowest = rates.compactMap { $0 }.min().map(FrameRateMissingRule.rate) ?? "?"
        return [
            Finding(
                "the HDR variants run at \(lowest) frames per second or more: add an HDR variant at 30 or less for devices that decode HDR only up to 30",
                at: first.location)
        ]
    }
}

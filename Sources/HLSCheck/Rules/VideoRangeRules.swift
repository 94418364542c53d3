import HLSPlaylist
import MediaInspection

/// The dynamic range the transfer characteristics of video call for (bis-22 §4.4.6.2).
enum VideoRange {
    /// TransferCharacteristics code points (ITU-T H.273) that make video SDR.
    static let standard: Set<Int> = [1, 6, 13, 14, 15]
    static let pq = 16, hlg = 18

    /// The VIDEO-RANGE that video with these transfer characteristics must declare: PQ when any
    /// is PQ (mixed with SDR or HLG), HLG when any is HLG (mixed with SDR), SDR when all are SDR;
    /// nil when none is known, or when one is none of those.
    static func required(by transfers: Set<Int>) -> String? {
        guard !transfers.isEmpty, transfers.isSubset(of: standard.union([pq, hlg])) else { return nil }
        if transfers.contains(pq) { return "PQ" }
        if transfers.contains(hlg) { return "HLG" }
        return "SDR"
    }

    static func name(_ transfer: Int) -> String {
        switch transfer {
        case 1: return "1 (BT.709)"
        case 6: return "6 (BT.601)"
        case 13: return "13 (sRGB)"
        case 14, 15: return "\(transfer) (BT.2020)"
        case 16: return "16 (PQ)"
        case 18: return "18 (HLG)"
        default: return String(transfer)
        }
    }

    /// The declared range of a variant: VIDEO-RANGE, whose absence means SDR (bis-22 §4.4.6.2).
    static func declared(_ value: String?) -> String { value ?? "SDR" }

    static func isHDR(_ value: String?) -> Bool { value == "PQ" || value == "HLG" }
}

extension VariantAnalysis {
    /// The transfer characteristics of the video in the variant's segments and its video renditions.
    var measuredTransfers: Set<Int> {
        let measurements = [measurement] + videoRenditions.map(\.measurement)
        return Set(
            measurements.compactMap { $0 }.flatMap { $0.records.distinctTrackFormats.joined() }
                .filter { $0.kind == .video }.compactMap(\.transferCharacteristics))
    }
}

/// VIDEO-RANGE that does not match the transfer characteristics of the video.
package struct VideoRangeMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "video-range-mismatch", name: "VIDEO-RANGE differs from the video", defaultSeverity: .error,
        scope: .variant,
        summary:
            "VIDEO-RANGE (SDR when absent) is not what the transfer characteristics in the video bitstream call for: SDR for 1, 6, 13, 14, 15; HLG for 18; PQ for 16.",
        rationale:
            "Players choose between SDR and HDR variants by VIDEO-RANGE and set the display up for it; PQ declared on SDR video, or HDR video without VIDEO-RANGE, shows with wrong brightness and colours, or is offered to a display that cannot show it.",
        specItems: [
            .bis("4.4.6.2", .must, "VIDEO-RANGE is SDR for video with transfer characteristics 1, 6, 13, 14 or 15."),
            .bis(
                "4.4.6.2", .must,
                "VIDEO-RANGE is HLG for video with transfer characteristics 18 (possibly mixed with SDR)."),
            .bis(
                "4.4.6.2", .must,
                "VIDEO-RANGE is PQ for video with transfer characteristics 16 (possibly mixed with SDR or HLG)."),
            .apple("9.16", .must, "VIDEO-RANGE is given unless all video is SDR."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declaration = variant.stream else { return nil }
            let transfers = variant.measuredTransfers
            let declared = VideoRange.declared(declaration.videoRange)
            guard let required = VideoRange.required(by: transfers), ["SDR", "HLG", "PQ"].contains(declared),
                required != declared
            else { return nil }
            let measured = transfers.sorted().map(VideoRange.name).joined(separator: ", ")
            let what = declaration.videoRange.map { "VIDEO-RANGE=\($0)" } ?? "no VIDEO-RANGE (SDR implied)"
            let fix = required == "SDR" ? "declare VIDEO-RANGE=SDR or leave it out" : "declare VIDEO-RANGE=\(required)"
            return Finding(
                "\(variant.uri) has \(what) but its video has transfer characteristics \(measured), which is \(required): \(fix)",
                at: variant.location(ofAttribute: "VIDEO-RANGE"))
        }
    }
}

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

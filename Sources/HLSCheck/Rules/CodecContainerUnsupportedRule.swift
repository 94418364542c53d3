import HLSPlaylist
import MediaInspection

/// A codec in a container Apple devices do not play it from.
package struct CodecContainerUnsupportedRule: Rule {
    package static let description = RuleDescription(
        id: "codec-container-unsupported", name: "Codec in the wrong container", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "HEVC, AV1, FLAC, Apple Lossless or xHE-AAC outside fMP4, or H.264 outside fMP4 and MPEG-TS.",
        rationale:
            "Apple devices play HEVC, AV1 and the lossless and USAC audio codecs only from fragmented MP4 (CMAF) segments, and H.264 from fMP4 or MPEG-TS; the same bitstream in another container is not played.",
        specItems: [
            .apple("1.2", .must, "H.264 video is in fMP4 or MPEG-TS."),
            .apple("1.5", .must, "HEVC video is in fMP4."),
            .apple("1.39", .must, "AV1 video is in fMP4."),
            .apple("2.25", .must, "xHE-AAC, Apple Lossless, FLAC and APAC audio are in fMP4."),
        ],
        needsMedia: true)

    /// The codec's name for a message when `container` is not one Apple allows it in; nil when it is.
    static func misplaced(_ format: TrackFormat, in container: SegmentContainer?) -> String? {
        guard let container else { return nil }
        switch format.codecName {
        case "h264": return container == .mpegTS || container == .fragmentedMP4 ? nil : "H.264 video"
        case "hevc": return container == .fragmentedMP4 ? nil : "HEVC video"
        case "av1": return container == .fragmentedMP4 ? nil : "AV1 video"
        case "flac": return container == .fragmentedMP4 ? nil : "FLAC audio"
        case "alac": return container == .fragmentedMP4 ? nil : "Apple Lossless audio"
        case "aac" where format.codecString == "mp4a.40.42": return container == .fragmentedMP4 ? nil : "xHE-AAC audio"
        default: return nil
        }
    }

    static func name(_ container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: return "MPEG-TS"
        case .adts, .mp3, .ac3, .eac3: return "packed audio"
        case .fragmentedMP4: return "fMP4"
        case .webVTT: return "WebVTT"
        case .unknown: return "an unrecognised container"
        }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let record = measurement.records.firstInspected(whereContent: { container, formats in
                    formats.contains { Self.misplaced($0, in: container) != nil }
                }),
                let container = record.container,
                let format = record.trackFormats.first(where: { Self.misplaced($0, in: container) != nil }),
                let codec = Self.misplaced(format, in: container)
            else { return nil }
            let allowed = format.codecName == "h264" ? "fMP4 or MPEG-TS" : "fMP4 (with EXT-X-MAP)"
            return Finding(
                "segment \(record.uri) carries \(codec) in \(Self.name(container)): Apple devices play it only from \(allowed) segments; package it so",
                at: measurement.location(of: record))
        }
    }
}

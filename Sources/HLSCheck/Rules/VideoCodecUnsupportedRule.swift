import HLSPlaylist

/// Video in a codec Apple devices do not play.
package struct VideoCodecUnsupportedRule: Rule {
    /// libavcodec's names of the codecs AS 1.1 allows; Dolby Vision is carried as HEVC or H.264.
    static let allowed: Set<String> = ["h264", "hevc", "av1"]

    package static let description = RuleDescription(
        id: "video-codec-unsupported", name: "Video codec not playable", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "A segment carries video that is not H.264, HEVC (Dolby Vision included) or AV1.",
        rationale:
            "Apple devices decode H.264/AVC, HEVC/H.265 (and Dolby Vision over it) and AV1 in HLS; video in any other codec (MPEG-2, VP9, …) is not played at all.",
        specItems: [.apple("1.1", .must, "Video is H.264/AVC, HEVC/H.265, Dolby Vision or AV1.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let (record, format) = measurement.firstTrack(where: {
                    $0.kind == .video && !Self.allowed.contains($0.codecName)
                })
            else { return nil }
            return Finding(
                "segment \(record.uri) carries \(format.codecName) video: Apple devices play H.264, HEVC, Dolby Vision or AV1 only; re-encode it in one of those",
                at: measurement.location(of: record))
        }
    }
}

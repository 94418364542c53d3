import HLSPlaylist

/// Interlaced video.
package struct VideoInterlacedRule: Rule {
    package static let description = RuleDescription(
        id: "video-interlaced", name: "Interlaced video", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary:
            "A segment's video is coded interlaced (H.264 field coding, HEVC interlaced source, or a field order).",
        rationale:
            "Apple devices show progressive video; interlaced sources must be deinterlaced before encoding, or they play with combing artefacts or not at all.",
        specItems: [.apple("1.14", .must, "Interlaced sources are deinterlaced.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard let (record, format) = measurement.firstTrack(where: { $0.kind == .video && $0.interlaced == true })
            else { return nil }
            return Finding(
                "segment \(record.uri) carries interlaced \(format.codecName) video: deinterlace the source before encoding (e.g. ffmpeg -vf bwdif, and no -flags +ildct)",
                at: measurement.location(of: record))
        }
    }
}

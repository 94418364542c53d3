import HLSPlaylist
import MediaInspection

/// Multichannel audio muxed with video.
package struct MultichannelAudioMuxedRule: Rule {
    package static let description = RuleDescription(
        id: "multichannel-audio-muxed", name: "Multichannel audio muxed with video", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "A segment carries video together with audio of more than two channels.",
        rationale:
            "Multichannel audio belongs in a separate audio rendition (EXT-X-MEDIA TYPE=AUDIO with CHANNELS), so that devices without a multichannel output choose stereo instead, and the video variants do not each carry the surround bytes.",
        specItems: [.apple("9.6", .must, "Multichannel audio is a separate audio stream.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard measurement.containsVideo,
                let record = measurement.records.firstInspected(whereContent: { _, formats in
                    formats.contains { $0.kind == .video } && formats.contains(where: Self.isMultichannel)
                }),
                let audio = record.trackFormats.first(where: Self.isMultichannel)
            else { return nil }
            return Finding(
                "segment \(record.uri) carries \(audio.channels ?? 0)-channel \(audio.codecString ?? audio.codecName) audio with its video: put multichannel audio in a separate EXT-X-MEDIA audio rendition",
                at: measurement.location(of: record))
        }
    }

    static func isMultichannel(_ format: TrackFormat) -> Bool {
        format.kind == .audio && (format.channels ?? 0) > 2
    }
}

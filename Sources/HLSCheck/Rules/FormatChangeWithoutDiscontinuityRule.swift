import HLSPlaylist

/// A channel layout or frame rate change without EXT-X-DISCONTINUITY.
package struct FormatChangeWithoutDiscontinuityRule: Rule {
    package static let description = RuleDescription(
        id: "format-change-without-discontinuity", name: "Format change without EXT-X-DISCONTINUITY",
        defaultSeverity: .error, scope: .variant, settings: .appleOnly,
        summary:
            "The audio channel layout or the video frame rate changes from one segment to the next without EXT-X-DISCONTINUITY before it.",
        rationale:
            "A player sets up its decoders and outputs for the format it is playing; a new channel layout or frame rate without EXT-X-DISCONTINUITY reaches them unannounced, and the audio drops out or the video stutters.",
        specItems: [
            .apple("2.11", .must, "A channel layout change comes with EXT-X-DISCONTINUITY."),
            .apple("8.14", .must, "A video frame rate change is marked with EXT-X-DISCONTINUITY."),
            .apple(
                "8.13", .must,
                "Breaks of encoding continuity, such as a new channel layout or frame rate, are marked with EXT-X-DISCONTINUITY."
            ),
        ],
        needsMedia: true)

    /// Segments shorter than this are not compared by frame rate: a few frames give no rate.
    static let shortestComparedSegment = 0.5

    static func layout(_ record: SegmentRecord) -> (channels: Int, mask: UInt64?)? {
        guard let audio = record.trackFormats.first(where: { $0.kind == .audio }), let channels = audio.channels else {
            return nil
        }
        return (channels, audio.channelMask)
    }

    func change(from previous: SegmentRecord, to next: SegmentRecord) -> String? {
        if let before = Self.layout(previous), let after = Self.layout(next),
            before.channels != after.channels || (before.mask != nil && after.mask != nil && before.mask != after.mask)
        {
            return "the audio changes from \(before.channels) to \(after.channels) channels"
                + (before.channels == after.channels ? " in another layout" : "")
        }
        if let before = previous.videoFrameRate, let after = next.videoFrameRate,
            (previous.measuredDuration ?? 0) >= Self.shortestComparedSegment,
            (next.measuredDuration ?? 0) >= Self.shortestComparedSegment,
            abs(before - after) > FrameRateMismatchRule.tolerance * max(before, after)
        {
            return
                "the video changes from \(FrameRateMissingRule.rate(before)) to \(FrameRateMissingRule.rate(after)) frames per second"
        }
        return nil
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            for (before, record) in measurement.joins {
                guard let change = change(from: before, to: record) else { continue }
                return Finding(
                    "at segment \(record.uri) \(change) with no EXT-X-DISCONTINUITY before it: mark the change with EXT-X-DISCONTINUITY",
                    at: measurement.location(of: record))
            }
            return nil
        }
    }
}

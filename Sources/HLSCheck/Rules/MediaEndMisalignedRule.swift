import HLSPlaylist

/// Audio and video playlists of a finished stream whose media ends at different times, by the
/// timestamps of their last segments.
package struct MediaEndMisalignedRule: Rule {
    /// Makes the rule; it holds no state, so one instance serves every check.
    package init() {}

    package static let description = RuleDescription(
        id: "media-end-misaligned", name: "Audio and video end at different times", defaultSeverity: .error,
        scope: .stream, settings: .appleOnly,
        summary:
            "In a finished stream (every media playlist ends with EXT-X-ENDLIST), the media of a variant or audio/video rendition playlist ends more than one frame (50 ms) away from where the others end, by the timestamps of its last segment.",
        rationale:
            "Apple's authoring specification asks every VOD media playlist of an asset to cover the same media time range, audio and video playlists to cover the same duration, and alternative audio to last the whole content (AS 8.7, 8.3, 2.15): a player that plays the shorter one loses sound or picture at the end, or waits for media that never comes. timestamps-misaligned compares where the playlists start; this rule compares where they end: each playlist's last segment's timing track (its first video track, else its first audio track), from its first timestamp to the end of its last frame. bis-22 §6.2.4 allows up to the smallest target duration at either end (duration-mismatch): only the Apple profiles ask for more.",
        specItems: [
            .apple("8.7", .must, "All VOD media playlists of an asset cover the same media time range, to the end."),
            .apple("8.3", .must, "Audio and video playlists cover the same duration of content."),
            .apple("2.15", .must, "Alternative audio and audio description last the whole content."),
        ],
        needsMedia: true)

    /// Where one playlist's media ends.
    private struct End {
        var uri: String
        var line: Int
        var end: Double
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.isEnded else { return [] }
        // I-frame playlists end at their last I-frame, subtitles at their last cue: neither
        // says where the media ends.
        let ends = stream.measuredPlaylists.compactMap { measurement -> End? in
            guard let media = stream.loaded.mediaPlaylists[measurement.playlistURI]?.media, !media.iFramesOnly,
                let last = measurement.records.last, last.isInspected,
                let start = last.timingStart, let duration = last.timingDuration
            else { return nil }
            return End(uri: measurement.playlistURI, line: last.line, end: start + duration)
        }
        guard ends.count > 1 else { return [] }
        let tolerance = TimestampsMisalignedRule.tolerance
        // The end most playlists agree on is the reference; in a tie the latest, as the
        // playlist that ends sooner is the one that lacks content.
        let agreeing = ends.map { candidate in
            (candidate.end, ends.filter { abs($0.end - candidate.end) <= tolerance }.count)
        }
        guard let reference = agreeing.max(by: { ($0.1, $0.0) < ($1.1, $1.0) })?.0 else { return [] }
        let others = ends.filter { abs($0.end - reference) <= tolerance }.count
        return ends.compactMap { end in
            let offset = end.end - reference
            guard abs(offset) > tolerance else { return nil }
            return Finding(
                "the media of this playlist ends at \(seconds(end.end)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the \(others) other playlist\(others == 1 ? "" : "s") of this stream (\(seconds(reference)) s): every audio and video playlist must cover the same media time range; cut or extend it to end with them",
                at: SourceLocation(uri: end.uri, line: end.line))
        }
    }
}

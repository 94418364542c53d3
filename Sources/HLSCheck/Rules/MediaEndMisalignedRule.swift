import HLSPlaylist

/// Media playlists of a finished stream that cover different time ranges: audio and video by
/// the timestamps of their last segments, subtitles and I-frames by their EXTINF sums.
package struct MediaEndMisalignedRule: Rule {
    package static let description = RuleDescription(
        id: "media-end-misaligned", name: "Media playlists end at different times", defaultSeverity: .error,
        scope: .stream, settings: .appleOnly,
        summary:
            "In a finished stream (every media playlist ends with EXT-X-ENDLIST), the media of a variant or audio/video rendition playlist ends more than one frame (50 ms) away from where the others end, by the timestamps of its last segment; or a subtitle or I-frame playlist's EXTINF durations add up to more than half a second more or less than the length of that media.",
        rationale:
            "Apple's authoring specification asks every VOD media playlist of an asset to cover the same media time range, audio and video playlists to cover the same duration, and alternative audio to last the whole content (AS 8.7, 8.3, 2.15): a player that plays the shorter one loses sound, picture, subtitles or trick play at the end, or waits for media that never comes. timestamps-misaligned compares where the audio and video playlists start; this rule compares where they end: each playlist's last segment's timing track (its first video track, else its first audio track), from its first timestamp to the end of its last frame. Subtitle and I-frame segments carry no media timeline of their own that hlscheck reads (WebVTT cues sit on their X-TIMESTAMP-MAP, an I-frame's EXTINF spans to the next I-frame), but every playlist of a finished stream starts where the others do (bis-22 §6.2.4): the range a subtitle or I-frame playlist covers is its EXTINF sum, compared with the length of the audio and video media (the playlist whose end most others agree on, from its first timestamp to its end) within half a second, what rounding each EXTINF may add up to. bis-22 §6.2.4 allows up to the smallest target duration at either end (duration-mismatch): only the Apple profiles ask for more.",
        specItems: [
            .apple(
                "8.7", .must,
                "All VOD media playlists of an asset, audio, video, subtitle and I-frame, cover the same media time range, to the end."
            ),
            .audioAndVideoCoverSameDuration,
            .alternativeAudioLastsWholeContent,
        ],
        needsMedia: true)

    /// Where one playlist's media starts and ends.
    private struct End {
        var uri: String
        var line: Int
        /// Nil when the first segment was not inspected.
        var start: Double?
        var end: Double
    }

    /// How far a subtitle or I-frame playlist's EXTINF sum may fall from the media's length:
    /// packagers round each EXTINF (to the millisecond, to whole frames, or to 6 s for a
    /// subtitle segment cut on a 6.006 s video segment) and the sum drifts by that much; a
    /// missing or extra segment, or a subtitle playlist cut to its last cue, is seconds.
    static let spanTolerance = 0.5

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.isEnded else { return [] }
        // I-frame playlists end at their last I-frame, subtitles at their last cue: neither
        // says where the media ends, so their own timestamps are left out here.
        let ends = stream.measuredPlaylists.compactMap { measurement -> End? in
            guard let media = stream.loaded.mediaPlaylists[measurement.playlistURI]?.media, !media.iFramesOnly,
                let last = measurement.records.last, last.isInspected,
                let lastStart = last.timingStart, let duration = last.timingDuration
            else { return nil }
            let first = measurement.records.first.flatMap { $0.isInspected ? $0.timingStart : nil }
            return End(uri: measurement.playlistURI, line: last.line, start: first, end: lastStart + duration)
        }
        let tolerance = TimestampsMisalignedRule.tolerance
        // The end most playlists agree on is the reference; in a tie the latest, as the
        // playlist that ends sooner is the one that lacks content.
        let agreeing = ends.map { candidate in
            (candidate, ends.filter { abs($0.end - candidate.end) <= tolerance }.count)
        }
        guard let reference = agreeing.max(by: { ($0.1, $0.0.end) < ($1.1, $1.0.end) })?.0 else { return [] }
        let others = ends.filter { abs($0.end - reference.end) <= tolerance }.count
        var findings = ends.compactMap { end -> Finding? in
            guard ends.count > 1 else { return nil }
            let offset = end.end - reference.end
            guard abs(offset) > tolerance else { return nil }
            return Finding(
                "the media of this playlist ends at \(seconds(end.end)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the \(others) other playlist\(others == 1 ? "" : "s") of this stream (\(seconds(reference.end)) s): every audio and video playlist must cover the same media time range; cut or extend it to end with them",
                at: SourceLocation(uri: end.uri, line: end.line))
        }
        if let start = reference.start {
            findings += spanFindings(stream, length: reference.end - start, agreeing: others)
        }
        return findings
    }

    /// Subtitle and I-frame playlists: neither carries a media timeline hlscheck reads (WebVTT
    /// cues sit on their X-TIMESTAMP-MAP, an I-frame's EXTINF spans to the next I-frame). In a
    /// finished stream every playlist starts where the others do (bis-22 §6.2.4), so the range
    /// each covers is its EXTINF sum from that start: it must be as long as the audio and video.
    private func spanFindings(_ stream: StreamAnalysis, length: Double, agreeing: Int) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        var subtitles = Set<String>()
        for rendition in multivariant.renditions where rendition.type == .subtitles {
            if let uri = stream.loaded.resolvedURI(of: rendition) { subtitles.insert(uri) }
        }
        return stream.siblingMediaPlaylists.compactMap { uri, playlist, media -> Finding? in
            let kind = media.iFramesOnly ? "I-frame" : subtitles.contains(uri) ? "subtitle" : nil
            guard let kind, let last = media.segments.last else { return nil }
            let span = media.totalDuration, offset = span - length
            guard abs(offset) > Self.spanTolerance else { return nil }
            let measured = agreeing == 1 ? "the audio or video playlist" : "the \(agreeing) audio and video playlists"
            return Finding(
                "this \(kind) playlist covers \(seconds(span)) s by its EXTINF durations, \(seconds(abs(offset))) s \(offset < 0 ? "less" : "more") than the media of \(measured) of this stream (\(seconds(length)) s): every VOD media playlist must cover the same media time range; \(offset < 0 ? "add segments to reach the end" : "drop what lies past the end")",
                at: playlist.location(line: last.extinfLine ?? last.uriLine))
        }
    }
}

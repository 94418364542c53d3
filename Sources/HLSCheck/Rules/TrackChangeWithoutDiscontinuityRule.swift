import HLSPlaylist
import MediaInspection

/// A change of container, of the audio and video tracks (their number, kinds, ids or codecs), of
/// the picture size or of the audio sample rate between two segments that follow each other
/// without EXT-X-DISCONTINUITY: an ad or a programme spliced in from another encoder, unmarked.
package struct TrackChangeWithoutDiscontinuityRule: Rule {
    package static let description = RuleDescription(
        id: "track-change-without-discontinuity", name: "Container or track change without EXT-X-DISCONTINUITY",
        defaultSeverity: .error, scope: .variant,
        summary:
            "From one segment to the next, the container, the number, kinds, ids or codecs of the audio and video tracks, the video resolution or the audio sample rate change, and no EXT-X-DISCONTINUITY marks the join.",
        rationale:
            "A player keeps its demuxer and decoders from one segment to the next unless EXT-X-DISCONTINUITY tells it to start afresh (bis-22 §4.4.4.3, RFC 8216 §4.3.2.3): a segment in another container, with other tracks, another codec or another picture size reaches them unannounced, and playback stalls or breaks there. Content spliced in from another encoder (an ad, the next programme) is where this happens. Channel layout and frame rate changes are format-change-without-discontinuity's (AS 2.11, 8.14); jumps of the timestamps are discontinuity-missing's.",
        specItems: [
            .bis(
                "4.4.4.3", rfc: "4.3.2.3", .must,
                "EXT-X-DISCONTINUITY marks every change of file format, and of the number, type or ids of tracks."),
            .bis(
                "6.2.1", .must,
                "A change of encoding parameters — codec, resolution, file format, tracks — is marked with EXT-X-DISCONTINUITY."
            ),
            .apple(
                "8.13", .must,
                "Breaks of encoding continuity — container, tracks, codec, resolution, sample rate — are marked with EXT-X-DISCONTINUITY."
            ),
            .apple(
                "7.1", .must,
                "Media is continuous across segments: the same container, tracks and encoding from one segment to the next, except at inserted transitions."
            ),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.timedPlaylists.flatMap { measurement -> [Finding] in
            var findings: [Finding] = []
            for (before, record) in measurement.joins {
                let changes = Self.changes(from: before, to: record)
                guard !changes.isEmpty else { continue }
                findings.append(
                    Finding(
                        "segment \(record.uri) follows \(before.uri) without EXT-X-DISCONTINUITY, but \(changes.joined(separator: "; ")): a player keeps its demuxer and decoders across an unmarked join; put EXT-X-DISCONTINUITY before \(record.uri)",
                        at: SourceLocation(uri: measurement.playlistURI, line: record.line)))
            }
            return findings
        }
    }

    /// What changes from `previous` to `next`, each as a clause; empty when nothing does. Facts
    /// one of the two segments lacks (an unknown size or rate) are not compared.
    static func changes(from previous: SegmentRecord, to next: SegmentRecord) -> [String] {
        var changes: [String] = []
        if let before = previous.container, let after = next.container, before != after {
            changes.append("its container is \(name(after)) where \(previous.uri) is \(name(before))")
        }
        let kindsBefore = previous.trackFormats.map(\.kind), kindsAfter = next.trackFormats.map(\.kind)
        if kindsBefore != kindsAfter {
            changes.append("its tracks are \(tracks(kindsAfter)) where \(previous.uri) has \(tracks(kindsBefore))")
        } else {
            if previous.trackIDs.count == next.trackIDs.count,
                zip(previous.trackIDs, next.trackIDs).contains(where: { $0 != nil && $1 != nil && $0 != $1 })
            {
                changes.append(
                    "its track ids are \(ids(next.trackIDs)) where \(previous.uri) has \(ids(previous.trackIDs))")
            }
            for (before, after) in zip(previous.trackFormats, next.trackFormats) where codec(before) != codec(after) {
                changes.append(
                    "its \(before.kind.rawValue) codec is \(after.codecString ?? after.codecName) where \(previous.uri) has \(before.codecString ?? before.codecName)"
                )
            }
        }
        if let before = previous.videoResolution, let after = next.videoResolution, before != after {
            changes.append(
                "its video is \(after.width)x\(after.height) where \(previous.uri) has \(before.width)x\(before.height)"
            )
        }
        if let before = previous.audioSampleRate, let after = next.audioSampleRate, before != after {
            changes.append("its audio is sampled at \(after) Hz where \(previous.uri) has \(before) Hz")
        }
        return changes
    }

    /// A codec as a decoder sees it: the RFC 6381 string with the sample entry folded (avc1 and
    /// avc3 are one format), else libavcodec's name.
    private static func codec(_ format: TrackFormat) -> String {
        format.codecString.map(CodecEquivalence.format) ?? format.codecName
    }

    private static func name(_ container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: "MPEG-TS"
        case .fragmentedMP4: "fMP4"
        case .adts: "packed AAC"
        case .mp3: "packed MP3"
        case .ac3: "packed AC-3"
        case .eac3: "packed E-AC-3"
        case .webVTT: "WebVTT"
        case .unknown: "of an unknown format"
        }
    }

    private static func tracks(_ kinds: [TrackKind]) -> String {
        kinds.isEmpty ? "none" : kinds.map(\.rawValue).joined(separator: " + ")
    }

    private static func ids(_ ids: [Int?]) -> String {
        ids.map { $0.map(String.init) ?? "?" }.joined(separator: ", ")
    }
}

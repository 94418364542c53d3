import HLSPlaylist
import MediaFormats

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

/// The measured playlists in URI order, each with its demuxed records in playlist order (made
/// as they are read, never gathered: a stream of hours has many).
private func demuxedRecords(_ stream: StreamAnalysis) -> [(PlaylistMeasurement, LazyFilterSequence<SegmentRecords>)] {
    stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.map { measurement in
        (measurement, measurement.inspectedRecords)
    }
}

/// Consecutive pairs of demuxed records that follow each other in the playlist (media sequence
/// numbers one apart): the joins a player crosses without being told of a discontinuity.
func joins(_ records: LazyFilterSequence<SegmentRecords>) -> some Sequence<
    (previous: SegmentRecord, next: SegmentRecord)
> {
    zip(records, records.dropFirst()).lazy.compactMap { previous, next in
        next.mediaSequence == previous.mediaSequence + 1 && !next.discontinuity ? (previous, next) : nil
    }
}

private func hex(_ pid: UInt16) -> String {
    let digits = String(pid, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// MPEG-TS continuity counter gaps inside a segment or across the join of two segments.
package struct ContinuityErrorRule: Rule {
    package static let description = RuleDescription(
        id: "continuity-error", name: "TS continuity counter gap", defaultSeverity: .warning, scope: .variant,
        summary:
            "An MPEG-TS continuity_counter skips inside a segment, or does not continue across the join with the previous segment.",
        rationale:
            "ISO/IEC 13818-1 §2.4.3.3: the continuity_counter increments by one with each packet of a PID that carries payload; a gap means packets were lost or the segments were cut from different muxer runs, and demuxers drop the PES packet it interrupts. A join is only checked between segments that follow each other without EXT-X-DISCONTINUITY (RFC 8216 §4.3.2.3).",
        specItems: [
            .apple("7.2", .must, "In a transport stream, continuity counters and timestamps are sequential."),
            SpecItem(
                "ISO/IEC 13818-1 §2.4.3.3", .must,
                "continuity_counter increments by one with each packet of a PID that carries payload."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        demuxedRecords(stream).flatMap { measurement, records -> [Finding] in
            var findings: [Finding] = []
            for record in records {
                guard let continuity = record.continuity, continuity.errorCount > 0, let first = continuity.errors.first
                else { continue }
                let more = continuity.errorCount > 1 ? " (and \(continuity.errorCount - 1) more)" : ""
                findings.append(
                    Finding(
                        "segment \(record.uri): continuity_counter gap on PID \(hex(first.pid)) at packet \(first.packetIndex): expected \(first.expected), found \(first.found)\(more); packets were lost",
                        at: SourceLocation(uri: measurement.playlistURI, line: record.line)))
            }
            for (previous, next) in joins(records) {
                guard let before = previous.continuity, let after = next.continuity else { continue }
                let broken = after.edges.compactMap { edge -> String? in
                    guard let end = before.edge(of: edge.pid), !edge.continues(end) else { return nil }
                    return "PID \(hex(edge.pid)) ends at \(end.lastCounter), then starts at \(edge.firstCounter)"
                }
                guard !broken.isEmpty else { continue }
                findings.append(
                    Finding(
                        "segment \(next.uri) does not continue the continuity counters of \(previous.uri) (\(broken.joined(separator: "; "))); if the segments come from different muxer runs, mark the join with EXT-X-DISCONTINUITY",
                        at: SourceLocation(uri: measurement.playlistURI, line: next.line)))
            }
            return findings
        }
    }
}

/// A video segment that does not begin with a keyframe, or whose keyframe lacks its parameter sets.
package struct SegmentStartsWithoutKeyframeRule: Rule {
    package static let description = RuleDescription(
        id: "segment-starts-without-keyframe", name: "Video segment does not start with a keyframe",
        defaultSeverity: .warning, scope: .variant,
        summary:
            "A video segment's first frame is not a keyframe (IDR), or an in-band H.264/HEVC keyframe has no SPS/PPS before it.",
        rationale:
            "Apple's HLS Authoring Specification: every video segment starts with an IDR frame (with its parameter sets) so a player can start or switch variants there; with EXT-X-INDEPENDENT-SEGMENTS the playlist promises it (RFC 8216 §4.3.5.1: every segment decodes without information from other segments).",
        specItems: [
            .apple("7.4", .must, "Video segments start with an IDR frame.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        demuxedRecords(stream).flatMap { measurement, records in
            records.compactMap { record -> Finding? in
                let location = SourceLocation(uri: measurement.playlistURI, line: record.line)
                if record.videoStartsWithKeyframe == false {
                    return Finding(
                        "segment \(record.uri) does not start with a keyframe: a player that starts or switches here shows nothing until the next IDR frame; cut segments at keyframes",
                        at: location)
                }
                if record.videoStartsWithKeyframe == true, record.keyframeHasParameterSets == false {
                    return Finding(
                        "segment \(record.uri) starts with a keyframe but carries no parameter sets (SPS/PPS) before it: it cannot be decoded on its own; repeat them before every keyframe (x264: --repeat-headers; ffmpeg: -bsf:v dump_extra)",
                        at: location)
                }
                return nil
            }
        }
    }
}

/// Timestamps that jump or restart between segments without EXT-X-DISCONTINUITY.
package struct DiscontinuityMissingRule: Rule {
    package static let description = RuleDescription(
        id: "discontinuity-missing", name: "Timestamp jump without EXT-X-DISCONTINUITY", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A segment's first timestamp is not where the previous segment ended (by more than the duration tolerance), and no EXT-X-DISCONTINUITY marks the join.",
        rationale:
            "RFC 8216 §4.3.2.3: the EXT-X-DISCONTINUITY tag MUST be present if there is a change in the timestamp sequence. Without it a player schedules the segment at the wrong time: it stalls, skips or loses lip sync.",
        specItems: [
            .bis(
                "4.4.4.3", rfc: "4.3.2.3", .must,
                "EXT-X-DISCONTINUITY marks a change of file format, of tracks or of the timestamp sequence."),
            .apple("8.13", .must, "Breaks of encoding continuity are marked with EXT-X-DISCONTINUITY."),
            .apple(
                "7.3", .must, "In fMP4, a segment's track fragment decode time follows on from the previous segment's."),
        ],
        needsMedia: true)

    /// Timestamps are 33-bit 90 kHz values in TS and packed audio (ISO/IEC 13818-1 §2.4.3.7): a
    /// stream may wrap once every 26.5 hours, which is no jump.
    static let wrapPeriod = Double(1 << 33) / 90_000

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        demuxedRecords(stream).flatMap { measurement, records in
            joins(records).compactMap { previous, next -> Finding? in
                guard let start = previous.firstPTS, let nextStart = next.firstPTS else { return nil }
                let duration = previous.measuredDuration ?? previous.extinf
                var jump = nextStart - (start + duration)
                if next.container != .fragmentedMP4 {
                    jump = jump.remainder(dividingBy: Self.wrapPeriod)
                }
                guard jump.isFinite, abs(jump) > configuration.durationTolerance else { return nil }
                let direction = jump < 0 ? "back" : "forward"
                return Finding(
                    "segment \(next.uri) starts at \(seconds(nextStart)) s, but \(previous.uri) started at \(seconds(start)) s and lasts \(seconds(duration)) s: the timestamps jump \(direction) by \(seconds(abs(jump))) s without EXT-X-DISCONTINUITY before the segment",
                    at: SourceLocation(uri: measurement.playlistURI, line: next.line))
            }
        }
    }
}

/// Variants and renditions of one stream whose matching segments start at different times.
package struct TimestampsMisalignedRule: Rule {
    /// More than one frame apart: a video frame at 24 fps lasts 42 ms, an AAC frame 21–23 ms.
    static let tolerance = 0.05

    package static let description = RuleDescription(
        id: "timestamps-misaligned", name: "Variants not aligned in time", defaultSeverity: .error,
        summary:
            "In a VOD stream, the first segments of the media playlists start more than one frame (50 ms) apart; in a stream dated with EXT-X-PROGRAM-DATE-TIME, the segments of one date do.",
        rationale:
            "bis-22 §6.2.4: matching content in every variant and rendition has matching timestamps, and in a VOD stream the first segment of every media playlist starts at the same media timestamp; renditions that start apart play out of sync (an audio rendition 112 ms ahead of the video, as separately encoded ffmpeg audio is). Segments are matched by their place in time — the start of a VOD playlist, or a date — never by media sequence number, which bis-22 §4.4.3.2 lets differ between playlists. Packed audio counts from its ID3 PRIV timestamp (§3.4).",
        specItems: [
            .bis("6.2.4", rfc: "6.2.4", .must, "Matching content in variant streams has matching timestamps."),
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "In a VOD stream the first segment of every media playlist starts at the same media timestamp."),
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "The same EXT-X-PROGRAM-DATE-TIME maps to the same media timestamps in every media playlist."),
        ],
        needsMedia: true)

    /// One measured playlist's start: the media timestamp of the content the comparison matches.
    private struct Start {
        var uri: String
        var record: SegmentRecord
        var start: Double
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let measured = stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }
        guard measured.count > 1 else { return [] }
        let playlists = measured.compactMap { measurement in
            stream.loaded.mediaPlaylists[measurement.playlistURI]?.media.map { (measurement, $0) }
        }
        // VOD: every playlist holds the whole presentation, so their first segments hold the
        // same content and start at the same media timestamp.
        if playlists.count == measured.count, playlists.allSatisfy({ $0.1.endList }) {
            let starts = playlists.compactMap { measurement, _ -> Start? in
                guard let first = measurement.records.first, first.isInspected, let start = first.firstPTS else {
                    return nil
                }
                return Start(uri: measurement.playlistURI, record: first, start: start)
            }
            return Self.report(starts) { start, offset, others, reference in
                "the first segment, \(start.record.uri), starts at \(seconds(start.start)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the \(others) other playlist\(others == 1 ? "" : "s") of this VOD stream (\(seconds(reference)) s): the first segment of every media playlist must start at the same media timestamp, or its media plays out of sync with the others; cut or pad it to start with them"
            }
        }
        // Live or event: windows start at different places and sequence numbers may differ
        // between playlists; a date is what names the same content in each.
        var dated: [(uri: String, byDate: [Int: (SegmentRecord, Double)])] = []
        for (measurement, media) in playlists {
            var dates: [Int: Double] = [:]  // media sequence number -> date
            var next: Double?
            for segment in media.segments {
                let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) ?? next
                if let date { dates[segment.mediaSequence] = date }
                next = date.map { $0 + segment.duration }
            }
            var byDate: [Int: (SegmentRecord, Double)] = [:]
            for record in measurement.inspectedRecords {
                guard let start = record.firstPTS, let date = dates[record.mediaSequence] else { continue }
                byDate[Int((date * 1000).rounded())] = (record, start)
            }
            if !byDate.isEmpty { dated.append((measurement.playlistURI, byDate)) }
        }
        guard dated.count > 1 else { return [] }
        // The earliest date every dated playlist has a segment for.
        let common = dated.dropFirst().reduce(Set(dated[0].byDate.keys)) { $0.intersection($1.byDate.keys) }
        guard let date = common.min() else { return [] }
        let starts = dated.compactMap { uri, byDate in byDate[date].map { Start(uri: uri, record: $0.0, start: $0.1) } }
        return Self.report(starts) { start, offset, others, reference in
            "segment \(start.record.uri) starts at \(seconds(start.start)) s, \(seconds(abs(offset))) s \(offset < 0 ? "before" : "after") the segments of the same EXT-X-PROGRAM-DATE-TIME in the \(others) other playlist\(others == 1 ? "" : "s") of this stream (\(seconds(reference)) s): the same content must have the same timestamps in every variant, or players switching to it jump in time"
        }
    }

    /// A finding for each start more than `tolerance` from the one most playlists agree on (the
    /// earliest such in a tie).
    private static func report(_ starts: [Start], message: (Start, Double, Int, Double) -> String) -> [Finding] {
        guard starts.count > 1 else { return [] }
        let agreeing = starts.map { candidate in
            (candidate.start, starts.filter { abs($0.start - candidate.start) <= tolerance }.count)
        }
        guard let reference = agreeing.max(by: { ($0.1, -$0.0) < ($1.1, -$1.0) })?.0 else { return [] }
        let others = starts.filter { abs($0.start - reference) <= tolerance }.count
        return starts.compactMap { start in
            let offset = start.start - reference
            guard abs(offset) > tolerance else { return nil }
            return Finding(
                message(start, offset, others, reference), at: SourceLocation(uri: start.uri, line: start.record.line))
        }
    }
}

/// Media playlists of one stream that declare different target durations.
package struct TargetDurationInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "target-duration-inconsistent", name: "Target durations differ between variants", defaultSeverity: .error,
        summary:
            "The media playlists of the variants and renditions of one stream declare different EXT-X-TARGETDURATION values.",
        rationale:
            "RFC 8216 §6.2.4: each Media Playlist in each Variant Stream MUST have the same target duration; only SUBTITLES renditions and I-frame playlists of VOD streams are exempt. A live player reloads every playlist it plays at the pace of its target duration: a live subtitle or I-frame playlist with another one falls out of step.",
        specItems: [
            .bis(
                "6.2.4", rfc: "6.2.4", .must,
                "Every media playlist of every variant stream has the same target duration; only subtitle and I-frame playlists of VOD may differ."
            ),
            .apple("8.2", .must, "Audio and video playlists all use the same target duration."),
            .apple(
                "5.6", .must, "For live content, subtitle playlists have the same target duration as the other media."),
            .apple(
                "6.11", .must, "For live content, I-frame playlists have the same target duration as the other media."),
        ],
        triggering: [
            RuleExample(
                "audio at 6 s, video at 10 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant + Examples.audioVariant(),
                    "video.m3u8": Examples.media([10, 10], target: 10),
                    "audio.m3u8": Examples.media([6, 6], target: 6),
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 10 s here, 6 s in the other playlists"),
            RuleExample(
                "live subtitles at 30 s, live video at 6 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.subtitles + Examples.subtitledVariant,
                    "video.m3u8": Examples.live([6, 6], target: 6),
                    "subs.m3u8": Examples.live([30], target: 30),
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 30 s here, 6 s in the other playlists"),
            RuleExample(
                "live I-frame playlist at 10 s, live video at 6 s",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant + Examples.iFrameStream(),
                    "video.m3u8": Examples.live([6, 6], target: 6),
                    "iframes.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:6,\n#EXT-X-BYTERANGE:5000@0\nseg0.ts\n",
                ]
            ).expecting(line: 3, "EXT-X-TARGETDURATION is 10 s here, 6 s in the other playlists"),
        ],
        nonTriggering: [
            RuleExample(
                "every playlist at 6 s", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())),
            RuleExample("a single media playlist", files: ["master.m3u8": Examples.media()]),
            RuleExample(
                "VOD subtitles at 30 s",
                files: Examples.stream(Examples.subtitles, Examples.subtitledVariant)
                    .merging(["subs.m3u8": Examples.media([30], target: 30)]) { $1 }),
            RuleExample(
                "VOD I-frame playlist at 10 s",
                files: Examples.stream(Examples.videoVariant, Examples.iFrameStream())
                    .merging([
                        "iframes.m3u8": Examples.iFrameMedia.replacing("TARGETDURATION:6", with: "TARGETDURATION:10")
                    ]) { $1 }),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var declared: [(uri: String, target: Int, line: Int)] = []
        var seen: Set<String> = []
        func add(_ uri: String, _ playlist: MediaPlaylist?) {
            guard let playlist, let target = playlist.targetDuration, seen.insert(uri).inserted else { return }
            declared.append((uri, target, playlist.targetDurationLine ?? 1))
        }
        // Each group once: its variants share one rendition list.
        var groupsSeen: Set<String> = []
        for variant in stream.variants {
            add(variant.playlistURI, variant.playlist)
            let groups = [
                ("AUDIO", variant.stream?.audioGroup, variant.audioRenditions),
                ("VIDEO", variant.stream?.videoGroup, variant.videoRenditions),
            ]
            for (kind, group, renditions) in groups {
                guard let group, groupsSeen.insert(kind + "/" + group).inserted else { continue }
                for rendition in renditions {
                    if let uri = rendition.playlistURI { add(uri, rendition.playlist) }
                }
            }
        }
        // Subtitle renditions and I-frame playlists may differ only in VOD (bis-22 §6.2.4, AS 5.6,
        // AS 6.11): a live one is held to the same target duration. A playlist that has
        // EXT-X-ENDLIST will not change either, so it counts as VOD here (playlist-type-missing
        // asks for the tag where Apple requires it).
        let mains = declared.count
        if let master = stream.multivariant {
            func isLive(_ media: MediaPlaylist) -> Bool { media.playlistType != .vod && !media.endList }
            for rendition in master.renditions where rendition.type == .subtitles {
                guard let uri = stream.loaded.resolvedURI(of: rendition),
                    let media = stream.loaded.playlist(for: rendition)?.media,
                    isLive(media)
                else { continue }
                add(uri, media)
            }
            for iFrame in master.iFrameVariants {
                guard let media = stream.loaded.playlist(for: iFrame)?.media, isLive(media) else { continue }
                add(stream.loaded.resolvedURI(of: iFrame), media)
            }
        }
        guard Set(declared.map(\.target)).count > 1 else { return [] }
        // The value most playlists declare (the smaller in a tie) is the reference: of the
        // variants and their audio and video renditions when there are any, whatever the number
        // of subtitle and I-frame playlists.
        let counts = Dictionary(
            (mains > 0 ? declared.prefix(mains) : declared[...]).map { ($0.target, 1) }, uniquingKeysWith: +)
        guard let reference = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return [] }
        return declared.filter { $0.target != reference }.map { uri, target, line in
            Finding(
                "EXT-X-TARGETDURATION is \(target) s here, \(reference) s in the other playlists of this stream: every variant and rendition must use the same target duration",
                at: SourceLocation(uri: uri, line: line))
        }
    }
}

public import MediaFormats
public import HLSPlaylist
public import MediaInspection

/// What one segment turned out to hold, kept small so a ten-hour stream stays cheap.
public struct SegmentRecord: Sendable, Hashable {
    /// The segment URI as written in its media playlist.
    public var uri: String
    /// Where to point a finding about this segment: its EXTINF line, else its URI line.
    public var line: Int
    public var extinf: Double
    public var bytes: Int
    public var container: SegmentContainer?
    /// Duration from packet timestamps, nil when it could not be measured.
    public var measuredDuration: Double?
    public var codecs: [String]
    public var hasAudio: Bool
    public var hasVideo: Bool
    public var videoResolution: Resolution?
    /// The first APIC picture of the segment, nil when it carries none.
    public var artwork: ArtworkFacts?
    /// Bytes of poster image in the segment (the APIC pictures; their few header bytes aside).
    public var artworkOverhead: Int
    /// Packed audio only: whether the segment starts with the PRIV timestamp tag (RFC 8216 §3.4).
    public var startsWithTimestampTag: Bool
    /// Why the segment could not be read or demuxed; nil when fine.
    public var problem: String?
    /// Encrypted segments are counted (bytes) but not demuxed.
    public var encrypted: Bool
    /// Timeline and integrity facts (docs/measurement.md, "Timelines"): the media sequence number,
    /// whether EXT-X-DISCONTINUITY precedes the segment, its earliest timestamp in seconds, the
    /// TS continuity counters, and how its video starts.
    public var mediaSequence: Int = 0
    public var discontinuity: Bool = false
    public var firstPTS: Double?
    public var continuity: TransportStreamContinuity?
    public var videoStartsWithKeyframe: Bool?
    public var keyframeHasParameterSets: Bool?
}

/// The measurement of one media playlist's segments (docs/measurement.md).
public struct PlaylistMeasurement: Sendable, Hashable {
    public var playlistURI: String
    public var records: [SegmentRecord]
    public var peakBitrate: Int?
    public var averageBitrate: Int?
    /// The peak the same segments would have without their poster.
    public var peakBitrateWithoutArtwork: Int?
    /// The largest poster, in bytes, that every segment could carry within the budget.
    public var maxArtworkBytesWithinBudget: Int?

    public init(playlistURI: String, playlist: MediaPlaylist, records: [SegmentRecord], budget: Int) {
        self.playlistURI = playlistURI
        self.records = records
        let target = playlist.targetDuration ?? Self.fallbackTargetDuration(records.map(\.extinf))
        let withArtwork = records.map { BitrateWindow.Segment(bytes: $0.bytes, duration: $0.extinf) }
        let without = records.map {
            BitrateWindow.Segment(bytes: $0.bytes - $0.artworkOverhead, duration: $0.extinf)
        }
        peakBitrate = BitrateWindow.peak(withArtwork, targetDuration: target)
        averageBitrate = BitrateWindow.average(withArtwork)
        peakBitrateWithoutArtwork = BitrateWindow.peak(without, targetDuration: target)
        maxArtworkBytesWithinBudget = BitrateWindow.largestAdditionWithin(budget, without, targetDuration: target)
    }

    /// Without EXT-X-TARGETDURATION, the longest EXTINF rounded up; 1 when there is none. Never
    /// traps: a non-finite or huge EXTINF (which the parser already refused) is ignored.
    static func fallbackTargetDuration(_ durations: [Double]) -> Int {
        let usable = durations.filter { $0.isFinite && $0 > 0 && $0 <= Double(ValueLimits.maximumTargetDuration) }
        return usable.max().map { Int($0.rounded(.up)) } ?? 1
    }

    /// RFC 6381 strings seen in the segments, sorted.
    public var codecs: [String] { Array(Set(records.flatMap(\.codecs))).sorted() }
    public var containsVideo: Bool { records.contains(where: \.hasVideo) }
    public var containsAudio: Bool { records.contains(where: \.hasAudio) }
    /// Segments that were demuxed (not encrypted, not broken).
    public var inspectedRecords: [SegmentRecord] { records.filter { !$0.encrypted && $0.problem == nil } }
}

/// Reads and inspects the segments of media playlists, with bounded concurrency.
struct MediaMeasurer: Sendable {
    var inspector: SegmentInspector
    var budget: Int
    var maxConcurrent: Int

    func measure(_ playlist: MediaPlaylist, at playlistURI: String) async -> PlaylistMeasurement {
        let segments = playlist.segments.filter { !$0.gap }
        let requests = segments.enumerated().map { index, segment in
            SegmentRequest(
                uri: URIResolver.resolve(segment.uri, against: playlistURI),
                range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) },
                initSection: segment.map.map {
                    SegmentRequest.InitSection(
                        uri: URIResolver.resolve($0.uri, against: playlistURI),
                        range: $0.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) })
                },
                // Codec parameters (profile, sample rate, channels) come from the first segment.
                wantsStreamInfo: index == 0)
        }
        let outcomes = await inspector.inspectAll(requests, maxConcurrent: maxConcurrent)
        let records = zip(segments, outcomes).map { segment, outcome in
            record(segment, outcome)
        }
        return PlaylistMeasurement(playlistURI: playlistURI, playlist: playlist, records: records, budget: budget)
    }

    private func record(_ segment: MediaSegment, _ outcome: Result<SegmentFacts, any Error>) -> SegmentRecord {
        var record = SegmentRecord(
            uri: segment.uri, line: segment.extinfLine ?? segment.uriLine, extinf: segment.duration, bytes: 0,
            codecs: [], hasAudio: false, hasVideo: false, artworkOverhead: 0, startsWithTimestampTag: false,
            encrypted: segment.key?.isEncrypting ?? false, mediaSequence: segment.mediaSequence,
            discontinuity: segment.discontinuity)
        switch outcome {
        case .failure(let error):
            // The record is located at its segment already: the reason alone, not the URI again.
            record.problem = (error as? SegmentReadError)?.reason ?? "cannot be read"
        case .success(let facts):
            record.bytes = facts.byteCount
            record.container = facts.container
            // An encrypted segment's bytes count for bit rate; its content cannot be demuxed.
            guard !record.encrypted else { break }
            record.problem = facts.problem
            record.measuredDuration = facts.duration
            record.codecs = facts.codecStrings
            record.hasAudio = facts.tracks.contains { $0.kind == .audio }
            let video = facts.tracks.first { $0.kind == .video }
            record.hasVideo = video != nil
            if let width = video?.width, let height = video?.height, width > 0, height > 0 {
                record.videoResolution = Resolution(width: width, height: height)
            }
            record.artwork = facts.artwork.first
            record.artworkOverhead = facts.id3.reduce(0) { total, tag in
                total + tag.frames.filter { $0.id == "APIC" }.reduce(0) { $0 + $1.byteCount }
            }
            record.startsWithTimestampTag = facts.startsWithTimestampTag
            record.firstPTS = facts.firstPTS
            record.continuity = facts.continuity
            record.videoStartsWithKeyframe = facts.videoStartsWithKeyframe
            record.keyframeHasParameterSets = facts.keyframeHasParameterSets
        }
        return record
    }
}

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
        let target = playlist.targetDuration ?? Int(saturating: records.map(\.extinf).max()?.rounded(.up) ?? 1)
        let withArtwork = records.map { BitrateWindow.Segment(bytes: $0.bytes, duration: $0.extinf) }
        let without = records.map {
            BitrateWindow.Segment(bytes: $0.bytes - $0.artworkOverhead, duration: $0.extinf)
        }
        peakBitrate = BitrateWindow.peak(withArtwork, targetDuration: target)
        averageBitrate = BitrateWindow.average(withArtwork)
        peakBitrateWithoutArtwork = BitrateWindow.peak(without, targetDuration: target)
        maxArtworkBytesWithinBudget = BitrateWindow.largestAdditionWithin(budget, without, targetDuration: target)
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
            encrypted: segment.key?.isEncrypting ?? false)
        switch outcome {
        case .failure(let error):
            record.problem = "\(error)"
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
        }
        return record
    }
}

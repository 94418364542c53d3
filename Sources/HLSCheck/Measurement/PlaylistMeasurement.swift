package import MediaFormats
package import HLSPlaylist
package import MediaInspection
import StreamSources

/// What one segment turned out to hold, kept small so a ten-hour stream stays cheap.
package struct SegmentRecord: Sendable, Hashable {
    /// The segment URI as written in its media playlist.
    package var uri: String
    /// Where to point a finding about this segment: its EXTINF line, else its URI line.
    package var line: Int
    /// EXTINF duration in seconds.
    package var extinf: Double
    /// Bytes of the segment (or of its byte range) as read, without the EXT-X-MAP init section; 0
    /// when it could not be read.
    package var bytes: Int
    /// The container it was demuxed as; nil when unread or when its encrypted content was not inspected.
    package var container: SegmentContainer?
    /// Duration from packet timestamps, nil when it could not be measured.
    package var measuredDuration: Double?
    /// RFC 6381 codec strings of its tracks, in track order.
    package var codecs: [String]
    /// Whether it has an audio track.
    package var hasAudio: Bool
    /// Whether it has a video track.
    package var hasVideo: Bool
    /// The video track's size in pixels, nil without video or when unknown.
    package var videoResolution: Resolution?
    /// The video track's frames per second, as exact as its timestamps say (TrackFacts.frameRate:
    /// 25, 29.97002997…; rounded to three decimals only where FRAME-RATE is written), nil
    /// without video or without timestamps.
    package var videoFrameRate: Double?
    /// The first APIC picture of the segment, nil when it carries none.
    package var artwork: PictureFacts?
    /// Bytes the poster costs the segment: its APIC frame(s), and for MPEG-TS the transport
    /// packets of the timed-ID3 PES they need (PosterBudget). 0 without a poster.
    package var posterOverhead: Int
    /// Where `hlscheck embed` would put a poster in this segment.
    package var posterLayout: PosterBudget.Layout = .inExistingTag
    /// Packed audio only: whether the segment starts with the PRIV timestamp tag (RFC 8216 §3.4).
    package var startsWithTimestampTag: Bool
    /// Why the segment could not be read or demuxed; nil when fine.
    package var problem: String?
    /// Encrypted (EXT-X-KEY METHOD other than NONE). Its bytes count for bit rate — they are
    /// what a client downloads — but its content is known only when it was decrypted.
    package var encrypted: Bool
    /// Timeline and integrity facts (docs/measurement.md, "Timelines"): the media sequence number,
    /// whether EXT-X-DISCONTINUITY precedes the segment, its earliest timestamp in seconds, the
    /// TS continuity counters, and how its video starts.
    package var mediaSequence: Int = 0
    /// Preceded by `#EXT-X-DISCONTINUITY`.
    package var discontinuity: Bool = false
    /// Earliest presentation timestamp in seconds, nil when unknown.
    package var firstPTS: Double?
    /// MPEG-TS continuity counters, nil for other containers.
    package var continuity: TransportStreamContinuity?
    /// Whether the first video packet is a keyframe; nil without video.
    package var videoStartsWithKeyframe: Bool?
    /// Whether the first keyframe is preceded by its parameter sets; nil when they live in the init section or without such video.
    package var keyframeHasParameterSets: Bool?
    /// An AES-128 segment decrypted with its key (RFC 8216 §5.2): its content was inspected.
    package var decrypted: Bool = false
    /// Why an encrypted segment's content could not be inspected (no reachable key, a method
    /// hlscheck does not decrypt); nil otherwise.
    package var hiddenContentReason: String?
    /// With `--decode`: what decoding each audio and video track found; nil when not decoded.
    package var decoding: [TrackDecodeFacts]?
    /// The format of each audio and video track, in track order (codec, channels, colour, field
    /// coding): what the media format rules judge. Empty when the content was not inspected.
    package var trackFormats: [TrackFormat] = []

    /// The first audio track's sample rate in Hz, nil without audio or when unknown.
    package var audioSampleRate: Int?
    /// The container ids of the audio and video tracks (PID, track_ID), parallel to
    /// `trackFormats`; nil where the container gives none.
    package var trackIDs: [Int?] = []
    /// The segment's timing track — its first video track, else its first audio track — whose
    /// frames set what "within one frame" means (AS 8.1): its duration from packet timestamps,
    /// and the duration of one of its frames (its duration over its packets, to the
    /// microsecond). Nil when unknown.
    package var timingDuration: Double?
    /// See `timingDuration`.
    package var frameDuration: Double?
    /// The timing track's earliest presentation timestamp in seconds (packed audio: the
    /// segment's ID3 PRIV timestamp), nil when unknown.
    package var timingStart: Double?
    /// fMP4 only: each audio and video track's decode times in its timescale, in track order
    /// (empty for other containers or when unknown).
    package var decodeSpans: [DecodeSpan] = []

    /// Left unread by `--sample N`: neither measured nor inspected, and no problem either.
    package var sampledOut: Bool = false

    /// Its bytes were read whole: it counts for peak and average bit rate.
    package var isMeasured: Bool { problem == nil && !sampledOut }
    /// Its content was demuxed: codecs, poster and duration are known.
    package var isInspected: Bool { isMeasured && (!encrypted || decrypted) }
}

/// Where one track's fragment sits on its decode timeline: the first decode time and the end
/// of the last sample (decode time plus duration), in `timeScale` units a second.
package struct DecodeSpan: Sendable, Hashable {
    /// The track's container id (ISO BMFF track_ID).
    package var trackID: Int
    /// Units a second (the track's timescale).
    package var timeScale: Int
    /// The first sample's decode time (the fragment's tfdt).
    package var start: Int64
    /// The last sample's decode time plus its duration.
    package var end: Int64

    /// Makes a span.
    package init(trackID: Int, timeScale: Int, start: Int64, end: Int64) {
        self.trackID = trackID
        self.timeScale = timeScale
        self.start = start
        self.end = end
    }
}

/// The measurement of one media playlist's segments (docs/measurement.md).
package struct PlaylistMeasurement: Sendable, Hashable {
    /// The resolved URI of the media playlist.
    package var playlistURI: String
    /// One record per media segment (EXT-X-GAP segments left out), in playlist order; stored
    /// compactly and made on access (SegmentRecords).
    package private(set) var records: SegmentRecords
    /// EXT-X-TARGETDURATION (or the longest EXTINF rounded up without it): the peak's window.
    package var targetDuration: Int
    /// Peak segment bit rate (RFC 8216 §4.3.4.2) in bit/s over the measured segments, poster included; nil without duration.
    package var peakBitrate: Int?
    /// Average bit rate in bit/s over the measured segments; nil without duration.
    package var averageBitrate: Int?
    /// The peak the same segments would have without their poster.
    package var peakBitrateWithoutPoster: Int?

    /// Measures `records`, the segments of `playlist` in playlist order; the peak window is
    /// `targetDuration`.
    package init(playlistURI: String, playlist: MediaPlaylist, records: SegmentRecords) {
        self.playlistURI = playlistURI
        self.records = records
        // Each pass reads the few facts it needs of every record, not whole records.
        let summaries = records.indices.lazy.map(records.summary(at:))
        let target = playlist.targetDuration ?? Self.fallbackTargetDuration(summaries.map(\.extinf))
        targetDuration = target
        // An unreadable segment is a hole, not 0 bytes (docs/measurement.md, "Unmeasurable").
        (peakBitrate, averageBitrate) = Self.bitrates(
            summaries.map { BitrateWindow.Segment(bytes: $0.bytes, duration: $0.extinf, measured: $0.isMeasured) },
            targetDuration: target)
        // The poster's share is known only where the content is: an encrypted segment whose key
        // is out of reach may hold one.
        peakBitrateWithoutPoster =
            Self.bitrates(
                summaries.map {
                    BitrateWindow.Segment(
                        bytes: $0.bytes - $0.posterOverhead, duration: $0.extinf, measured: $0.isInspected)
                },
                targetDuration: target
            ).peak
        // Facts every variant asks for, found in one pass.
        var measured = 0, inspected = 0
        for record in summaries {
            // Measured for the bit rate: read, and with an EXTINF to divide by (BitrateWindow).
            if BitrateWindow.Segment(bytes: record.bytes, duration: record.extinf, measured: record.isMeasured).counts {
                measured += 1
            }
            if record.isInspected { inspected += 1 }
            containsVideo = containsVideo || record.hasVideo
            if record.isInspected, let rate = record.videoFrameRate {
                measuredFrameRate = max(measuredFrameRate ?? 0, rate)
            }
            containsAudio = containsAudio || record.hasAudio
        }
        measuredSegmentCount = measured
        isComplete = inspected == records.count
        hasInspectedSegments = inspected > 0
        codecs = records.distinctCodecs
    }

    /// Peak and average of `segments` (one array alive at a time: they are long for a long playlist).
    private static func bitrates(_ segments: [BitrateWindow.Segment], targetDuration: Int) -> (
        peak: Int?, average: Int?
    ) {
        (BitrateWindow.peak(segments, targetDuration: targetDuration), BitrateWindow.average(segments))
    }

    /// Without EXT-X-TARGETDURATION, the longest EXTINF rounded up; 1 when there is none. Never
    /// traps: a non-finite or huge EXTINF (which the parser already refused) is ignored.
    static func fallbackTargetDuration(_ durations: some Sequence<Double>) -> Int {
        let usable = durations.filter { $0.isFinite && $0 > 0 && $0 <= Double(ValueLimits.maximumTargetDuration) }
        return usable.max().map { Int($0.rounded(.up)) } ?? 1
    }

    /// Segments that count for the bit rate: their bytes read whole, and an EXTINF above 0 to
    /// divide them by (a rejected EXTINF is left at 0: docs/measurement.md, "Unmeasurable").
    package private(set) var measuredSegmentCount = 0
    /// Whether every segment was measured and inspected: only then do rules give numeric advice.
    package private(set) var isComplete = true

    /// RFC 6381 strings seen in the segments, sorted.
    package private(set) var codecs: [String] = []
    /// Whether any segment holds video / audio, and whether any was inspected at all: computed
    /// once, since rules ask for every variant.
    package private(set) var containsVideo = false
    /// The highest video frame rate of the inspected segments, frames per second; nil without
    /// video. FRAME-RATE declares the maximum frame rate of the variant (bis-22 §4.4.6.2).
    package private(set) var measuredFrameRate: Double?
    /// Whether any inspected segment holds audio.
    package private(set) var containsAudio = false
    /// Whether any segment was inspected at all.
    package private(set) var hasInspectedSegments = false
    /// The index of the final runt among `records`, when the playlist ends in one
    /// (`BitrateWindow.isFinalRunt`): it may go without the poster.
    package var finalRuntIndex: Int? {
        // The EXTINF is the playlist's: read from the segment, without making its record.
        guard let last = records.indices.last,
            BitrateWindow.isFinalRunt(
                duration: records.segment(at: last).duration, count: records.count, targetDuration: targetDuration)
        else { return nil }
        return last
    }
    /// Segments that were demuxed (readable, and not encrypted or decrypted), made as they are read.
    package var inspectedRecords: LazyFilterSequence<SegmentRecords> { records.lazy.filter(\.isInspected) }
}

/// Reads and inspects the segments of media playlists, with bounded concurrency.
struct MediaMeasurer: Sendable {
    var inspector: SegmentInspector
    var maxConcurrent: Int
    /// Decode every frame too (`--decode`).
    var decode = false
    /// The run-wide bound shared with other streams checked at the same time, if any.
    var slots: SegmentSlots?
    /// `--sample N`: read only N segments of each playlist, spread evenly (first and last included).
    var sample: Int?
    /// Records the caller vouches for (`Checker.knownSegments`), taken instead of reading those
    /// segments; never for a segment outside the stream's root (`refused`).
    var known: KnownSegments?
    /// Resolved URIs the inspector refuses (outside the stream's root): never taken from `known`.
    var refused: Set<String> = []

    /// The indices of `count` segments that `--sample` reads: evenly spread, first and last included.
    static func sampledIndices(count: Int, sample: Int?) -> Set<Int> {
        guard let sample, sample < count else { return Set(0..<count) }
        guard sample > 1 else { return sample == 1 ? [0] : [] }
        return Set((0..<sample).map { $0 * (count - 1) / (sample - 1) })
    }

    /// Segments inspected per batch: each batch's facts are folded into the compact records
    /// before the next is read, so a long playlist never holds more than this many
    /// `SegmentFacts` at once; large enough that the wait for a batch's last segment
    /// costs nothing measurable.
    static let batchSize = 128

    /// Batches whose segments a network source is told about at once (`readingAhead`): it
    /// fetches up to this many batches ahead of the inspector, so that its requests go on while
    /// a batch's last segments are inspected, and while FFmpeg loads. Their requests
    /// are all that is held for them until their turn: memory stays flat in the stream's length.
    static let batchesPlannedTogether = 4

    /// Records of the segments read lately, shared by every playlist this measurer measures (and
    /// by the live watch, which measures through a copy): a segment listed again is not read again.
    var cache = SegmentFactsCache()

    /// One batch: the segments read, the records known instead, and where it ends.
    private struct Batch {
        var indices: [Int]
        var end: Int
        var reused: [Int: SegmentRecord]
        var requests: [SegmentRequest]
        /// What makes the segment of each request the same as another line's (SegmentFactsCache).
        var keys: [SegmentFactsCache.Key]
    }

    /// `base`: where the playlist was found (after redirects), when not at `playlistURI`.
    func measure(_ playlist: MediaPlaylist, at playlistURI: String, base: String? = nil) async -> PlaylistMeasurement {
        let base = base ?? playlistURI
        var records = SegmentRecords(playlist.segments)
        let count = records.capacity
        let chosen = sample.map { Self.sampledIndices(count: count, sample: $0) }
        let knownRecords = known?.records(ofPlaylistAt: playlistURI)
        var start = 0
        while start < count {
            var batchStart = start
            var planned: [Batch] = []
            while start < count, planned.count < Self.batchesPlannedTogether {
                // The next batch: up to `batchSize` segments to read, and those `--sample` skips between.
                var batch: [Int] = []
                var end = start
                while end < count, batch.count < Self.batchSize {
                    if chosen?.contains(end) ?? true { batch.append(end) }
                    end += 1
                }
                // Segments whose records the caller knows are not read (KnownSegments). A URI is
                // resolved only when some are refused: resolving costs more than taking the record.
                var reused: [Int: SegmentRecord] = [:]
                if let knownRecords {
                    batch = batch.filter { index in
                        guard index < knownRecords.count,
                            let record = knownRecords[index]?.measured(as: records.segment(at: index)),
                            refused.isEmpty || !refused.contains(URIResolver.resolve(record.uri, against: base))
                        else { return true }
                        reused[index] = record
                        return false
                    }
                }
                // Codec parameters (profile, sample rate, channels) come from the first segment.
                let requests = batch.map { request(records.segment(at: $0), at: base, wantsStreamInfo: $0 == 0) }
                let keys = zip(batch, requests).map {
                    SegmentFactsCache.Key($1, keyMethod: records.segment(at: $0).key?.method)
                }
                planned.append(Batch(indices: batch, end: end, reused: reused, requests: requests, keys: keys))
                start = end
            }
            // A network source fetches the planned batches ahead of their inspection:
            // each distinct segment once, and none whose record is kept (SegmentFactsCache).
            let ahead = await readAheadPlan(planned)
            await inspector.source.readingAhead(ahead) { source in
                for batch in planned {
                    let measured = await measure(batch, of: records, at: playlistURI, from: source)
                    var next = 0
                    for index in batchStart..<batch.end {
                        let segment = records.segment(at: index)
                        if let record = batch.reused[index] {
                            records.append(record)
                        } else if next < batch.indices.count, batch.indices[next] == index {
                            records.append(measured[next])
                            next += 1
                        } else {
                            // Left unread by `--sample`: neither measured nor a problem.
                            var skipped = SegmentRecords.playlistPart(of: segment)
                            skipped.sampledOut = true
                            records.append(skipped)
                        }
                    }
                    batchStart = batch.end
                }
            }
        }
        return PlaylistMeasurement(playlistURI: playlistURI, playlist: playlist, records: records)
    }

    /// The requests the planned batches will read, in order: the first line of each distinct
    /// segment, and none the cache keeps a record of.
    private func readAheadPlan(_ planned: [Batch]) async -> [SegmentRequest] {
        let keys = planned.flatMap(\.keys)
        let kept = await cache.kept(keys)
        var seen: Set<SegmentFactsCache.Key> = []
        return zip(planned.flatMap(\.requests), zip(keys, kept)).compactMap { request, entry in
            // A refused segment is never read, so never fetched ahead either.
            request.refusal == nil && !entry.1 && seen.insert(entry.0).inserted ? request : nil
        }
    }

    /// The records of one batch's segments (`batch.indices`, in order): each distinct segment
    /// request read once (with the stream-info pass when any of its lines asks for it), or not at
    /// all when the cache keeps its record; every line that lists it gets the same facts.
    private func measure(
        _ batch: Batch, of records: SegmentRecords, at playlistURI: String, from source: any SegmentByteSource
    ) async -> [SegmentRecord] {
        guard !batch.requests.isEmpty else { return [] }
        let kept = await cache.records(for: batch.keys, wantsStreamInfo: batch.requests.map(\.wantsStreamInfo))
        var unique: [SegmentRequest] = [], firstLine: [Int] = [],
            readBy = [Int](repeating: -1, count: batch.requests.count)
        var number: [SegmentFactsCache.Key: Int] = [:]
        for position in batch.requests.indices where kept[position] == nil {
            let key = batch.keys[position]
            if let existing = number[key] {
                readBy[position] = existing
                if batch.requests[position].wantsStreamInfo { unique[existing].wantsStreamInfo = true }
            } else {
                number[key] = unique.count
                readBy[position] = unique.count
                unique.append(batch.requests[position])
                firstLine.append(position)
            }
        }
        let outcomes = unique.isEmpty ? [] : await inspect(unique, from: source)
        var read: [SegmentRecord] = [], given: [SegmentRecord] = []
        for (number, outcome) in outcomes.enumerated() {
            let position = firstLine[number]
            let record = record(
                records.segment(at: batch.indices[position]), outcome, initSection: unique[number].initSection?.uri)
            read.append(record)
            given.append(
                await cache.store(
                    batch.keys[position], record: record, fingerprint: SegmentFactsCache.fingerprint(outcome),
                    withStreamInfo: unique[number].wantsStreamInfo, playlistURI: playlistURI))
        }
        return batch.requests.indices.map { position in
            let segment = records.segment(at: batch.indices[position])
            if let record = kept[position] { return record.relisted(as: segment) }
            let number = readBy[position]
            return firstLine[number] == position ? given[number] : read[number].relisted(as: segment)
        }
    }

    /// Inspects one batch through `source`, within the run's shared slots when there are any.
    /// Outcomes in input order.
    func inspect(_ requests: [SegmentRequest], from source: any SegmentByteSource) async -> [Result<
        SegmentFacts, any Error
    >] {
        let inspector = inspector.reading(from: source)
        if let slots {
            return await Self.inspectAll(requests, inspector: inspector, maxConcurrent: maxConcurrent, slots: slots)
        }
        return await inspector.inspectAll(requests, maxConcurrent: maxConcurrent)
    }

    /// `SegmentInspector.inspectAll`, each inspection also holding one of the run's shared slots:
    /// at most `maxConcurrent` of this playlist's segments in flight, and at most
    /// `slots.capacity` over every stream of the run. Outcomes in input order.
    static func inspectAll(
        _ requests: [SegmentRequest], inspector: SegmentInspector, maxConcurrent: Int, slots: SegmentSlots
    ) async -> [Result<SegmentFacts, any Error>] {
        let limit = max(1, maxConcurrent)
        var results = [Result<SegmentFacts, any Error>?](repeating: nil, count: requests.count)
        // The same shape as SegmentInspector.inspectAll: no nested function captures the group
        // (a release build of Swift 6.3.1 miscompiled that shape).
        await withTaskGroup(of: (Int, Result<SegmentFacts, any Error>).self) { group in
            var next = 0
            while next < min(limit, requests.count) {
                let index = next, request = requests[index]
                group.addTask { await slotted(index, request, inspector: inspector, slots: slots) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < requests.count {
                    let index = next, request = requests[index]
                    group.addTask { await slotted(index, request, inspector: inspector, slots: slots) }
                    next += 1
                }
            }
        }
        return results.map { $0 ?? .failure(InputReadError(uri: "", reason: "not inspected")) }
    }

    private static func slotted(
        _ index: Int, _ request: SegmentRequest, inspector: SegmentInspector, slots: SegmentSlots
    ) async -> (Int, Result<SegmentFacts, any Error>) {
        await slots.acquire()
        let outcome: Result<SegmentFacts, any Error>
        do { outcome = .success(try await inspector.inspect(request)) } catch { outcome = .failure(error) }
        await slots.release()
        return (index, outcome)
    }

    /// What the inspector is asked for one segment of the playlist at `playlistURI`.
    func request(_ segment: MediaSegment, at playlistURI: String, wantsStreamInfo: Bool = false) -> SegmentRequest {
        var request = SegmentRequest(
            uri: URIResolver.resolve(segment.uri, against: playlistURI),
            range: segment.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) },
            initSection: segment.map.map {
                SegmentRequest.InitSection(
                    uri: URIResolver.resolve($0.uri, against: playlistURI),
                    range: $0.byteRange.map { SegmentByteRange(offset: $0.offset, length: $0.length) })
            },
            wantsStreamInfo: wantsStreamInfo,
            decryption: decryption(segment.key, segment: segment, playlistURI: playlistURI),
            wantsDecode: decode)
        if let line = segment.unreadableByteRangeLine {
            request.refusal =
                "its EXT-X-BYTERANGE (line \(line)) could not be read, so which bytes are the segment is unknown: not measured"
        }
        return request
    }

    /// The bytes of every distinct poster (by content hash) in `measurements`, read again from
    /// the first clear segment that carries each: at most `PosterImage.maximumCount`, each at
    /// most `PosterImage.maximumBytes`, and only JPEG/PNG with a readable header.
    func posterImages(_ playlists: [String: MediaPlaylist], _ measurements: [String: PlaylistMeasurement]) async
        -> [String: PosterImage]
    {
        var images: [String: PosterImage] = [:]
        var tried: Set<String> = []
        for (uri, measurement) in measurements.sorted(by: { $0.key < $1.key }) {
            guard playlists[uri] != nil else { continue }
            for (index, record) in measurement.records.enumerated() {
                guard images.count < PosterImage.maximumCount else { return images }
                // The inspector reads clear bytes only: a decrypted segment's poster stays a fact.
                guard let artwork = record.artwork, record.isInspected, !record.encrypted, artwork.decodeProblem == nil,
                    artwork.byteCount <= PosterImage.maximumBytes, tried.insert(artwork.contentHash).inserted
                else { continue }
                let bytes = try? await inspector.pictureBytes(
                    request(measurement.records.segment(at: index), at: uri), contentHash: artwork.contentHash)
                if let bytes, let image = PosterImage(bytes: bytes, contentHash: artwork.contentHash) {
                    images[artwork.contentHash] = image
                }
            }
        }
        return images
    }

    /// AES-128 segments are decrypted when their key can be read (as Apple's validator does);
    /// other methods (SAMPLE-AES, …) encrypt samples inside the container and are not.
    private func decryption(_ key: EncryptionKey?, segment: MediaSegment, playlistURI: String) -> SegmentDecryption? {
        guard let key, key.method == "AES-128", let uri = key.uri else { return nil }
        return SegmentDecryption(
            keyURI: URIResolver.resolve(uri, against: playlistURI),
            iv: key.iv.flatMap { $0.count == 16 ? $0 : nil }
                ?? SegmentDecryption.iv(mediaSequence: segment.mediaSequence))
    }

    /// `initSection`: the resolved URI of the segment's EXT-X-MAP, which the inspector reads too.
    private func record(_ segment: MediaSegment, _ outcome: Result<SegmentFacts, any Error>, initSection: String? = nil)
        -> SegmentRecord
    {
        var record = SegmentRecords.playlistPart(of: segment)
        switch outcome {
        case .failure(let error):
            // The record is located at its segment already: the reason alone, not the URI again,
            // unless what failed was its EXT-X-MAP, which is then named: "segment seg0.m4s: lies
            // outside the stream's root" blamed the segment for its map.
            let failure = error as? InputReadError
            if let failure, let initSection, let map = segment.map, failure.uri == initSection {
                record.problem =
                    "its initialization section (EXT-X-MAP at line \(map.line), \(map.uri)) could not be read: \(failure.reason)"
            } else {
                record.problem = failure?.reason ?? "cannot be read"
            }
        case .success(let facts):
            record.bytes = facts.byteCount
            record.container = facts.container
            switch facts.decryption {
            case .decrypted?:
                record.decrypted = true
            case .keyUnavailable(let reason)?:
                record.hiddenContentReason = reason
            case nil where record.encrypted:
                record.hiddenContentReason =
                    "METHOD=\(segment.key?.method ?? "?") encrypts the samples; hlscheck decrypts AES-128 only"
            case nil:
                break
            }
            // An encrypted segment's bytes count for bit rate; its content only once decrypted
            // (what the demuxer says of ciphertext is no finding).
            guard !record.encrypted || record.decrypted else {
                record.container = nil
                break
            }
            record.problem = facts.problem
            record.measuredDuration = facts.duration
            record.codecs = facts.codecStrings
            record.hasAudio = facts.tracks.contains { $0.kind == .audio }
            let video = facts.tracks.first { $0.kind == .video }
            record.hasVideo = video != nil
            if let width = video?.width, let height = video?.height, width > 0, height > 0 {
                record.videoResolution = Resolution(width: width, height: height)
            }
            record.videoFrameRate = video?.frameRate
            record.artwork = facts.artwork.first
            (record.posterOverhead, record.posterLayout) = Self.posterCost(facts)
            record.startsWithTimestampTag = facts.startsWithTimestampTag
            record.firstPTS = facts.firstPTS
            record.continuity = facts.continuity
            record.videoStartsWithKeyframe = facts.videoStartsWithKeyframe
            record.keyframeHasParameterSets = facts.keyframeHasParameterSets
            record.decoding = facts.decoding
            let tracks = facts.tracks.filter { $0.kind == .audio || $0.kind == .video }
            record.trackFormats = tracks.map(\.format)
            record.trackIDs = tracks.map(\.id)
            record.audioSampleRate = tracks.first { $0.kind == .audio }?.sampleRate
            let timing = video ?? tracks.first { $0.kind == .audio }
            record.timingStart = timing?.startTime ?? (facts.container.isPackedAudio ? facts.firstPTS : nil)
            if let timing, let seconds = timing.duration, seconds > 0 {
                record.timingDuration = seconds
                if timing.packetCount > 0 {
                    record.frameDuration = (seconds / Double(timing.packetCount) * 1_000_000).rounded() / 1_000_000
                }
            }
            if facts.container == .fragmentedMP4 {
                record.decodeSpans = tracks.compactMap { track in
                    guard let id = track.id, let scale = track.decodeTimeScale, let start = track.firstDecodeTime,
                        let end = track.decodeEndTime
                    else { return nil }
                    return DecodeSpan(trackID: id, timeScale: scale, start: start, end: end)
                }
            }
        }
        return record
    }

    /// What the segment's current poster costs it, and where a poster would go, as
    /// `hlscheck embed` lays them out (PosterBudget).
    static func posterCost(_ facts: SegmentFacts) -> (bytes: Int, layout: PosterBudget.Layout) {
        func frameBytes(_ frames: [ID3FrameFacts]) -> Int {
            frames.reduce(0) { $0 + ($1.frameByteCount ?? $1.byteCount) }
        }
        // The poster is the front cover; other pictures (a back cover) are the segment's own
        // content, which embed keeps: they count as the tag's other frames.
        let holder = facts.id3.first { $0.frames.contains { $0.id == "APIC" } }
        let pictures = frameBytes(holder?.frames.filter(\.isReplacedByPoster) ?? [])
        switch facts.container {
        case .mpegTS:
            // The poster joins the first timed-ID3 tag, or gets a PES of its own.
            guard let tag = holder ?? facts.id3.first else { return (0, .transportStream(otherTagBytes: nil)) }
            let others = tag.frames.filter { !$0.isReplacedByPoster }
            guard !others.isEmpty else {
                return (
                    PosterBudget.transportStreamBytes(tagBytes: 10 + pictures), .transportStream(otherTagBytes: nil)
                )
            }
            let other = 10 + frameBytes(others)
            return (
                PosterBudget.growth(.transportStream(otherTagBytes: other), frameBytes: pictures),
                .transportStream(otherTagBytes: other)
            )
        case .fragmentedMP4:
            guard let tag = holder ?? facts.id3.first else { return (0, .newEventMessage) }
            // An emsg that holds only the poster goes away with it.
            if tag.frames.allSatisfy(\.isReplacedByPoster) {
                return (PosterBudget.growth(.newEventMessage, frameBytes: pictures), .newEventMessage)
            }
            return (pictures, .inExistingTag)
        default:
            return (pictures, .inExistingTag)
        }
    }
}

extension PosterBudget {
    /// The segments of a measurement as the poster arithmetic sees them: a final runt carries
    /// no poster (docs/measurement.md, "Runt segments").
    package static func segments(_ measurement: PlaylistMeasurement) -> [Segment] {
        let runt = measurement.finalRuntIndex
        return measurement.records.enumerated().map { index, record in
            Segment(
                bytesWithoutPoster: record.bytes - record.posterOverhead, duration: record.extinf,
                layout: record.posterLayout,
                measured: record.isMeasured, carriesPoster: index != runt)
        }
    }
}

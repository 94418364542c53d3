package import HLSPlaylist
import MediaFormats
import MediaInspection

/// The segments of one media playlist as measured: one ``SegmentRecord`` per segment (EXT-X-GAP
/// segments left out), in playlist order, made on access from facts stored by column.
///
/// Why columns ("memory flat in stream length"): a check keeps the facts of every
/// segment of every playlist until its rules have run. Kept as an array of `SegmentRecord`s they
/// cost ≈ 2 KB a segment (a 350-byte record, a codec list, continuity edges, strings), 20 MB for
/// a stream of 10 000 segments. Here a segment costs ≈ 70 bytes:
///
/// - what the playlist says (URI, line, EXTINF, media sequence, discontinuity, encryption) is not
///   copied: it is read from the playlist's own segments, shared with the loaded stream;
/// - what every segment measures differently (bytes, measured duration, first timestamp, the
///   timing track's start and duration, a few flags, the TS continuity edges, the fMP4 decode
///   spans) lives in contiguous arrays;
/// - what repeats from segment to segment (container, codec strings, tracks, resolution, poster,
///   poster cost, how the video starts) is stored once per distinct value and referred to by
///   number;
/// - what few segments have (a problem, why encrypted content is hidden, decode results,
///   continuity errors) sits in a side table of the segments that have it, each distinct value once.
///
/// Reading `records[i]` gives back exactly the record that was appended (`SegmentRecordsTests`).
package struct SegmentRecords: RandomAccessCollection, Sendable, Hashable {
    /// The playlist's segments, shared with the playlist (not copied).
    private var segments: [MediaSegment]
    /// Where each record's segment sits in `segments` when some are EXT-X-GAP segments (which
    /// have no record); nil when none is.
    private let positions: [Int32]?
    /// How many records the playlist has room for: its segments other than gaps.
    package let capacity: Int

    // One element per appended record.
    private var byteCounts: [Int] = []
    private var measuredDurations: [Double] = []
    private var firstPTSs: [Double] = []
    private var timingDurations: [Double] = []
    private var timingStarts: [Double] = []
    /// Where each record's decode spans end in `spans` (they start where the previous ones end).
    private var spanEnds: [UInt32] = []
    private var spans: [DecodeSpan] = []
    private var flags: [Flags] = []
    private var contentIndices: [UInt32] = []
    /// Where each record's continuity edges end in `edges` (they start where the previous ones end).
    private var edgeEnds: [UInt32] = []
    private var edges: [TransportStreamContinuity.Edge] = []
    /// The records that have rare facts, in record order, with the number of those facts in `rares`.
    private var rareEntries: [RareEntry] = []

    private var contents = Interner<Content>()
    private var rares = Interner<Rare>()

    /// Room for a record of every segment of `segments` (a media playlist's) that is not an
    /// EXT-X-GAP segment; records are appended in playlist order.
    package init(_ segments: [MediaSegment]) {
        self.segments = segments
        if segments.contains(where: \.gap) {
            let kept = segments.indices.filter { !segments[$0].gap }.map { Int32(truncatingIfNeeded: $0) }
            positions = kept
            capacity = kept.count
        } else {
            positions = nil
            capacity = segments.count
        }
        byteCounts.reserveCapacity(capacity)
        measuredDurations.reserveCapacity(capacity)
        firstPTSs.reserveCapacity(capacity)
        timingDurations.reserveCapacity(capacity)
        timingStarts.reserveCapacity(capacity)
        spanEnds.reserveCapacity(capacity)
        flags.reserveCapacity(capacity)
        contentIndices.reserveCapacity(capacity)
        edgeEnds.reserveCapacity(capacity)
    }

    /// The same records over `segments`: the playlist's segments as an edit leaves them, one for
    /// one (`hlscheck fix` corrects EXTINF values, and measures the bit rates over the corrected
    /// ones). What a record says of the playlist comes from them. Nil when the records are of
    /// other segments than the edit's: a live watch measures every segment it saw over its
    /// reloads, more than the last reload lists.
    package func over(_ segments: [MediaSegment]) -> SegmentRecords? {
        guard segments.count == self.segments.count else { return nil }
        var copy = self
        copy.segments = segments
        return copy
    }

    /// The media segment of record `index` (the playlist's, gaps skipped), appended or not yet.
    package func segment(at index: Int) -> MediaSegment {
        segments[positions.map { Int($0[index]) } ?? index]
    }

    /// Appends the record of the next segment. What the record says of the playlist (URI, line,
    /// EXTINF, media sequence, discontinuity, encryption) must be that segment's
    /// (`playlistPart(of:)`): it is read from the segment, not stored.
    package mutating func append(_ record: SegmentRecord) {
        let index = count
        precondition(index < capacity, "more records than segments")
        precondition(record.describes(segment(at: index)), "a record must describe its own segment")
        byteCounts.append(record.bytes)
        measuredDurations.append(record.measuredDuration ?? 0)
        firstPTSs.append(record.firstPTS ?? 0)
        timingDurations.append(record.timingDuration ?? 0)
        timingStarts.append(record.timingStart ?? 0)
        spans.append(contentsOf: record.decodeSpans)
        spanEnds.append(UInt32(spans.count))
        var flag: Flags = []
        if record.measuredDuration != nil { flag.insert(.hasMeasuredDuration) }
        if record.firstPTS != nil { flag.insert(.hasFirstPTS) }
        if record.timingDuration != nil { flag.insert(.hasTimingDuration) }
        if record.timingStart != nil { flag.insert(.hasTimingStart) }
        if record.continuity != nil { flag.insert(.hasContinuity) }
        if record.sampledOut { flag.insert(.sampledOut) }
        contentIndices.append(contents.index(of: Content(record)))
        let continuity = record.continuity
        edges.append(contentsOf: continuity?.edges ?? [])
        edgeEnds.append(UInt32(edges.count))
        let rare = Rare(record)
        if !rare.isEmpty {
            flag.insert(.hasRare)
            rareEntries.append(RareEntry(record: UInt32(index), rare: rares.index(of: rare)))
        }
        flags.append(flag)
    }

    // MARK: RandomAccessCollection

    package var startIndex: Int { 0 }
    package var endIndex: Int { byteCounts.count }

    package subscript(index: Int) -> SegmentRecord {
        let segment = segment(at: index)
        let flag = flags[index]
        var record = Self.playlistPart(of: segment)
        record.bytes = byteCounts[index]
        record.sampledOut = flag.contains(.sampledOut)
        record.measuredDuration = flag.contains(.hasMeasuredDuration) ? measuredDurations[index] : nil
        record.firstPTS = flag.contains(.hasFirstPTS) ? firstPTSs[index] : nil
        record.timingDuration = flag.contains(.hasTimingDuration) ? timingDurations[index] : nil
        record.timingStart = flag.contains(.hasTimingStart) ? timingStarts[index] : nil
        record.decodeSpans = Array(spans[(index == 0 ? 0 : Int(spanEnds[index - 1]))..<Int(spanEnds[index])])
        contents[contentIndices[index]].fill(&record)
        let rare = flag.contains(.hasRare) ? rareOf(index) : nil
        rare?.fill(&record)
        if flag.contains(.hasContinuity) {
            let start = index == 0 ? 0 : Int(edgeEnds[index - 1])
            record.continuity = TransportStreamContinuity(
                errors: rare?.continuityErrors ?? [], errorCount: rare?.continuityErrorCount ?? 0,
                edges: Array(edges[start..<Int(edgeEnds[index])]))
        }
        return record
    }

    /// The facts of record `index` that the passes of a measurement over every record read
    /// (bit rates, what the playlist holds), taken from the columns: making the whole record
    /// copies every string and list it holds, for each segment of each pass.
    package func summary(at index: Int) -> Summary {
        let segment = segments[positions.map { Int($0[index]) } ?? index]
        let flag = flags[index]
        let content = Int(contentIndices[index])
        // As SegmentRecord.isMeasured and isInspected.
        let isMeasured = !flag.contains(.sampledOut) && (!flag.contains(.hasRare) || rareOf(index)?.problem == nil)
        return Summary(
            extinf: segment.duration, bytes: byteCounts[index], posterOverhead: contents.values[content].posterOverhead,
            isMeasured: isMeasured,
            isInspected: isMeasured && (!(segment.key?.isEncrypting ?? false) || contents.values[content].decrypted),
            hasAudio: contents.values[content].hasAudio, hasVideo: contents.values[content].hasVideo,
            videoFrameRate: contents.values[content].videoFrameRate)
    }

    /// What ``summary(at:)`` reads: each as the record's property of the same name.
    package struct Summary: Sendable, Hashable {
        package var extinf: Double
        package var bytes: Int
        package var posterOverhead: Int
        package var isMeasured: Bool
        package var isInspected: Bool
        package var hasAudio: Bool
        package var hasVideo: Bool
        package var videoFrameRate: Double?
    }

    /// The RFC 6381 strings of the records, each once, sorted.
    var distinctCodecs: [String] { Array(Set(contents.values.flatMap(\.codecs))).sorted() }

    /// The track formats of the records, each distinct list once (in no particular order).
    var distinctTrackFormats: [[TrackFormat]] { Array(Set(contents.values.map(\.trackFormats))) }

    /// The first inspected record one of whose track formats satisfies `matches`.
    func firstInspected(where matches: (TrackFormat) -> Bool) -> SegmentRecord? {
        firstInspected { _, formats in formats.contains(where: matches) }
    }

    /// The first inspected record whose container and track formats satisfy `matches`. They
    /// repeat from segment to segment: the predicate is asked once per distinct pair, and a
    /// record is made only for a segment that matches.
    func firstInspected(whereContent matches: (SegmentContainer?, [TrackFormat]) -> Bool) -> SegmentRecord? {
        var verdicts: [UInt32: Bool] = [:]
        for index in indices {
            let number = contentIndices[index]
            let verdict: Bool
            if let known = verdicts[number] {
                verdict = known
            } else {
                let content = contents[number]
                verdict = matches(content.container, content.trackFormats)
                verdicts[number] = verdict
            }
            if verdict, self[index].isInspected { return self[index] }
        }
        return nil
    }

    /// A record with what the playlist says of `segment`, and nothing measured yet.
    package static func playlistPart(of segment: MediaSegment) -> SegmentRecord {
        SegmentRecord(
            uri: segment.uri, line: segment.extinfLine ?? segment.uriLine, extinf: segment.duration, bytes: 0,
            codecs: [], hasAudio: false, hasVideo: false, posterOverhead: 0, startsWithTimestampTag: false,
            encrypted: segment.key?.isEncrypting ?? false, mediaSequence: segment.mediaSequence,
            discontinuity: segment.discontinuity)
    }

    private func rareOf(_ index: Int) -> Rare? {
        // Appended in record order: a binary search.
        var low = 0, high = rareEntries.count
        while low < high {
            let middle = (low + high) / 2
            if Int(rareEntries[middle].record) < index { low = middle + 1 } else { high = middle }
        }
        guard low < rareEntries.count, Int(rareEntries[low].record) == index else { return nil }
        return rares[rareEntries[low].rare]
    }

    // MARK: Hashable: by the records, whatever the storage

    package static func == (lhs: SegmentRecords, rhs: SegmentRecords) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for record in self { hasher.combine(record) }
    }

    // MARK: Storage

    private struct Flags: OptionSet, Sendable {
        var rawValue: UInt8
        static let hasMeasuredDuration = Flags(rawValue: 1 << 0)
        static let hasFirstPTS = Flags(rawValue: 1 << 1)
        static let hasContinuity = Flags(rawValue: 1 << 2)
        static let sampledOut = Flags(rawValue: 1 << 3)
        static let hasRare = Flags(rawValue: 1 << 4)
        static let hasTimingDuration = Flags(rawValue: 1 << 5)
        static let hasTimingStart = Flags(rawValue: 1 << 6)
    }

    /// What a segment holds, which repeats from one segment to the next of a playlist.
    private struct Content: Hashable, Sendable {
        var container: SegmentContainer?
        var codecs: [String]
        var hasAudio: Bool
        var hasVideo: Bool
        var videoResolution: Resolution?
        var videoFrameRate: Double?
        var artwork: PictureFacts?
        var posterOverhead: Int
        var posterLayout: PosterBudget.Layout
        var startsWithTimestampTag: Bool
        var videoStartsWithKeyframe: Bool?
        var keyframeHasParameterSets: Bool?
        var decrypted: Bool
        var trackFormats: [TrackFormat]
        var trackIDs: [Int?]
        var frameDuration: Double?
        var audioSampleRate: Int?

        init(_ record: SegmentRecord) {
            container = record.container
            trackFormats = record.trackFormats
            trackIDs = record.trackIDs
            frameDuration = record.frameDuration
            audioSampleRate = record.audioSampleRate
            codecs = record.codecs
            hasAudio = record.hasAudio
            hasVideo = record.hasVideo
            videoResolution = record.videoResolution
            videoFrameRate = record.videoFrameRate
            artwork = record.artwork
            posterOverhead = record.posterOverhead
            posterLayout = record.posterLayout
            startsWithTimestampTag = record.startsWithTimestampTag
            videoStartsWithKeyframe = record.videoStartsWithKeyframe
            keyframeHasParameterSets = record.keyframeHasParameterSets
            decrypted = record.decrypted
        }

        func fill(_ record: inout SegmentRecord) {
            record.container = container
            record.trackFormats = trackFormats
            record.trackIDs = trackIDs
            record.frameDuration = frameDuration
            record.audioSampleRate = audioSampleRate
            record.codecs = codecs
            record.hasAudio = hasAudio
            record.hasVideo = hasVideo
            record.videoResolution = videoResolution
            record.videoFrameRate = videoFrameRate
            record.artwork = artwork
            record.posterOverhead = posterOverhead
            record.posterLayout = posterLayout
            record.startsWithTimestampTag = startsWithTimestampTag
            record.videoStartsWithKeyframe = videoStartsWithKeyframe
            record.keyframeHasParameterSets = keyframeHasParameterSets
            record.decrypted = decrypted
        }
    }

    /// What few segments have.
    private struct Rare: Hashable, Sendable {
        var problem: String?
        var hiddenContentReason: String?
        var decoding: [TrackDecodeFacts]?
        var continuityErrors: [ContinuityError]
        var continuityErrorCount: Int

        init(_ record: SegmentRecord) {
            problem = record.problem
            hiddenContentReason = record.hiddenContentReason
            decoding = record.decoding
            continuityErrors = record.continuity?.errors ?? []
            continuityErrorCount = record.continuity?.errorCount ?? 0
        }

        var isEmpty: Bool {
            problem == nil && hiddenContentReason == nil && decoding == nil && continuityErrors.isEmpty
                && continuityErrorCount == 0
        }

        func fill(_ record: inout SegmentRecord) {
            record.problem = problem
            record.hiddenContentReason = hiddenContentReason
            record.decoding = decoding
        }
    }

    private struct RareEntry: Sendable {
        var record: UInt32
        var rare: UInt32
    }
}

/// Each distinct value once, numbered in order of first appearance.
private struct Interner<Value: Hashable & Sendable>: Sendable {
    private(set) var values: [Value] = []
    private var numbers: [Value: UInt32] = [:]

    /// The number `index(of:)` gave last.
    private var latest: UInt32?

    /// The number of `value`, adding it when new. A record mostly holds what the one before it
    /// held: that value is compared first, which costs less than hashing every string of it.
    mutating func index(of value: Value) -> UInt32 {
        if let latest, values[Int(latest)] == value { return latest }
        let number = numbers[value] ?? UInt32(values.count)
        if number == values.count {
            values.append(value)
            numbers[value] = number
        }
        latest = number
        return number
    }

    subscript(number: UInt32) -> Value { values[Int(number)] }
}

extension SegmentRecord {
    /// Whether what the record says of the playlist is what `segment` says.
    fileprivate func describes(_ segment: MediaSegment) -> Bool {
        // The fields `SegmentRecords.playlistPart(of:)` fills, compared without making a record.
        uri == segment.uri && line == (segment.extinfLine ?? segment.uriLine)
            && extinf.bitPattern == segment.duration.bitPattern
            && encrypted == (segment.key?.isEncrypting ?? false) && mediaSequence == segment.mediaSequence
            && discontinuity == segment.discontinuity
    }
}

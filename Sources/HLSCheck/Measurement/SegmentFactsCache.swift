import HLSPlaylist
import MediaInspection
import StreamSources

/// What the segments inspected lately turned out to hold, so that a segment a stream lists many
/// times is read and demuxed once (docs/security.md, "Repeated segments"): a media playlist
/// that names one 200 MB file on 10 000 lines costs one libavformat scan, not 10 000.
///
/// One cache serves one stream's check: every media playlist (an audio-only variant and an
/// audio rendition that list the same files share their inspections), the live watch, local
/// and remote sources, `--decode`, and embed's re-check, all of which measure through
/// `MediaMeasurer`.
///
/// Bounded, whatever the stream's length (design.md §9): it keeps the records of the last
/// `capacity` to `2 × capacity` distinct segments (two generations: the younger is retired whole
/// when full, and a record taken from the older one moves back to the younger), never one per
/// segment of the stream. A repetition within that reach — the same line copied, a playlist
/// copied beside another, a live window re-listing its segments — is read once; one farther
/// apart is read again.
///
/// A segment read again must not quietly disagree with what its earlier lines said (a file
/// rewritten during the run, a server answering differently): for many more segments than it
/// keeps records of (`fingerprintCapacity`, a few words each) the cache remembers a fingerprint
/// of what each read found — size, ID3 tags, poster, continuity counters, decryption, the
/// failure — and a read that finds something else makes its line say so (`changeProblem`).
actor SegmentFactsCache {
    /// What makes two lines the same segment request: the request as the inspector gets it
    /// (URI, byte range, EXT-X-MAP, AES-128 key and IV, `--decode`), without the first line's
    /// stream-info pass, and the line's EXT-X-KEY method (a SAMPLE-AES line and a clear one read
    /// the same bytes but measure differently).
    struct Key: Hashable, Sendable {
        var request: SegmentRequest
        var keyMethod: String?

        init(_ request: SegmentRequest, keyMethod: String?) {
            var request = request
            request.wantsStreamInfo = false
            self.request = request
            self.keyMethod = keyMethod
        }
    }

    /// A record of the first line that read the segment, and whether that read ran libavformat's
    /// stream-info pass (a line that asks for it takes no record made without it).
    struct Entry: Sendable {
        var record: SegmentRecord
        var withStreamInfo: Bool
    }

    /// What one read found, in brief: enough to tell another read of different bytes.
    struct Seen: Sendable {
        var fingerprint: Int
        var bytes: Int
        var line: Int
        var playlistURI: String
    }

    /// Records kept per generation (both together: at most twice this many).
    let capacity: Int
    /// Fingerprints kept per generation.
    let fingerprintCapacity: Int
    private var young: [Key: Entry] = [:]
    private var old: [Key: Entry] = [:]
    private var seenYoung: [Int: Seen] = [:]
    private var seenOld: [Int: Seen] = [:]

    /// The defaults keep four planned batches of segments (`MediaMeasurer.batchSize` ×
    /// `batchesPlannedTogether` = 512) in the younger generation, and fingerprints of 64 times as
    /// many segments (≈ 3 MB at most).
    init(capacity: Int = 512, fingerprintCapacity: Int = 1 << 15) {
        self.capacity = max(1, capacity)
        self.fingerprintCapacity = max(1, fingerprintCapacity)
    }

    /// The records known for `keys`, nil where the segment must be read: not kept (any more), or
    /// kept without the stream-info pass its line asks for (`wantsStreamInfo`).
    func records(for keys: [Key], wantsStreamInfo: [Bool]) -> [SegmentRecord?] {
        zip(keys, wantsStreamInfo).map { key, streamInfo in
            guard let entry = entry(key), entry.withStreamInfo || !streamInfo else { return nil }
            return entry.record
        }
    }

    /// Whether each segment of `keys` is kept with a record (a line without stream info can take it).
    func kept(_ keys: [Key]) -> [Bool] { keys.map { young[$0] != nil || old[$0] != nil } }

    /// Keeps the record of a segment just read (`record`, of its first line), whose facts have
    /// `fingerprint`; returns the record to give that line: with a problem when an earlier read
    /// of the same segment in this run found something else.
    func store(_ key: Key, record: SegmentRecord, fingerprint: Int, withStreamInfo: Bool, playlistURI: String)
        -> SegmentRecord
    {
        let hash = key.hashValue
        var given = record
        if let earlier = seenYoung[hash] ?? seenOld[hash], earlier.fingerprint != fingerprint {
            given.problem = Self.changeProblem(earlier: earlier, now: record, playlistURI: playlistURI)
        }
        insert(key, Entry(record: record, withStreamInfo: withStreamInfo))
        remember(hash, Seen(fingerprint: fingerprint, bytes: record.bytes, line: record.line, playlistURI: playlistURI))
        return given
    }

    /// What a line says when its read of a segment disagrees with an earlier line's.
    static func changeProblem(earlier: Seen, now: SegmentRecord, playlistURI: String) -> String {
        let place =
            earlier.playlistURI == playlistURI
            ? "line \(earlier.line)" : "line \(earlier.line) of \(earlier.playlistURI)"
        let what =
            earlier.bytes == now.bytes
            ? "found other content (same size, \(now.bytes) bytes)"
            : "was \(earlier.bytes) bytes, and is \(now.bytes) bytes now"
        return
            "changed while the stream was checked: read for \(place) it \(what), so the two lines disagree; check again once the stream stops changing"
    }

    private func entry(_ key: Key) -> Entry? {
        if let entry = young[key] { return entry }
        guard let entry = old.removeValue(forKey: key) else { return nil }
        insert(key, entry)
        return entry
    }

    private func insert(_ key: Key, _ entry: Entry) {
        if young[key] == nil, young.count >= capacity {
            old = young
            young = [:]
        }
        young[key] = entry
    }

    private func remember(_ hash: Int, _ seen: Seen) {
        if seenYoung[hash] == nil, seenYoung.count >= fingerprintCapacity {
            seenOld = seenYoung
            seenYoung = [:]
        }
        seenYoung[hash] = seen
    }

    /// A fingerprint of what a read found that the stream-info pass does not change: size, ID3
    /// tags, posters, timestamp tag, continuity counters, decryption; or the failure.
    static func fingerprint(_ outcome: Result<SegmentFacts, any Error>) -> Int {
        var hasher = Hasher()
        switch outcome {
        case .success(let facts):
            hasher.combine(facts.byteCount)
            hasher.combine(facts.id3)
            hasher.combine(facts.artwork)
            hasher.combine(facts.transportStreamTimestamp)
            hasher.combine(facts.continuity)
            hasher.combine(facts.decryption)
        case .failure(let error):
            hasher.combine((error as? InputReadError)?.reason ?? "\(error)")
        }
        return hasher.finalize()
    }
}

extension SegmentRecord {
    /// This record (of another line that lists the same segment request) for `segment`: what the
    /// playlist says is `segment`'s, what was measured stays.
    func relisted(as segment: MediaSegment) -> SegmentRecord {
        let listed = SegmentRecords.playlistPart(of: segment)
        var record = self
        record.uri = listed.uri
        record.line = listed.line
        record.extinf = listed.extinf
        record.mediaSequence = listed.mediaSequence
        record.discontinuity = listed.discontinuity
        record.encrypted = listed.encrypted
        return record
    }
}

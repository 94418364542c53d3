package import MediaInspection
import HLSPlaylist

/// What a caller already knows of the segments of a stream it asks to check: by media playlist
/// (its resolved path), one measured record per segment in playlist order (EXT-X-GAP segments
/// left out, as in `PlaylistMeasurement.records`), nil where it knows nothing.
///
/// For `hlscheck embed`, re-checking the stream it has just written (docs/embed.md, "The
/// re-check"): the segments it linked or left as they were keep the facts the analysis
/// measured; those it rewrote get the analysis's media facts with what its own readers find in
/// the new bytes (`SegmentRecord.rewritten(as:)`). The checker takes such a record in place of
/// inspecting the segment, only where the playlist still says what the record describes (same
/// EXTINF, same line), the segment is a whole file (no byte range), clear (no key) and inside the
/// stream's root; every other segment is inspected as usual.
package struct KnownSegments: Sendable {
    private var playlists: [String: [SegmentRecord?]] = [:]

    /// Knows nothing yet.
    package init() {}

    /// The records of the media playlist at `path` (a file path; standardized here), one per
    /// segment that is not a gap, in playlist order.
    package mutating func set(_ records: [SegmentRecord?], forPlaylistAt path: String) {
        playlists[Self.key(path)] = records
    }

    /// Whether anything is known.
    package var isEmpty: Bool { playlists.isEmpty }

    /// The known records of the media playlist at `uri` (a resolved URI), nil when none.
    func records(ofPlaylistAt uri: String) -> [SegmentRecord?]? {
        guard !uri.contains("://") else { return nil }
        // Known by file path; the URI names its file by `LocalFileName` (a folder typed as
        // "out #2" is "out %232" in it).
        return playlists[Self.key(LocalPath.shown(uri))]
    }

    /// `path` with repeated slashes, "." and ".." removed by its text (links are not followed:
    /// the caller and the loader name the same files the same way).
    static func key(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

extension SegmentRecord {
    /// This record (of a segment as it was measured) for the segment's rewrite whose bytes our
    /// own readers described as `scanned` (`SegmentInspector.scannedFacts`): the new size, and
    /// the poster, its cost, the packed-audio timestamp and the TS continuity counters as found in
    /// the new bytes; the media facts (container, codecs, tracks, durations, keyframes) stay, since
    /// the rewrite copies the media untouched. Nil when the new bytes are not the same kind of
    /// segment or show a problem: then they must be inspected for real.
    package func rewritten(as scanned: SegmentFacts) -> SegmentRecord? {
        guard scanned.problem == nil, problem == nil, !encrypted, !sampledOut,
            let container, scanned.container == container, container != .unknown
        else { return nil }
        var record = self
        record.bytes = scanned.byteCount
        record.artwork = scanned.artwork.first
        (record.posterOverhead, record.posterLayout) = MediaMeasurer.posterCost(scanned)
        record.startsWithTimestampTag = scanned.startsWithTimestampTag
        if container.isPackedAudio {
            // Raw audio's only timestamp is its PRIV tag, which the rewrite may have added.
            record.firstPTS = scanned.firstPTS
            record.timingStart = scanned.firstPTS
        }
        if container == .mpegTS { record.continuity = scanned.continuity }
        return record
    }

    /// This record's measured part for `segment` as its playlist now lists it; nil when the
    /// playlist no longer says what the record describes (another EXTINF or line), or when the
    /// segment is not a whole clear file (a byte range, a key).
    func measured(as segment: MediaSegment) -> SegmentRecord? {
        // What `SegmentRecords.playlistPart(of:)` takes from the segment, read without making a record.
        guard line == (segment.extinfLine ?? segment.uriLine), extinf.bitPattern == segment.duration.bitPattern,
            segment.byteRange == nil, !(segment.key?.isEncrypting ?? false), !encrypted
        else { return nil }
        var record = self
        record.uri = segment.uri
        record.mediaSequence = segment.mediaSequence
        record.discontinuity = segment.discontinuity
        return record
    }
}

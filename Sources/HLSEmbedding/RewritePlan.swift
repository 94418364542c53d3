import HLSCheck
import HLSPackaging
import HLSPlaylist

/// One media playlist the poster goes into.
struct PlannedTarget: Sendable {
    /// As written in the multivariant playlist (or on the command line).
    var uri: String
    var playlistURI: String
    var playlist: MediaPlaylist
    /// What its segments held before the rewrite.
    var measurement: PlaylistMeasurement
    /// Sizes of the rewritten segments, in playlist order.
    var newSizes: [Int] = []
    /// The rewritten segments themselves, kept from the measuring pass for the writing pass
    /// while the whole rewrite stays under ``PosterEmbedder/keptRewriteBytes`` (nil beyond: the
    /// writing pass rewrites them again, deterministically, one at a time).
    var rewritten: [[UInt8]]?
    /// What the re-check knows of each rewritten segment without reading it again: its
    /// measured record with what our own readers found in the new bytes (nil where they found
    /// something unexpected, and the re-check inspects that segment for real).
    var newRecords: [SegmentRecord?] = []
    /// `SegmentName.fingerprint` of each rewritten segment, computed beside the rewrite (the
    /// writer names new files by it without hashing the bytes again).
    var fingerprints: [String?] = []
    var newPeak: Int?
    var newAverage: Int?
    /// Where packed audio without timestamps starts (90 kHz): the stream's other playlists' start.
    var timelineStart: Int64?
    /// Packed-audio segments whose PRIV timestamp stays, and those that gain one (SegmentSession).
    var timestampsKept = 0
    var timestampsAdded = 0
    /// Pictures other than the poster the rewritten segments keep (a back cover): counted in the budget.
    var keptPictures = KeptPictures()
    /// The files whose byte ranges are its segments (a single-file variant), written again
    /// whole with their ranges moved; empty when every segment is a file of its own.
    var byteRangedFiles: [ByteRangedFile] = []

    /// The segments that carry media (GAP segments have none), in the order measurements use.
    var segments: [MediaSegment] { playlist.segments.filter { !$0.gap } }

    /// The final runt the poster leaves out (docs/measurement.md, "Runt segments"): its URI
    /// and EXTINF; nil when the playlist ends in a full segment.
    var runtLeftOut: (uri: String, duration: Double)? {
        guard let index = measurement.finalRuntIndex else { return nil }
        let record = measurement.records[index]
        // A byte range of a single file is told from the file's other segments by its range.
        let range =
            index < segments.count
            ? segments[index].byteRange.map { " (byte range \($0.length)@\($0.offset))" } ?? "" : ""
        return (record.uri + range, record.extinf)
    }

    /// The poster for the segment at `index` (in `segments`' order): none for a final runt —
    /// the checker's budget arithmetic (PosterBudget) leaves it out there too.
    func poster(_ poster: Poster?, forSegment index: Int) -> Poster? {
        index == measurement.finalRuntIndex ? nil : poster
    }
}

/// The measured result of a rewrite, before anything is written.
struct RewritePlan: Sendable {
    var targets: [PlannedTarget] = []

    struct Excess {
        var uri: String
        var playlistURI: String
        var peak: Int
        /// The part of the peak that is not the variant's own segments (its audio rendition).
        var otherBits: Int
    }

    func target(_ playlistURI: String?) -> PlannedTarget? {
        targets.first { $0.playlistURI == playlistURI }
    }

    /// Peak and average of a playlist after the rewrite (measured values when it is not a target).
    func rates(_ playlistURI: String?, measured: PlaylistMeasurement?) -> (peak: Int, average: Int)? {
        if let target = target(playlistURI), let peak = target.newPeak, let average = target.newAverage {
            return (peak, average)
        }
        guard let peak = measured?.peakBitrate, let average = measured?.averageBitrate else { return nil }
        return (peak, average)
    }

    /// Whether the rewrite touches this variant: a playlist of one of its playable combinations.
    func touches(_ variant: VariantAnalysis) -> Bool {
        variant.combinationPlaylists.contains { target($0) != nil }
    }

    /// The variant's new BANDWIDTH and AVERAGE-BANDWIDTH: the largest sums over its playable
    /// combinations (docs/measurement.md; a playlist is never counted twice), nil when untouched
    /// or unmeasured.
    func declaredValues(for variant: VariantAnalysis) -> (peak: Int, average: Int)? {
        guard touches(variant),
            let peak = variant.largestSum(byPlaylist: { rates($0, measured: variant.measurement(of: $0))?.peak }),
            let average = variant.largestSum(byPlaylist: { rates($0, measured: variant.measurement(of: $0))?.average })
        else { return nil }
        return (peak.sum, average.sum)
    }

    /// The first touched audio-only variant whose new peak exceeds the budget.
    func overBudget(_ analysis: StreamAnalysis, budget: Int) -> Excess? {
        for variant in analysis.variants where variant.isAudioOnly && touches(variant) {
            guard let own = rates(variant.playlistURI, measured: variant.measurement),
                let peak = declaredValues(for: variant)?.peak
            else { continue }
            if peak > budget {
                return Excess(
                    uri: variant.uri, playlistURI: variant.playlistURI, peak: peak, otherBits: peak - own.peak)
            }
        }
        return nil
    }
}

import HLSCheck
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
    var newPeak: Int?
    var newAverage: Int?
    /// Where packed audio without timestamps starts (90 kHz): the stream's other playlists' start.
    var timelineStart: Int64?

    /// The segments that carry media (GAP segments have none), in the order measurements use.
    var segments: [MediaSegment] { playlist.segments.filter { !$0.gap } }
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

    /// Whether the rewrite touches this variant: its own playlist or one of its audio renditions.
    func touches(_ variant: VariantAnalysis) -> Bool {
        target(variant.playlistURI) != nil || variant.audioRenditions.contains { target($0.playlistURI) != nil }
    }

    /// The variant's new BANDWIDTH and AVERAGE-BANDWIDTH: its own segments plus the largest
    /// audio rendition of its group (docs/measurement.md), nil when untouched or unmeasured.
    func declaredValues(for variant: VariantAnalysis) -> (peak: Int, average: Int)? {
        guard touches(variant), let own = rates(variant.playlistURI, measured: variant.measurement) else { return nil }
        let renditions = variant.audioRenditions.compactMap { rates($0.playlistURI, measured: $0.measurement) }
        return (own.peak + (renditions.map(\.peak).max() ?? 0), own.average + (renditions.map(\.average).max() ?? 0))
    }

    /// The first touched audio-only variant whose new peak exceeds the budget.
    func overBudget(_ analysis: StreamAnalysis, budget: Int) -> Excess? {
        for variant in analysis.variants where variant.isAudioOnly && touches(variant) {
            guard let own = rates(variant.playlistURI, measured: variant.measurement) else { continue }
            let other = variant.audioRenditions.compactMap { rates($0.playlistURI, measured: $0.measurement)?.peak }.max() ?? 0
            if own.peak + other > budget {
                return Excess(uri: variant.uri, playlistURI: variant.playlistURI, peak: own.peak + other, otherBits: other)
            }
        }
        return nil
    }
}

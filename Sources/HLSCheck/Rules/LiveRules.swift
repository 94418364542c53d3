import HLSPlaylist

// Rules over reloads of a live playlist (`--live-duration`, docs/remote.md). The watcher
// (LiveWatcher) files its findings under these ids; the rules only pass them on.

extension RuleDescription {
    /// A rule judged across reloads: no single playlist file can show it.
    static func live(id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String, specItems: [SpecItem] = []) -> RuleDescription {
        var description = RuleDescription(
            id: id, name: name, defaultSeverity: defaultSeverity, summary: summary, rationale: rationale, specItems: specItems)
        description.needsNetwork = true
        return description
    }
}

private func liveFindings(_ stream: StreamAnalysis, _ id: String) -> [Finding] {
    (stream.live?.findings ?? []).filter { $0.rule == id }.map { Finding($0.message, at: $0.location) }
}

package struct LiveMediaSequenceRegressedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-media-sequence-regressed", name: "Media sequence went back", defaultSeverity: .error,
        summary: "A reload of a live playlist had a lower EXT-X-MEDIA-SEQUENCE than the version before.",
        rationale: "RFC 8216 §6.2.1: the server may only increment EXT-X-MEDIA-SEQUENCE. Clients locate their position by media sequence number; going back makes them replay or skip.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A server changes a media playlist only by appending, removing from the front and incrementing EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { liveFindings(stream, Self.description.id) }
}

package struct LiveDiscontinuitySequenceRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-discontinuity-sequence", name: "Discontinuity sequence wrong across reloads", defaultSeverity: .error,
        summary: "EXT-X-DISCONTINUITY-SEQUENCE went back, or did not grow by the discontinuities that left the window.",
        rationale: "RFC 8216 §6.2.1 allows the server only to increment it; §4.3.3.3: it counts the discontinuities removed from the front, so clients can align variants and renditions.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A server changes a media playlist only by appending, removing from the front and incrementing EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE."),
            .bis("6.2.2", .must, "The discontinuity sequence number increments by the discontinuities removed from the front of the playlist and never decreases."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { liveFindings(stream, Self.description.id) }
}

package struct LiveTargetDurationChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-target-duration-changed", name: "Target duration changed", defaultSeverity: .error,
        summary: "EXT-X-TARGETDURATION differs between two reloads of a live playlist.",
        rationale: "RFC 8216 §6.2.1 lists the only changes a server may make to a media playlist; changing EXT-X-TARGETDURATION is not one. Clients time their reloads by it (§6.3.4).",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A server changes a media playlist only by appending, removing from the front and incrementing its sequence numbers; the target duration stays."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { liveFindings(stream, Self.description.id) }
}

package struct LiveSegmentChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-segment-changed", name: "Published segment changed or removed out of order", defaultSeverity: .error,
        summary: "A segment kept its media sequence number but changed URI, duration, discontinuity or key, segments vanished from the end of the window, or a playlist with EXT-X-PLAYLIST-TYPE dropped segments from the front.",
        rationale: "RFC 8216 §6.2.1: the server may only append, and remove segments from the front in the order they appear. A client that already scheduled a segment must find the same one. bis-22 §6.2.3: the EXT-X-KEY of a segment still in the playlist stays, or a client that reads the segment later cannot decrypt it.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "Segments are removed only from the front, in playlist order, and a published segment keeps its URI and duration."),
            .bis("6.2.3", rfc: "6.2.3", .must, "A key stays in the playlist while it applies to a segment of it; it is not removed before."),
            .bis("6.2.2", rfc: "6.2.2", .must, "A playlist from which segments are removed has no EXT-X-PLAYLIST-TYPE."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { liveFindings(stream, Self.description.id) }
}

package struct LivePlaylistStaleRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-playlist-stale", name: "Live playlist not refreshed in time", defaultSeverity: .error,
        summary: "A live playlist went longer than 1.5 × its target duration without a new segment, or a reload failed.",
        rationale: "RFC 8216 §6.2.1: a media playlist without EXT-X-ENDLIST must get a new version with at least one new segment no later than 1.5 times the target duration after the previous one; players that run dry stall.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A live playlist gets a new version with at least one new segment within 1.5 target durations of the last."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { liveFindings(stream, Self.description.id) }
}

/// `--sample N`: the report says which share of the segments was read.
package struct SegmentsSampledRule: Rule {
    package init() {}
    package static let description = RuleDescription(
        id: "segments-sampled", name: "Segments sampled", defaultSeverity: .note,
        summary: "Only some segments of a media playlist were read (--sample N): measured bit rates and content findings cover those alone.",
        rationale: "A quick check of a long stream reads N segments spread over each media playlist. Peak and average bit rates are then lower bounds, and a problem in an unread segment goes unseen; the report says so every time.",
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            let skipped = measurement.records.count(where: \.sampledOut)
            guard skipped > 0 else { return nil }
            let read = measurement.records.count - skipped
            return Finding(
                "sampled: \(read) of \(measurement.records.count) segments of this playlist were read (--sample \(configuration.sampleSegments ?? read)); bit rates and content findings cover those only",
                at: SourceLocation(uri: measurement.playlistURI, line: measurement.records.first?.line ?? 0))
        }
    }
}

package import HLSPlaylist

package struct RemovedMediaUnavailableRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "removed-media-unavailable", name: "Removed part or segment deleted too early", defaultSeverity: .error,
        summary:
            "A segment or part that left a live playlist during --live-duration was answered with an error when requested once the watch was over, sooner than the protocol lets a server delete it (not with --playlist-only).",
        rationale:
            "bis-22 §6.2.2: a client may hold an older version of the playlist and fetch from it, so a part that left the playlist stays downloadable for three target durations, and a segment for its own duration plus the playlist's. Deleting them sooner makes clients that are a reload behind fail.",
        specItems: [
            .bis("6.2.2", .must, "A removed Partial Segment stays available for 3 × the target duration."),
            .bis(
                "6.2.2", .must,
                "A removed segment stays available for its Availability duration, its own plus the playlist's."),
        ])

    /// bis-22 §6.2.2: a part that left the playlist is served for three target durations more.
    /// Whether parts that left during a watch of `watchedSeconds` must all still be served.
    static func mustStillServeParts(watchedSeconds: Double, targetDuration: Double) -> Bool {
        watchedSeconds < 3 * targetDuration
    }

    /// bis-22 §6.2.2: a segment that left the playlist is served for its duration plus the
    /// playlist's. Whether `segment` of `first` must still be served `watchedSeconds` after
    /// `first` was read.
    static func mustStillServe(_ segment: MediaSegment, of first: MediaPlaylist, watchedSeconds: Double) -> Bool {
        watchedSeconds < segment.duration + first.totalDuration
    }

    /// Live playlists are judged: the probe asks for what left them during the watch.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Void? { () }

    package static func judge(_ exchange: DirectiveExchange, memory: inout Void) -> [Finding] {
        guard case .removedResource(let written, let isPart, let line) = exchange.request, !exchange.succeeded else {
            return []
        }
        let what = isPart ? "partial segment" : "segment"
        return [
            Finding(
                "\(what) \(written) left the playlist during the watch and was answered \(exchange.described) less than \(isPart ? "three target durations" : "its duration plus the playlist's") later; clients that loaded an older version still fetch it (bis-22 §6.2.2)",
                at: SourceLocation(uri: exchange.uri, line: line))
        ]
    }
}

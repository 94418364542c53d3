package import HLSPlaylist

package struct LivePlaylistStaleRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-playlist-stale", name: "Live playlist not refreshed in time", defaultSeverity: .error,
        summary:
            "A live playlist went longer than 1.5 × its target duration without a new segment, or a reload failed.",
        rationale:
            "RFC 8216 §6.2.1: a media playlist without EXT-X-ENDLIST must get a new version with at least one new segment no later than 1.5 times the target duration after the previous one; players that run dry stall.",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "A live playlist gets a new version with at least one new segment within 1.5 target durations of the last."
            )
        ])

    /// RFC 8216 §6.2.1: a live playlist gets a new segment within 1.5 target durations of the last.
    static func staleAge(targetDuration: Int) -> Duration { .milliseconds(Int64(targetDuration) * 1500) }

    /// When the playlist last showed a new segment, and whether its staleness was told.
    package struct Memory: Sendable {
        var targetDuration: Int
        var lastNewSegment = Duration.zero
        var reported = false
    }

    /// Live playlists are judged: without EXT-X-ENDLIST and not VOD.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Memory? {
        first.endList || first.playlistType == .vod ? nil : Memory(targetDuration: max(1, first.targetDuration ?? 1))
    }

    package static func judge(_ reload: LiveReload, memory: inout Memory) -> [Finding] {
        let current: MediaPlaylist
        switch reload.outcome {
        case .failed(let why):
            return [
                Finding(
                    "reload \(reload.number) of \(reload.uri) failed: \(why); a live playlist must stay available (RFC 8216 §6.2.1)",
                    at: SourceLocation(uri: reload.uri, line: 0))
            ]
        case .changed(let previous, let latest):
            if latest.mediaSequence + latest.segments.count > previous.mediaSequence + previous.segments.count {
                memory.lastNewSegment = reload.answered
                memory.reported = false
            }
            current = latest
        case .unchanged(let latest):
            current = latest
        }
        // A playlist that has ended gets no more segments (and the watch stops).
        guard !current.endList, !memory.reported else { return [] }
        // Measured from when the current version was first seen, a lower bound of its age.
        let age = reload.started - memory.lastNewSegment
        guard age > staleAge(targetDuration: memory.targetDuration) else { return [] }
        memory.reported = true
        return [
            Finding(
                "no new segment for at least \(age.tenthsText) s, more than 1.5 × the target duration of \(memory.targetDuration) s (RFC 8216 §6.2.1)",
                at: SourceLocation(uri: reload.uri, line: current.targetDurationLine ?? 0))
        ]
    }
}

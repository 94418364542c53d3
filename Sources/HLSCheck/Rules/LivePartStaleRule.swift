package import HLSPlaylist

package struct LivePartStaleRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-part-stale", name: "No new partial segment within the part target", defaultSeverity: .error,
        summary: "A live playlist with partial segments went longer than its part target duration without a new part.",
        rationale:
            "bis-22 §6.2.1: a server that publishes partial segments adds the next one within one part target duration of the last. Low-latency clients play a few part targets behind the live edge (PART-HOLD-BACK); a late part stalls them.",
        specItems: [
            .bis(
                "6.2.1", .must,
                "A live playlist with parts gets a new part within one Part Target duration of the last.")
        ])

    /// The part target, the last part seen and when it first appeared, and whether its
    /// staleness was told.
    package struct Memory: Sendable {
        var partTarget: Duration
        /// EXT-X-PART-INF's PART-TARGET, as the message gives it.
        var partTargetText: String
        var lastPart: PartPosition?
        var lastNewPart = Duration.zero
        var reported = false
    }

    /// Live playlists with a part target are judged.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Memory? {
        guard !first.endList, first.playlistType != .vod, let partTarget = first.partTarget, partTarget > 0,
            partTarget.isFinite
        else { return nil }
        return Memory(
            partTarget: .milliseconds(Int64(max(1, partTarget * 1000))), partTargetText: String(partTarget),
            lastPart: first.lastPart)
    }

    package static func judge(_ reload: LiveReload, memory: inout Memory) -> [Finding] {
        if case .changed(_, let current) = reload.outcome, let part = current.lastPart, part != memory.lastPart {
            memory.lastPart = part
            memory.lastNewPart = reload.answered
            memory.reported = false
        }
        // bis-22 §6.2.1: a new part within one part target of the last, measured from when the
        // last new part was first seen, as LivePlaylistStaleRule measures segments.
        guard let current = reload.current, !current.endList, memory.lastPart != nil, !memory.reported else {
            return []
        }
        let age = reload.started - memory.lastNewPart
        guard age > memory.partTarget else { return [] }
        memory.reported = true
        return [
            Finding(
                "\(reload.uri) had no new partial segment for at least \(age.tenthsText) s, more than its part target duration of \(memory.partTargetText) s (bis-22 §6.2.1)",
                at: SourceLocation(uri: reload.uri, line: current.targetDurationLine ?? 0))
        ]
    }
}

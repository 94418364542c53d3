package import HLSPlaylist

package struct LiveVODChangedRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-vod-changed", name: "VOD playlist changed", defaultSeverity: .error,
        summary:
            "A media playlist with EXT-X-PLAYLIST-TYPE:VOD differed when it was loaded again (--live-duration reloads it once).",
        rationale:
            "bis-22 §6.2.1: a VOD playlist cannot change. Clients load it once and may cache it for good; a server that edits it serves different clients different presentations.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A playlist with EXT-X-PLAYLIST-TYPE:VOD never changes.")
        ])

    /// Only a VOD playlist is judged: the watcher loads it once more, a target duration on.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Void? {
        first.playlistType == .vod ? () : nil
    }

    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome,
            let change = change(previous: previous, current: current)
        else { return [] }
        return [
            Finding(
                "\(reload.uri) has EXT-X-PLAYLIST-TYPE:VOD but changed when loaded again: \(change); a VOD playlist must never change (bis-22 §6.2.1)",
                at: SourceLocation(uri: reload.uri, line: 0))
        ]
    }

    /// What differs between two versions of a VOD playlist, nil when nothing a client reads does.
    static func change(previous: MediaPlaylist, current: MediaPlaylist) -> String? {
        if previous.segments.count != current.segments.count {
            return "it listed \(previous.segments.count) segments and now lists \(current.segments.count)"
        }
        if previous.mediaSequence != current.mediaSequence {
            return "EXT-X-MEDIA-SEQUENCE went from \(previous.mediaSequence) to \(current.mediaSequence)"
        }
        if previous.endList != current.endList {
            return current.endList ? "EXT-X-ENDLIST was added" : "EXT-X-ENDLIST was removed"
        }
        for (index, (old, new)) in zip(previous.segments, current.segments).enumerated() {
            if old.uri != new.uri || abs(old.duration - new.duration) > 0.0005 || old.discontinuity != new.discontinuity
                || old.byteRange != new.byteRange
            {
                return "segment \(previous.mediaSequence + index) changed"
            }
        }
        if previous.dateRanges.map(\.attributes) != current.dateRanges.map(\.attributes) {
            return "its EXT-X-DATERANGE tags changed"
        }
        return nil
    }
}

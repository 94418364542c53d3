import HLSPlaylist

package struct LiveSegmentChangedRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-segment-changed", name: "Published segment changed or removed out of order", defaultSeverity: .error,
        summary:
            "A segment kept its media sequence number but changed URI, duration, discontinuity or key, segments vanished from the end of the window, or a playlist with EXT-X-PLAYLIST-TYPE, or without EXT-X-MEDIA-SEQUENCE, dropped segments from the front.",
        rationale:
            "RFC 8216 §6.2.1: the server may only append, and remove segments from the front in the order they appear. A client that already scheduled a segment must find the same one. bis-22 §6.2.3: the EXT-X-KEY of a segment still in the playlist stays, or a client that reads the segment later cannot decrypt it.",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "Segments are removed only from the front, in playlist order, and a published segment keeps its URI and duration."
            ),
            .bis(
                "6.2.3", rfc: "6.2.3", .must,
                "A key stays in the playlist while it applies to a segment of it; it is not removed before."),
            .bis(
                "6.2.2", rfc: "6.2.2", .must, "A playlist from which segments are removed has no EXT-X-PLAYLIST-TYPE."),
            .bis(
                "6.2.2", rfc: "6.2.2", .must,
                "A playlist from which segments are removed has EXT-X-MEDIA-SEQUENCE: seen when a reload starts at a later segment of the previous version and neither has the tag."
            ),
        ])

    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome else { return [] }
        func at(_ line: Int?) -> SourceLocation { SourceLocation(uri: reload.uri, line: line ?? 0) }
        var findings: [Finding] = []
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        let lastCurrent = current.mediaSequence + current.segments.count - 1
        if let type = previous.playlistType, current.mediaSequence > previous.mediaSequence {
            // bis-22 §6.2.1: an EVENT playlist only grows; §6.2.2: a playlist that removes
            // segments has no EXT-X-PLAYLIST-TYPE. No numbers in the message: told once.
            findings.append(
                Finding(
                    "segments were removed from the front of a playlist with EXT-X-PLAYLIST-TYPE:\(type.rawValue) (its EXT-X-MEDIA-SEQUENCE grew); an EVENT playlist only grows, and a playlist that drops segments has no EXT-X-PLAYLIST-TYPE (bis-22 §6.2.1, §6.2.2)",
                    at: at(0)))
        }
        // bis-22 §6.2.2: segments left the front of a playlist without EXT-X-MEDIA-SEQUENCE (its
        // sequence numbers stay 0, so each segment's number changes); told instead of the changed
        // segments that follow from it.
        let removedUntagged = Self.removedWithoutMediaSequence(previous: previous, current: current)
        if let removed = removedUntagged {
            findings.append(
                Finding(
                    "\(removed) segment(s) were removed from the front of this playlist between reloads, but it has no EXT-X-MEDIA-SEQUENCE, so every segment's sequence number changed; a playlist that drops segments has EXT-X-MEDIA-SEQUENCE and increments it by one per removed segment (bis-22 §6.2.2)",
                    at: at(0)))
        }
        // Segments published in both versions (same media sequence number) must be the same.
        let overlapStart = max(previous.mediaSequence, current.mediaSequence)
        let overlapEnd = min(lastPrevious, lastCurrent)
        if overlapStart <= overlapEnd, removedUntagged == nil {
            for number in overlapStart...overlapEnd {
                let old = previous.segments[number - previous.mediaSequence]
                let new = current.segments[number - current.mediaSequence]
                let keyChange = Self.keyChange(old: old, new: new)
                if old.uri != new.uri || abs(old.duration - new.duration) > 0.0005
                    || old.discontinuity != new.discontinuity || keyChange != nil
                {
                    var what: [String] = []
                    if old.uri != new.uri { what.append("URI \(old.uri) became \(new.uri)") }
                    if abs(old.duration - new.duration) > 0.0005 {
                        what.append("EXTINF \(old.duration) became \(new.duration)")
                    }
                    if old.discontinuity != new.discontinuity {
                        what.append("EXT-X-DISCONTINUITY \(new.discontinuity ? "added" : "removed")")
                    }
                    if let keyChange { what.append(keyChange) }
                    findings.append(
                        Finding(
                            "segment \(number) changed between reloads (\(what.joined(separator: ", "))); a published segment must not change (RFC 8216 §6.2.1)",
                            at: at(new.extinfLine ?? new.uriLine)))
                    break
                }
            }
        }
        if current.mediaSequence >= previous.mediaSequence, lastCurrent < lastPrevious {
            findings.append(
                Finding(
                    "segments \(lastCurrent + 1)–\(lastPrevious) disappeared from the end of the playlist between reloads; segments may only be removed from the front, in order (RFC 8216 §6.2.1)",
                    at: at(0)))
        }
        return findings
    }

    /// How many segments left the front of `previous` when neither version has
    /// EXT-X-MEDIA-SEQUENCE: the position in `previous` of the segment `current` starts with;
    /// nil when the tag is there, nothing was removed, or the versions share no segment.
    static func removedWithoutMediaSequence(previous: MediaPlaylist, current: MediaPlaylist) -> Int? {
        guard current.mediaSequenceLine == nil, previous.mediaSequenceLine == nil, current.skippedSegments == nil,
            let first = current.segments.first?.uri,
            let index = previous.segments.firstIndex(where: { $0.uri == first }), index > 0
        else { return nil }
        return index
    }

    /// bis-22 §6.2.3: the key of a segment still in the playlist does not change or go. What
    /// changed, nil when nothing did.
    static func keyChange(old: MediaSegment, new: MediaSegment) -> String? {
        let before = old.key, after = new.key
        guard
            before?.method != after?.method || before?.uri != after?.uri || before?.iv != after?.iv
                || before?.keyFormat != after?.keyFormat
        else { return nil }
        return
            "EXT-X-KEY \(before.map { "METHOD=\($0.method)\($0.uri.map { ",URI=\($0)" } ?? "")" } ?? "none") became \(after.map { "METHOD=\($0.method)\($0.uri.map { ",URI=\($0)" } ?? "")" } ?? "none")"
    }
}

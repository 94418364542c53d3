package import HLSPlaylist

package struct DeltaUpdateInvalidRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "delta-update-invalid", name: "Delta update answered wrongly", defaultSeverity: .error,
        summary:
            "A server that says CAN-SKIP-UNTIL answered _HLS_skip with the whole playlist, or with a delta update that differs from the playlist in what it does not skip or misses removed date ranges; or a server without it (or an ended playlist) answered _HLS_skip with a delta update.",
        rationale:
            "bis-22 §6.2.5.1: a client that asks for a delta update (_HLS_skip=YES, or v2 to skip date ranges too) merges it into the copy it holds; every tag the update does not skip must be as in the whole playlist, and a v2 update lists the date ranges removed since (RECENTLY-REMOVED-DATERANGES, §4.4.5.2), or the client keeps ranges that are gone. A server that cannot skip, or a playlist that has ended, ignores the directive.",
        specItems: [
            .bis(
                "6.2.5.1", .must,
                "A playlist with CAN-SKIP-UNTIL answers a request with _HLS_skip with a delta update: the server must respond so."
            ),
            .bis(
                "6.2.5.1", .must, "RECENTLY-REMOVED-DATERANGES lists the date ranges removed within the skip boundary."),
            .bis("6.2.5.1", .must, "A delta update keeps every tag that is not skipped."),
            .bis("6.2.5.1", .must, "Without CAN-SKIP-UNTIL, or with EXT-X-ENDLIST, the server must ignore _HLS_skip."),
            .bis("4.4.5.2", .must, "A delta update that skips date ranges has RECENTLY-REMOVED-DATERANGES."),
        ])

    /// What the version first read says: the date ranges it had, its target duration and skip
    /// boundary (CAN-SKIP-UNTIL).
    package struct Memory: Sendable {
        var firstDateRanges: Set<String>
        var targetDuration: Double
        var skipUntil: Double
    }

    /// Every watched playlist the probe asks about is judged.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Memory? {
        Memory(
            firstDateRanges: Set(first.dateRanges.compactMap(\.id)),
            targetDuration: Double(max(1, first.targetDuration ?? 1)),
            skipUntil: first.serverControl?.decimalFloatingPoint("CAN-SKIP-UNTIL") ?? 0)
    }

    package static func judge(_ exchange: DirectiveExchange, memory: inout Memory) -> [Finding] {
        guard let delta = exchange.reply, let deltaMedia = delta.media else { return [] }
        var findings: [Finding] = []
        func add(_ message: String, line: Int = 0) {
            findings.append(Finding(message, at: SourceLocation(uri: exchange.uri, line: line)))
        }
        let asked = exchange.asked
        switch exchange.request {
        case .deltaUpdateNotOffered(let ended) where deltaMedia.skippedSegments != nil:
            add(
                ended
                    ? "\(asked) was answered with a delta update (EXT-X-SKIP) although the playlist has EXT-X-ENDLIST; _HLS_skip must be ignored then (bis-22 §6.2.5.1)"
                    : "\(asked) was answered with a delta update (EXT-X-SKIP) although EXT-X-SERVER-CONTROL has no CAN-SKIP-UNTIL; _HLS_skip must be ignored then (bis-22 §6.2.5.1)"
            )
        case .deltaUpdate(let directive) where deltaMedia.skippedSegments == nil:
            add(
                "\(asked) was answered with the whole playlist; with CAN-SKIP-UNTIL the server answers _HLS_skip=\(directive) with a delta update (EXT-X-SKIP) (bis-22 §6.2.5.1)"
            )
        case .deltaUpdateBesideWholePlaylist(let directive, let full):
            if let difference = unskippedDifference(delta: deltaMedia, full: full) {
                add(
                    "\(asked): the delta update differs from the whole playlist in what it does not skip: \(difference); a delta update keeps every tag it does not skip (bis-22 §6.2.5.1)"
                )
            }
            let skipTag = delta.tags.first { $0.name == "#EXT-X-SKIP" }
            // The list as written: tab-separated IDs in one quoted string (bis-22 §4.4.5.2).
            let removedList = skipTag?.value.flatMap { value -> String? in
                guard let start = value.firstRange(of: "RECENTLY-REMOVED-DATERANGES=\"") else { return nil }
                return String(value[start.upperBound...].prefix { $0 != "\"" })
            }
            let deltaRanges = Set(deltaMedia.dateRanges.compactMap(\.id))
            let fullRanges = Set(full.dateRanges.compactMap(\.id))
            if directive == "YES", let missing = fullRanges.subtracting(deltaRanges).sorted().first {
                add(
                    "\(asked): EXT-X-DATERANGE \(missing) is in the playlist but not in its _HLS_skip=YES delta update, which skips segments only (bis-22 §6.2.5.1)"
                )
            }
            if directive == "v2" {
                let removed = Set((removedList ?? "").split(separator: "\t").map(String.init))
                if !fullRanges.subtracting(deltaRanges).isEmpty, removedList == nil {
                    add(
                        "\(asked): the _HLS_skip=v2 delta update skips date ranges but its EXT-X-SKIP has no RECENTLY-REMOVED-DATERANGES (bis-22 §4.4.5.2)",
                        line: skipTag?.line ?? 0)
                }
                // Ranges that went since the watch began were removed within the skip boundary,
                // when the watch was shorter than it.
                let gone =
                    exchange.watchedSeconds + memory.targetDuration >= memory.skipUntil
                    ? [] : memory.firstDateRanges.subtracting(fullRanges).subtracting(removed).sorted()
                if let range = gone.first {
                    add(
                        "\(asked): EXT-X-DATERANGE \(range) was removed from the playlist during the check but is not listed in RECENTLY-REMOVED-DATERANGES (bis-22 §6.2.5.1)",
                        line: skipTag?.line ?? 0)
                }
            }
        default:
            break
        }
        return findings
    }

    /// What a delta update lists differently from the whole playlist of the same moment, past
    /// the segments it skips: nil when nothing.
    static func unskippedDifference(delta: MediaPlaylist, full: MediaPlaylist) -> String? {
        if delta.targetDuration != full.targetDuration { return "EXT-X-TARGETDURATION" }
        if delta.mediaSequence != full.mediaSequence {
            return "EXT-X-MEDIA-SEQUENCE \(delta.mediaSequence) against \(full.mediaSequence)"
        }
        if delta.partTarget != full.partTarget { return "EXT-X-PART-INF" }
        let skipped = delta.skippedSegments ?? 0
        guard skipped + delta.segments.count == full.segments.count else {
            return "\(skipped) skipped and \(delta.segments.count) listed segments against \(full.segments.count)"
        }
        for (old, new) in zip(full.segments.dropFirst(skipped), delta.segments) {
            if old.uri != new.uri || abs(old.duration - new.duration) > 0.0005 || old.discontinuity != new.discontinuity
                || old.parts.map(\.uri) != new.parts.map(\.uri)
                || LiveSegmentChangedRule.keyChange(old: old, new: new) != nil
                || old.programDateTime != new.programDateTime || old.map?.uri != new.map?.uri
                || old.bitrate != new.bitrate
            {
                return "segment \(new.mediaSequence)"
            }
        }
        if delta.trailingParts.map(\.uri) != full.trailingParts.map(\.uri) {
            return "the partial segments after the last segment"
        }
        if delta.preloadHints != full.preloadHints { return "EXT-X-PRELOAD-HINT" }
        if delta.renditionReports.count != full.renditionReports.count { return "EXT-X-RENDITION-REPORT" }
        return nil
    }
}

package import HLSPlaylist

package struct LiveDateRangeChangedRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-daterange-changed", name: "Date range removed early or its ID reused", defaultSeverity: .error,
        summary:
            "Across reloads, an EXT-X-DATERANGE went while its dates still mapped to segments, an ID came back for a range with another START-DATE, or a range was added between an END-ON-NEXT range and the range that ends it.",
        rationale:
            "bis-22 §6.2.1: a client that joins later must see every range its segments fall in, so a range stays until its dates have left the playlist; an ID names one range for good, so clients can merge the tags that carry it; and an END-ON-NEXT range ends where the next range of its class starts, which a range slipped in between would change after the fact.",
        specItems: [
            .bis(
                "6.2.1", .must,
                "An EXT-X-DATERANGE is not removed while any of its dates maps to a segment of the playlist."),
            .bis("6.2.1", .must, "A new date range does not reuse the ID of an earlier one."),
            .bis(
                "6.2.1", .must,
                "No range of the CLASS of an END-ON-NEXT range is added between it and its Following Range."),
        ])

    /// Every ID seen during the watch, with the START-DATE it first came with: an ID keeps its
    /// range for the whole watch, not only from one version to the next.
    package struct Memory: Sendable {
        var starts: [String: String] = [:]
    }

    /// Live playlists are judged, from the ranges of the version first read.
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Memory? {
        guard !first.endList, first.playlistType != .vod else { return nil }
        var memory = Memory()
        for range in WatchedDateRange.ranges(of: first) {
            if let start = range.startText { memory.starts[range.id] = start }
        }
        return memory
    }

    package static func judge(_ reload: LiveReload, memory: inout Memory) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome else { return [] }
        let uri = reload.uri
        let before = WatchedDateRange.ranges(of: previous), after = WatchedDateRange.ranges(of: current)
        let afterIDs = Set(after.map(\.id)), beforeIDs = Set(before.map(\.id))
        var findings: [Finding] = []
        // A delta update lists only part of the playlist; the watcher asks for whole ones.
        guard current.skippedSegments == nil, previous.skippedSegments == nil else { return [] }
        // bis-22 §6.2.1: a range stays while any of its dates maps to a segment.
        if let window = Self.dateWindow(of: current) {
            for range in before where !afterIDs.contains(range.id) {
                guard let start = range.start else { continue }
                // Without END-DATE or DURATION a range lasts until the next of its class when
                // END-ON-NEXT, else it is still open: every later date is in it.
                let next =
                    range.endOnNext
                    ? before.compactMap { $0.rangeClass == range.rangeClass && $0.id != range.id ? $0.start : nil }
                        .filter { $0 > start }.min()
                    : nil
                let end = max(start, range.end ?? next ?? .infinity)
                // Its dates [start, end) meet the segments' [window.start, window.end); a range of
                // one instant maps to the segment it falls in.
                guard start < window.end, end > window.start || start >= window.start else { continue }
                findings.append(
                    Finding(
                        "EXT-X-DATERANGE \(range.id) was removed between reloads while its dates still map to segments of the playlist; keep it until they have left (bis-22 §6.2.1)",
                        at: SourceLocation(uri: uri, line: 0)))
            }
        }
        // bis-22 §6.2.1: an ID names one range; a new START-DATE under a known ID is a new range.
        for range in after {
            guard let start = range.startText else { continue }
            if let known = memory.starts[range.id] {
                if known != start, ISO8601Instant.seconds(known) != range.start {
                    findings.append(
                        Finding(
                            "EXT-X-DATERANGE ID \(range.id) was used for a range starting \(known) and now for one starting \(start); give each new range an ID of its own (bis-22 §6.2.1)",
                            at: SourceLocation(uri: uri, line: range.line)))
                }
            } else {
                memory.starts[range.id] = start
            }
        }
        // bis-22 §6.2.1: nothing of the class is added between an END-ON-NEXT range and the
        // range that ends it.
        let byClass = Dictionary(
            grouping: before.filter { $0.rangeClass != nil && $0.start != nil }, by: { $0.rangeClass ?? "" })
        for range in after where !beforeIDs.contains(range.id) {
            guard let rangeClass = range.rangeClass, let start = range.start,
                let sorted = byClass[rangeClass]?.sorted(by: { ($0.start ?? 0) < ($1.start ?? 0) }), sorted.count >= 2
            else { continue }
            for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.endOnNext {
                guard let from = earlier.start, let to = later.start, from < start, start < to else { continue }
                findings.append(
                    Finding(
                        "EXT-X-DATERANGE \(range.id) of CLASS \(rangeClass) was added between END-ON-NEXT range \(earlier.id) and the range that ends it, \(later.id) (bis-22 §6.2.1)",
                        at: SourceLocation(uri: uri, line: range.line)))
                break
            }
        }
        return findings
    }

    /// The dates the segments of `media` cover, from its first EXT-X-PROGRAM-DATE-TIME; nil
    /// without one.
    static func dateWindow(of media: MediaPlaylist) -> (start: Double, end: Double)? {
        var before = 0.0
        for segment in media.segments {
            if let text = segment.programDateTime, let date = ISO8601Instant.seconds(text) {
                let start = date - before
                return (start, start + media.totalDuration)
            }
            before += segment.duration
        }
        return nil
    }
}

/// A date range as one version of a playlist shows it, its tags with one ID taken together.
struct WatchedDateRange: Sendable, Hashable {
    var id: String
    var line: Int
    var startText: String?
    var start: Double?
    var end: Double?
    var rangeClass: String?
    var endOnNext: Bool

    /// The ranges of `media` by ID, in order of first appearance.
    static func ranges(of media: MediaPlaylist) -> [WatchedDateRange] {
        var order: [String] = []
        var byID: [String: WatchedDateRange] = [:]
        for tag in media.dateRanges {
            guard let id = tag.id ?? tag.attributes.string("ID") else { continue }
            var range = byID[id] ?? WatchedDateRange(id: id, line: tag.line, endOnNext: false)
            if byID[id] == nil { order.append(id) }
            if range.startText == nil, let text = tag.attributes.string("START-DATE") {
                range.startText = text
                range.start = ISO8601Instant.seconds(text)
            }
            if let end = tag.attributes.string("END-DATE").flatMap(ISO8601Instant.seconds) {
                range.end = end
            } else if range.end == nil, let start = range.start,
                let duration = tag.attributes.decimalFloatingPoint("DURATION")
            {
                range.end = start + duration
            }
            if range.rangeClass == nil { range.rangeClass = tag.attributes.string("CLASS") }
            if tag.attributes.string("END-ON-NEXT") == "YES" { range.endOnNext = true }
            byID[id] = range
        }
        return order.compactMap { byID[$0] }
    }
}

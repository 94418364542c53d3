import HLSPlaylist

// What must hold between versions of a playlist beyond its segments (LiveComparison): date
// ranges (bis-22 §6.2.1), preload hints (§4.4.5.3), keys (§6.2.3), a VOD playlist (§6.2.1) and
// the pace of partial segments (§6.2.1). The watcher runs them on every changed reload.

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

/// Date ranges across the versions of one watched playlist: an ID keeps its range for the
/// whole watch, not only from one version to the next.
struct DateRangeLedger: Sendable {
    /// Every ID seen during the watch, with the START-DATE it first came with.
    private var starts: [String: String] = [:]

    init(first: MediaPlaylist) {
        for range in WatchedDateRange.ranges(of: first) {
            if let start = range.startText { starts[range.id] = start }
        }
    }

    mutating func compare(previous: MediaPlaylist, current: MediaPlaylist, uri: String) -> [LiveFinding] {
        let rule = LiveDateRangeChangedRule.description.id
        let before = WatchedDateRange.ranges(of: previous), after = WatchedDateRange.ranges(of: current)
        let afterIDs = Set(after.map(\.id)), beforeIDs = Set(before.map(\.id))
        var findings: [LiveFinding] = []
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
                    LiveFinding(
                        rule: rule,
                        message:
                            "EXT-X-DATERANGE \(range.id) was removed between reloads while its dates still map to segments of the playlist; keep it until they have left (bis-22 §6.2.1)",
                        location: SourceLocation(uri: uri, line: 0)))
            }
        }
        // bis-22 §6.2.1: an ID names one range; a new START-DATE under a known ID is a new range.
        for range in after {
            guard let start = range.startText else { continue }
            if let known = starts[range.id] {
                if known != start, ISO8601Instant.seconds(known) != range.start {
                    findings.append(
                        LiveFinding(
                            rule: rule,
                            message:
                                "EXT-X-DATERANGE ID \(range.id) was used for a range starting \(known) and now for one starting \(start); give each new range an ID of its own (bis-22 §6.2.1)",
                            location: SourceLocation(uri: uri, line: range.line)))
                }
            } else {
                starts[range.id] = start
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
                    LiveFinding(
                        rule: rule,
                        message:
                            "EXT-X-DATERANGE \(range.id) of CLASS \(rangeClass) was added between END-ON-NEXT range \(earlier.id) and the range that ends it, \(later.id) (bis-22 §6.2.1)",
                        location: SourceLocation(uri: uri, line: range.line)))
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

extension MediaPlaylist {
    /// The media sequence number of the last segment listed, the segments a delta update
    /// skips counted (EXT-X-SKIP).
    var lastMediaSequence: Int { mediaSequence + (skippedSegments ?? 0) + segments.count - 1 }
}

extension LiveComparison {
    /// The partial segment a playlist lists last: its parent's media sequence number and its
    /// index among the parent's parts; nil without parts.
    static func lastPart(of media: MediaPlaylist) -> (sequence: Int, index: Int)? {
        let lastSequence = media.lastMediaSequence
        if !media.trailingParts.isEmpty { return (lastSequence + 1, media.trailingParts.count - 1) }
        if let last = media.segments.last, !last.parts.isEmpty { return (lastSequence, last.parts.count - 1) }
        return nil
    }

    /// The parts of the segment with media sequence number `sequence` in `media`, the
    /// trailing ones for the segment being written; nil when the playlist does not list it.
    static func parts(of sequence: Int, in media: MediaPlaylist) -> [PartialSegment]? {
        let index = sequence - media.mediaSequence - (media.skippedSegments ?? 0)
        if index >= 0, index < media.segments.count { return media.segments[index].parts }
        if index == media.segments.count { return media.trailingParts }
        return nil
    }

    /// bis-22 §4.4.5.3: the part or map a preload hint announced is added under the hint's
    /// URI (and at its byte offset, when the hint gives one).
    static func preloadHintFindings(previous: MediaPlaylist, current: MediaPlaylist, uri: String) -> [LiveFinding] {
        var findings: [LiveFinding] = []
        let rule = LivePreloadHintBrokenRule.description.id
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        for hint in previous.preloadHints {
            guard let hinted = hint.string("URI") else { continue }
            switch hint.string("TYPE") {
            case "PART":
                // The hinted part is the one after the last listed part.
                let next: (sequence: Int, index: Int)
                if let last = lastPart(of: previous) {
                    next = last.sequence == lastPrevious ? (lastPrevious + 1, 0) : (last.sequence, last.index + 1)
                } else {
                    next = (lastPrevious + 1, 0)
                }
                guard let parts = parts(of: next.sequence, in: current), next.index < parts.count else { continue }
                let part = parts[next.index]
                let offset = hint.decimalInteger("BYTERANGE-START").map(Int.init)
                if part.uri != hinted || (offset != nil && part.byteRange != nil && part.byteRange?.offset != offset) {
                    let what = part.uri != hinted ? "URI \(part.uri)" : "byte offset \(part.byteRange?.offset ?? 0)"
                    findings.append(
                        LiveFinding(
                            rule: rule,
                            message:
                                "EXT-X-PRELOAD-HINT announced part \(next.index) of segment \(next.sequence) as \(hinted)\(offset.map { " from byte \($0)" } ?? ""), but it was added with \(what); a hint must name the part that follows (bis-22 §4.4.5.3)",
                            location: SourceLocation(uri: uri, line: part.line)))
                }
            case "MAP":
                // The hinted map is the next one new segments use.
                let previousMap = previous.segments.last?.map?.uri
                guard
                    let newMap = current.segments.first(where: {
                        $0.mediaSequence > lastPrevious && $0.map?.uri != previousMap
                    })?.map
                else { continue }
                if newMap.uri != hinted {
                    findings.append(
                        LiveFinding(
                            rule: rule,
                            message:
                                "EXT-X-PRELOAD-HINT announced the next EXT-X-MAP as \(hinted), but it was added as \(newMap.uri); a hint must name the resource that follows (bis-22 §4.4.5.3)",
                            location: SourceLocation(uri: uri, line: newMap.line)))
                }
            default:
                continue
            }
        }
        return findings
    }

    /// bis-22 §6.2.3: the key of a segment still in the playlist does not change or go.
    static func keyChange(old: MediaSegment, new: MediaSegment) -> String? {
        let before = old.key, after = new.key
        guard
            before?.method != after?.method || before?.uri != after?.uri || before?.iv != after?.iv
                || before?.keyFormat != after?.keyFormat
        else { return nil }
        return
            "EXT-X-KEY \(before.map { "METHOD=\($0.method)\($0.uri.map { ",URI=\($0)" } ?? "")" } ?? "none") became \(after.map { "METHOD=\($0.method)\($0.uri.map { ",URI=\($0)" } ?? "")" } ?? "none")"
    }

    /// bis-22 §6.2.1: a VOD playlist never changes. What differs between two of its versions,
    /// nil when nothing a client reads does.
    static func vodChange(previous: MediaPlaylist, current: MediaPlaylist) -> String? {
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

package import HLSPlaylist

/// One problem seen across reloads of a live playlist, under the id of the live rule it breaks.
package struct LiveFinding: Sendable, Hashable {
    package var rule: String
    package var message: String
    package var location: SourceLocation

    package init(rule: String, message: String, location: SourceLocation) {
        self.rule = rule
        self.message = message
        self.location = location
    }
}

/// The segments a live playlist published during the watch, and what reading them showed.
package struct LiveSegments: Sendable, Hashable {
    /// In media sequence order, each as written in the version where it first appeared (its
    /// lines are that version's).
    package var segments: [MediaSegment]
    /// One per segment, in the same order; those `--sample` left out are `sampledOut`.
    package var records: [SegmentRecord]

    package init(segments: [MediaSegment] = [], records: [SegmentRecord] = []) {
        self.segments = segments
        self.records = records
    }
}

/// What watching the live playlists of a stream for `--live-duration` showed.
package struct LiveObservation: Sendable, Hashable {
    /// Seconds the playlists were watched.
    package var watchedSeconds: Double
    /// Reloads per playlist URI.
    package var reloads: [String: Int]
    package var findings: [LiveFinding]
    /// Per playlist URI, the segments published during the watch (measured when the check
    /// measures segments); empty without `LiveWatcher.measuring`.
    package var newSegments: [String: LiveSegments] = [:]

    package init(
        watchedSeconds: Double, reloads: [String: Int], findings: [LiveFinding],
        newSegments: [String: LiveSegments] = [:]
    ) {
        self.watchedSeconds = watchedSeconds
        self.reloads = reloads
        self.findings = findings
        self.newSegments = newSegments
    }
}

/// How the watcher reads the segments a live playlist publishes: with the checker's own
/// measurer (same inspector, limits and concurrency as the first window's), `--sample`
/// spread over the watch, and at most `maximumSegments` records per playlist in all.
struct LiveSegmentMeasuring: Sendable {
    var measurer: MediaMeasurer
    /// `--sample N`: at most N new segments read per playlist, spread over the watch.
    var sample: Int?
    /// Where each playlist was found (after redirects): what its segment URIs resolve against.
    var bases: [String: String]
    /// Records per playlist, the first window's included (`--max-segments`): segments beyond are compared, not read.
    var maximumSegments: Int
    /// Segments of each playlist's first window, already measured.
    var firstWindow: [String: Int]
}

/// Reloads live media playlists (no EXT-X-ENDLIST) as a client does, RFC 8216 §6.3.4: the next
/// load starts one target duration after the previous one began, or half of it when the
/// playlist had not changed. Each pair of consecutive versions is compared (`LiveComparison`).
package struct LiveWatcher: Sendable {
    package var source: any PlaylistSource
    package var limits: LoaderLimits
    /// Read the segments published during the watch; nil: only the playlists are compared.
    var measuring: LiveSegmentMeasuring?
    /// Where the watch takes its time from: each watched playlist keeps its reload schedule on a
    /// clock of its own, made by this. Staleness and the reload interval are judged on that
    /// clock's time, so a test that gives a clock moved only by the watch's own sleeps gets the
    /// same verdicts whatever the machine's load.
    package var clock: LiveClock

    package init(source: any PlaylistSource, limits: LoaderLimits = LoaderLimits(), clock: LiveClock = .continuous) {
        self.source = source
        self.limits = limits
        self.clock = clock
    }

    /// Watches every playlist of `playlists` (resolved URI → its first version) for `seconds`.
    package func watch(_ playlists: [String: MediaPlaylist], seconds: Double) async -> LiveObservation {
        var reloads: [String: Int] = [:]
        var findings: [LiveFinding] = []
        var newSegments: [String: LiveSegments] = [:]
        var watched = Duration.zero
        await withTaskGroup(of: (String, Int, [LiveFinding], LiveSegments, Duration).self) { group in
            for (uri, first) in playlists.sorted(by: { $0.key < $1.key }) {
                group.addTask {
                    // Segments are read beside the reloads, never in their way: a slow segment
                    // must not delay a reload and make the playlist look stale.
                    let (batches, publisher) = AsyncStream.makeStream(of: [NewSegment].self)
                    async let read = readNewSegments(uri, batches)
                    let (count, found, elapsed) = await watchOne(
                        uri, first: first, clock: clock.make(), seconds: seconds, publish: publisher)
                    publisher.finish()
                    return (uri, count, found, await read, elapsed)
                }
            }
            for await (uri, count, found, segments, elapsed) in group {
                reloads[uri] = count
                findings += found
                watched = max(watched, elapsed)
                if !segments.segments.isEmpty { newSegments[uri] = segments }
            }
        }
        findings.sort {
            ($0.location.uri, $0.location.line, $0.rule, $0.message) < (
                $1.location.uri, $1.location.line, $1.rule, $1.message
            )
        }
        return LiveObservation(
            watchedSeconds: Double(watched.components.seconds) + Double(watched.components.attoseconds) / 1e18,
            reloads: reloads, findings: findings, newSegments: newSegments)
    }

    /// Reads each batch of new segments as the first window's were read: `--sample` picks are
    /// measured, the others recorded as sampled out.
    private func readNewSegments(_ uri: String, _ batches: AsyncStream<[NewSegment]>) async -> LiveSegments {
        var result = LiveSegments()
        guard let measuring else {
            for await _ in batches {}
            return result
        }
        var measurer = measuring.measurer
        let base = measuring.bases[uri] ?? uri
        for await batch in batches {
            // A gap segment (EXT-X-GAP) is never read and has no record: the measurer skips it,
            // so it is left out here too, keeping segments and records in step.
            let batch = batch.filter { !$0.segment.gap }
            let chosen = batch.filter(\.isChosen).map(\.segment), skipped = batch.filter { !$0.isChosen }.map(\.segment)
            measurer.sample = nil
            let read = await measurer.measure(Self.playlist(of: chosen), at: uri, base: base).records
            // No request is made for a segment left out: sample 0 reads none.
            measurer.sample = 0
            let unread = await measurer.measure(Self.playlist(of: skipped), at: uri, base: base).records
            var records = Dictionary(uniqueKeysWithValues: zip(chosen.map(\.mediaSequence), read))
            for (segment, record) in zip(skipped, unread) { records[segment.mediaSequence] = record }
            for segment in batch.map(\.segment) {
                guard let record = records[segment.mediaSequence] else { continue }
                result.segments.append(segment)
                result.records.append(record)
            }
        }
        return result
    }

    /// A segment published during the watch, and whether `--sample` reads it.
    struct NewSegment: Sendable {
        var segment: MediaSegment
        var isChosen: Bool
    }

    /// A media playlist holding `segments` alone: what the measurer takes.
    private static func playlist(of segments: [MediaSegment]) -> MediaPlaylist {
        var playlist = MediaPlaylist()
        playlist.segments = segments
        return playlist
    }

    /// Reloads one playlist until `seconds` have passed on `clock`: the reloads made, the
    /// findings, and the time the watch took on that clock.
    private func watchOne<C: Clock>(
        _ uri: String, first: MediaPlaylist, clock: C, seconds: Double, publish: AsyncStream<[NewSegment]>.Continuation
    ) async -> (Int, [LiveFinding], Duration) where C.Duration == Duration {
        let start = clock.now
        // Any Double a library caller passes is a watch: NaN and negatives watch nothing, and
        // the length is capped at a year rather than trapping in the conversion.
        let watchFor = seconds.isFinite ? min(max(seconds, 0), 365 * 86_400) : 0
        let deadline = start.advanced(by: .milliseconds(Int64(watchFor * 1000)))
        var previous = first
        var previousBytes: [UInt8]?
        var findings: [LiveFinding] = []
        var reported: Set<String> = []
        func add(_ finding: LiveFinding) {
            // One finding per rule and message: a server that regresses on every reload is told once.
            if reported.insert(finding.rule + "\u{0}" + finding.message).inserted { findings.append(finding) }
        }
        let targetDuration = max(1, first.targetDuration ?? 1)
        if first.endList || first.playlistType == .vod {
            // bis-22 §6.2.1: a VOD playlist never changes. Loaded again once, a target duration on.
            let next = start.advanced(by: .seconds(targetDuration))
            guard next < deadline else { return (0, [], start.duration(to: clock.now)) }
            try? await Task.sleep(until: next, clock: clock)
            guard let bytes = try? await source.read(uri), bytes.count <= limits.playlistBytes,
                let current = PlaylistParser.parse(bytes, uri: uri).media
            else { return (1, [], start.duration(to: clock.now)) }
            if first.playlistType == .vod, let change = LiveComparison.vodChange(previous: first, current: current) {
                add(
                    LiveFinding(
                        rule: LiveVODChangedRule.description.id,
                        message:
                            "\(uri) has EXT-X-PLAYLIST-TYPE:VOD but changed when loaded again: \(change); a VOD playlist must never change (bis-22 §6.2.1)",
                        location: SourceLocation(uri: uri, line: 0)))
            }
            return (1, findings, start.duration(to: clock.now))
        }
        // Low-latency playlists are reloaded once per part target (a client in low-latency mode
        // asks at least that often), so that a late part shows.
        let partTarget: Duration? = first.partTarget.flatMap {
            $0 > 0 && $0.isFinite ? .milliseconds(Int64(max(1, $0 * 1000))) : nil
        }
        let interval = min(partTarget ?? .seconds(targetDuration), .seconds(targetDuration))
        var dateRanges = DateRangeLedger(first: first)
        var lastPart = LiveComparison.lastPart(of: first).map { [$0.sequence, $0.index] }
        var lastNewPartSeen = start
        var partStaleReported = false
        // The first version was loaded before the watch began: counting from the watch's start
        // keeps the schedule whatever the task scheduler does under load.
        var loadStarted = start
        var lastNewSegmentSeen = start
        var changed = true
        var count = 0
        var staleReported = false
        // New segments: those after the last one of the first window.
        var lastPublished = first.mediaSequence + first.segments.count - 1
        var newCount = 0, chosenCount = 0
        var recordCount = measuring?.firstWindow[uri] ?? first.segments.count
        // `--sample N` over a watch: about `seconds / target duration` new segments are expected;
        // every stride-th is read, N at most.
        let expected = max(1, Int((watchFor / Double(targetDuration)).rounded(.up)))
        let stride = measuring?.sample.map { max(1, (expected + max(1, $0) - 1) / max(1, $0)) } ?? 1
        while !Task.isCancelled {
            let wait: Duration = changed ? interval : interval / 2
            let next = loadStarted.advanced(by: wait)
            guard next < deadline else { break }
            try? await Task.sleep(until: next, clock: clock)
            loadStarted = clock.now
            let bytes: [UInt8]
            do {
                bytes = try await source.read(uri)
            } catch {
                add(
                    LiveFinding(
                        rule: LivePlaylistStaleRule.description.id,
                        message:
                            "reload \(count + 1) of \(uri) failed: \(String(describing: error)); a live playlist must stay available (RFC 8216 §6.2.1)",
                        location: SourceLocation(uri: uri, line: 0)))
                changed = false
                continue
            }
            count += 1
            guard bytes.count <= limits.playlistBytes else { break }
            if bytes == previousBytes {
                changed = false
            } else {
                previousBytes = bytes
                let parsed = PlaylistParser.parse(bytes, uri: uri)
                guard let current = parsed.media else { break }
                let comparison = LiveComparison(previous: previous, current: current, uri: uri)
                for finding in comparison.findings { add(finding) }
                for finding in dateRanges.compare(previous: previous, current: current, uri: uri) { add(finding) }
                let part = LiveComparison.lastPart(of: current).map { [$0.sequence, $0.index] }
                if let part, part != lastPart {
                    lastPart = part
                    lastNewPartSeen = clock.now
                    partStaleReported = false
                }
                changed = comparison.changed
                if comparison.addedSegments {
                    lastNewSegmentSeen = clock.now
                    staleReported = false
                    var batch: [NewSegment] = []
                    for segment in current.segments where segment.mediaSequence > lastPublished && !segment.gap {
                        guard recordCount < (measuring?.maximumSegments ?? 0) else { break }
                        let chosen = newCount % stride == 0 && chosenCount < (measuring?.sample ?? Int.max)
                        batch.append(NewSegment(segment: segment, isChosen: chosen))
                        newCount += 1
                        recordCount += 1
                        if chosen { chosenCount += 1 }
                    }
                    lastPublished = max(lastPublished, current.mediaSequence + current.segments.count - 1)
                    if !batch.isEmpty { publish.yield(batch) }
                }
                previous = current
                if current.endList { break }
            }
            // bis-22 §6.2.1: a new part within one part target of the last, measured as the
            // segments are below.
            if let partTarget, lastPart != nil, !previous.endList, !partStaleReported,
                lastNewPartSeen.duration(to: loadStarted) > partTarget
            {
                partStaleReported = true
                let age = lastNewPartSeen.duration(to: loadStarted)
                let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
                add(
                    LiveFinding(
                        rule: LivePartStaleRule.description.id,
                        message:
                            "\(uri) had no new partial segment for at least \(Self.format(seconds)) s, more than its part target duration of \(first.partTarget.map { String($0) } ?? "") s (bis-22 §6.2.1)",
                        location: SourceLocation(uri: uri, line: previous.targetDurationLine ?? 0)))
            }
            // RFC 8216 §6.2.1: a new version with a new segment no later than 1.5 × target
            // duration after the previous one. Measured from when the current version was first
            // seen, a lower bound of its age.
            let age = lastNewSegmentSeen.duration(to: loadStarted)
            if !staleReported, age > .milliseconds(Int64(targetDuration) * 1500) {
                staleReported = true
                let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
                add(
                    LiveFinding(
                        rule: LivePlaylistStaleRule.description.id,
                        message:
                            "no new segment for at least \(Self.format(seconds)) s, more than 1.5 × the target duration of \(targetDuration) s (RFC 8216 §6.2.1)",
                        location: SourceLocation(uri: uri, line: previous.targetDurationLine ?? 0)))
            }
        }
        return (count, findings, start.duration(to: clock.now))
    }

    static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Makes the clocks a live watch keeps time by (`LiveWatcher.clock`).
package struct LiveClock: Sendable {
    /// A new clock for one watched playlist.
    package var make: @Sendable () -> any Clock<Duration>

    package init(_ make: @escaping @Sendable () -> any Clock<Duration>) {
        self.make = make
    }

    /// The machine's monotonic clock: what `hlscheck check --live-duration` watches by.
    package static let continuous = LiveClock { ContinuousClock() }
}

/// What must hold between two consecutive versions of a live media playlist (RFC 8216 §6.2.1:
/// the server may only append lines, remove segments from the front in order, increment
/// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE, and add EXT-X-ENDLIST).
package struct LiveComparison: Sendable {
    package var findings: [LiveFinding] = []
    /// Whether anything in the playlist moved (for the reload interval, §6.3.4).
    package var changed = false
    /// Whether the new version has a segment the previous one did not.
    package var addedSegments = false

    package init(previous: MediaPlaylist, current: MediaPlaylist, uri: String) {
        func at(_ line: Int?) -> SourceLocation { SourceLocation(uri: uri, line: line ?? 0) }
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        let lastCurrent = current.mediaSequence + current.segments.count - 1
        changed =
            current.mediaSequence != previous.mediaSequence || lastCurrent != lastPrevious
            || current.endList != previous.endList
            || Self.lastPart(of: current).map { [$0.sequence, $0.index] }
                != Self.lastPart(of: previous).map { [$0.sequence, $0.index] }
        addedSegments = lastCurrent > lastPrevious
        if current.mediaSequence < previous.mediaSequence {
            findings.append(
                LiveFinding(
                    rule: LiveMediaSequenceRegressedRule.description.id,
                    message:
                        "EXT-X-MEDIA-SEQUENCE went back from \(previous.mediaSequence) to \(current.mediaSequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                    location: at(0)))
        }
        if let type = previous.playlistType, current.mediaSequence > previous.mediaSequence {
            // bis-22 §6.2.1: an EVENT playlist only grows; §6.2.2: a playlist that removes
            // segments has no EXT-X-PLAYLIST-TYPE. No numbers in the message: told once.
            findings.append(
                LiveFinding(
                    rule: LiveSegmentChangedRule.description.id,
                    message:
                        "segments were removed from the front of a playlist with EXT-X-PLAYLIST-TYPE:\(type.rawValue) (its EXT-X-MEDIA-SEQUENCE grew); an EVENT playlist only grows, and a playlist that drops segments has no EXT-X-PLAYLIST-TYPE (bis-22 §6.2.1, §6.2.2)",
                    location: at(0)))
        }
        if current.discontinuitySequence < previous.discontinuitySequence {
            findings.append(
                LiveFinding(
                    rule: LiveDiscontinuitySequenceRule.description.id,
                    message:
                        "EXT-X-DISCONTINUITY-SEQUENCE went back from \(previous.discontinuitySequence) to \(current.discontinuitySequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                    location: at(0)))
        } else if current.mediaSequence > previous.mediaSequence {
            // Segments removed from the front take their discontinuities with them: the sequence
            // must grow by exactly that count (RFC 8216 §4.3.3.3).
            let removed = previous.segments.prefix(
                min(previous.segments.count, current.mediaSequence - previous.mediaSequence))
            let expected = previous.discontinuitySequence + removed.filter(\.discontinuity).count
            if current.mediaSequence <= lastPrevious + 1, current.discontinuitySequence != expected {
                findings.append(
                    LiveFinding(
                        rule: LiveDiscontinuitySequenceRule.description.id,
                        message:
                            "EXT-X-DISCONTINUITY-SEQUENCE is \(current.discontinuitySequence) after \(removed.count) segment(s) left the window with \(expected - previous.discontinuitySequence) discontinuit\(expected - previous.discontinuitySequence == 1 ? "y" : "ies"); it should be \(expected) (RFC 8216 §4.3.3.3)",
                        location: at(0)))
            }
        }
        if previous.targetDuration != current.targetDuration {
            findings.append(
                LiveFinding(
                    rule: LiveTargetDurationChangedRule.description.id,
                    message:
                        "EXT-X-TARGETDURATION changed from \(previous.targetDuration.map(String.init) ?? "none") to \(current.targetDuration.map(String.init) ?? "none") between reloads; it must not change (RFC 8216 §6.2.1)",
                    location: at(current.targetDurationLine)))
        }
        // bis-22 §6.2.2: segments left the front of a playlist without EXT-X-MEDIA-SEQUENCE (its
        // sequence numbers stay 0, so each segment's number changes); told instead of the changed
        // segments that follow from it.
        let removedUntagged = Self.removedWithoutMediaSequence(previous: previous, current: current)
        if let removed = removedUntagged {
            findings.append(
                LiveFinding(
                    rule: LiveSegmentChangedRule.description.id,
                    message:
                        "\(removed) segment(s) were removed from the front of this playlist between reloads, but it has no EXT-X-MEDIA-SEQUENCE, so every segment's sequence number changed; a playlist that drops segments has EXT-X-MEDIA-SEQUENCE and increments it by one per removed segment (bis-22 §6.2.2)",
                    location: at(0)))
        }
        if Self.lacksDiscontinuitySequence(current), !Self.lacksDiscontinuitySequence(previous) {
            // AS 8.17 (and bis-22 §6.2.2 once segments have left): told when a reload adds the
            // first discontinuity; the version first read is judged on its own by the rule, which
            // keeps the second message for Apple's profiles.
            findings.append(
                LiveFinding(
                    rule: LiveDiscontinuitySequenceRule.description.id,
                    message: LiveDiscontinuitySequenceRule.hasDroppedSegments(current) || removedUntagged != nil
                        ? LiveDiscontinuitySequenceRule.reloadAddedMessage
                        : LiveDiscontinuitySequenceRule.reloadAddedBeforeRemovalMessage,
                    location: at(current.segments.first(where: \.discontinuity).flatMap { $0.extinfLine ?? $0.uriLine })
                ))
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
                        LiveFinding(
                            rule: LiveSegmentChangedRule.description.id,
                            message:
                                "segment \(number) changed between reloads (\(what.joined(separator: ", "))); a published segment must not change (RFC 8216 §6.2.1)",
                            location: at(new.extinfLine ?? new.uriLine)))
                    break
                }
            }
        }
        if current.mediaSequence >= previous.mediaSequence, lastCurrent < lastPrevious {
            findings.append(
                LiveFinding(
                    rule: LiveSegmentChangedRule.description.id,
                    message:
                        "segments \(lastCurrent + 1)–\(lastPrevious) disappeared from the end of the playlist between reloads; segments may only be removed from the front, in order (RFC 8216 §6.2.1)",
                    location: at(0)))
        }
        findings += Self.preloadHintFindings(previous: previous, current: current, uri: uri)
    }
}

extension LiveComparison {
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

    static func lacksDiscontinuitySequence(_ media: MediaPlaylist) -> Bool {
        LiveDiscontinuitySequenceRule.lacksSequenceTag(media)
    }
}

extension StreamAnalysis {
    /// The analysis with the segments each live playlist published during the watch appended
    /// to its measurement, so that every rule over segments (bit rates, codecs, artwork,
    /// timeline, unreadable segments) sees the whole watched timeline.
    func addingLiveSegments() -> StreamAnalysis {
        guard let live, !live.newSegments.isEmpty else { return self }
        var measurements = self.measurements
        let firstVersions = StreamAnalysis.playlistsToMeasure(loaded)
        for (uri, new) in live.newSegments {
            guard let measurement = measurements[uri], var playlist = firstVersions[uri] ?? loaded.root.media else {
                continue
            }
            playlist.segments += new.segments
            var records = SegmentRecords(playlist.segments)
            for record in measurement.records { records.append(record) }
            for record in new.records { records.append(record) }
            measurements[uri] = PlaylistMeasurement(playlistURI: uri, playlist: playlist, records: records)
        }
        var merged = StreamAnalysis(loaded: loaded, measurements: measurements)
        merged.delivery = delivery
        merged.live = live
        merged.sessionData = sessionData
        merged.iFramePlaylists = iFramePlaylists
        return merged
    }
}

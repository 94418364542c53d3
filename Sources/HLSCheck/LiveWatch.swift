public import HLSPlaylist

/// One problem seen across reloads of a live playlist, under the id of the live rule it breaks.
public struct LiveFinding: Sendable, Hashable {
    public var rule: String
    public var message: String
    public var location: SourceLocation

    public init(rule: String, message: String, location: SourceLocation) {
        self.rule = rule
        self.message = message
        self.location = location
    }
}

/// What watching the live playlists of a stream for `--live-duration` showed.
public struct LiveObservation: Sendable, Hashable {
    /// Seconds the playlists were watched.
    public var watchedSeconds: Double
    /// Reloads per playlist URI.
    public var reloads: [String: Int]
    public var findings: [LiveFinding]

    public init(watchedSeconds: Double, reloads: [String: Int], findings: [LiveFinding]) {
        self.watchedSeconds = watchedSeconds
        self.reloads = reloads
        self.findings = findings
    }
}

/// Reloads live media playlists (no EXT-X-ENDLIST) as a client does, RFC 8216 §6.3.4: the next
/// load starts one target duration after the previous one began, or half of it when the
/// playlist had not changed. Each pair of consecutive versions is compared (`LiveComparison`).
public struct LiveWatcher: Sendable {
    public var source: any PlaylistSource
    public var limits: LoaderLimits

    public init(source: any PlaylistSource, limits: LoaderLimits = LoaderLimits()) {
        self.source = source
        self.limits = limits
    }

    /// Watches every playlist of `playlists` (resolved URI → its first version) for `seconds`.
    public func watch(_ playlists: [String: MediaPlaylist], seconds: Double) async -> LiveObservation {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
        var reloads: [String: Int] = [:]
        var findings: [LiveFinding] = []
        await withTaskGroup(of: (String, Int, [LiveFinding]).self) { group in
            for (uri, first) in playlists.sorted(by: { $0.key < $1.key }) {
                group.addTask { await watchOne(uri, first: first, from: start, until: deadline, clock: clock) }
            }
            for await (uri, count, found) in group {
                reloads[uri] = count
                findings += found
            }
        }
        findings.sort { ($0.location.uri, $0.location.line, $0.rule, $0.message) < ($1.location.uri, $1.location.line, $1.rule, $1.message) }
        let watched = start.duration(to: clock.now)
        return LiveObservation(
            watchedSeconds: Double(watched.components.seconds) + Double(watched.components.attoseconds) / 1e18,
            reloads: reloads, findings: findings)
    }

    private func watchOne(
        _ uri: String, first: MediaPlaylist, from start: ContinuousClock.Instant, until deadline: ContinuousClock.Instant,
        clock: ContinuousClock
    ) async -> (String, Int, [LiveFinding]) {
        var previous = first
        var previousBytes: [UInt8]?
        var findings: [LiveFinding] = []
        var reported: Set<String> = []
        func add(_ finding: LiveFinding) {
            // One finding per rule and message: a server that regresses on every reload is told once.
            if reported.insert(finding.rule + "\u{0}" + finding.message).inserted { findings.append(finding) }
        }
        let targetDuration = max(1, first.targetDuration ?? 1)
        // The first version was loaded before the watch began: counting from the watch's start
        // keeps the schedule whatever the task scheduler does under load.
        var loadStarted = start
        var lastNewSegmentSeen = start
        var changed = true
        var count = 0
        var staleReported = false
        while !Task.isCancelled {
            let wait: Duration = changed ? .seconds(targetDuration) : .milliseconds(Int64(targetDuration) * 500)
            let next = loadStarted.advanced(by: wait)
            guard next < deadline else { break }
            try? await Task.sleep(until: next, clock: clock)
            loadStarted = clock.now
            let bytes: [UInt8]
            do {
                bytes = try await source.read(uri)
            } catch {
                add(LiveFinding(
                    rule: LivePlaylistStaleRule.description.id,
                    message: "reload \(count + 1) of \(uri) failed: \(String(describing: error)); a live playlist must stay available (RFC 8216 §6.2.1)",
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
                changed = comparison.changed
                if comparison.addedSegments { lastNewSegmentSeen = clock.now; staleReported = false }
                previous = current
                if current.endList { break }
            }
            // RFC 8216 §6.2.1: a new version with a new segment no later than 1.5 × target
            // duration after the previous one. Measured from when the current version was first
            // seen, a lower bound of its age.
            let age = lastNewSegmentSeen.duration(to: loadStarted)
            if !staleReported, age > .milliseconds(Int64(targetDuration) * 1500) {
                staleReported = true
                let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
                add(LiveFinding(
                    rule: LivePlaylistStaleRule.description.id,
                    message: "\(uri) had no new segment for at least \(Self.format(seconds)) s, more than 1.5 × its target duration of \(targetDuration) s (RFC 8216 §6.2.1)",
                    location: SourceLocation(uri: uri, line: previous.targetDurationLine ?? 0)))
            }
        }
        return (uri, count, findings)
    }

    static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// What must hold between two consecutive versions of a live media playlist (RFC 8216 §6.2.1:
/// the server may only append lines, remove segments from the front in order, increment
/// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE, and add EXT-X-ENDLIST).
public struct LiveComparison: Sendable {
    public var findings: [LiveFinding] = []
    /// Whether anything in the playlist moved (for the reload interval, §6.3.4).
    public var changed = false
    /// Whether the new version has a segment the previous one did not.
    public var addedSegments = false

    public init(previous: MediaPlaylist, current: MediaPlaylist, uri: String) {
        func at(_ line: Int?) -> SourceLocation { SourceLocation(uri: uri, line: line ?? 0) }
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        let lastCurrent = current.mediaSequence + current.segments.count - 1
        changed = current.mediaSequence != previous.mediaSequence || lastCurrent != lastPrevious || current.endList != previous.endList
        addedSegments = lastCurrent > lastPrevious
        if current.mediaSequence < previous.mediaSequence {
            findings.append(LiveFinding(
                rule: LiveMediaSequenceRegressedRule.description.id,
                message: "EXT-X-MEDIA-SEQUENCE went back from \(previous.mediaSequence) to \(current.mediaSequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                location: at(0)))
        }
        if current.discontinuitySequence < previous.discontinuitySequence {
            findings.append(LiveFinding(
                rule: LiveDiscontinuitySequenceRule.description.id,
                message: "EXT-X-DISCONTINUITY-SEQUENCE went back from \(previous.discontinuitySequence) to \(current.discontinuitySequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                location: at(0)))
        } else if current.mediaSequence > previous.mediaSequence {
            // Segments removed from the front take their discontinuities with them: the sequence
            // must grow by exactly that count (RFC 8216 §4.3.3.3).
            let removed = previous.segments.prefix(min(previous.segments.count, current.mediaSequence - previous.mediaSequence))
            let expected = previous.discontinuitySequence + removed.filter(\.discontinuity).count
            if current.mediaSequence <= lastPrevious + 1, current.discontinuitySequence != expected {
                findings.append(LiveFinding(
                    rule: LiveDiscontinuitySequenceRule.description.id,
                    message: "EXT-X-DISCONTINUITY-SEQUENCE is \(current.discontinuitySequence) after \(removed.count) segment(s) left the window with \(expected - previous.discontinuitySequence) discontinuit\(expected - previous.discontinuitySequence == 1 ? "y" : "ies"); it should be \(expected) (RFC 8216 §4.3.3.3)",
                    location: at(0)))
            }
        }
        if previous.targetDuration != current.targetDuration {
            findings.append(LiveFinding(
                rule: LiveTargetDurationChangedRule.description.id,
                message: "EXT-X-TARGETDURATION changed from \(previous.targetDuration.map(String.init) ?? "none") to \(current.targetDuration.map(String.init) ?? "none") between reloads; it must not change (RFC 8216 §6.2.1)",
                location: at(current.targetDurationLine)))
        }
        // Segments published in both versions (same media sequence number) must be the same.
        let overlapStart = max(previous.mediaSequence, current.mediaSequence)
        let overlapEnd = min(lastPrevious, lastCurrent)
        if overlapStart <= overlapEnd {
            for number in overlapStart...overlapEnd {
                let old = previous.segments[number - previous.mediaSequence]
                let new = current.segments[number - current.mediaSequence]
                if old.uri != new.uri || abs(old.duration - new.duration) > 0.0005 || old.discontinuity != new.discontinuity {
                    var what: [String] = []
                    if old.uri != new.uri { what.append("URI \(old.uri) became \(new.uri)") }
                    if abs(old.duration - new.duration) > 0.0005 { what.append("EXTINF \(old.duration) became \(new.duration)") }
                    if old.discontinuity != new.discontinuity { what.append("EXT-X-DISCONTINUITY \(new.discontinuity ? "added" : "removed")") }
                    findings.append(LiveFinding(
                        rule: LiveSegmentChangedRule.description.id,
                        message: "segment \(number) changed between reloads (\(what.joined(separator: ", "))); a published segment must not change (RFC 8216 §6.2.1)",
                        location: at(new.extinfLine ?? new.uriLine)))
                    break
                }
            }
        }
        if current.mediaSequence >= previous.mediaSequence, lastCurrent < lastPrevious {
            findings.append(LiveFinding(
                rule: LiveSegmentChangedRule.description.id,
                message: "segments \(lastCurrent + 1)–\(lastPrevious) disappeared from the end of the playlist between reloads; segments may only be removed from the front, in order (RFC 8216 §6.2.1)",
                location: at(0)))
        }
    }
}

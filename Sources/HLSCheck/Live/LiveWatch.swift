package import HLSPlaylist

/// A finding of the live watch, under the id of the rule that made it: a live rule judging a
/// reload (`LiveRule`), or the probe of delivery directives.
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
/// playlist had not changed. The watcher observes; the live rules judge: every reload — a new
/// version, the same one again, a failure — goes to each rule's judge of that playlist
/// (`LiveRule`), and what they find is filed under their ids. Only the latest version of each
/// playlist is held, so a long watch costs the reloads' time, not their memory.
package struct LiveWatcher: Sendable {
    package var source: any PlaylistSource
    package var limits: LoaderLimits
    /// The rules that judge the reloads: by default every live rule of the catalogue.
    package var rules: [any LiveRule] = RuleCatalogue.liveRules
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
            watchedSeconds: watched.seconds,
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
        var judgement = LivePlaylistJudgement(rules: rules, first: first, uri: uri)
        func observe(_ outcome: LiveReload.Outcome, number: Int, started: C.Instant) {
            judgement.judge(
                LiveReload(
                    uri: uri, number: number, started: start.duration(to: started),
                    answered: start.duration(to: clock.now), outcome: outcome))
        }
        let targetDuration = max(1, first.targetDuration ?? 1)
        if first.endList || first.playlistType == .vod {
            // bis-22 §6.2.1: a VOD playlist never changes. Loaded again once, a target duration on.
            let next = start.advanced(by: .seconds(targetDuration))
            guard next < deadline else { return (0, [], start.duration(to: clock.now)) }
            try? await Task.sleep(until: next, clock: clock)
            let started = clock.now
            guard let bytes = try? await source.read(uri), bytes.count <= limits.playlistBytes,
                let current = PlaylistParser.parse(bytes, uri: uri).media
            else { return (1, [], start.duration(to: clock.now)) }
            observe(.changed(previous: first, current: current), number: 1, started: started)
            return (1, judgement.findings, start.duration(to: clock.now))
        }
        // Low-latency playlists are reloaded once per part target (a client in low-latency mode
        // asks at least that often), so that a late part shows.
        let partTarget: Duration? = first.partTarget.flatMap {
            $0 > 0 && $0.isFinite ? .milliseconds(Int64(max(1, $0 * 1000))) : nil
        }
        let interval = min(partTarget ?? .seconds(targetDuration), .seconds(targetDuration))
        // The first version was loaded before the watch began: counting from the watch's start
        // keeps the schedule whatever the task scheduler does under load.
        var loadStarted = start
        var changed = true
        // Reloads answered; a failed one is told under the number the next answered one takes.
        var count = 0
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
                observe(.failed(String(describing: error)), number: count + 1, started: loadStarted)
                changed = false
                continue
            }
            count += 1
            guard bytes.count <= limits.playlistBytes else { break }
            if bytes == previousBytes {
                changed = false
                observe(.unchanged(current: previous), number: count, started: loadStarted)
                continue
            }
            previousBytes = bytes
            guard let current = PlaylistParser.parse(bytes, uri: uri).media else { break }
            observe(.changed(previous: previous, current: current), number: count, started: loadStarted)
            changed = Self.moved(from: previous, to: current)
            if Self.lastSequence(current) > Self.lastSequence(previous) {
                var batch: [NewSegment] = []
                for segment in current.segments where segment.mediaSequence > lastPublished && !segment.gap {
                    guard recordCount < (measuring?.maximumSegments ?? 0) else { break }
                    let chosen = newCount % stride == 0 && chosenCount < (measuring?.sample ?? Int.max)
                    batch.append(NewSegment(segment: segment, isChosen: chosen))
                    newCount += 1
                    recordCount += 1
                    if chosen { chosenCount += 1 }
                }
                lastPublished = max(lastPublished, Self.lastSequence(current))
                if !batch.isEmpty { publish.yield(batch) }
            }
            previous = current
            if current.endList { break }
        }
        return (count, judgement.findings, start.duration(to: clock.now))
    }

    /// Whether anything in the playlist moved between two versions (for the reload interval,
    /// RFC 8216 §6.3.4): its first or last segment, its last part, or its end.
    static func moved(from previous: MediaPlaylist, to current: MediaPlaylist) -> Bool {
        current.mediaSequence != previous.mediaSequence || lastSequence(current) != lastSequence(previous)
            || current.endList != previous.endList || current.lastPart != previous.lastPart
    }

    /// The media sequence number of the last segment a version lists (skipped ones not counted).
    private static func lastSequence(_ media: MediaPlaylist) -> Int { media.mediaSequence + media.segments.count - 1 }

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

extension StreamAnalysis {
    /// The analysis with the segments each live playlist published during the watch appended
    /// to its measurement, so that every rule over segments (bit rates, codecs, poster,
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

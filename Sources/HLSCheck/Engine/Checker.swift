package import HLSPlaylist
package import MediaInspection
package import StreamSources
import FileSystem

/// Why a check could not run at all (exit code 2). Content problems are diagnostics, not errors.
public struct CheckError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the input; printed as is.
    public var description: String

    /// Makes an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}

/// The result of checking one input: what every reporter renders. Its locations name files: a
/// local playlist by its path as the user would type it (`Stream #1/master.m3u8`), a remote one
/// by its URL (see `namingFiles()`).
public struct CheckReport: Sendable {
    /// The input as given (a path or URL): the name of the stream in every report.
    public var input: String
    /// Every finding, suppressed ones included, after configured severities.
    public var diagnostics: [Diagnostic]
    /// One summary per variant (or one for a media playlist given alone), in playlist order.
    package var variants: [VariantSummary]
    /// The rules that ran (enabled, and not skipped for `--playlist-only`), in catalogue order:
    /// what a JUnit report lists as test cases.
    package var checkedRules: [RuleDescription]
    /// Each measured media playlist's segments as bit rates over time, keyed by resolved URI
    /// (`VariantSummary.playlist`): what the HTML report draws. Empty with `--playlist-only`,
    /// and unless `CheckConfiguration.keepsSegmentDetail`.
    package var bitrateSeries: [String: BitrateSeries] = [:]
    /// The posters found, keyed by content hash, when `CheckConfiguration.keepsSegmentDetail`.
    package var posterImages: [String: PosterImage] = [:]
    /// The audio-only budget the stream was checked against, in bit/s; nil when not checked.
    package var audioOnlyBudget: Int?
    /// How the stream travelled over http(s) (protocols, answers, bytes); nil for a local stream.
    package var delivery: DeliveryLog?
    /// Set when the input is a media playlist: the checks that judge a multivariant playlist
    /// (audio-only variant, BANDWIDTH, renditions) had nothing to judge. Holds the multivariant
    /// playlists beside it that reference it (StreamDiscovery.multivariantPlaylists), if any.
    package var multivariantPlaylists: [String]?
    /// Where the rules are documented on the web (`CheckConfiguration.documentationURL`); nil:
    /// reports link nowhere and point to `hlscheck rules ID` instead.
    package var documentationURL: String?
    /// The files the check read (its playlists, segments, initialization sections, keys) that
    /// are among `CheckConfiguration.reportFiles`, as the playlists name them; empty unless
    /// that set is.
    package var readReportFiles: [String] = []

    /// Makes the report of an input that was checked.
    package init(input: String, diagnostics: [Diagnostic], variants: [VariantSummary], checkedRules: [RuleDescription])
    {
        self.input = input
        self.diagnostics = diagnostics
        self.variants = variants
        self.checkedRules = checkedRules
    }

    /// The rule id under which an input that could not be checked at all is reported: a
    /// missing file, a file that is not a playlist, a refused FIFO, an unreachable URL, an input
    /// outside its root. No configuration changes it: it is the exit code 2 of a run.
    package static let inputUnreadableRule = InputUnreadableRule.description.id

    /// Why the input could not be checked; nil when it was.
    public var inputError: CheckError?

    /// The report of an input that could not be checked: one error (`input-unreadable`) located
    /// at the input with line 0 (the whole file), no variants, no rules run.
    package init(input: String, error: CheckError) {
        self.init(
            input: input,
            diagnostics: [
                Diagnostic(
                    rule: Self.inputUnreadableRule, severity: .error, message: error.description,
                    location: SourceLocation(uri: input, line: 0))
            ],
            variants: [], checkedRules: [])
        self.inputError = error
    }

    /// The lowest severity that fails this stream (`--fail-on`, or the configuration file's
    /// `failOn`); nil for `never`. Set by the caller; what a JUnit report fails follows it.
    public var failureThreshold: Severity? = .error

    /// Whether this input fails the run: it could not be checked (exit code 2), or it has a
    /// finding at or above `failureThreshold` (exit code 1).
    public var fails: Bool {
        inputError != nil || failureThreshold.map(fails(at:)) == true
    }

    /// Findings at `severity` that count (suppressed ones do not).
    public func count(_ severity: Severity) -> Int {
        diagnostics.reduce(0) { $0 + ($1.severity == severity && !$1.suppressed ? 1 : 0) }
    }

    /// Wall-clock seconds the check of this input took (load, measure, rules); nil when unknown.
    public var duration: Double?
    /// Seconds each rule that ran took over the analysed stream, by rule id.
    package var ruleDurations: [String: Double] = [:]

    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Findings excused by a `# hlscheck-disable-next-line` comment.
    package var suppressedCount: Int { diagnostics.reduce(0) { $0 + ($1.suppressed ? 1 : 0) } }

    /// Of the suppressed findings, those a baseline file excused (`--baseline`).
    package var baselinedCount: Int { diagnostics.reduce(0) { $0 + ($1.baselined ? 1 : 0) } }

    /// Whether a finding at or above `threshold` counts against the stream (exit code 1).
    public func fails(at threshold: Severity) -> Bool {
        diagnostics.contains { !$0.suppressed && $0.severity >= threshold }
    }
}

/// The engine: load → analyse → run every rule → apply configured severities.
public struct Checker: Sendable {
    /// What to check and with which limits.
    package var configuration: CheckConfiguration
    /// The rules that run, in catalogue order.
    package var rules: [any Rule]
    /// A bound on segments in flight shared with the checkers of other streams of the same run
    /// (`hlscheck check --jobs`); nil: only `configuration.maxConcurrentSegments` bounds this one.
    package var segmentSlots: SegmentSlots?
    private let loader: PlaylistLoader
    private let segmentSource: any SegmentByteSource
    /// Tells how remote resources travelled (HLSRemote's fetcher); nil for local streams.
    package var deliveryObserver: (any DeliveryObserver)?
    /// Segments whose facts the caller already knows (`hlscheck embed` re-checking what it has
    /// just written): their records are taken instead of reading them (KnownSegments).
    package var knownSegments: KnownSegments?
    /// Where the analysis keeps the small segments without video it read whole, for the caller
    /// to take instead of reading them again (`hlscheck embed` rewrites them next); nil: none kept.
    package var segmentBytesKeeper: SegmentBytesKeeper?
    /// The clocks the live watch (`liveWatchSeconds`) keeps its reload schedule by.
    package var liveClock: LiveClock = .continuous
    /// Where a media playlist given as input looks for the multivariant playlists that reference
    /// it; one index shared by the checks of a run reads each folder once.
    package var multivariantIndex = MultivariantPlaylistIndex()

    /// `source` and `segmentSource` default to local files within `configuration.limits`.
    package init(
        configuration: CheckConfiguration = CheckConfiguration(),
        source: (any PlaylistSource)? = nil,
        segmentSource: (any SegmentByteSource)? = nil,
        rules: [any Rule] = RuleCatalogue.all
    ) {
        self.configuration = configuration
        self.rules = rules
        let limits = configuration.limits
        self.loader = PlaylistLoader(
            // Bytes that are not a playlist (a segment, an image) are refused, never parsed.
            source: SniffingPlaylistSource(base: source ?? LocalFileSource(maximumSize: limits.playlistBytes)),
            limits: limits.loader,
            confinement: configuration.confinement)
        self.segmentSource = segmentSource ?? LocalSegmentSource(maximumByteCount: limits.segmentBytes)
    }

    /// Loads, measures and checks the stream at `uri`. Throws `CheckError` only when the root
    /// playlist cannot be read at all; every content problem is a diagnostic of the report.
    package func check(_ uri: String) async throws(CheckError) -> CheckReport {
        let clock = ContinuousClock(), start = clock.now
        let analysis = try await analyse(uri)
        var ruleDurations: [String: Double] = [:]
        var report = CheckReport(
            input: uri,
            diagnostics: FixPlan(analysis, configuration: configuration).proposing(
                diagnose(analysis, ruleDurations: &ruleDurations), in: analysis),
            variants: analysis.variants.map { VariantSummary($0, audioOnlyBudget: configuration.audioOnlyBudget) },
            checkedRules: checkedRules)
        report.ruleDurations = ruleDurations
        report.audioOnlyBudget = configuration.audioOnlyBudget
        report.documentationURL = configuration.documentationURL
        if !configuration.reportFiles.isEmpty {
            report.readReportFiles = analysis.loaded.localFilesRead.filter { path in
                FileIdentity(path: path).map(configuration.reportFiles.contains) ?? false
            }
        }
        if deliveryObserver != nil { report.delivery = analysis.delivery }
        if configuration.keepsSegmentDetail {
            report.bitrateSeries = analysis.measurements.mapValues(BitrateSeries.init)
            report.posterImages = await measurer(analysis.loaded).posterImages(
                StreamAnalysis.playlistsToMeasure(analysis.loaded), analysis.measurements)
        }
        if analysis.loaded.root.media != nil {
            // Only a local stream has folders to look in.
            report.multivariantPlaylists =
                URIScheme.isRemote(uri)
                ? []
                : StreamDiscovery.multivariantPlaylists(
                    referencing: uri, maximumBytes: configuration.limits.playlistBytes, index: multivariantIndex)
        }
        report.duration = CheckReport.seconds(start.duration(to: clock.now))
        return report.namingFiles()
    }

    /// Loads the stream and measures its segments (unless `playlistOnly`): what rules and the
    /// packager work from.
    package func analyse(_ uri: String) async throws(CheckError) -> StreamAnalysis {
        let loaded: LoadedStream
        do {
            loaded = try await loader.load(uri)
        } catch let error as InputReadError {
            throw CheckError("cannot read the playlist \(error)")
        } catch {
            throw CheckError("cannot read the playlist \(uri)")
        }
        // One cache for the stream: a segment listed again, by any playlist or during the live
        // watch, is not read again (SegmentFactsCache).
        let cache = SegmentFactsCache()
        var analysis = StreamAnalysis(loaded: loaded, measurements: await measure(loaded, cache: cache))
        if !configuration.playlistOnly {
            // bis-22 §4.4.6.4: what a session-data URI names, read like a segment (and confined like one).
            analysis.sessionData = await SessionDataResource.read(
                loaded, source: segmentSource, streamRoot: loader.streamRoot(for: loaded.rootURI))
        }
        analysis.iFramePlaylists = await inspectIFramePlaylists(loaded, cache: cache)
        if let seconds = configuration.liveWatchSeconds {
            // Live media playlists (no EXT-X-ENDLIST), as they were first read, and VOD ones,
            // loaded once more to see that they do not change (bis-22 §6.2.1).
            var live: [String: MediaPlaylist] = [:]
            if let media = loaded.root.media, !media.endList || media.playlistType == .vod {
                live[loaded.rootURI] = media
            }
            for (key, playlist) in loaded.mediaPlaylists {
                if let media = playlist.media, !media.endList || media.playlistType == .vod { live[key] = media }
            }
            if !live.isEmpty {
                var watcher = LiveWatcher(source: loader.source, limits: loader.limits, clock: liveClock)
                watcher.rules = rules.compactMap { $0 as? any LiveRule }
                if !configuration.playlistOnly {
                    // Segments published during the watch are read like the first window's.
                    watcher.measuring = LiveSegmentMeasuring(
                        measurer: measurer(loaded, cache: cache), sample: configuration.sampleSegments,
                        bases: live.keys.reduce(into: [:]) {
                            $0[$1] = $1 == loaded.rootURI ? loaded.root.uri : loaded.mediaPlaylists[$1]?.uri ?? $1
                        },
                        maximumSegments: configuration.limits.segmentsPerPlaylist,
                        firstWindow: analysis.measurements.mapValues(\.records.count))
                }
                var observation = await watcher.watch(live, seconds: seconds)
                if let directives = ((loader.source as? SniffingPlaylistSource)?.base ?? loader.source)
                    as? any DirectiveSource
                {
                    // bis-22 §6.2.5: what the server says it supports, asked for once the watch is over.
                    var probe = DeliveryDirectiveProbe(
                        source: directives, limits: loader.limits, readsMedia: !configuration.playlistOnly)
                    probe.rules = watcher.rules
                    observation.findings += await probe.probe(
                        live.filter { $0.value.serverControl != nil || $0.value.partTarget != nil },
                        watchedSeconds: observation.watchedSeconds)
                }
                analysis.live = observation
                analysis = analysis.addingLiveSegments()
            }
        }
        if let deliveryObserver { analysis.delivery = await deliveryObserver.deliveryLog() }
        return analysis
    }

    /// The rules this configuration runs.
    var checkedRules: [RuleDescription] {
        rules.map { type(of: $0).description }.filter(runs)
    }

    private func runs(_ rule: RuleDescription) -> Bool {
        configuration.severity(for: rule) != nil && !(rule.needsMedia && configuration.playlistOnly)
            && (!rule.needsDecoding || configuration.decode)
            // Delivery and live rules judge what only a remote source or a live watch sees; a
            // local check does not list them as checked (JUnit would show them passing).
            && (!rule.needsNetwork || deliveryObserver != nil || configuration.liveWatchSeconds != nil)
            && (rule.id != SegmentsSampledRule.description.id || configuration.sampleSegments != nil)
    }

    /// Inspects the segments of every variant and rendition playlist, one playlist at a time,
    /// its segments concurrently on both cores. Nothing with `--playlist-only`.
    func measure(_ loaded: LoadedStream, cache: SegmentFactsCache = SegmentFactsCache()) async -> [String:
        PlaylistMeasurement]
    {
        guard !configuration.playlistOnly else { return [:] }
        let measurer = measurer(loaded, cache: cache)
        var measurements: [String: PlaylistMeasurement] = [:]
        for (uri, playlist) in StreamAnalysis.playlistsToMeasure(loaded).sorted(by: { $0.key < $1.key }) {
            // A playlist found after a redirect: its segments resolve against where it was found.
            let base = uri == loaded.rootURI ? loaded.root.uri : loaded.mediaPlaylists[uri]?.uri ?? uri
            measurements[uri] = await measurer.measure(playlist, at: uri, base: base)
        }
        return measurements
    }

    /// Reads what the I-frame playlists' rules need of their resources (IFramePlaylistInspection),
    /// one playlist at a time. Nothing with `--playlist-only`.
    func inspectIFramePlaylists(_ loaded: LoadedStream, cache: SegmentFactsCache) async -> [String:
        IFramePlaylistInspection]
    {
        guard !configuration.playlistOnly, let multivariant = loaded.root.multivariant else { return [:] }
        let measurer = measurer(loaded, cache: cache)
        var result: [String: IFramePlaylistInspection] = [:]
        for iFrame in multivariant.iFrameVariants {
            let uri = loaded.resolvedURI(of: iFrame)
            guard result[uri] == nil, let media = loaded.mediaPlaylists[uri]?.media, media.iFramesOnly else { continue }
            result[uri] = await measurer.inspectIFrames(media, at: uri, base: loaded.mediaPlaylists[uri]?.uri ?? uri)
        }
        return result
    }

    private func measurer(_ loaded: LoadedStream, cache: SegmentFactsCache = SegmentFactsCache()) -> MediaMeasurer {
        // Segments outside the stream's root are never opened (uri-outside-root reports them).
        var inspector = SegmentInspector(
            source: RefusingSegmentSource(
                base: segmentSource, refused: loaded.outsideRootURIs,
                reason: "lies outside the stream's root; not read (see uri-outside-root)"),
            maximumImagePixels: configuration.limits.imagePixels, maximumID3Bytes: configuration.limits.id3Bytes)
        inspector.keeper = segmentBytesKeeper
        var measurer = MediaMeasurer(inspector: inspector, maxConcurrent: configuration.maxConcurrentSegments)
        measurer.decode = configuration.decode
        measurer.slots = segmentSlots
        measurer.sample = configuration.sampleSegments
        measurer.known = knownSegments
        measurer.refused = knownSegments == nil ? [] : loaded.outsideRootURIs
        measurer.cache = cache
        return measurer
    }

    /// Runs every enabled rule over an analysed stream, in deterministic order.
    package func diagnose(_ analysis: StreamAnalysis) -> [Diagnostic] {
        var ruleDurations: [String: Double] = [:]
        return diagnose(analysis, ruleDurations: &ruleDurations)
    }

    /// `diagnose`, recording how long each rule took, in seconds (JUnit test case times).
    func diagnose(_ analysis: StreamAnalysis, ruleDurations: inout [String: Double]) -> [Diagnostic] {
        let clock = ContinuousClock()
        var suppressions = Suppressions(analysis.playlists)
        var diagnostics: [Diagnostic] = []
        func report(_ findings: [Finding], _ description: RuleDescription, _ severity: Severity) {
            for finding in Self.boundedPerLine(findings) {
                diagnostics.append(
                    Diagnostic(
                        rule: description.id, severity: severity, message: finding.message,
                        location: finding.location,
                        suppressed: suppressions.excuse(description.id, at: finding.location)))
            }
        }
        for rule in rules {
            let description = type(of: rule).description
            guard let severity = configuration.severity(for: description), runs(description) else { continue }
            let start = clock.now
            report(rule.check(analysis, configuration: configuration), description, severity)
            ruleDurations[description.id, default: 0] += CheckReport.seconds(start.duration(to: clock.now))
        }
        // The directives themselves, once every finding they could excuse is known.
        guard !suppressions.directives.isEmpty else { return diagnostics.sorted(by: Diagnostic.reportOrder) }
        let known = Set(rules.map { type(of: $0).description.id } + RuleCatalogue.descriptions.map(\.id))
        let (unknown, unused) = suppressions.directiveFindings(known: known, checked: Set(checkedRules.map(\.id)))
        for (description, findings) in [
            (SuppressionUnknownRuleRule.description, unknown), (SuppressionUnusedRule.description, unused),
        ] {
            guard rules.contains(where: { type(of: $0).description.id == description.id }),
                let severity = configuration.severity(for: description), runs(description)
            else { continue }
            report(findings, description, severity)
        }
        return diagnostics.sorted(by: Diagnostic.reportOrder)
    }
}

extension Checker {
    /// At most `ValueLimits.maximumProblemsPerLine` findings of one rule on one line, then one
    /// finding that counts the rest: what one line of a playlist can make a rule say is bounded,
    /// so a report (and every reporter's work on it) grows with the playlist's lines, not with
    /// what one line repeats (docs/security.md, "Limits"). One finding over the limit is kept
    /// rather than counted (a count of one says less than the finding), so the parser's problems,
    /// 20 per line and one that counts the rest, pass whole. Findings of a whole file (line 0)
    /// or of no file are not lines and are kept.
    static func boundedPerLine(_ findings: [Finding]) -> [Finding] {
        let limit = ValueLimits.maximumProblemsPerLine
        guard findings.count > limit + 1 else { return findings }
        struct Line: Hashable {
            var uri: String
            var line: Int
        }
        func line(of finding: Finding) -> Line? {
            guard let location = finding.location, location.line > 0 else { return nil }
            return Line(uri: location.uri, line: location.line)
        }
        var totals: [Line: Int] = [:]
        for finding in findings {
            if let key = line(of: finding) { totals[key, default: 0] += 1 }
        }
        guard totals.values.contains(where: { $0 > limit + 1 }) else { return findings }
        var kept: [Finding] = []
        var seen: [Line: Int] = [:]
        var cut: [Line] = []
        for finding in findings {
            guard let key = line(of: finding), let total = totals[key], total > limit + 1 else {
                kept.append(finding)
                continue
            }
            let count = seen[key, default: 0] + 1
            seen[key] = count
            if count <= limit { kept.append(finding) }
            if count == limit + 1 { cut.append(key) }
        }
        for key in cut {
            kept.append(
                Finding(
                    "\(totals[key, default: 0] - limit) more findings of this rule on this line are not shown (hlscheck reports at most \(limit) per rule and line)",
                    at: SourceLocation(uri: key.uri, line: key.line)))
        }
        return kept
    }
}

extension CheckReport {
    /// The report with every location (of findings, of variants' playlists, of bit-rate series)
    /// named as a file rather than as a URI. Inside the checker a playlist's location is its URI
    /// (RFC 3986): the base its references resolve against, where a folder the user typed as
    /// `Stream #1` is `Stream %231` (`ResolutionBase`). A report is for people and for tools that
    /// open files: each local location becomes the path of the file it names, the one that was
    /// read (`LocalFileName`: percent-decoded, query and fragment dropped); URLs stay as they are.
    func namingFiles() -> CheckReport {
        var report = self
        let file = LocalPath.shown
        report.diagnostics = diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if let uri = diagnostic.location?.uri { diagnostic.location?.uri = file(uri) }
            if let uri = diagnostic.fix?.uri { diagnostic.fix?.uri = file(uri) }
            return diagnostic
        }
        report.variants = variants.map { variant in
            var variant = variant
            variant.playlist = file(variant.playlist)
            variant.peakCombination = variant.peakCombination?.map(file)
            return variant
        }
        report.bitrateSeries = Dictionary(
            bitrateSeries.map { (file($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        return report
    }
}

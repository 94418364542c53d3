public import HLSPlaylist
public import MediaInspection

/// Why a check could not run at all (exit code 2). Content problems are diagnostics, not errors.
public struct CheckError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The result of checking one input: what every reporter renders.
public struct CheckReport: Sendable {
    public var input: String
    public var diagnostics: [Diagnostic]
    public var variants: [VariantSummary]
    /// The rules that ran (enabled, and not skipped for `--playlist-only`), in catalogue order:
    /// what a JUnit report lists as test cases.
    public var checkedRules: [RuleDescription]

    public init(input: String, diagnostics: [Diagnostic], variants: [VariantSummary], checkedRules: [RuleDescription]) {
        self.input = input
        self.diagnostics = diagnostics
        self.variants = variants
        self.checkedRules = checkedRules
    }

    /// The rule id under which an input that could not be checked at all is reported: a
    /// missing file, a file that is not a playlist, a refused FIFO, an unreachable URL, an input
    /// outside its root. Not a rule of the catalogue (no configuration turns it off): it is the
    /// exit code 2 of a run, shown in every report format.
    public static let inputUnreadableRule = "input-unreadable"

    /// Why the input could not be checked; nil when it was.
    public var inputError: CheckError?

    /// The report of an input that could not be checked: one error (`input-unreadable`) located
    /// at the input with line 0 (the whole file), no variants, no rules run.
    public init(input: String, error: CheckError) {
        self.init(
            input: input,
            diagnostics: [Diagnostic(rule: Self.inputUnreadableRule, severity: .error, message: error.description,
                                     location: SourceLocation(uri: input, line: 0))],
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

    public var suppressedCount: Int { diagnostics.reduce(0) { $0 + ($1.suppressed ? 1 : 0) } }

    /// Whether a finding at or above `threshold` counts against the stream (exit code 1).
    public func fails(at threshold: Severity) -> Bool {
        diagnostics.contains { !$0.suppressed && $0.severity >= threshold }
    }
}

/// The engine: load → analyse → run every rule → apply configured severities.
public struct Checker: Sendable {
    public var configuration: CheckConfiguration
    public var rules: [any Rule]
    private let loader: PlaylistLoader
    private let segmentSource: any SegmentByteSource
    /// Tells how remote resources travelled (HLSRemote's fetcher); nil for local streams.
    public var deliveryObserver: (any DeliveryObserver)?

    /// `source` and `segmentSource` default to local files within `configuration.limits`.
    public init(
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
            source: SniffingPlaylistSource(base: source ?? LocalFileSource(maximumSize: limits.playlistBytes)), limits: limits.loader,
            confinement: configuration.confinement)
        self.segmentSource = segmentSource ?? LocalSegmentSource(maximumByteCount: limits.segmentBytes)
    }

    public func check(_ uri: String) async throws(CheckError) -> CheckReport {
        let analysis = try await analyse(uri)
        return CheckReport(
            input: uri, diagnostics: diagnose(analysis),
            variants: analysis.variants.map { VariantSummary($0, audioOnlyBudget: configuration.audioOnlyBudget) }, checkedRules: checkedRules)
    }

    /// Loads the stream and measures its segments (unless `playlistOnly`): what rules and the
    /// packager work from.
    public func analyse(_ uri: String) async throws(CheckError) -> StreamAnalysis {
        let loaded: LoadedStream
        do {
            loaded = try await loader.load(uri)
        } catch let error as PlaylistReadError {
            throw CheckError("cannot read the playlist \(error)")
        } catch {
            throw CheckError("cannot read the playlist \(uri)")
        }
        var analysis = StreamAnalysis(loaded: loaded, measurements: await measure(loaded))
        if let seconds = configuration.liveWatchSeconds {
            // Live media playlists (no EXT-X-ENDLIST), as they were first read.
            var live: [String: MediaPlaylist] = [:]
            if let media = loaded.root.media, !media.endList { live[uri] = media }
            for (key, playlist) in loaded.mediaPlaylists {
                if let media = playlist.media, !media.endList { live[key] = media }
            }
            if !live.isEmpty {
                analysis.live = await LiveWatcher(source: loader.source, limits: loader.limits).watch(live, seconds: seconds)
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
    func measure(_ loaded: LoadedStream) async -> [String: PlaylistMeasurement] {
        guard !configuration.playlistOnly else { return [:] }
        // Segments outside the stream's root are never opened (uri-outside-root reports them).
        let inspector = SegmentInspector(
            source: RefusingSegmentSource(
                base: segmentSource, refused: loaded.outsideRootURIs,
                reason: "lies outside the stream's root; not read (see uri-outside-root)"),
            maximumImagePixels: configuration.limits.imagePixels, maximumID3Bytes: configuration.limits.id3Bytes)
        var measurer = MediaMeasurer(inspector: inspector, maxConcurrent: configuration.maxConcurrentSegments)
        measurer.decode = configuration.decode
        measurer.sample = configuration.sampleSegments
        var measurements: [String: PlaylistMeasurement] = [:]
        for (uri, playlist) in StreamAnalysis.playlistsToMeasure(loaded).sorted(by: { $0.key < $1.key }) {
            // A playlist found after a redirect: its segments resolve against where it was found.
            let base = uri == loaded.rootURI ? loaded.root.uri : loaded.mediaPlaylists[uri]?.uri ?? uri
            measurements[uri] = await measurer.measure(playlist, at: uri, base: base)
        }
        return measurements
    }

    /// Runs every enabled rule over an analysed stream, in deterministic order.
    public func diagnose(_ analysis: StreamAnalysis) -> [Diagnostic] {
        let suppressions = Suppressions(analysis.playlists)
        var diagnostics: [Diagnostic] = []
        for rule in rules {
            let description = type(of: rule).description
            guard let severity = configuration.severity(for: description), runs(description) else { continue }
            for finding in rule.check(analysis, configuration: configuration) {
                diagnostics.append(
                    Diagnostic(
                        rule: description.id, severity: severity, message: finding.message,
                        location: finding.location,
                        suppressed: suppressions.excuses(description.id, at: finding.location)))
            }
        }
        return diagnostics.sorted(by: Diagnostic.reportOrder)
    }
}

import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSPlaylist
import HLSRemote
import MediaInspection
import HLSReporting
import StreamSources

/// One input of a run, with everything needed to check it.
struct StreamJob: Sendable {
    var input: String
    var configuration: CheckConfiguration
    var failureThreshold: Severity?
    /// Why the input cannot be checked at all (missing path, broken configuration beside it).
    var unusable: CheckError?
    /// Playlists folder discovery already read, reused while unchanged.
    var discovered: DiscoveredPlaylists? = nil
}

/// Checks streams concurrently, at most `jobs` at once, and prints each stream's text part as
/// soon as it may:
///
/// - standard output is a terminal: in completion order (a person watching sees each stream the
///   moment it is done);
/// - otherwise (a pipe, a file, a CI log): in input order, each as soon as it and every stream
///   before it are done — the log is the same from one run to the next, and the same bytes as
///   `--jobs 1`.
///
/// Machine formats are rendered at the end from every report, in input order. Each stream's
/// analysis (playlists, segment records) is dropped once its report is made; the report itself
/// is kept only when a format rendered at the end needs it, else only its counts are.
struct StreamRun: Sendable {
    var jobs: Int
    var slots: SegmentSlots
    /// The multivariant playlists of the folders the run's media-playlist inputs sit in, each
    /// folder read once for the whole run.
    var multivariantIndex = MultivariantPlaylistIndex()
    var console: Console
    var baseline: Baseline?
    var recordsBaseline: Bool
    /// The renderer of the text streamed to standard output; nil when text is not streamed.
    var text: TextReporter?
    var completionOrder: Bool
    var keepsReports: Bool
    /// How reports show paths (relative to the repository root); the baseline's file names are
    /// relative to the same root.
    var paths: ReportPaths
    /// The run's HTTP client (docs/remote.md): for inputs that are URLs, and for http(s) media
    /// playlists and segments a local multivariant playlist names. It connects only when one is
    /// fetched; local paths are read from disk.
    var fetcher: RemoteFetcher
    /// Whether an input is a URL: then every input's report tells how its resources travelled
    /// (the delivery and live rules run).
    var remoteInputs: Bool
    /// How the text report shows them: as they open from the working directory.
    var textPaths: ReportPaths { paths.fromWorkingDirectory }

    /// What the run leaves for the end: reports (when kept), counts, and what decides the exit code.
    struct Outcome: Sendable {
        var reports: [CheckReport?]
        var tally = ReportTally()
        var inputErrors: [CheckError?]
        var fails = false
        var baselineEntries: [Baseline.Entry] = []
        /// Files the checks read that a report of the run was to replace, with the input whose
        /// check read each (`CheckReport.readReportFiles`): those reports are not written.
        var readReportFiles: [(input: String, file: String)] = []

        init(count: Int) {
            reports = Array(repeating: nil, count: count)
            inputErrors = Array(repeating: nil, count: count)
        }
    }

    /// One finished stream.
    struct Finished: Sendable {
        var report: CheckReport
        var text: String
        var baselineEntries: [Baseline.Entry]
    }

    func run(_ streams: [StreamJob]) async -> Outcome {
        var outcome = Outcome(count: streams.count)
        var pending: [Int: String] = [:]
        var nextToPrint = 0
        let limit = max(1, jobs)
        // The rate and the ETA change between streams too: redraw a few times a second.
        let ticker: Task<Void, Never>? =
            console.showsProgress
            ? Task { [console] in
                await console.redraw()
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    await console.redraw()
                }
            } : nil
        await withTaskGroup(of: (Int, Finished).self) { group in
            var next = 0
            while next < min(limit, streams.count) {
                let index = next, job = streams[index]
                group.addTask { (index, await finish(job)) }
                next += 1
            }
            while let (index, finished) = await group.next() {
                if next < streams.count {
                    let index = next, job = streams[index]
                    group.addTask { (index, await finish(job)) }
                    next += 1
                }
                let report = finished.report
                outcome.tally.add(report)
                outcome.inputErrors[index] = report.inputError
                outcome.fails = outcome.fails || report.fails
                outcome.baselineEntries += finished.baselineEntries
                outcome.readReportFiles += report.readReportFiles.map { (report.input, $0) }
                if keepsReports { outcome.reports[index] = report }
                await console.streamDone()
                if completionOrder {
                    await console.print(finished.text)
                } else {
                    pending[index] = finished.text
                    while let text = pending.removeValue(forKey: nextToPrint) {
                        await console.print(text)
                        nextToPrint += 1
                    }
                }
                await console.redraw()
            }
        }
        ticker?.cancel()
        await ticker?.value
        await console.finish()
        return outcome
    }

    /// Checks one stream and makes everything the run keeps of it; the analysis ends here.
    func finish(_ job: StreamJob) async -> Finished {
        var report: CheckReport
        let begun = Date()
        if let unusable = job.unusable {
            report = CheckReport(input: job.input, error: unusable)
        } else {
            let limits = job.configuration.limits
            var checker = Checker(
                configuration: job.configuration,
                source: RemotePlaylistSource(
                    fetcher: fetcher, maximumSize: limits.playlistBytes,
                    local: job.discovered.map {
                        DiscoveredPlaylistSource(
                            discovered: $0, base: LocalFileSource(maximumSize: limits.playlistBytes))
                            as any PlaylistSource
                    }),
                segmentSource: RemoteSegmentSource(fetcher: fetcher, maximumByteCount: limits.segmentBytes))
            checker.deliveryObserver = remoteInputs ? RemoteDeliveryLog(fetcher: fetcher, input: job.input) : nil
            checker.segmentSlots = slots
            checker.multivariantIndex = multivariantIndex
            do {
                report = try await checker.check(job.input)
            } catch {
                report = CheckReport(input: job.input, error: error)
            }
        }
        // Real JUnit times for inputs that failed too (a checked one has its own).
        if report.duration == nil { report.duration = Date().timeIntervalSince(begun) }
        report.failureThreshold = job.failureThreshold
        var lines = BaselineLines(root: paths.root, maximumBytes: job.configuration.limits.playlistBytes)
        if let baseline { report = baseline.apply(to: report, lines: &lines) }
        let entries = recordsBaseline ? Baseline.entries(of: report, lines: &lines) : []
        // Paths as every report shows them, once the files have been read for the baseline;
        // credentials written in a URL are sent, never shown (docs/security.md). The text names
        // files as they open from here; the machine formats relative to the repository root.
        let shown = text.map { $0.render(stream: textPaths.apply(to: report).redactingCredentials()) } ?? ""
        report = paths.apply(to: report).redactingCredentials()
        // Belt and braces, as for every report: no URL in the text shows its credentials.
        return Finished(report: report, text: CredentialRedaction.redact(shown), baselineEntries: entries)
    }
}

extension CheckCommand {
    /// Text goes to standard output (rather than a file): it is streamed, stream by stream.
    var streamsText: Bool { formats.contains(.text) && !output.contains { $0.format == .text } }

    /// Colour in text on standard output (`--color`, `NO_COLOR`, `TERM=dumb`).
    var textIsColored: Bool {
        color == .always || (color == .auto && Terminal.allowsColor(STDOUT_FILENO))
    }

    /// The text reporter for standard output: colour and width as the terminal allows, tables
    /// only with `--show-variants`.
    var standardOutputText: TextReporter {
        var reporter = TextReporter(
            color: textIsColored, quiet: runOptions.quiet, showsVariants: runOptions.showVariants,
            width: Terminal.textWidth(STDOUT_FILENO))
        reporter.maximumPerRule = runOptions.maximumPerRule
        return reporter
    }

    func streamRun(baseline: Baseline?, count: Int, paths: ReportPaths, fetcher: RemoteFetcher, remoteInputs: Bool)
        -> StreamRun
    {
        // Segments in flight over every stream: one per core (two at least, as one stream has).
        let slots = SegmentSlots(capacity: max(2, ProcessInfo.processInfo.activeProcessorCount))
        let showsProgress = !runOptions.quiet && Terminal.allowsRedraw(STDERR_FILENO)
        return StreamRun(
            jobs: runOptions.jobCount, slots: slots,
            console: Console(showsProgress: showsProgress, total: count, slots: slots),
            baseline: baseline, recordsBaseline: runOptions.writeBaseline != nil,
            text: streamsText ? standardOutputText : nil,
            completionOrder: isatty(STDOUT_FILENO) == 1,
            // Every format but streamed text is rendered at the end, from every report.
            keepsReports: formats.contains { $0 != .text } || !streamsText,
            paths: paths, fetcher: fetcher, remoteInputs: remoteInputs)
    }

    /// The exit code of a run: 2 when an input could not be checked, 1 for a failing finding or
    /// more warnings than `--max-warnings`, else 0.
    func runExitCode(_ outcome: StreamRun.Outcome) -> Int32 {
        if outcome.inputErrors.contains(where: { $0 != nil }) { return 2 }
        if outcome.fails { return 1 }
        if let maximum = runOptions.maxWarnings, outcome.tally.warnings > maximum { return 1 }
        return 0
    }

    /// Writes the baseline file, says why warnings fail the run, and exits with `exitCode`.
    func finishRun(_ outcome: StreamRun.Outcome, exitCode: Int32) throws {
        if let path = runOptions.writeBaseline {
            if let refusal = destinations.destinations.first(where: { $0.path == path }).flatMap({
                destinations.refusal($0, read: outcome.readReportFiles)
            }) {
                printError("hlscheck: \(refusal)")
                throw ExitCode(2)
            }
            do {
                try Baseline(entries: outcome.baselineEntries).write(to: path)
            } catch {
                printError("hlscheck: \(TerminalText.escaped(error.description))")
                throw ExitCode(2)
            }
        }
        if exitCode != 2, let maximum = runOptions.maxWarnings, outcome.tally.warnings > maximum {
            let count = outcome.tally.warnings
            printError(
                "hlscheck: \(count) warning\(count == 1 ? "" : "s"), more than --max-warnings \(maximum) allows; fix some (or record them with --write-baseline)"
            )
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}

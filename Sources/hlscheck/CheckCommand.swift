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
import HLSEmbedding
import HLSPlaylist
import MediaInspection
import HLSRemote
import HLSReporting
import FileSystem
import StreamSources

enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, junit, github, sarif, html
}

enum FailLevel: String, ExpressibleByArgument, CaseIterable, Sendable {
    case error, warning, never

    /// The lowest severity that fails, nil for `never`.
    var threshold: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .never: nil
        }
    }
}

enum ColorMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

/// `--output FORMAT=PATH`.
struct OutputTarget: ExpressibleByArgument, Sendable {
    var format: ReportFormat
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="),
            let format = ReportFormat(rawValue: String(argument[..<equals])),
            argument.index(after: equals) < argument.endIndex
        else { return nil }
        self.format = format
        self.path = String(argument[argument.index(after: equals)...])
    }
}

/// `hlscheck check PATH…`: discover, load, check, report, exit code for CI.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check multivariant or media playlists, or every stream in folders.",
        discussion: """
            A folder is searched for multivariant playlists (playlists no other playlist there \
            references). Settings come from the nearest .hlscheck.yml above each input (or --config); \
            command-line flags win over it. A comment line "# hlscheck-disable-next-line RULE" in a \
            playlist excuses RULE on the next line ("# hlscheck-disable RULE" … "# hlscheck-enable RULE": \
            the lines between; "# hlscheck-disable-file RULE": the whole file). Streams are checked \
            concurrently; their text comes in input order unless standard output is a terminal.
            """
    )

    @Argument(help: "Playlists (.m3u8) or folders of streams.", completion: .file(extensions: ["m3u8", "m3u"]))
    var paths: [String]

    @Option(name: .long, help: "Report format; repeat for several (each needs its own --output but one).")
    var format: [ReportFormat] = []

    @Option(
        name: [.short, .long], help: "Write a format to a file instead of standard output, e.g. json=report.json.",
        completion: .custom { _, _, prefix in OutputTarget.completions(prefix) })
    var output: [OutputTarget] = []

    @Option(help: "Colour in text output.")
    var color: ColorMode = .auto

    @Option(help: "Default severities and parameters.")
    var profile: Profile?

    @Option(
        help: "Configuration file (instead of the nearest .hlscheck.yml).",
        completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .customLong("budget-kbps"), help: "Audio-only budget in kbit/s, poster included (default 64).")
    var budgetKbps: Int?

    @Option(name: .customLong("fail-on"), help: "Lowest severity that makes the exit code 1 (default error).")
    var failOn: FailLevel?

    @Flag(name: .customLong("playlist-only"), help: "Check the playlists alone; read no segment.")
    var playlistOnly = false

    @Flag(
        help: "Also decode the audio and video of every segment and report frames that fail (decode-error); costs CPU.")
    var decode = false

    @Flag(
        help:
            "First fix what the measurements prove, in place (hlscheck fix --in-place on each playlist, docs/fix.md), then check what is left."
    )
    var fix = false

    @Option(help: "Check only the K-th of N deterministic slices of the inputs (K from 1), e.g. 2/4.")
    var shard: String?

    @OptionGroup(title: "Limits and file access")
    var limitOptions: LimitOptions

    @OptionGroup(title: "Concurrency, feedback and baselines")
    var runOptions: RunOptions

    @OptionGroup(title: "Remote and live streams (http, https)")
    var remote: RemoteArguments

    @OptionGroup(title: "Remote and live streams (http, https)")
    var extent: StreamExtentArguments

    /// The formats to render, in order: `--format` values, plus formats named only by `--output`.
    var formats: [ReportFormat] {
        var all = format
        for target in output where !all.contains(target.format) { all.append(target.format) }
        return all.isEmpty ? [.text] : all
    }

    /// Every file the run writes: each `--output`, `--write-baseline`, and the job summary.
    var destinations: ReportDestinations {
        var all = output.map {
            ReportDestinations.Destination(option: "--output \($0.format.rawValue)=", path: $0.path)
        }
        if let path = runOptions.writeBaseline {
            all.append(.init(option: "--write-baseline ", path: path, mayReplace: runOptions.baseline))
        }
        if let summary = ProcessInfo.processInfo.environment[StepSummary.variable], !summary.isEmpty,
            formats.contains(.github)
        {
            all.append(.init(option: StepSummary.variable + "=", path: summary))
        }
        return ReportDestinations(destinations: all, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    func validate() throws {
        if let budgetKbps, let problem = SettingBounds.budgetKbps.problem(budgetKbps, as: SettingBounds.budgetKbps.flag)
        {
            throw ValidationError(problem)
        }
        if decode, playlistOnly {
            throw ValidationError("--decode decodes the segments that --playlist-only says not to read; choose one")
        }
        let toStandardOutput = formats.filter { format in !output.contains { $0.format == format } }
        if toStandardOutput.count > 1 {
            throw ValidationError(
                "only one format can go to standard output; give the others a file with --output FORMAT=PATH (\(toStandardOutput.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        // `hlscheck inpsect x.ts`: a mistyped subcommand is read as a path; say so, before
        // reporting a missing file.
        if let first = paths.first, CommandLine.arguments.dropFirst().first == first,
            !FileManager.default.fileExists(atPath: first), let command = HLSCheckCommand.suggestion(for: first)
        {
            throw ValidationError(
                "unknown command or missing file \"\(TerminalText.escaped(first))\"; did you mean \"\(command)\"?")
        }
        if fix, playlistOnly {
            throw ValidationError(
                "--fix rewrites playlists from what their segments measure, which --playlist-only says not to read; choose one"
            )
        }
        if fix, let remote = paths.first(where: URIScheme.isRemote) {
            throw ValidationError(
                "--fix rewrites a stream's playlists, so it works on local streams only; \(CredentialRedaction.redact(remote)) is a URL"
            )
        }
        if shard != nil, parsedShard == nil {
            throw ValidationError("--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/4; got \(shard ?? "")")
        }
    }

    var parsedShard: (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        return (k, n)
    }

    func run() async throws {
        let started = Date()
        limitOptions.startWatchdog(command: "check")
        // No report may replace what the run reads: refused before anything is read or written.
        let reads = [("--config", config), ("--baseline", runOptions.baseline)].compactMap { option, path in
            path.map { (option: option, path: $0) }
        }
        if let refusal = destinations.refusal(inputs: paths, reads: reads) {
            printError("hlscheck: \(refusal)")
            throw ExitCode(2)
        }
        var outcome = StreamRun.Outcome(count: 0)
        var baseline: Baseline?
        // Every report shows paths relative to the repository root (docs/ci.md).
        let reportPaths = ReportPaths.forRun(
            inputs: paths, fallback: limitOptions.root, workingDirectory: FileManager.default.currentDirectoryPath)
        // One HTTP client for the run (docs/remote.md): for inputs that are URLs, and for the
        // http(s) media playlists a local multivariant playlist may name. It connects only then.
        let remoteInputs = paths.contains(where: URIScheme.isRemote)
        let fetcher = RemoteFetcher(options: remote.options(sendingHeadersTo: paths))
        do {
            baseline = try runOptions.baseline.map { path throws(CheckError) in try Baseline.load(path) }
            let explicit = try config.map { path throws(CheckError) in try ConfigurationFile.load(path) }
            // Each input with its configuration, and the folder it was found in (its default root).
            // A path that cannot be used (missing, unreadable folder, broken .hlscheck.yml beside
            // it) is a failed input in every report; the other paths are still checked.
            var inputs: [(String, ConfigurationFile?, String?, CheckError?)] = []
            // The playlists a folder's discovery read, for the check to reuse.
            var discovered = DiscoveredPlaylists()
            for path in paths {
                do throws(CheckError) {
                    var file = explicit
                    if file == nil { file = try ConfigurationFile.discover(from: StreamDiscovery.folder(of: path)) }
                    let ignore = IgnorePatterns(base: file?.folder ?? ".", patterns: file?.ignore ?? [])
                    inputs += try StreamDiscovery.inputs([path], ignore: ignore.matches, keeping: &discovered).map {
                        ($0, file, StreamDiscovery.isFolder(path) ? path : nil, nil)
                    }
                } catch {
                    inputs.append((path, explicit, nil, error))
                }
            }
            if let (index, count) = parsedShard {
                // An unusable path is reported by every shard: each job of the matrix fails for it.
                let kept = Set(
                    StreamDiscovery.shard(inputs.filter { $0.3 == nil }.map(\.0), index: index, count: count))
                inputs = inputs.filter { $0.3 != nil || kept.contains($0.0) }
            }
            if inputs.isEmpty && parsedShard == nil {
                // Nothing to check is a run that could not happen: every report says so.
                inputs = paths.map { path in
                    (
                        path, explicit, nil,
                        CheckError(
                            "\(TerminalText.escaped(path)): no playlist found (a folder is searched for .m3u8 and .m3u files that no other playlist there references)"
                        )
                    )
                }
            }
            let jobs = inputs.map { input, file, folder, unusable in
                var configuration = configuration(file)
                // A folder given on the command line is the root of the streams found in it.
                if configuration.confinement.root == nil { configuration.confinement.root = folder }
                return StreamJob(
                    input: input, configuration: configuration,
                    failureThreshold: failOn.map(\.threshold) ?? file?.failureThreshold ?? .error, unusable: unusable,
                    discovered: discovered.count > 0 ? discovered : nil)
            }
            // FFmpeg is loaded on first use: a missing library stops the run before any stream.
            // A remote stream is fetched while it loads (startLoadingFFmpeg).
            if !playlistOnly { if !remoteInputs { try loadFFmpegForCheck() } else { startLoadingFFmpeg() } }
            if fix {
                for job in jobs where job.unusable == nil {
                    try await fixInPlace(job.input, configuration: job.configuration)
                }
            }
            outcome = await streamRun(
                baseline: baseline, count: jobs.count, paths: reportPaths, fetcher: fetcher, remoteInputs: remoteInputs
            ).run(jobs)
            if !playlistOnly, remoteInputs { try loadFFmpegForCheck() }
        } catch {
            // Only an unreadable --config or --baseline stops the run before any input: it applies to all.
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        await fetcher.shutdown()
        // An input that could not be checked is said once, where a person reads: the text report
        // on standard output has a line for it (input-unreadable). When standard output carries
        // a machine format, or the text goes to a file, standard error says it.
        if !streamsText {
            for error in outcome.inputErrors.compactMap({ $0 }) {
                printError("hlscheck: \(TerminalText.escaped(error.description))")
            }
        }
        let exitCode = runExitCode(outcome)
        let written = write(
            outcome.reports.compactMap { $0 }, tally: outcome.tally, read: outcome.readReportFiles,
            context: ReportContext(
                paths: reportPaths, started: started, exitCode: Int(exitCode),
                maximumPlaylistBytes: limitOptions.limits.playlistBytes))
        // A report that could not be written is a run that did not do what it was asked (exit 2).
        try finishRun(outcome, exitCode: written ? exitCode : 2)
    }

    /// `--fix`: the stream's playlists fixed in place before it is checked; each edit on stderr.
    func fixInPlace(_ input: String, configuration: CheckConfiguration) async throws(CheckError) {
        var request = FixRequest(input: input, destination: .inPlace, configuration: configuration)
        request.report = { printError("hlscheck: \(TerminalText.escaped($0))") }
        do {
            let outcome = try await PlaylistFixer(request).run()
            for changed in outcome.changed {
                for edit in changed.fixes {
                    printError("hlscheck: fixed \(FixCommand.describe(edit, in: changed.file))")
                }
            }
        } catch {
            // Nothing of this stream was written; the run stops, as for an unreadable --config.
            throw CheckError("--fix: \(error.description)")
        }
    }

    /// Profile, then the configuration file, then command-line flags.
    func configuration(_ file: ConfigurationFile?) -> CheckConfiguration {
        var configuration = CheckConfiguration(profile: profile, file: file)
        if let budgetKbps { configuration.audioOnlyBudget = SettingBounds.audioOnlyBudget(kbps: budgetKbps) }
        configuration.playlistOnly = playlistOnly
        configuration.decode = decode
        limitOptions.apply(to: &configuration)
        // A report over a segment or a media playlist is only known once the playlists are read.
        configuration.reportFiles = destinations.existingFiles
        // The HTML report draws every segment and shows each distinct poster (read once more).
        configuration.keepsSegmentDetail = formats.contains(.html)
        extent.apply(to: &configuration)
        // A remote stream is fetched with several requests in flight: fetching one segment
        // overlaps inspecting another.
        if paths.contains(where: URIScheme.isRemote) {
            configuration.maxConcurrentSegments = max(
                configuration.maxConcurrentSegments, remote.options(sendingHeadersTo: paths).maximumConnections)
        }
        return configuration
    }

    /// Renders every format, each to its file or to standard output. A report that must not or
    /// cannot be written is said on standard error, and the others are still written; the summary
    /// line stays on the terminal either way. Returns whether every report was written.
    func write(
        _ reports: [CheckReport], tally: ReportTally, read: [(input: String, file: String)], context: ReportContext
    ) -> Bool {
        var unwritten: Set<ReportFormat> = []
        let destinations = destinations
        for format in formats {
            let target = output.first { $0.format == format }?.path
            do {
                if let target {
                    if let destination = destinations.destinations.first(where: { $0.path == target }),
                        let refusal = destinations.refusal(destination, read: read)
                    {
                        printError("hlscheck: \(refusal)")
                        unwritten.insert(format)
                        continue
                    }
                    let file = try AtomicFile.Writer(replacing: target)
                    try render(format, reports, tally: tally, context: context, to: ReportFileSink(file: file))
                    try file.commit()
                } else {
                    try render(format, reports, tally: tally, context: context, to: StandardOutputSink())
                }
            } catch {
                printError(
                    "hlscheck: cannot write the \(format.rawValue) report: \(TerminalText.escaped(String(describing: error)))"
                )
                unwritten.insert(format)
            }
        }
        // Every report went to a file: standard output would say nothing, and the exit code alone
        // does not say what was found. The summary line and where each report went, as text.
        if formats.allSatisfy({ format in output.contains { $0.format == format } }) {
            var lines = [TextReporter().summaryLine(tally)]
            for format in formats {
                guard let path = output.first(where: { $0.format == format })?.path else { continue }
                lines.append(
                    unwritten.contains(format)
                        ? "The \(format.rawValue) report was not written (see above)"
                        : "The \(format.rawValue) report is in \(TerminalText.escaped(path))")
            }
            writeStandardOutput(lines.joined(separator: "\n") + "\n")
        }
        return unwritten.isEmpty
    }

    /// One format's report, written to `sink` as it is made.
    func render(
        _ format: ReportFormat, _ reports: [CheckReport], tally: ReportTally, context: ReportContext,
        to sink: some ReportSink
    ) throws {
        let toFile = output.contains { $0.format == format }
        let maximumPerRule = runOptions.maximumPerRule
        let text: String
        switch format {
        case .text:
            // A file is not a terminal: its tables keep one line per variant.
            var reporter =
                toFile
                ? TextReporter(quiet: runOptions.quiet, showsVariants: runOptions.showVariants) : standardOutputText
            reporter.maximumPerRule = maximumPerRule
            // On standard output, each stream's part was printed as it was done: the summary is
            // left. In a file, paths as they open from the working directory, as on the terminal.
            let fromHere = context.paths.fromWorkingDirectory
            text =
                toFile
                ? reporter.render(reports.map { fromHere.relocating($0, from: context.paths) })
                : reporter.ending(tally)
        case .json:
            text = JSONReporter().render(reports)
        case .junit:
            text = try JUnitReporter(
                timestamp: JUnitReporter.timestamp(for: Date()), hostname: ProcessInfo.processInfo.hostName
            ).render(reports)
        case .github:
            let reporter = GitHubActionsReporter(maximumPerRule: maximumPerRule)
            text = reporter.render(reports)
            StepSummary.append(CredentialRedaction.redact(reporter.summary(reports)))
        case .sarif:
            // Streamed, result by result; each piece redacted as the other reports are whole.
            let written = try context.sarif(reports).write(reports, to: RedactingSink(base: sink))
            if written.results < written.findings {
                printError(
                    "hlscheck: the SARIF report holds the first \(written.results) of \(written.findings) findings: GitHub code scanning takes at most \(SARIFReporter.maximumResults) results per run (its runs[0].properties say so); --format json holds every one"
                )
            }
            return
        case .html:
            try HTMLReporter(generated: HTMLReporter.generated(at: Date())).write(
                reports, to: RedactingSink(base: sink))
            return
        }
        // Belt and braces: whatever a report holds, no URL in it shows its credentials.
        try sink.write(CredentialRedaction.redact(text))
    }
}

/// A report file being replaced (`AtomicFile.Writer`): renamed over its path once whole.
final class ReportFileSink: ReportSink {
    let file: AtomicFile.Writer

    init(file: AtomicFile.Writer) { self.file = file }

    func write(_ bytes: UnsafeRawBufferPointer) throws { try file.write(bytes) }
}

/// Standard output: what a closed pipe does not take is dropped (the exit code still says how
/// the run went).
final class StandardOutputSink: ReportSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        writeStandardOutput(String(decoding: bytes, as: UTF8.self))
    }
}

/// Passes each piece on with the credentials of any URL in it hidden (CredentialRedaction). The
/// streamed reporters hand over whole strings — a SARIF result, an HTML text node — so a URL is
/// never cut between two pieces.
final class RedactingSink<Base: ReportSink>: ReportSink {
    let base: Base

    init(base: Base) { self.base = base }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try base.write(CredentialRedaction.redact(String(decoding: bytes, as: UTF8.self)))
    }
}

/// Every message on standard error, whoever writes it, passes through the one redaction: no
/// URL's userinfo or query value is shown there (docs/security.md).
func printError(_ message: String) {
    writeStandardError(CredentialRedaction.redact(message) + "\n")
}

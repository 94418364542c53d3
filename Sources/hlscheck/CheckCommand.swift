import ArgumentParser
import Foundation
import HLSCheck
import HLSPlaylist
import MediaInspection
import HLSRemote
import HLSReporting

enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, junit, github, sarif
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
            playlist excuses RULE on the next line.
            """
    )

    @Argument(help: "Playlists (.m3u8) or folders of streams.")
    var paths: [String]

    @Option(name: .long, help: "Report format; repeat for several (each needs its own --output but one).")
    var format: [ReportFormat] = []

    @Option(name: [.short, .long], help: "Write a format to a file instead of standard output, e.g. json=report.json.")
    var output: [OutputTarget] = []

    @Option(help: "Colour in text output.")
    var color: ColorMode = .auto

    @Option(help: "Default severities and parameters.")
    var profile: Profile?

    @Option(help: "Configuration file (instead of the nearest .hlscheck.yml).")
    var config: String?

    @Option(name: .customLong("budget-kbps"), help: "Audio-only budget in kbit/s, poster included (default 64).")
    var budgetKbps: Int?

    @Option(name: .customLong("fail-on"), help: "Lowest severity that makes the exit code 1 (default error).")
    var failOn: FailLevel?

    @Flag(name: .customLong("playlist-only"), help: "Check the playlists alone; read no segment.")
    var playlistOnly = false

    @Flag(help: "Also decode the audio and video of every segment and report frames that fail (decode-error); costs CPU.")
    var decode = false

    @Option(help: "Check only the K-th of N deterministic slices of the inputs (K from 1), e.g. 2/4.")
    var shard: String?

    @OptionGroup(title: "Limits and file access")
    var limitOptions: LimitOptions

    @OptionGroup(title: "Remote and live streams (http, https)")
    var remote: RemoteArguments

    /// The formats to render, in order: `--format` values, plus formats named only by `--output`.
    var formats: [ReportFormat] {
        var all = format
        for target in output where !all.contains(target.format) { all.append(target.format) }
        return all.isEmpty ? [.text] : all
    }

    func validate() throws {
        if let budgetKbps, !(1...1_000_000).contains(budgetKbps) {
            throw ValidationError("--budget-kbps must be between 1 and 1000000, got \(budgetKbps)")
        }
        if decode, playlistOnly {
            throw ValidationError("--decode decodes the segments that --playlist-only says not to read; choose one")
        }
        let toStandardOutput = formats.filter { format in !output.contains { $0.format == format } }
        if toStandardOutput.count > 1 {
            throw ValidationError(
                "only one format can go to standard output; give the others a file with --output FORMAT=PATH (\(toStandardOutput.map(\.rawValue).joined(separator: ", ")))")
        }
        // `hlscheck inpsect x.ts`: a mistyped subcommand is read as a path; say so, before
        // reporting a missing file.
        if let first = paths.first, CommandLine.arguments.dropFirst().first == first,
           !FileManager.default.fileExists(atPath: first), let command = HLSCheckCommand.suggestion(for: first) {
            throw ValidationError("unknown command or missing file \"\(TerminalText.escaped(first))\"; did you mean \"\(command)\"?")
        }
        if shard != nil, parsedShard == nil {
            throw ValidationError("--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/4; got \(shard ?? "")")
        }
    }

    var parsedShard: (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        return (k, n)
    }

    func run() async throws {
        limitOptions.startWatchdog(command: "check")
        // One HTTP client for the run, only when an input is a URL (docs/remote.md).
        let fetcher = paths.contains(where: URIScheme.isRemote) ? RemoteFetcher(options: remote.options) : nil
        var reports: [CheckReport] = []
        do {
            let explicit = try config.map { path throws(CheckError) in try ConfigurationFile.load(path) }
            // Each input with its configuration, and the folder it was found in (its default root).
            // A path that cannot be used (missing, unreadable folder, broken .hlscheck.yml beside
            // it) is a failed input in every report; the other paths are still checked.
            var inputs: [(String, ConfigurationFile?, String?, CheckError?)] = []
            for path in paths {
                do throws(CheckError) {
                    var file = explicit
                    if file == nil { file = try ConfigurationFile.discover(from: Self.folder(of: path)) }
                    let ignore = IgnorePatterns(base: file?.folder ?? ".", patterns: file?.ignore ?? [])
                    inputs += try StreamDiscovery.inputs([path], ignore: ignore.matches).map {
                        ($0, file, Self.isFolder(path) ? path : nil, nil)
                    }
                } catch {
                    inputs.append((path, explicit, nil, error))
                }
            }
            if let (index, count) = parsedShard {
                // An unusable path is reported by every shard: each job of the matrix fails for it.
                let kept = Set(StreamDiscovery.shard(inputs.filter { $0.3 == nil }.map(\.0), index: index, count: count))
                inputs = inputs.filter { $0.3 != nil || kept.contains($0.0) }
            }
            if inputs.isEmpty && parsedShard == nil {
                // Nothing to check is a run that could not happen: every report says so.
                inputs = paths.map { path in
                    (path, explicit, nil, CheckError("\(TerminalText.escaped(path)): no playlist found (a folder is searched for .m3u8 and .m3u files that no other playlist there references)"))
                }
            }
            for (input, file, folder, unusable) in inputs {
                var configuration = configuration(file)
                // A folder given on the command line is the root of the streams found in it.
                if configuration.confinement.root == nil { configuration.confinement.root = folder }
                var report: CheckReport
                if let unusable {
                    report = CheckReport(input: input, error: unusable)
                } else {
                    do {
                        var checker = Checker(
                            configuration: configuration,
                            source: fetcher.map { RemotePlaylistSource(fetcher: $0, maximumSize: configuration.limits.playlistBytes) as any PlaylistSource },
                            segmentSource: fetcher.map { RemoteSegmentSource(fetcher: $0, maximumByteCount: configuration.limits.segmentBytes) as any SegmentByteSource })
                        checker.deliveryObserver = fetcher.map { RemoteDeliveryLog(fetcher: $0, input: input) as any DeliveryObserver }
                        report = try await checker.check(input)
                    } catch {
                        report = CheckReport(input: input, error: error)
                    }
                }
                report.failureThreshold = (failOn ?? file?.failOn.flatMap(FailLevel.init) ?? .error).threshold
                reports.append(report)
            }
        } catch {
            await fetcher?.shutdown()
            // Only an unreadable --config stops the run before any input: it applies to all.
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        await fetcher?.shutdown()
        // Credentials written in a URL are sent, never shown (docs/security.md).
        reports = reports.map { $0.redactingCredentials() }
        // Standard error says it too, whatever the formats: where a tool says it could not run.
        for report in reports {
            if let error = report.inputError { printError("hlscheck: \(TerminalText.escaped(error.description))") }
        }
        try write(reports)
        if reports.contains(where: { $0.inputError != nil }) { throw ExitCode(2) }
        if reports.contains(where: \.fails) { throw ExitCode(1) }
    }

    /// Profile, then the configuration file, then command-line flags.
    func configuration(_ file: ConfigurationFile?) -> CheckConfiguration {
        var configuration = CheckConfiguration()
        (profile ?? file?.profile ?? .audioOnly64k).configure(&configuration)
        file?.apply(to: &configuration)
        if let budgetKbps { configuration.audioOnlyBudget = budgetKbps * 1000 }
        configuration.playlistOnly = playlistOnly
        configuration.decode = decode
        limitOptions.apply(to: &configuration)
        remote.apply(to: &configuration)
        // A remote stream is fetched with several requests in flight: fetching one segment
        // overlaps inspecting another.
        if paths.contains(where: URIScheme.isRemote) {
            configuration.maxConcurrentSegments = max(configuration.maxConcurrentSegments, remote.options.maximumConnections)
        }
        return configuration
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func folder(of path: String) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return path }
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    func write(_ reports: [CheckReport]) throws {
        for format in formats {
            let target = output.first { $0.format == format }?.path
            let text: String
            switch format {
            case .text:
                let colored = target == nil && (color == .always || (color == .auto && isatty(STDOUT_FILENO) == 1))
                text = TextReporter(color: colored).render(reports)
            case .json:
                text = JSONReporter().render(reports)
            case .junit:
                do {
                    text = try JUnitReporter(
                        timestamp: JUnitReporter.timestamp(for: Date()),
                        hostname: ProcessInfo.processInfo.hostName
                    ).render(reports)
                } catch {
                    printError("hlscheck: cannot write the JUnit report: \(TerminalText.escaped(String(describing: error)))")
                    throw ExitCode(2)
                }
            case .github:
                text = GitHubActionsReporter().render(reports)
            case .sarif:
                text = SARIFReporter().render(reports)
            }
            // Belt and braces: whatever a report holds, no URL in it shows its credentials.
            let shown = CredentialRedaction.redact(text)
            if let target {
                do {
                    try AtomicFile.write(Array(shown.utf8), to: target)
                } catch {
                    printError("hlscheck: cannot write the \(format.rawValue) report: \(error.description)")
                    throw ExitCode(2)
                }
            } else {
                print(shown, terminator: "")
            }
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

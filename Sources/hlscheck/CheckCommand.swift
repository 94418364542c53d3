import ArgumentParser
import Foundation
import HLSCheck
import HLSReporting

enum ReportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

enum FailLevel: String, ExpressibleByArgument, CaseIterable, Sendable {
    case error, warning

    var threshold: Severity {
        switch self {
        case .error: .error
        case .warning: .warning
        }
    }
}

/// `hlscheck check PLAYLIST`: load, check, report, exit code for CI.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a multivariant or media playlist and everything it references."
    )

    @Argument(help: "The multivariant (master) or media playlist to check.")
    var playlist: String

    @Option(help: "Report format.")
    var format: ReportFormat = .text

    @Option(name: .customLong("budget-kbps"), help: "Audio-only budget in kbit/s, poster included.")
    var budgetKbps: Int = 64

    @Option(name: .customLong("fail-on"), help: "Lowest severity that makes the exit code 1.")
    var failOn: FailLevel = .error

    @Flag(name: .customLong("playlist-only"), help: "Check the playlists alone; read no segment.")
    var playlistOnly = false

    func validate() throws {
        guard budgetKbps > 0, budgetKbps <= 1_000_000 else {
            throw ValidationError("--budget-kbps must be between 1 and 1000000, got \(budgetKbps)")
        }
    }

    func run() async throws {
        let configuration = CheckConfiguration(audioOnlyBudget: budgetKbps * 1000, playlistOnly: playlistOnly)
        let report: CheckReport
        do {
            report = try await Checker(configuration: configuration).check(playlist)
        } catch {
            printError("hlscheck: \(error.description)")
            throw ExitCode(2)
        }
        switch format {
        case .text: print(TextReporter().render([report]), terminator: "")
        case .json: print(JSONReporter().render([report]), terminator: "")
        }
        if report.diagnostics.contains(where: { $0.severity >= failOn.threshold }) {
            throw ExitCode(1)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

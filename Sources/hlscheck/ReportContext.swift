import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSReporting

/// What reports need to know about the run besides its findings: the repository root paths are
/// shown relative to, when it started, its exit code, the command line.
struct ReportContext {
    var paths: ReportPaths
    var started: Date
    var exitCode: Int
    var maximumPlaylistBytes: Int

    /// The exit code `reports` give: 2 when an input could not be checked, 1 when one fails, else 0.
    static func exitCode(_ reports: [CheckReport]) -> Int32 {
        if reports.contains(where: { $0.inputError != nil }) { return 2 }
        return reports.contains(where: \.fails) ? 1 : 0
    }

    func sarif(_ reports: [CheckReport]) -> SARIFReporter {
        SARIFReporter(
            paths: paths,
            invocation: .init(commandLine: CommandLine.arguments, start: started, end: Date(), exitCode: exitCode),
            sourceLines: SourceLines.read(for: reports, paths: paths, maximumBytes: maximumPlaylistBytes))
    }
}

/// `$GITHUB_STEP_SUMMARY`: the file a GitHub Actions step appends Markdown to, shown on the run's
/// page. Appended to, never truncated (other steps' summaries are in it), and opened safely: a
/// symlink, FIFO or device in its place is refused rather than followed or blocked on.
enum StepSummary {
    static let variable = "GITHUB_STEP_SUMMARY"

    /// Appends `markdown` when the variable names a file; says on standard error when it cannot
    /// (the report itself is written either way, and the exit code is unchanged).
    static func append(_ markdown: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment[variable], !path.isEmpty else { return }
        if let problem = append(Array(markdown.utf8), to: path) {
            printError(
                "hlscheck: cannot append the job summary to \(variable) (\(TerminalText.escaped(path))): \(problem)")
        }
    }

    /// nil on success, else why not.
    static func append(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }
}

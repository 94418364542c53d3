import ArgumentParser
import FoundationEssentials
import HLSReporting

/// `--jobs`, `--quiet`, `--show-variants`, `--baseline`, `--write-baseline`, `--max-warnings`,
/// `--max-per-rule`: how a run of many streams proceeds and what it tolerates
/// (docs/configuration.md, docs/ci.md).
struct RunOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Streams checked at once (default: the number of cores). Segments in flight stay bounded by the cores over all streams.",
            valueName: "count"))
    var jobs: Int?

    @Flag(
        name: [.short, .long],
        help: "Text shows findings and the summary only (no blank lines, no 'hlscheck rules' line); no progress line.")
    var quiet = false

    @Flag(
        name: .customLong("show-variants"),
        help:
            "Text shows each stream's variant table too (declared and measured bit rates, codecs, segments, the poster), fitted to the terminal's width."
    )
    var showVariants = false

    @Option(
        help: ArgumentHelp(
            "Findings recorded in this file (by --write-baseline) are reported as baselined and do not fail; new ones do.",
            valueName: "file"), completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(
        name: .customLong("write-baseline"),
        help: ArgumentHelp(
            "Record the run's findings in this file, for --baseline (written atomically; the run reports and exits as usual).",
            valueName: "file"), completion: .file())
    var writeBaseline: String?

    @Option(
        name: .customLong("max-warnings"),
        help: ArgumentHelp(
            "Fail (exit code 1) when more than this many warnings count (not suppressed or baselined).",
            valueName: "count"))
    var maxWarnings: Int?

    @Option(
        name: .customLong("max-per-rule"),
        help: ArgumentHelp(
            "Text and GitHub annotations list at most this many findings of one rule in one file, then say how many more the JSON report holds (default 100; 0: no limit).",
            valueName: "count"))
    var maxPerRule: Int?

    /// `--max-per-rule` as the reporters take it (its default when not given): nil for no limit.
    var maximumPerRule: Int? {
        guard let maxPerRule else { return TextReporter.defaultMaximumPerRule }
        return maxPerRule == 0 ? nil : maxPerRule
    }

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and 1024, got \(jobs)")
        }
        if quiet, showVariants {
            throw ValidationError("--quiet leaves out the variant tables that --show-variants asks for; choose one")
        }
        if let maxPerRule, maxPerRule < 0 {
            throw ValidationError("--max-per-rule must be 0 (no limit) or more, got \(maxPerRule)")
        }
        if let maxWarnings, maxWarnings < 0 {
            throw ValidationError("--max-warnings must be 0 or more, got \(maxWarnings)")
        }
    }

    /// `--jobs`, else one stream per core.
    var jobCount: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}

package import FoundationEssentials
import MediaFormats
package import HLSCheck

/// JUnit XML for CI test views (GitLab, Jenkins, GitHub test-report actions): one `<testsuite>`
/// per input; in it one `<testcase>` per checked rule for the stream, except that a rule whose
/// findings each concern one variant (`RuleScope.variant`) has one test case per variant
/// instead. A finding of such a rule lands in the case of the variant it concerns: one located in
/// the variant's media playlist, in a rendition playlist it plays, or on its EXT-X-STREAM-INF or
/// URI line in the input.
///
/// A test case fails exactly when what it holds fails the exit code: a finding at or above the
/// report's `failureThreshold` (`--fail-on`, default `error`), or an input that could not be
/// checked (its suite holds the single case `input-unreadable`). The Ant schema gives a test case
/// at most one `<failure>`, so several failing findings share one failure; the findings below the
/// threshold go to the suite's `<system-out>` as compiler-style lines.
///
/// Beyond the Apache Ant schema, as Jenkins, GitLab and surefire read it: each test case has a
/// `file` attribute (the playlist it is about: the variant's media playlist, or the file its
/// first finding is in, else the input), which they use to link the case, and a `<system-out>`
/// of its own with the findings it holds that do not fail (warnings, notes), located, so that a
/// CI test view lists them under their rule. An input listed twice is two suites, the second
/// named `input (2)`, so no two test cases share a class and a name. Suite times are the real
/// wall-clock time of checking the input, test case times the time its rule took (shared evenly
/// among a per-variant rule's cases).
package struct JUnitReporter: Sendable {
    /// ISO 8601 without a zone (`2026-11-21T10:00:00`), as the schema requires.
    package var timestamp: String
    /// The `hostname` attribute of every `<testsuite>`.
    package var hostname: String

    /// Makes a reporter; `timestamp` as from `timestamp(for:)`.
    package init(timestamp: String, hostname: String) {
        self.timestamp = timestamp
        self.hostname = hostname
    }

    /// `date` in UTC, formatted as the schema's `timestamp` wants it: ISO 8601 without a zone.
    package static func timestamp(for date: Date) -> String {
        guard let time = UTCTime(secondsSince1970: date.timeIntervalSince1970, roundingToMilliseconds: true) else {
            return "1970-01-01T00:00:00"
        }
        return time.date + "T" + time.time
    }

    /// One JUnit XML document for all reports. Throws `XMLWriterError` when libxml2 fails to write it.
    package func render(_ reports: [CheckReport]) throws -> String {
        let writer = try XMLDocumentWriter()
        try writer.startElement("testsuites")
        var seen: [String: Int] = [:]
        for (index, report) in reports.enumerated() {
            // The same input twice (two paths naming it, a folder and a file in it): the second
            // suite is named apart, or a CI view would merge or drop its test cases.
            seen[report.input, default: 0] += 1
            let count = seen[report.input] ?? 1
            try writeSuite(
                report, name: count == 1 ? report.input : "\(report.input) (\(count))", id: index, to: writer)
        }
        try writer.endElement()
        return try writer.finish()
    }

    /// A test case and the findings it owns.
    struct TestCase {
        var name: String
        /// The playlist the case is about, as the report shows paths.
        var file: String
        var rule: String
        var diagnostics: [Diagnostic] = []
        /// The findings that fail the exit code, given the report's threshold.
        var failing: [Diagnostic] = []
        var time: Double = 0
    }

    /// Whether `diagnostic` fails the exit code of `report`: an input that could not be checked
    /// always does; a finding does at or above the report's threshold (never with `--fail-on never`).
    static func fails(_ diagnostic: Diagnostic, in report: CheckReport) -> Bool {
        guard !diagnostic.suppressed else { return false }
        if diagnostic.rule == CheckReport.inputUnreadableRule && report.inputError != nil { return true }
        guard let threshold = report.failureThreshold else { return false }
        return diagnostic.severity >= threshold
    }

    /// The variant a finding concerns: the one whose media playlist holds it, else the one whose
    /// EXT-X-STREAM-INF or URI line of the input it is on, else the first whose played
    /// renditions hold it; nil for a finding about the stream as a whole.
    static func variantIndex(of diagnostic: Diagnostic, in report: CheckReport) -> Int? {
        guard let location = diagnostic.location else { return nil }
        let variants = report.variants
        // A media playlist given as input is its own single variant: everything in it is about it.
        if variants.count == 1, variants[0].playlist == report.input, location.uri == report.input { return 0 }
        if let index = variants.firstIndex(where: { $0.playlist == location.uri && location.uri != report.input }) {
            return index
        }
        if location.uri == report.input, location.line > 0,
            let index = variants.firstIndex(where: { $0.line == location.line || $0.uriLine == location.line })
        {
            return index
        }
        return variants.firstIndex {
            $0.peakCombination?.contains(location.uri) == true && location.uri != report.input
        }
    }

    /// Test cases in a stable order: rules in catalogue order, each as one stream-level case or,
    /// for a per-variant rule, one case per variant in playlist order. A per-variant rule's finding
    /// that concerns no variant gets a stream-level case of its own, so nothing is lost.
    static func testCases(for report: CheckReport) -> [TestCase] {
        var ruleIDs = report.checkedRules.map(\.id)
        // Excused findings (# hlscheck-disable-next-line) neither fail nor print.
        let diagnostics = report.diagnostics.filter { !$0.suppressed }
        for diagnostic in diagnostics where !ruleIDs.contains(diagnostic.rule) {
            ruleIDs.append(diagnostic.rule)  // never lose a finding of a rule the report does not list
        }
        var perVariant: Set<String> = []
        for rule in ruleIDs where !report.variants.isEmpty {
            let scope = RuleCatalogue.description(of: rule)?.scope ?? .stream
            if scope == .variant { perVariant.insert(rule) }
        }
        // Where each finding goes: (rule, variant index or nil for the stream).
        var owned: [String: [Int?: [Diagnostic]]] = [:]
        for diagnostic in diagnostics {
            let variant = perVariant.contains(diagnostic.rule) ? variantIndex(of: diagnostic, in: report) : nil
            owned[diagnostic.rule, default: [:]][variant, default: []].append(diagnostic)
        }
        var cases: [TestCase] = []
        for rule in ruleIDs {
            var ruleCases: [(Int?, TestCase)] = []
            if perVariant.contains(rule) {
                if owned[rule]?[nil] != nil {
                    ruleCases.append((nil, TestCase(name: rule, file: report.input, rule: rule)))
                }
                for (index, variant) in report.variants.enumerated() {
                    // A variant's case repeats its URI once per per-variant rule: a long one is
                    // cut as the text table cuts it (its findings keep it whole), and a `file`
                    // longer than any path Linux opens (PATH_MAX) likewise, so that a 512 KB URI
                    // among 1 000 variants is not written 50 times.
                    let file =
                        variant.playlist.utf8.count > Self.longestPath
                        ? Table.fitted(variant.playlist) : variant.playlist
                    ruleCases.append(
                        (index, TestCase(name: "\(rule): \(Table.fitted(variant.uri))", file: file, rule: rule)))
                }
            } else {
                ruleCases.append((nil, TestCase(name: rule, file: report.input, rule: rule)))
            }
            let time = (report.ruleDurations[rule] ?? 0) / Double(ruleCases.count)
            for (variant, var testCase) in ruleCases {
                testCase.diagnostics = owned[rule]?[variant] ?? []
                testCase.failing = testCase.diagnostics.filter { fails($0, in: report) }
                testCase.time = time
                // A stream-level case is about the file its first finding is in (a media
                // playlist's finding links there, not to the input).
                if variant == nil, let first = (testCase.failing.first ?? testCase.diagnostics.first)?.location?.uri,
                    !first.isEmpty
                {
                    testCase.file = first
                }
                cases.append(testCase)
            }
        }
        return cases
    }

    /// PATH_MAX on Linux: no file is named by a longer path.
    static let longestPath = 4_096

    /// Seconds with millisecond precision, as `xs:decimal` wants them ("0.012").
    package static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0.000" }
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private func writeSuite(_ report: CheckReport, name: String, id: Int, to writer: XMLDocumentWriter)
        throws(XMLWriterError)
    {
        let cases = Self.testCases(for: report)
        try writer.startElement("testsuite")
        try writer.attribute("name", name)
        try writer.attribute("package", name)
        try writer.attribute("id", String(id))
        try writer.attribute("timestamp", timestamp)
        try writer.attribute("hostname", hostname.isEmpty ? "localhost" : hostname)
        try writer.attribute("tests", String(cases.count))
        try writer.attribute("failures", String(cases.filter { !$0.failing.isEmpty }.count))
        try writer.attribute("errors", "0")
        try writer.attribute("time", Self.seconds(report.duration ?? cases.reduce(0) { $0 + $1.time }))

        try writer.startElement("properties")
        // Once per document: consumers such as xunitparser merge every suite's properties into
        // one table and refuse a name seen twice.
        if id == 0 {
            try writer.element("property", attributes: ["name": "hlscheck.version", "value": HLSCheckVersion.current])
        }
        try writer.endElement()

        for testCase in cases {
            try writer.startElement("testcase")
            try writer.attribute("name", testCase.name)
            try writer.attribute("classname", name)
            try writer.attribute("file", testCase.file)
            try writer.attribute("time", Self.seconds(testCase.time))
            let failing = testCase.failing
            if let first = failing.first {
                let message =
                    failing.count == 1
                    ? first.shownMessage : "\(failing.count) \(Self.noun(failing)), the first: \(first.shownMessage)"
                try writer.element(
                    "failure", attributes: ["message": message, "type": first.rule],
                    text: failing.map(Self.failureLine).joined(separator: "\n"))
            }
            let passing = testCase.diagnostics.filter { !Self.fails($0, in: report) }
            if !passing.isEmpty {
                try writer.element("system-out", text: passing.map(Self.outputLine).joined(separator: "\n") + "\n")
            }
            try writer.endElement()
        }

        let output = report.diagnostics.filter { !$0.suppressed && !Self.fails($0, in: report) }.map(Self.outputLine)
        try writer.element("system-out", text: output.isEmpty ? "" : output.joined(separator: "\n") + "\n")
        try writer.element("system-err", text: "")
        try writer.endElement()
    }

    /// `path:line:col: message`, as compilers print it (CI viewers link such lines).
    /// Line 0 (a whole file, an input that could not be read) prints no place: the message
    /// names the file.
    static func failureLine(_ diagnostic: Diagnostic) -> String {
        diagnostic.place.map { "\($0): \(diagnostic.shownMessage)" } ?? diagnostic.shownMessage
    }

    /// "2 errors", "3 warnings", or "3 findings" when severities are mixed.
    static func noun(_ diagnostics: [Diagnostic]) -> String {
        let severities = Set(diagnostics.map(\.severity))
        guard severities.count == 1, let severity = severities.first else { return "findings" }
        return severity.rawValue + "s"
    }

    /// `path:line:col: warning: message [rule-id]`, like the text report.
    static func outputLine(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.place.map { "\($0): " } ?? ""
        return "\(place)\(diagnostic.severity.rawValue): \(diagnostic.shownMessage) [\(diagnostic.rule)]"
    }
}

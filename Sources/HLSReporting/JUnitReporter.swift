public import Foundation
public import HLSCheck

/// JUnit XML for CI test views (GitLab, Jenkins, GitHub test-report actions), valid against the
/// Apache Ant JUnit schema: one `<testsuite>` per input, one `<testcase>` per checked rule and
/// variant plus one per rule for findings about the stream as a whole.
///
/// A test case fails exactly when what it holds fails the exit code: a finding at or above the
/// report's `failureThreshold` (`--fail-on`, default `error`), or an input that could not be
/// checked (its suite holds the single case `input-unreadable`). The Ant schema gives a test case
/// at most one `<failure>` and no output of its own, so several failing findings share one
/// failure, and the findings below the threshold go to the suite's `<system-out>` as
/// compiler-style lines.
public struct JUnitReporter: Sendable {
    /// ISO 8601 without a zone (`2026-11-21T10:00:00`), as the schema requires.
    public var timestamp: String
    /// The `hostname` attribute of every `<testsuite>`.
    public var hostname: String

    /// Makes a reporter; `timestamp` as from `timestamp(for:)`.
    public init(timestamp: String, hostname: String) {
        self.timestamp = timestamp
        self.hostname = hostname
    }

    /// `date` in UTC, formatted as the schema's `timestamp` wants it: ISO 8601 without a zone.
    public static func timestamp(for date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        return formatter.string(from: date)
    }

    /// One JUnit XML document for all reports. Throws `XMLWriterError` when libxml2 fails to write it.
    public func render(_ reports: [CheckReport]) throws -> String {
        let writer = try XMLDocumentWriter()
        try writer.startElement("testsuites")
        for (index, report) in reports.enumerated() {
            try writeSuite(report, id: index, to: writer)
        }
        try writer.endElement()
        return try writer.finish()
    }

    /// A test case and the findings it owns.
    struct TestCase {
        var name: String
        var diagnostics: [Diagnostic] = []
        /// The findings that fail the exit code, given the report's threshold.
        var failing: [Diagnostic] = []
    }

    /// Whether `diagnostic` fails the exit code of `report`: an input that could not be checked
    /// always does; a finding does at or above the report's threshold (never with `--fail-on never`).
    static func fails(_ diagnostic: Diagnostic, in report: CheckReport) -> Bool {
        guard !diagnostic.suppressed else { return false }
        if diagnostic.rule == CheckReport.inputUnreadableRule && report.inputError != nil { return true }
        guard let threshold = report.failureThreshold else { return false }
        return diagnostic.severity >= threshold
    }

    /// Test cases in a stable order: for each rule, the stream-level case, then one per variant.
    /// A finding belongs to a variant when it lies in the variant's media playlist, or on the
    /// variant's EXT-X-STREAM-INF line of the input; otherwise to the stream-level case.
    static func testCases(for report: CheckReport) -> [TestCase] {
        var ruleIDs = report.checkedRules.map(\.id)
        // Excused findings (# hlscheck-disable-next-line) neither fail nor print.
        let diagnostics = report.diagnostics.filter { !$0.suppressed }
        for diagnostic in diagnostics where !ruleIDs.contains(diagnostic.rule) {
            ruleIDs.append(diagnostic.rule)  // never lose a finding of a rule the report does not list
        }
        var cases: [TestCase] = []
        var caseIndex: [String: Int] = [:]
        for rule in ruleIDs {
            caseIndex[key(rule, variant: nil)] = cases.count
            cases.append(TestCase(name: rule))
            for (variantIndex, variant) in report.variants.enumerated() {
                caseIndex[key(rule, variant: variantIndex)] = cases.count
                cases.append(TestCase(name: "\(rule): \(variant.uri)"))
            }
        }
        for diagnostic in diagnostics {
            let variant = report.variants.firstIndex { variant in
                guard let location = diagnostic.location else { return false }
                return location.uri == variant.playlist || (location.uri == report.input && location.line == variant.line)
            }
            if let index = caseIndex[key(diagnostic.rule, variant: variant)] {
                cases[index].diagnostics.append(diagnostic)
                if fails(diagnostic, in: report) { cases[index].failing.append(diagnostic) }
            }
        }
        return cases
    }

    private static func key(_ rule: String, variant: Int?) -> String {
        "\(rule)#\(variant.map(String.init) ?? "stream")"
    }

    private func writeSuite(_ report: CheckReport, id: Int, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let cases = Self.testCases(for: report)
        try writer.startElement("testsuite")
        try writer.attribute("name", report.input)
        try writer.attribute("package", report.input)
        try writer.attribute("id", String(id))
        try writer.attribute("timestamp", timestamp)
        try writer.attribute("hostname", hostname.isEmpty ? "localhost" : hostname)
        try writer.attribute("tests", String(cases.count))
        try writer.attribute("failures", String(cases.filter { !$0.failing.isEmpty }.count))
        try writer.attribute("errors", "0")
        try writer.attribute("time", "0")

        try writer.startElement("properties")
        try writer.element("property", attributes: ["name": "hlscheck.version", "value": HLSCheckVersion.current])
        try writer.endElement()

        for testCase in cases {
            try writer.startElement("testcase")
            try writer.attribute("name", testCase.name)
            try writer.attribute("classname", report.input)
            try writer.attribute("time", "0")
            let failing = testCase.failing
            if let first = failing.first {
                let message = failing.count == 1
                    ? first.message : "\(failing.count) \(Self.noun(failing)), the first: \(first.message)"
                try writer.element(
                    "failure", attributes: ["message": message, "type": first.rule],
                    text: failing.map(Self.failureLine).joined(separator: "\n"))
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
        diagnostic.place.map { "\($0): \(diagnostic.message)" } ?? diagnostic.message
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
        return "\(place)\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule)]"
    }
}

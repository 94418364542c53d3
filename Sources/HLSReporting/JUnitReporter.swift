public import Foundation
public import HLSCheck

/// JUnit XML for CI test views (GitLab, Jenkins, GitHub test-report actions), valid against the
/// Apache Ant JUnit schema: one `<testsuite>` per input, one `<testcase>` per checked rule and
/// variant plus one per rule for findings about the stream as a whole.
///
/// Only errors fail a test case. The Ant schema gives a test case at most one `<failure>` and no
/// output of its own, so several errors share one failure, and warnings and notes go to the
/// suite's `<system-out>` as compiler-style lines.
public struct JUnitReporter: Sendable {
    /// ISO 8601 without a zone (`2026-11-21T10:00:00`), as the schema requires.
    public var timestamp: String
    public var hostname: String

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
        var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
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
        try writer.attribute("failures", String(cases.filter { !$0.errors.isEmpty }.count))
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
            let errors = testCase.errors
            if let first = errors.first {
                let message = errors.count == 1 ? first.message : "\(errors.count) errors, the first: \(first.message)"
                try writer.element(
                    "failure", attributes: ["message": message, "type": first.rule],
                    text: errors.map(Self.failureLine).joined(separator: "\n"))
            }
            try writer.endElement()
        }

        let output = report.diagnostics.filter { $0.severity != .error && !$0.suppressed }.map(Self.outputLine)
        try writer.element("system-out", text: output.isEmpty ? "" : output.joined(separator: "\n") + "\n")
        try writer.element("system-err", text: "")
        try writer.endElement()
    }

    /// `path:line:col: message`, as compilers print it (CI viewers link such lines).
    static func failureLine(_ diagnostic: Diagnostic) -> String {
        diagnostic.location.map { "\($0.description): \(diagnostic.message)" } ?? diagnostic.message
    }

    /// `path:line:col: warning: message [rule-id]`, like the text report.
    static func outputLine(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\($0.description): " } ?? ""
        return "\(place)\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule)]"
    }
}

public import HLSCheck
import FoundationEssentials

/// The machine-readable report of design.md §4, documented in docs/json-report.md.
/// Keys may be added, never renamed.
public struct JSONReporter: Sendable {
    /// Makes a reporter.
    public init() {}

    struct Document: Encodable {
        struct Tool: Encodable {
            var name = "hlscheck"
            var version = HLSCheckVersion.current
        }
        struct Summary: Encodable {
            var errors: Int
            var warnings: Int
            var notes: Int
            var suppressed: Int
            /// Of `suppressed`, the findings a baseline file excused (`--baseline`); present
            /// only when a baseline excused any.
            var baselined: Int?
        }
        struct Location: Encodable {
            var uri: String
            var line: Int
            var column: Int?
        }
        struct Entry: Encodable {
            var rule: String
            var severity: String
            var message: String
            var location: Location?
            /// Present (true) only for findings a `# hlscheck-disable-next-line` comment excuses.
            var suppressed: Bool?
            /// Present (true) only for findings a baseline file excuses (also `suppressed`).
            var baselined: Bool?
            /// The edit `hlscheck fix` makes for the finding; absent when no measurement settles it.
            var fix: Fix?
        }
        /// An edit of one playlist line (docs/fix.md).
        struct Fix: Encodable {
            var uri: String
            var line: Int
            /// True: `text` is a new line inserted after `line`; false: `text` replaces `line`.
            var inserted: Bool
            var text: String
            var description: String
        }
        /// An input that could not be checked (exit code 2), with why.
        struct FailedInput: Encodable {
            var path: String
            var error: String
        }
        /// A variant and the input it belongs to (`input`, as in `inputs`).
        struct Variant: Encodable {
            var input: String
            var summary: VariantSummary

            enum Key: String, CodingKey { case input }

            func encode(to encoder: any Encoder) throws {
                try summary.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(input, forKey: .input)
            }
        }
        var tool = Tool()
        /// Every input of the run, checked or not.
        var inputs: [String]
        /// The inputs that could not be checked; each also has an `input-unreadable` diagnostic.
        var failedInputs: [FailedInput]
        var summary: Summary
        var diagnostics: [Entry]
        var variants: [Variant]
        /// One per input fetched over http(s); absent when no input was (docs/remote.md).
        var delivery: [Delivery]?

        struct Delivery: Encodable {
            struct Version: Encodable {
                var version: String
                var responses: Int
            }
            var input: String
            var responses: Int
            var bytes: Int
            var httpVersions: [Version]
            var tls: Bool
            var tlsVerified: Bool?
        }
    }

    /// One JSON document for all reports (docs/json-report.md).
    public func render(_ reports: [CheckReport]) -> String {
        let diagnostics = reports.flatMap(\.diagnostics)
        let document = Document(
            inputs: reports.map(\.input),
            failedInputs: reports.compactMap { report in
                report.inputError.map { Document.FailedInput(path: report.input, error: $0.description) }
            },
            summary: .init(
                errors: reports.reduce(0) { $0 + $1.count(.error) },
                warnings: reports.reduce(0) { $0 + $1.count(.warning) },
                notes: reports.reduce(0) { $0 + $1.count(.note) },
                suppressed: reports.reduce(0) { $0 + $1.suppressedCount },
                baselined: reports.contains { $0.baselinedCount > 0 }
                    ? reports.reduce(0) { $0 + $1.baselinedCount } : nil),
            diagnostics: diagnostics.map { diagnostic in
                Document.Entry(
                    rule: diagnostic.rule, severity: diagnostic.severity.rawValue, message: diagnostic.message,
                    location: diagnostic.location.map {
                        Document.Location(uri: $0.uri, line: $0.line, column: $0.column > 0 ? $0.column : nil)
                    },
                    suppressed: diagnostic.suppressed ? true : nil, baselined: diagnostic.baselined ? true : nil,
                    fix: diagnostic.fix.map {
                        Document.Fix(
                            uri: $0.uri, line: $0.line, inserted: $0.inserted, text: $0.text,
                            description: $0.description)
                    })
            },
            variants: reports.flatMap { report in
                report.variants.map { Document.Variant(input: report.input, summary: Self.finite($0)) }
            },
            delivery: Self.delivery(reports))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(document) {
            return String(decoding: data, as: UTF8.self) + "\n"
        }
        // JSONEncoder refuses only non-finite Doubles, and `finite` removed those; should a
        // future field bring one back, the report keeps its shape and its diagnostics, without
        // the variant table, rather than shrinking to `{}`.
        var reduced = document
        reduced.variants = []
        guard let data = try? encoder.encode(reduced) else { return "{\"diagnostics\": [], \"variants\": []}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// How each remote input travelled; nil when every input was local.
    static func delivery(_ reports: [CheckReport]) -> [Document.Delivery]? {
        let entries = reports.compactMap { report in
            report.delivery.map { log in
                Document.Delivery(
                    input: report.input, responses: log.traffic.responses, bytes: log.traffic.bodyBytes,
                    httpVersions: log.traffic.httpVersions.sorted { $0.key < $1.key }.map {
                        .init(version: $0.key, responses: $0.value)
                    },
                    tls: log.usedTLS, tlsVerified: log.usedTLS ? !log.tlsVerificationDisabled : nil)
            }
        }
        return entries.isEmpty ? nil : entries
    }

    /// The summary without non-finite numbers, which JSON cannot write.
    static func finite(_ variant: VariantSummary) -> VariantSummary {
        var variant = variant
        if let duration = variant.duration, !duration.isFinite { variant.duration = nil }
        return variant
    }
}

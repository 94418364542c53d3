public import HLSCheck
import Foundation

/// SARIF 2.1.0 (OASIS), the format code-scanning services ingest (GitHub code scanning, Azure
/// DevOps, SonarQube): one run whose driver lists every rule hlscheck knows, and one result per
/// finding.
public struct SARIFReporter: Sendable {
    /// Makes a reporter.
    public init() {}

    static let schemaURI = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"

    struct Log: Encodable {
        var schema = SARIFReporter.schemaURI
        var version = "2.1.0"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema", version, runs
        }
    }
    struct Run: Encodable {
        var tool: Tool
        var artifacts: [Artifact]
        var results: [Result]
    }
    struct Tool: Encodable {
        var driver: Driver
    }
    struct Driver: Encodable {
        var name = "hlscheck"
        var version = HLSCheckVersion.current
        var rules: [ReportingDescriptor]
    }
    struct ReportingDescriptor: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var defaultConfiguration: Configuration
    }
    struct Configuration: Encodable {
        var level: String
    }
    struct Text: Encodable {
        var text: String
    }
    struct Artifact: Encodable {
        var location: ArtifactLocation
        var roles = ["analysisTarget"]
    }
    struct ArtifactLocation: Encodable {
        var uri: String
    }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Text
        var locations: [Location]?
        /// In-source suppressions (SARIF §3.27.23): a `# hlscheck-disable-next-line` comment.
        var suppressions: [Suppression]?
    }
    struct Suppression: Encodable {
        var kind: String
        var justification: String?
    }
    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
    }

    /// One SARIF 2.1.0 log for all reports.
    public func render(_ reports: [CheckReport]) -> String {
        let catalogue = RuleCatalogue.descriptions
        let descriptors = catalogue.map(Self.descriptor) + [Self.inputUnreadable]
        var ruleIndex: [String: Int] = [:]
        for (index, rule) in descriptors.enumerated() where ruleIndex[rule.id] == nil {
            ruleIndex[rule.id] = index
        }
        let log = Log(runs: [
            Run(
                tool: Tool(driver: Driver(rules: descriptors)),
                artifacts: reports.map { Artifact(location: ArtifactLocation(uri: Self.uriReference($0.input))) },
                results: reports.flatMap(\.diagnostics).map { diagnostic in
                    Result(
                        ruleId: diagnostic.rule, ruleIndex: ruleIndex[diagnostic.rule], level: diagnostic.severity.rawValue,
                        message: Text(text: diagnostic.message),
                        locations: diagnostic.location.map { [Self.location(uri: $0.uri, line: $0.line, column: $0.column)] },
                        suppressions: diagnostic.baselined
                            ? [Suppression(kind: "external", justification: "in the baseline file (--baseline)")]
                            : diagnostic.suppressed ? [Suppression(kind: "inSource", justification: "a # hlscheck-disable comment in the playlist")] : nil)
                })
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain structs of strings and numbers cannot fail to encode; an empty object is the
        // defensive answer rather than a trap.
        guard let data = try? encoder.encode(log) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// An input that could not be checked (exit code 2): not a catalogue rule, but a result
    /// like any other, so a code-scanning view never shows a clean run that did not happen.
    static let inputUnreadable = ReportingDescriptor(
        id: CheckReport.inputUnreadableRule, name: identifier(CheckReport.inputUnreadableRule),
        shortDescription: Text(text: "an input could not be checked"),
        fullDescription: Text(text: "The input is missing, is not a playlist (a segment, an image, no #EXTM3U at the start), cannot be read (a FIFO, a device, permissions), is unreachable, or lies outside its root: nothing in it was checked, and the run exits with code 2."),
        help: Text(text: "an input could not be checked\n\nFix the path or the file, or run `hlscheck inspect` on a segment."),
        defaultConfiguration: Configuration(level: "error"))

    static func descriptor(_ rule: RuleDescription) -> ReportingDescriptor {
        ReportingDescriptor(
            id: rule.id, name: identifier(rule.id), shortDescription: Text(text: rule.summary),
            fullDescription: Text(text: rule.rationale), help: Text(text: "\(rule.summary)\n\n\(rule.rationale)"),
            defaultConfiguration: Configuration(level: rule.defaultSeverity.rawValue))
    }

    /// Line and column are 1-based; 0 means unknown (a column of 0: the whole line).
    static func location(uri: String, line: Int, column: Int) -> Location {
        Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: ArtifactLocation(uri: uriReference(uri)),
                region: line > 0 ? Region(startLine: line, startColumn: column > 0 ? column : nil) : nil))
    }

    /// SARIF §3.49.7 wants a rule name that reads as an identifier: `audio-only-over-budget`
    /// becomes `AudioOnlyOverBudget`.
    static func identifier(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `artifactLocation.uri` must be a URI reference (RFC 3986 §4.1; SARIF §3.4.3): an http(s)
    /// URL is kept, a file path has every byte outside the unreserved set and `/` percent-encoded
    /// (`:` too, so a relative path never reads as a scheme).
    static func uriReference(_ path: String) -> String {
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return path }
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return encoded
    }
}

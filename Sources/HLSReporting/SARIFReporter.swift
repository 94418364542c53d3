package import HLSCheck
package import FoundationEssentials
import MediaFormats

/// SARIF 2.1.0 (OASIS), the format code-scanning services ingest (GitHub code scanning, Azure
/// DevOps, SonarQube): one run whose driver lists every rule hlscheck knows (each with its
/// rationale as `help`, and a `helpUri` into docs/rules.md when a documentation URL is
/// configured), and one result per finding.
///
/// Paths are relative to the repository root, named by the base id `REPOROOT`
/// (`originalUriBaseIds`); a path outside it is an absolute `file://` URI. Each result has a
/// `partialFingerprints` entry that survives reruns and moved lines: a hash of the rule, the file
/// and the text of the finding's line (whitespace collapsed), with an occurrence count for
/// identical lines; without the line's text, the message stands in for it.
package struct SARIFReporter: Sendable {
    /// How the run went: SARIF's `invocations` (exit code, times, command line).
    package struct Invocation: Sendable {
        package var commandLine: [String]
        package var start: Date
        package var end: Date
        package var exitCode: Int

        package init(commandLine: [String], start: Date, end: Date, exitCode: Int) {
            self.commandLine = commandLine
            self.start = start
            self.end = end
            self.exitCode = exitCode
        }
    }

    /// The repository root the report's relative paths are relative to; nil leaves them without
    /// a base (as given).
    package var paths: ReportPaths?
    package var invocation: Invocation?
    /// The text of the lines findings are on, by report path and line (`SourceLines`).
    package var sourceLines: SourceLines

    /// The rules the log describes (`tool.driver.rules`).
    package var catalogue: [RuleDescription]

    /// Makes a reporter; without `paths`, report paths are written as given.
    package init(
        paths: ReportPaths? = nil, invocation: Invocation? = nil, sourceLines: SourceLines = SourceLines(),
        catalogue: [RuleDescription] = RuleCatalogue.descriptions
    ) {
        self.catalogue = catalogue
        self.paths = paths
        self.invocation = invocation
        self.sourceLines = sourceLines
    }

    /// The `uriBaseId` of the repository root.
    static let rootBaseID = "REPOROOT"
    /// The `partialFingerprints` key: ours, versioned, so a change of recipe is a new key.
    static let fingerprintKey = "hlscheckLineHash/v1"

    static let schemaURI =
        "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"

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
        var invocations: [InvocationObject]?
        var originalUriBaseIds: [String: ArtifactLocation]?
        var artifacts: [Artifact]
        /// Set when the results stop at `maximumResults` (SARIF §3.14.26 property bag).
        var properties: RunProperties?
        var results: [Result]
    }
    /// What a run whose results were cut says about it.
    struct RunProperties: Encodable {
        /// Every finding of the run; the log holds the first `resultsWritten`.
        var findingCount: Int
        var resultsWritten: Int
        var note: String
    }
    struct InvocationObject: Encodable {
        var commandLine: String
        var startTimeUtc: String
        var endTimeUtc: String
        var exitCode: Int
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]?
    }
    /// An input that could not be checked, said at the level of the run too.
    struct Notification: Encodable {
        var level: String
        var message: Text
        var locations: [Location]?
    }
    struct Tool: Encodable {
        var driver: Driver
    }
    struct Driver: Encodable {
        var name = "hlscheck"
        var version = HLSCheckVersion.current
        /// The rules' documentation page, when configured (SARIF §3.19.17 makes it optional).
        var informationUri: String?
        var rules: [ReportingDescriptor]
    }
    struct ReportingDescriptor: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var helpUri: String?
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
        var uriBaseId: String?
    }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Text
        var locations: [Location]?
        var partialFingerprints: [String: String]
        /// In-source suppressions (SARIF §3.27.23): a `# hlscheck-disable-next-line` comment.
        var suppressions: [Suppression]?
        /// The edit `hlscheck fix` makes (SARIF §3.27.30), for code-scanning views to offer.
        var fixes: [Fix]?
    }
    struct Fix: Encodable {
        var description: Text
        var artifactChanges: [ArtifactChange]
    }
    struct ArtifactChange: Encodable {
        var artifactLocation: ArtifactLocation
        var replacements: [Replacement]
    }
    struct Replacement: Encodable {
        var deletedRegion: Region
        var insertedContent: Text
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
        var endLine: Int?
        var endColumn: Int?
    }

    /// The most results one run holds: GitHub code scanning refuses a SARIF run with more
    /// (its documented upload limit is 25 000 results per run). Findings after these are left
    /// out, and the run's `properties` say how many there were.
    package static let maximumResults = 25_000

    /// One SARIF 2.1.0 log for all reports, as one string (tests).
    package func render(_ reports: [CheckReport]) -> String {
        let buffer = ReportBuffer()
        // A buffer does not refuse bytes, and plain structs of strings and numbers do not fail to
        // encode; an empty object is the defensive answer rather than a trap.
        guard (try? write(reports, to: buffer)) != nil else { return "{}\n" }
        return buffer.text
    }

    /// Writes one SARIF 2.1.0 log for all reports into `sink`, result by result: the log is never
    /// held whole (a result is encoded, written and dropped). The bytes are those one encoding of
    /// the whole log would give (pretty-printed, sorted keys). Returns how many results were
    /// written and how many findings there were (more only past `maximumResults`).
    @discardableResult
    package func write(_ reports: [CheckReport], to sink: some ReportSink) throws -> (results: Int, findings: Int) {
        // One run, one driver: the documentation URL of the first report that has one.
        let documentation =
            reports.lazy.compactMap(\.documentationURL).first ?? CheckConfiguration.builtInDocumentationURL
        let descriptors = catalogue.map { Self.descriptor($0, documentation: documentation) }
        var ruleIndex: [String: Int] = [:]
        for (index, rule) in descriptors.enumerated() where ruleIndex[rule.id] == nil {
            ruleIndex[rule.id] = index
        }
        let findings = reports.reduce(0) { $0 + $1.diagnostics.count }
        let kept = min(findings, Self.maximumResults)
        let log = Log(runs: [
            Run(
                tool: Tool(driver: Driver(informationUri: documentation, rules: descriptors)),
                invocations: invocation.map { [invocationObject($0, reports)] },
                originalUriBaseIds: paths.map {
                    [Self.rootBaseID: ArtifactLocation(uri: Self.fileURI(directory: $0.root))]
                },
                artifacts: reports.map { Artifact(location: artifactLocation($0.input)) },
                properties: findings > kept
                    ? RunProperties(
                        findingCount: findings, resultsWritten: kept,
                        note:
                            "hlscheck found \(findings) findings; this run holds the first \(kept) (GitHub code scanning takes at most \(Self.maximumResults) results per run). hlscheck --format json lists every one."
                    ) : nil,
                results: [])
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The log with no result, cut where its empty results array is: the results are written
        // in between, indented as the whole log's encoding would indent them.
        let skeleton = String(decoding: try encoder.encode(log), as: UTF8.self)
        let empty = "\"results\" : [\n\n      ]"
        guard let hole = skeleton.firstRange(of: empty) else { throw EncodingError.layout }
        try sink.write(String(skeleton[..<hole.lowerBound]) + "\"results\" : [\n")
        var fingerprints = Fingerprints()
        var written = 0
        for diagnostic in reports.lazy.flatMap(\.diagnostics) {
            guard written < kept else { break }
            let result = Result(
                ruleId: diagnostic.rule, ruleIndex: ruleIndex[diagnostic.rule], level: diagnostic.severity.rawValue,
                message: Text(text: diagnostic.shownMessage),
                locations: diagnostic.location.map { [location(uri: $0.uri, line: $0.line, column: $0.column)] },
                partialFingerprints: [Self.fingerprintKey: fingerprint(diagnostic, in: &fingerprints)],
                suppressions: diagnostic.baselined
                    ? [Suppression(kind: "external", justification: "in the baseline file (--baseline)")]
                    : diagnostic.suppressed
                        ? [Suppression(kind: "inSource", justification: "a # hlscheck-disable comment in the playlist")]
                        : nil,
                fixes: diagnostic.fix.map { [fix($0)] })
            let encoded = String(decoding: try encoder.encode(result), as: UTF8.self)
            let indented = encoded.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }
            try sink.write((written == 0 ? "" : ",\n") + indented.joined(separator: "\n"))
            written += 1
        }
        try sink.write("\n      ]" + String(skeleton[hole.upperBound...]) + "\n")
        return (written, findings)
    }

    /// The skeleton of a log did not have the layout the results are spliced into.
    enum EncodingError: Error, CustomStringConvertible {
        case layout
        var description: String { "the SARIF log's encoding has no results array where one was expected" }
    }

    static func descriptor(_ rule: RuleDescription, documentation: String?) -> ReportingDescriptor {
        ReportingDescriptor(
            id: rule.id, name: identifier(rule.id), shortDescription: Text(text: rule.summary),
            fullDescription: Text(text: rule.rationale),
            help: Text(
                text: "\(rule.summary)\n\n\(rule.rationale)\n\n`hlscheck rules \(rule.id)` explains it in full."),
            helpUri: RuleDocumentation.url(for: rule.id, documentation: documentation),
            defaultConfiguration: Configuration(level: rule.defaultSeverity.rawValue))
    }

    /// A proposed edit as a SARIF fix: the line's text replaced (a region of line numbers only
    /// is the whole line without its line ending, §3.30.2), or a line added at the end of the
    /// line it follows.
    func fix(_ proposed: ProposedFix) -> Fix {
        let region: Region
        let text: String
        if proposed.inserted {
            if let line = sourceLines.text(of: proposed.uri, line: proposed.line) {
                let end = (line.hasSuffix("\r") ? String(line.dropLast()) : line).utf16.count + 1
                region = Region(startLine: proposed.line, startColumn: end, endLine: proposed.line, endColumn: end)
                text = "\n" + proposed.text
            } else {
                region = Region(startLine: proposed.line + 1, startColumn: 1, endLine: proposed.line + 1, endColumn: 1)
                text = proposed.text + "\n"
            }
        } else {
            region = Region(startLine: proposed.line)
            text = proposed.text
        }
        return Fix(
            description: Text(text: proposed.description),
            artifactChanges: [
                ArtifactChange(
                    artifactLocation: artifactLocation(proposed.uri),
                    replacements: [Replacement(deletedRegion: region, insertedContent: Text(text: text))])
            ])
    }

    /// Line and column are 1-based; 0 means unknown (a column of 0: the whole line).
    func location(uri: String, line: Int, column: Int) -> Location {
        Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: artifactLocation(uri),
                region: line > 0 ? Region(startLine: line, startColumn: column > 0 ? column : nil) : nil))
    }

    /// A report path: relative ones against `REPOROOT` (when a root is known), absolute ones as
    /// `file://` URIs, URLs as they are.
    func artifactLocation(_ path: String) -> ArtifactLocation {
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return ArtifactLocation(uri: path) }
        // Without a known root, an absolute path stays an absolute-path reference, as given.
        if path.hasPrefix("/") {
            return ArtifactLocation(uri: (paths == nil ? "" : "file://") + Self.uriReference(path))
        }
        return ArtifactLocation(uri: Self.uriReference(path), uriBaseId: paths == nil ? nil : Self.rootBaseID)
    }

    /// `file:///abs/folder/`: a base URI ends with a slash (SARIF §3.14.14).
    static func fileURI(directory: String) -> String {
        "file://" + uriReference(directory.hasSuffix("/") ? directory : directory + "/")
    }

    /// What fingerprinting has seen so far in one log.
    struct Fingerprints {
        /// How many findings had each identity, by its hash: the occurrence count.
        var occurrences: [String: Int] = [:]
        /// The hash of each rule, file and line already fingerprinted: a line's text is collapsed
        /// and hashed once per rule, not once per finding on it (a long line with many findings
        /// would cost their product).
        var lineHashes: [LineKey: String] = [:]
    }
    struct LineKey: Hashable {
        var rule: String
        var uri: String
        var line: Int
    }

    /// The stable identity of a finding: rule, file, and the text of its line with whitespace
    /// collapsed (so it survives lines moving), numbered among identical ones in report order;
    /// the message stands in when the line's text is unknown (line 0, no location, a file that
    /// cannot be read again).
    func fingerprint(_ diagnostic: Diagnostic, in seen: inout Fingerprints) -> String {
        let uri = diagnostic.location?.uri ?? ""
        let hash: String
        if let location = diagnostic.location,
            let cached = seen.lineHashes[LineKey(rule: diagnostic.rule, uri: uri, line: location.line)]
        {
            hash = cached
        } else if let location = diagnostic.location, let text = sourceLines.text(of: location.uri, line: location.line)
        {
            let content = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            hash = Self.fnv1a([diagnostic.rule, uri, "line:" + content].joined(separator: "\u{0}"))
            seen.lineHashes[LineKey(rule: diagnostic.rule, uri: uri, line: location.line)] = hash
        } else {
            hash = Self.fnv1a([diagnostic.rule, uri, "message:" + diagnostic.message].joined(separator: "\u{0}"))
        }
        // Counted by hash: the same identity as counting by the hashed text, without keeping
        // (and hashing again) a line's text per finding.
        let occurrence = seen.occurrences[hash, default: 0] + 1
        seen.occurrences[hash] = occurrence
        return "\(hash):\(occurrence)"
    }

    /// FNV-1a, 64 bits, as 16 hex digits: an identity, not a security measure.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    func invocationObject(_ invocation: Invocation, _ reports: [CheckReport]) -> InvocationObject {
        let failed = reports.filter { $0.inputError != nil }
        return InvocationObject(
            commandLine: CommandLineRedaction.commandLine(invocation.commandLine),
            startTimeUtc: Self.utc(invocation.start), endTimeUtc: Self.utc(invocation.end),
            exitCode: invocation.exitCode,
            // Findings are a successful run; an input that could not be checked is not (exit 2).
            executionSuccessful: invocation.exitCode != 2,
            toolExecutionNotifications: failed.isEmpty
                ? nil
                : failed.map { report in
                    Notification(
                        level: "error", message: Text(text: report.inputError?.description ?? report.input),
                        locations: [location(uri: report.input, line: 0, column: 0)])
                })
    }

    /// RFC 3339 in UTC with milliseconds, as SARIF's `date-time` wants it.
    static func utc(_ date: Date) -> String {
        UTCTime(secondsSince1970: date.timeIntervalSince1970, roundingToMilliseconds: true)?
            .internetDateTimeWithMilliseconds
            ?? "1970-01-01T00:00:00.000Z"
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

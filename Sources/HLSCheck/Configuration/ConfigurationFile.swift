import FoundationEssentials
internal import MediaFormats
import FileSystem

/// `.hlscheck.yml` (or `.yaml`, `.json`): the settings of a stream repository, found from the
/// checked playlist's folder upwards, like a linter's configuration (docs/configuration.md).
///
///     profile: apple-ios
///     budget-kbps: 64
///     bandwidth-tolerance: 0.1
///     duration-tolerance: 0.5
///     fail-on: warning
///     rules:
///       artwork-missing: off
///       codecs-missing: error
///     ignore:
///       - "legacy/**"
///     documentation-url: https://example.com/hlscheck/rules.html
package struct ConfigurationFile: Sendable, Hashable {
    /// The file names searched in each folder, in this order.
    package static let names = [".hlscheck.yml", ".hlscheck.yaml", ".hlscheck.json"]

    /// The file this came from.
    package var path: String
    /// `profile:`, nil when absent.
    package var profile: Profile?
    /// `budget-kbps:`: the audio-only budget in kbit/s (the configuration holds bit/s); nil when absent.
    package var budgetKbps: Int?
    /// `bandwidth-tolerance:` as a fraction (0.1 = 10 %), nil when absent.
    package var bandwidthTolerance: Double?
    /// `duration-tolerance:` in seconds, nil when absent.
    package var durationTolerance: Double?
    /// `error`, `warning` or `never`.
    package var failOn: String?
    /// Rule id → severity; nil switches the rule off.
    package var rules: [String: Severity?] = [:]
    /// Glob patterns, relative to the file's folder, of playlists folder discovery skips.
    package var ignore: [String] = []
    /// `documentation-url:` the page docs/rules.md is published at (http or https), nil when absent.
    package var documentationURL: String?

    /// Patterns `ignore:` may list at most.
    static let maximumIgnorePatterns = 1_000
    /// Bytes of one ignore pattern, and of `documentation-url`, at most.
    static let maximumTextBytes = 2_048

    /// The folder the file is in: ignore patterns are relative to it.
    package var folder: String { PathString.parent(path) }

    /// The nearest configuration file in `folder` or a folder above it, nil when there is none.
    package static func discover(from folder: String) throws(CheckError) -> ConfigurationFile? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        while true {
            for name in names {
                let candidate = current.appendingPathComponent(name).path
                if FileManager.default.fileExists(atPath: candidate) { return try load(candidate) }
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Reads and validates the file at `path` (YAML; JSON is read as the YAML it also is). Throws
    /// `CheckError` naming the file when it cannot be read or parsed, or a setting is unknown or invalid.
    package static func load(_ path: String) throws(CheckError) -> ConfigurationFile {
        // A regular file only: `.hlscheck.yml` is found by walking up from the input, and a FIFO
        // by that name must not block the run.
        let data: [UInt8]
        do {
            data = try RegularFile(path: path).readAll(maximumBytes: 1 << 20, limitHint: "a smaller configuration file")
        } catch {
            throw CheckError("\(path): cannot read the configuration file: \(error.reason)")
        }
        return try parse(data, path: path)
    }

    /// The settings `data`, the text of the file at `path`, holds; throws `CheckError` naming
    /// the file, line and column of the first value that is not YAML, unknown or out of range.
    package static func parse(_ data: [UInt8], path: String) throws(CheckError) -> ConfigurationFile {
        let node: YAMLNode?
        do {
            node = try YAMLNode.parse(data)
        } catch {
            throw CheckError("\(path):\(error.line):\(error.column): not valid YAML or JSON: \(error.problem)")
        }
        var file = ConfigurationFile(path: path)
        guard let node else { return file }  // an empty file configures nothing
        guard let mapping = node.mapping else { throw file.problem(node, "expected a mapping of settings") }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "profile":
                guard let name = value.string, let profile = Profile(rawValue: name) else {
                    throw file.problem(
                        value, "profile must be one of \(Profile.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                file.profile = profile
            case SettingBounds.budgetKbps.key:
                file.budgetKbps = try file.value(value, of: SettingBounds.budgetKbps) { $0.int }
            case SettingBounds.bandwidthTolerance.key:
                file.bandwidthTolerance = try file.value(value, of: SettingBounds.bandwidthTolerance) { $0.float }
            case SettingBounds.durationTolerance.key:
                file.durationTolerance = try file.value(value, of: SettingBounds.durationTolerance) { $0.float }
            case "fail-on":
                guard let level = value.string, ["error", "warning", "never"].contains(level) else {
                    throw file.problem(value, "fail-on must be error, warning or never")
                }
                file.failOn = level
            case "rules":
                guard let rules = value.mapping else {
                    throw file.problem(value, "rules must map rule ids to error, warning, note or off")
                }
                let known = Set(RuleCatalogue.descriptions.map(\.id))
                for (ruleNode, severityNode) in rules {
                    let rule = ruleNode.string ?? ""
                    guard known.contains(rule) else {
                        throw file.problem(
                            ruleNode,
                            "unknown rule \"\(TerminalText.escaped(String(rule.prefix(40))))\" (hlscheck rules lists them)"
                        )
                    }
                    guard RuleCatalogue.description(of: rule)?.configurable != false else {
                        throw file.problem(
                            ruleNode,
                            "\(rule) cannot be changed: an input that could not be checked always fails the run (exit code 2); remove this line"
                        )
                    }
                    // YAML reads a bare `off` as the boolean false.
                    let text = severityNode.string ?? ""
                    if text == "off" || severityNode.bool == false {
                        file.rules[rule] = .some(nil)
                    } else if let severity = Severity(rawValue: text) {
                        file.rules[rule] = severity
                    } else {
                        throw file.problem(severityNode, "the severity of \(rule) must be error, warning, note or off")
                    }
                }
            case "ignore":
                guard let patterns = value.sequence?.map({ $0.string }), !patterns.contains(nil) else {
                    throw file.problem(value, "ignore must be a list of glob patterns")
                }
                // Every discovered playlist is matched against every pattern: both bounded.
                guard patterns.count <= Self.maximumIgnorePatterns,
                    patterns.allSatisfy({ ($0 ?? "").utf8.count <= Self.maximumTextBytes })
                else {
                    throw file.problem(
                        value,
                        "ignore must be a list of at most \(Self.maximumIgnorePatterns) glob patterns of at most \(Self.maximumTextBytes) bytes each"
                    )
                }
                file.ignore = patterns.compactMap { $0 }
            case "documentation-url":
                // Every report repeats it once per rule: no control character, no megabyte.
                guard let url = value.string, url.hasPrefix("https://") || url.hasPrefix("http://"),
                    !url.contains(where: \.isWhitespace), url.utf8.count <= Self.maximumTextBytes,
                    !url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                else {
                    throw file.problem(
                        value, "documentation-url must be the http(s) address docs/rules.md is published at")
                }
                file.documentationURL = url
            default:
                throw file.problem(
                    keyNode,
                    "unknown setting \"\(TerminalText.escaped(String(key.prefix(40))))\" (known: profile, budget-kbps, bandwidth-tolerance, duration-tolerance, fail-on, rules, ignore, documentation-url)"
                )
            }
        }
        return file
    }

    private func problem(_ node: YAMLNode, _ message: String) -> CheckError {
        CheckError("\(path):\(node.line):\(node.column): \(message)")
    }

    /// The value of `node` for a setting its flag shares: read by `read` (YAML's int or float),
    /// then held to the flag's range, with the flag's message. A list, a mapping, text, a
    /// number no Int holds, NaN and infinities are out of range too.
    private func value<Value>(_ node: YAMLNode, of bound: SettingBound<Value>, _ read: (YAMLNode) -> Value?)
        throws(CheckError) -> Value
    {
        guard let value = read(node) else {
            throw problem(node, bound.outOfRange(bound.key, got: Self.shown(node)))
        }
        if let message = bound.problem(value, as: bound.key) { throw problem(node, message) }
        return value
    }

    /// A value as a message quotes it: at most 40 characters of a scalar, else what it is.
    private static func shown(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text): text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// Applies the file's parameters and rule severities over a configuration — after the
    /// profile has configured it, before command-line flags do.
    package func apply(to configuration: inout CheckConfiguration) {
        if let budgetKbps { configuration.audioOnlyBudget = SettingBounds.audioOnlyBudget(kbps: budgetKbps) }
        if let bandwidthTolerance { configuration.bandwidthTolerance = bandwidthTolerance }
        if let durationTolerance { configuration.durationTolerance = durationTolerance }
        configuration.severityOverrides.merge(rules) { _, file in file }
        if let documentationURL { configuration.documentationURL = documentationURL }
    }
}

package import HLSCheck
import FoundationEssentials

/// The rule catalogue as documentation: docs/rules.md (generated, so it cannot drift from the
/// code), `hlscheck rules --format json`, `hlscheck rules ID` in the terminal, and the links
/// SARIF and the GitHub job summary give to a published docs/rules.md when one is configured.
package enum RuleDocumentation {

    /// The command that writes docs/rules.md.
    package static let regenerateCommand = "swift run hlscheck rules --format markdown > docs/rules.md"

    /// Where rule `id` is documented on the web: its heading (`#audio-only-over-budget`) in
    /// docs/rules.md as published at `documentation` (`documentation-url`, or the build's); nil
    /// when no page is configured. `input-unreadable`, not a catalogue rule, has a section too.
    package static func url(for id: String, documentation: String?) -> String? {
        documentation.map { "\($0)#\(anchor(id))" }
    }

    /// GitHub's anchor for a heading that is the bare id: lower case, anything but letters,
    /// digits, `-` and `_` dropped.
    static func anchor(_ id: String) -> String {
        String(
            id.lowercased().unicodeScalars.filter {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
            .map(Character.init))
    }

    /// The severity `profile` gives `rule`, nil when the profile switches it off.
    static func severity(of rule: RuleDescription, in profile: Profile) -> Severity? {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return configuration.severity(for: rule)
    }

    // MARK: - docs/rules.md

    /// The whole of docs/rules.md.
    package static func markdown(_ rules: [RuleDescription] = RuleCatalogue.descriptions) -> String {
        let profiles = Profile.allCases
        var out = """
            <!-- Generated from the rule catalogue by `\(regenerateCommand)`; do not edit by hand. \
            A test fails when this file differs from what the catalogue generates. -->
            # Rules

            Every rule hlscheck knows, as `hlscheck rules` lists them. Ids are stable: they name the
            rule in reports, in `.hlscheck.yml` (`rules:`), in `--profile` tables
            ([profiles.md](profiles.md)) and in `# hlscheck-disable-next-line RULE` comments.
            `hlscheck rules RULE-ID` prints a rule's section in the terminal. Each rule has an anchor
            here named after its id: where this file is published (`documentation-url:` in
            `.hlscheck.yml`), SARIF `helpUri` and the GitHub job summary link to `URL#RULE-ID`.

            Severity per profile: `off` when the profile switches the rule off. Scope: whether a
            finding concerns the stream as a whole or one variant (a JUnit report has one test case
            per variant for the latter, one per stream for the former).

            `hlscheck rules --format json [--profile P]` prints the same catalogue for tools:
            `{"tool", "profile", "rules": [{"id", "name", "summary", "rationale", "specItems"
            ([{"reference", "rfc8216" (RFC 8216's section where bis-22 numbers it differently),
            "level", "requirement"}]), "defaultSeverity", "severity" (in the profile; absent when it
            switches the rule off), "scope", "readsSegments", "needsDecode", "helpUri" (only with a documentation URL)}]}`.

            Each rule lists the spec items it enforces: `bis-22 §…` is
            draft-pantos-hls-rfc8216bis-22, `RFC 8216 §…` RFC 8216 (in parentheses where bis-22 numbers
            the same requirement differently), `AS n.m` Apple's HLS Authoring Specification for Apple
            Devices (`AS iOS n.m`, `AS tvOS n.m`: its amended requirements for that platform), `QA1767`
            Apple's technical Q&A on the 64 kbit/s audio-only variant (the App Store's historical rule).
            `hlscheck rules --verbose` prints them too.


            """
        out +=
            "| rule | " + profiles.map { "`\($0.rawValue)`" }.joined(separator: " | ")
            + " | scope | what it enforces |\n"
        out += "|---|" + profiles.map { _ in "---|" }.joined() + "---|---|\n"
        for rule in rules {
            let levels = profiles.map { severity(of: rule, in: $0)?.rawValue ?? "off" }
            out +=
                "| [`\(rule.id)`](#\(anchor(rule.id))) | " + levels.joined(separator: " | ")
                + " | \(rule.scope.rawValue) | \(cell(rule.summary)) |\n"
        }
        for rule in rules {
            out += "\n## \(rule.id)\n\n"
            out += "**\(rule.name).** \(rule.summary)\n\n"
            out += "\(rule.rationale)\n\n"
            if !rule.specItems.isEmpty {
                out += "Enforces:\n\n" + rule.specItems.map { "- \(itemText($0))\n" }.joined() + "\n"
            }
            var facts = ["default severity: `\(rule.defaultSeverity.rawValue)`", "scope: \(rule.scope.rawValue)"]
            if rule.needsDecoding {
                facts.append("runs only with `--decode`")
            } else if rule.needsMedia {
                facts.append("needs segments (silent with `--playlist-only`)")
            } else {
                facts.append("runs with `--playlist-only` too")
            }
            if !rule.configurable { facts.append("no setting changes it: the run exits with code 2") }
            out += "- " + facts.joined(separator: "\n- ") + "\n"
            let triggering =
                rule.triggering.map(\.name)
                + rule.profileExamples.filter(\.triggers).map { "\($0.example.name) (`\($0.profile.rawValue)`)" }
            let passing =
                rule.nonTriggering.map(\.name)
                + rule.profileExamples.filter { !$0.triggers }.map { "\($0.example.name) (`\($0.profile.rawValue)`)" }
            if !triggering.isEmpty {
                out += "- reported for (examples tested): " + triggering.joined(separator: "; ") + "\n"
            }
            if !passing.isEmpty { out += "- not reported for: " + passing.joined(separator: "; ") + "\n" }
        }
        return out
    }

    /// A spec item as a list entry: its sections in code spans, then the requirement.
    private static func itemText(_ item: SpecItem) -> String {
        "`\(item.reference)`" + (item.rfc8216.map { " (`\($0)`)" } ?? "")
            + " \(item.level.rawValue): \(item.requirement)"
    }

    /// Table cell text: `|` would end the cell, a line break the row.
    private static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }

    // MARK: - hlscheck rules ID

    /// Every id `hlscheck rules ID` explains.
    package static var explainedIDs: [String] { RuleCatalogue.descriptions.map(\.id) }

    /// A rule's whole story for the terminal (`hlscheck rules ID`): what it finds, why (with the
    /// spec section), its severity in `profile`, when it runs, the tested examples, and how to
    /// change or excuse it; wrapped at `width` columns. Nil for an id that names no rule.
    package static func explanation(of id: String, profile: Profile, documentation: String?, width: Int = 80) -> String?
    {
        guard let rule = RuleCatalogue.description(of: id) else { return nil }
        var out = "\(rule.id): \(rule.name)\n\n"
        out += wrap(rule.summary, width) + "\n\n" + wrap(rule.rationale, width) + "\n\n"
        let level = severity(of: rule, in: profile)?.rawValue ?? "off"
        var facts = [
            "Severity: \(level) in profile \(profile.rawValue) (default \(rule.defaultSeverity.rawValue)).",
            "Scope: \(rule.scope == .variant ? "each finding concerns one variant" : "the stream as a whole").",
        ]
        facts.append(
            rule.needsDecoding
                ? "Runs only with --decode."
                : rule.needsMedia ? "Reads segments: silent with --playlist-only." : "Runs with --playlist-only too.")
        let triggering =
            rule.triggering.map(\.name)
            + rule.profileExamples.filter(\.triggers).map { "\($0.example.name) (\($0.profile.rawValue))" }
        let passing =
            rule.nonTriggering.map(\.name)
            + rule.profileExamples.filter { !$0.triggers }.map { "\($0.example.name) (\($0.profile.rawValue))" }
        if !triggering.isEmpty { facts.append("Reported for: " + triggering.joined(separator: "; ") + ".") }
        if !passing.isEmpty { facts.append("Not reported for: " + passing.joined(separator: "; ") + ".") }
        if rule.configurable {
            facts.append(
                "Change its severity or turn it off in .hlscheck.yml (rules: \(rule.id): warning, or off); excuse one finding with a line \"# hlscheck-disable-next-line \(rule.id)\" above it in the playlist."
            )
        } else {
            facts.append("No setting changes it: the run exits with code 2 whatever --fail-on says.")
        }
        out += facts.map { wrap($0, width) }.joined(separator: "\n") + "\n"
        if let link = url(for: id, documentation: documentation) { out += "\nDocumentation: \(link)\n" }
        return out
    }

    /// `text` cut into lines of at most `width` columns at spaces (a longer word stands alone).
    static func wrap(_ text: String, _ width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    // MARK: - hlscheck rules --format json

    struct RuleEntry: Encodable {
        var id: String
        var name: String
        var summary: String
        var rationale: String
        /// The requirements the rule enforces (`SpecItem`: reference, rfc8216, level, requirement).
        var specItems: [SpecItem]
        var defaultSeverity: String
        /// In the profile asked for; absent when the profile switches the rule off.
        var severity: String?
        var scope: String
        var readsSegments: Bool
        var needsDecode: Bool
        var helpUri: String?
    }

    struct RuleList: Encodable {
        var tool = JSONReporter.Document.Tool()
        var profile: String
        var rules: [RuleEntry]
    }

    /// The catalogue as JSON, with the severities `profile` gives (docs/rules.md documents the keys).
    package static func json(
        profile: Profile, documentation: String? = CheckConfiguration.builtInDocumentationURL,
        _ rules: [RuleDescription] = RuleCatalogue.descriptions
    ) -> String {
        let list = RuleList(
            profile: profile.rawValue,
            rules: rules.map { rule in
                RuleEntry(
                    id: rule.id, name: rule.name, summary: rule.summary, rationale: rule.rationale,
                    specItems: rule.specItems,
                    defaultSeverity: rule.defaultSeverity.rawValue, severity: severity(of: rule, in: profile)?.rawValue,
                    scope: rule.scope.rawValue, readsSegments: rule.needsMedia, needsDecode: rule.needsDecoding,
                    helpUri: url(for: rule.id, documentation: documentation))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(list) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

import ArgumentParser
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

/// `hlscheck rules --format`: a table for people, JSON for tools, Markdown for docs/rules.md,
/// and the requirements the rules cover for docs/coverage.md.
enum RulesFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, markdown, coverage
}

/// `hlscheck rules`: the rule catalogue with ids and the severities of a profile;
/// `hlscheck rules ID…`: each rule explained in full, in the terminal.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract:
            "List every rule with its id, its severity in a profile and what it enforces; explain the rules named.",
        discussion:
            "hlscheck rules audio-only-over-budget explains that rule: what it finds, why (with the spec section), when it runs, its tested examples and how to change or excuse it."
    )

    @Argument(
        help: "Rule ids to explain in full (as reports print them).", completion: .list(RuleDocumentation.explainedIDs))
    var ids: [String] = []

    @Option(help: "Show severities as this profile sets them.")
    var profile: Profile = .audioOnly64k

    @Flag(name: .long, help: "Also print each rule's rationale and the spec items it enforces, each with its sentence.")
    var verbose = false

    @Option(
        help:
            "text: a table; json: for tools; markdown: docs/rules.md (all profiles, so --profile does not apply); coverage: docs/coverage.md, the spec requirements and the rules that enforce them."
    )
    var format: RulesFormat = .text

    func validate() throws {
        for id in ids where !RuleDocumentation.explainedIDs.contains(id) {
            let near = RuleDocumentation.explainedIDs.min {
                HLSCheckCommand.editDistance(id, $0) < HLSCheckCommand.editDistance(id, $1)
            }
            let suggestion =
                near.map { HLSCheckCommand.editDistance(id, $0) <= max(2, id.count / 3) ? "; did you mean \($0)?" : "" }
                ?? ""
            throw ValidationError("no rule \"\(TerminalText.escaped(id))\"\(suggestion) (hlscheck rules lists them)")
        }
        if !ids.isEmpty, format != .text {
            throw ValidationError("--format applies to the catalogue; a rule's explanation is text")
        }
    }

    /// The documentation URL of the nearest .hlscheck.yml (as check finds it from here), else the build's.
    var documentationURL: String? {
        (try? ConfigurationFile.discover(from: "."))?.documentationURL ?? CheckConfiguration.builtInDocumentationURL
    }

    func run() {
        if !ids.isEmpty {
            let width = isatty(STDOUT_FILENO) == 1 ? min(100, max(40, Terminal.width(STDOUT_FILENO))) : 80
            let explanations = ids.compactMap {
                RuleDocumentation.explanation(of: $0, profile: profile, documentation: documentationURL, width: width)
            }
            print(explanations.joined(separator: "\n"), terminator: "")
            return
        }
        switch format {
        case .json:
            print(RuleDocumentation.json(profile: profile, documentation: documentationURL), terminator: "")
            return
        case .markdown:
            print(RuleDocumentation.markdown(), terminator: "")
            return
        case .coverage:
            print(CoverageDocumentation.markdown(), terminator: "")
            return
        case .text:
            break
        }
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        let rules = RuleCatalogue.descriptions
        let width = RuleDocumentation.explainedIDs.map(\.count).max() ?? 0
        let documentation = documentationURL
        func row(_ id: String, _ level: String, _ summary: String) {
            print(
                id + String(repeating: " ", count: width - id.count) + "  " + level
                    + String(repeating: " ", count: 7 - level.count) + "  " + summary)
        }
        for rule in rules {
            row(rule.id, configuration.severity(for: rule)?.rawValue ?? "off", rule.summary)
            if verbose {
                let indent = String(repeating: " ", count: width + 11)
                print(indent + rule.rationale)
                for item in rule.specItems { print(indent + "- " + item.line) }
                if let link = RuleDocumentation.url(for: rule.id, documentation: documentation) { print(indent + link) }
            }
        }
        print("\nExplain a rule in full: hlscheck rules RULE-ID")
    }
}

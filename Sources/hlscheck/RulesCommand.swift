import ArgumentParser
import HLSCheck
import HLSReporting

/// `hlscheck rules --format`: a table for people, JSON for tools, Markdown for docs/rules.md,
/// and the requirements the rules cover for docs/coverage.md.
enum RulesFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, markdown, coverage
}

/// `hlscheck rules`: the rule catalogue with ids and the severities of a profile.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule with its id, its severity in a profile and what it enforces."
    )

    @Option(help: "Show severities as this profile sets them.")
    var profile: Profile = .audioOnly64k

    @Flag(name: .long, help: "Also print each rule's rationale and the spec items it enforces, each with its sentence.")
    var verbose = false

    @Option(help: "text: a table; json: for tools; markdown: docs/rules.md (all profiles, so --profile does not apply); coverage: docs/coverage.md, the spec requirements and the rules that enforce them.")
    var format: RulesFormat = .text

    func run() {
        switch format {
        case .json:
            print(RuleDocumentation.json(profile: profile), terminator: "")
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
        let width = rules.map(\.id.count).max() ?? 0
        for rule in rules {
            let id = rule.id + String(repeating: " ", count: width - rule.id.count)
            let level = configuration.severity(for: rule)?.rawValue ?? "off"
            let severity = level + String(repeating: " ", count: 7 - level.count)
            print("\(id)  \(severity)  \(rule.summary)")
            if verbose {
                let indent = String(repeating: " ", count: width + 11)
                print(indent + rule.rationale)
                for item in rule.specItems { print(indent + "- " + item.line) }
                print(indent + RuleDocumentation.url(for: rule.id))
            }
        }
        if !verbose { print("\nDocumentation of each rule: \(RuleDocumentation.rulesDocumentURL)") }
    }
}

import ArgumentParser
import HLSCheck

/// `hlscheck rules`: the rule catalogue with ids and default severities.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule with its id, default severity and what it enforces."
    )

    @Flag(name: .long, help: "Also print each rule's rationale, with its spec section.")
    var verbose = false

    func run() {
        let rules = RuleCatalogue.descriptions
        let width = rules.map(\.id.count).max() ?? 0
        for rule in rules {
            let id = rule.id + String(repeating: " ", count: width - rule.id.count)
            let severity = rule.defaultSeverity.rawValue + String(repeating: " ", count: 7 - rule.defaultSeverity.rawValue.count)
            print("\(id)  \(severity)  \(rule.summary)")
            if verbose { print(String(repeating: " ", count: width + 12) + rule.rationale) }
        }
    }
}

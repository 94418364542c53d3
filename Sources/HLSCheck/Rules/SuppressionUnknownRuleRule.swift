/// A suppression comment that names a rule id no rule has (a typo, or a rule that was renamed):
/// it silently excuses nothing, so the finding it was meant for comes back unexplained.
/// Reported by the engine from the directives (Suppressions), after the other rules.
package struct SuppressionUnknownRuleRule: Rule {
    package static let description = RuleDescription(
        id: "suppression-unknown-rule", name: "Suppression names an unknown rule", defaultSeverity: .warning,
        summary: "A # hlscheck-disable… comment names a rule id that does not exist, or is no directive at all.",
        rationale: """
            A misspelt rule id (or directive) excuses nothing, and nothing else would say so: the exception the \
            author meant to record is lost. `hlscheck rules` lists the ids (docs/configuration.md, in-file exceptions).
            """,
        triggering: [
            RuleExample(
                "a misspelt rule id",
                files: Examples.stream(
                    "# hlscheck-disable-next-line codec-missing\n" + Examples.audioVariant())
            ).expecting(line: 3, "# hlscheck-disable-next-line names"),
            RuleExample(
                "a misspelt directive",
                files: Examples.stream(
                    "# hlscheck-disable-nextline playlist-syntax\n" + Examples.audioVariant())),
        ],
        nonTriggering: [
            RuleExample(
                "a known rule id",
                files: Examples.stream(
                    "# hlscheck-disable-next-line playlist-syntax\n" + Examples.audioVariant())),
            RuleExample(
                "an ordinary comment", files: Examples.stream("# hlscheck is run in CI\n" + Examples.audioVariant())),
        ]
    )

    /// The engine reports it (Checker.diagnose), since it needs the rule catalogue in use.
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { [] }
}

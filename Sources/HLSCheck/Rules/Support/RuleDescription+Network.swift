import HLSPlaylist

extension RuleDescription {
    /// A rule that judges HTTP delivery: its examples live in the remote tests (HLSRemoteTests).
    static func network(
        id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String,
        specItems: [SpecItem] = []
    ) -> RuleDescription {
        RuleDescription(
            id: id, name: name, defaultSeverity: defaultSeverity, summary: summary, rationale: rationale,
            specItems: specItems, needsNetwork: true)
    }
}

public import HLSPlaylist

/// How serious a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// `note < warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding, as every reporter sees it: a flat value with a stable rule id.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// The rule id, e.g. `audio-only-over-budget`.
    public var rule: String
    /// The severity after configuration (profile and overrides).
    public var severity: Severity
    /// What is wrong and what to do, for a person to read.
    public var message: String
    /// Where: a playlist line (column 0 for the whole line, line 0 for the whole file); nil when the
    /// finding has no place in a file.
    public var location: SourceLocation?
    /// Excused by a `# hlscheck-disable-next-line RULE` comment: reported, never counted.
    public var suppressed: Bool
    /// Known from a baseline file (`--baseline`): also `suppressed` (reported, never counted),
    /// but excused by the baseline rather than by a comment in the playlist.
    public var baselined = false
    /// The edit `hlscheck fix` makes for it, when a measurement settles it (docs/fix.md).
    package var fix: ProposedFix?

    /// Makes a finding.
    package init(rule: String, severity: Severity, message: String, location: SourceLocation?, suppressed: Bool = false)
    {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.location = location
        self.suppressed = suppressed
    }
}

extension Diagnostic {
    /// Deterministic report order: by file, line, column, then rule id and message.
    static func reportOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        let la = a.location, lb = b.location
        if (la?.uri ?? "") != (lb?.uri ?? "") { return (la?.uri ?? "") < (lb?.uri ?? "") }
        if (la?.line ?? 0) != (lb?.line ?? 0) { return (la?.line ?? 0) < (lb?.line ?? 0) }
        if (la?.column ?? 0) != (lb?.column ?? 0) { return (la?.column ?? 0) < (lb?.column ?? 0) }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}

public import HLSPlaylist

/// What a rule reports: a message and where. The engine attaches the rule id and the severity,
/// which is configuration, not code inside the rule.
public struct Finding: Sendable, Hashable {
    public var message: String
    public var location: SourceLocation?

    public init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }
}

/// A tiny stream that must (or must not) trigger a rule. The files are written to a temporary
/// folder and checked for real by the rule's example test; `master.m3u8` is the entry point.
public struct RuleExample: Sendable {
    public var name: String
    public var files: [String: String]
    public var entry: String

    public init(_ name: String, files: [String: String], entry: String = "master.m3u8") {
        self.name = name
        self.files = files
        self.entry = entry
    }
}

/// An example whose verdict depends on the profile: checked under `profile` with its defaults.
public struct ProfileExample: Sendable {
    public var profile: Profile
    public var triggers: Bool
    public var example: RuleExample

    public init(_ profile: Profile, triggers: Bool, _ example: RuleExample) {
        self.profile = profile
        self.triggers = triggers
        self.example = example
    }
}

/// Everything a user needs to know about a rule; the examples double as its tests.
public struct RuleDescription: Sendable {
    public var id: String
    public var name: String
    public var defaultSeverity: Severity
    /// One line: what the rule enforces.
    public var summary: String
    /// Why, with the spec section.
    public var rationale: String
    /// Whether the rule needs measured segments (it stays silent with `--playlist-only`).
    public var needsMedia: Bool
    /// Whether the rule needs decoded frames: it runs (and is listed as checked) only with
    /// `--decode`.
    public var needsDecoding = false
    /// Whether the rule judges how resources travelled over HTTP (docs/remote.md): it finds
    /// nothing in a local stream, so its examples are remote tests, not local files.
    public var needsNetwork = false
    public var triggering: [RuleExample]
    public var nonTriggering: [RuleExample]
    /// Examples checked under a given profile (its severities and parameters).
    public var profileExamples: [ProfileExample]

    public init(
        id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String,
        needsMedia: Bool = false, triggering: [RuleExample] = [], nonTriggering: [RuleExample] = [],
        profileExamples: [ProfileExample] = []
    ) {
        self.profileExamples = profileExamples
        self.id = id
        self.name = name
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.rationale = rationale
        self.needsMedia = needsMedia
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// A rule is a pure function of the analysed stream: it never does I/O.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding]
}

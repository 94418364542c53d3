public import HLSPlaylist

/// What a rule reports: a message and where. The engine attaches the rule id and the severity,
/// which is configuration, not code inside the rule.
public struct Finding: Sendable, Hashable {
    /// What is wrong and what to do, for a person to read.
    public var message: String
    /// Where: a playlist line; nil when the finding has no place in a file.
    public var location: SourceLocation?

    /// Makes a finding.
    public init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }
}

/// A tiny stream that must (or must not) trigger a rule. The files are written to a temporary
/// folder and checked for real by the rule's example test; `master.m3u8` is the entry point.
public struct RuleExample: Sendable {
    /// A short name for test output.
    public var name: String
    /// File name → content, relative to the temporary folder.
    public var files: [String: String]
    /// The file checked, relative to the folder.
    public var entry: String
    /// For a triggering example: where one of its findings must be and part of what it says.
    public var expected: ExpectedFinding?

    /// Makes an example; `entry` defaults to `master.m3u8`.
    public init(_ name: String, files: [String: String], entry: String = "master.m3u8") {
        self.name = name
        self.files = files
        self.entry = entry
    }
}

/// A finding a triggering example must produce: its line, its column (0: the whole line) and a
/// part of its message, so that a rule that fires for the wrong reason or at the wrong place
/// fails its example.
public struct ExpectedFinding: Sendable, Hashable {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

extension RuleExample {
    /// The example, with a finding at `line` and `column` whose message contains `message`.
    public func expecting(line: Int, column: Int = 0, _ message: String) -> RuleExample {
        var example = self
        example.expected = ExpectedFinding(line: line, column: column, message: message)
        return example
    }
}

/// An example whose verdict depends on the profile: checked under `profile` with its defaults.
public struct ProfileExample: Sendable {
    /// The profile the example is checked under.
    public var profile: Profile
    /// Whether the rule must fire.
    public var triggers: Bool
    /// The stream to check.
    public var example: RuleExample

    /// Makes an example.
    public init(_ profile: Profile, triggers: Bool, _ example: RuleExample) {
        self.profile = profile
        self.triggers = triggers
        self.example = example
    }
}

/// Everything a user needs to know about a rule; the examples double as its tests.
public struct RuleDescription: Sendable {
    /// The stable rule id, e.g. `codecs-missing`: what configuration and suppressions name.
    public var id: String
    /// A human-readable title.
    public var name: String
    /// The severity under the default profile.
    public var defaultSeverity: Severity
    /// What one finding is about: the stream, or one variant (JUnit test cases follow it).
    public var scope: RuleScope
    /// How each profile departs from `defaultSeverity`; a profile not named runs the rule at its
    /// default (raised to an error where the profile's specification says MUST, see
    /// `Profile.followsMust`). docs/profiles.md tabulates them.
    public var settings: [Profile: RuleSetting]
    /// One line: what the rule enforces.
    public var summary: String
    /// Why, with the spec section.
    public var rationale: String
    /// The requirements of the specifications the rule enforces, each with its section and
    /// sentence; empty for the rules about hlscheck's own run (suppressions, sampling, retries).
    public var specItems: [SpecItem]
    /// Whether the rule needs measured segments (it stays silent with `--playlist-only`).
    public var needsMedia: Bool
    /// Whether the rule needs decoded frames: it runs (and is listed as checked) only with
    /// `--decode`.
    public var needsDecoding = false
    /// Whether configuration (`.hlscheck.yml` `rules:`, `--profile`) may change the rule; false
    /// for `input-unreadable`, which always fails the run.
    public var configurable = true
    /// Whether the rule judges how resources travelled over HTTP (docs/remote.md): it finds
    /// nothing in a local stream, so its examples are remote tests, not local files.
    public var needsNetwork = false
    /// Examples that must trigger the rule.
    public var triggering: [RuleExample]
    /// Examples that must not trigger it.
    public var nonTriggering: [RuleExample]
    /// Examples checked under a given profile (its severities and parameters).
    public var profileExamples: [ProfileExample]

    /// Makes a description; `needsDecoding` stays false unless set afterwards.
    public init(
        id: String, name: String, defaultSeverity: Severity, scope: RuleScope = .stream,
        settings: [Profile: RuleSetting] = [:], summary: String, rationale: String, specItems: [SpecItem] = [],
        needsMedia: Bool = false, triggering: [RuleExample] = [], nonTriggering: [RuleExample] = [],
        profileExamples: [ProfileExample] = []
    ) {
        self.profileExamples = profileExamples
        self.id = id
        self.name = name
        self.defaultSeverity = defaultSeverity
        self.scope = scope
        self.settings = settings
        self.summary = summary
        self.rationale = rationale
        self.specItems = specItems
        self.needsMedia = needsMedia
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// A rule is a pure function of the analysed stream: it never does I/O.
public protocol Rule: Sendable {
    /// The rule's id, name, default severity, rationale and examples (`hlscheck rules`).
    static var description: RuleDescription { get }
    /// The findings of this rule on `stream`, in any order (the engine sorts them). Severity and
    /// suppression are applied by the engine; a switched-off rule is never asked.
    func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding]
}

package import HLSPlaylist

/// What a rule reports: a message and where. The engine attaches the rule id and the severity,
/// which is configuration, not code inside the rule.
package struct Finding: Sendable, Hashable {
    /// What is wrong and what to do, for a person to read.
    package var message: String
    /// Where: a playlist line; nil when the finding has no place in a file.
    package var location: SourceLocation?

    /// Makes a finding.
    package init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }
}

/// A tiny stream that must (or must not) trigger a rule. The files are written to a temporary
/// folder and checked for real by the rule's example test; `master.m3u8` is the entry point.
package struct RuleExample: Sendable {
    /// A short name for test output.
    package var name: String
    /// File name → content, relative to the temporary folder.
    package var files: [String: String]
    /// The file checked, relative to the folder.
    package var entry: String
    /// For a triggering example: where one of its findings must be and part of what it says.
    package var expected: ExpectedFinding?

    /// Makes an example; `entry` defaults to `master.m3u8`.
    package init(_ name: String, files: [String: String], entry: String = "master.m3u8") {
        self.name = name
        self.files = files
        self.entry = entry
    }
}

/// A finding a triggering example must produce: its line, its column (0: the whole line) and a
/// part of its message, so that a rule that fires for the wrong reason or at the wrong place
/// fails its example.
package struct ExpectedFinding: Sendable, Hashable {
    package var line: Int
    package var column: Int
    package var message: String
}

extension RuleExample {
    /// The example, with a finding at `line` and `column` whose message contains `message`.
    package func expecting(line: Int, column: Int = 0, _ message: String) -> RuleExample {
        var example = self
        example.expected = ExpectedFinding(line: line, column: column, message: message)
        return example
    }
}

/// An example whose verdict depends on the profile: checked under `profile` with its defaults.
package struct ProfileExample: Sendable {
    /// The profile the example is checked under.
    package var profile: Profile
    /// Whether the rule must fire.
    package var triggers: Bool
    /// The stream to check.
    package var example: RuleExample

    /// Makes an example.
    package init(_ profile: Profile, triggers: Bool, _ example: RuleExample) {
        self.profile = profile
        self.triggers = triggers
        self.example = example
    }
}

/// Everything a user needs to know about a rule; the examples double as its tests. A rule
/// declares it with the memberwise initializer, naming only what departs from the defaults.
package struct RuleDescription: Sendable {
    /// The stable rule id, e.g. `codecs-missing`: what configuration and suppressions name.
    package var id: String
    /// A human-readable title.
    package var name: String
    /// The severity under the default profile.
    package var defaultSeverity: Severity
    /// What one finding is about: the stream, or one variant (JUnit test cases follow it).
    package var scope: RuleScope = .stream
    /// How each profile departs from `defaultSeverity`; a profile not named runs the rule at its
    /// default (raised to an error where the profile's specification says MUST, see
    /// `Profile.followsMust`). docs/profiles.md tabulates them.
    package var settings: [Profile: RuleSetting] = [:]
    /// One line: what the rule enforces.
    package var summary: String
    /// Why, with the spec section.
    package var rationale: String
    /// The requirements of the specifications the rule enforces, each with its section and
    /// sentence; empty for the rules about hlscheck's own run (suppressions, sampling, retries).
    package var specItems: [SpecItem] = []
    /// Whether the rule needs measured segments (it stays silent with `--playlist-only`).
    package var needsMedia = false
    /// Whether the rule needs decoded frames: it runs (and is listed as checked) only with
    /// `--decode`.
    package var needsDecoding = false
    /// Whether configuration (`.hlscheck.yml` `rules:`, `--profile`) may change the rule; false
    /// for `input-unreadable`, which always fails the run.
    package var configurable = true
    /// Whether the rule judges how resources travelled over HTTP (docs/remote.md): it finds
    /// nothing in a local stream, so its examples are remote tests, not local files.
    package var needsNetwork = false
    /// Examples that must trigger the rule.
    package var triggering: [RuleExample] = []
    /// Examples that must not trigger it.
    package var nonTriggering: [RuleExample] = []
    /// Examples checked under a given profile (its severities and parameters).
    package var profileExamples: [ProfileExample] = []
}

/// A rule is a pure function of the analysed stream: it never does I/O.
package protocol Rule: Sendable {
    /// The rule's id, name, default severity, rationale and examples (`hlscheck rules`).
    static var description: RuleDescription { get }
    /// The findings of this rule on `stream`, in any order (the engine sorts them). Severity and
    /// suppression are applied by the engine; a switched-off rule is never asked.
    func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding]
}

/// The knobs of one check run. Defaults are the `audio-only-64k` contract (design.md §4).
public struct CheckConfiguration: Sendable, Hashable {
    /// The audio-only budget in bit/s (Apple's historic cellular rule: 64 kbit/s).
    public var audioOnlyBudget: Int
    /// How far a measured value may exceed the declared one before a bandwidth rule fires.
    public var bandwidthTolerance: Double
    /// Read no segment: only the playlists are checked.
    public var playlistOnly: Bool
    /// Per-rule severity overrides; `nil` as a value switches a rule off.
    public var severityOverrides: [String: Severity?]
    /// How many segments are inspected at once (default: both cores of a CI runner).
    public var maxConcurrentSegments: Int
    /// How far EXTINF may differ from the measured duration, in seconds.
    public var durationTolerance: Double
    /// The profile whose severities apply where `severityOverrides` says nothing.
    public var profile: Profile
    /// The peak at or under which a variant serves cellular networks (Apple: 192 kbit/s).
    public var cellularBudget: Int

    public init(
        audioOnlyBudget: Int = 64_000, bandwidthTolerance: Double = 0.10, playlistOnly: Bool = false,
        severityOverrides: [String: Severity?] = [:], maxConcurrentSegments: Int = 2,
        durationTolerance: Double = 0.5, profile: Profile = .audioOnly64k, cellularBudget: Int = 192_000
    ) {
        self.profile = profile
        self.cellularBudget = cellularBudget
        self.maxConcurrentSegments = maxConcurrentSegments
        self.durationTolerance = durationTolerance
        self.audioOnlyBudget = audioOnlyBudget
        self.bandwidthTolerance = bandwidthTolerance
        self.playlistOnly = playlistOnly
        self.severityOverrides = severityOverrides
    }

    /// The severity a rule reports at, or nil when it is switched off.
    public func severity(for rule: RuleDescription) -> Severity? {
        if let override = severityOverrides[rule.id] { return override }
        if let profiled = profile.severity(for: rule.id) { return profiled }
        return rule.defaultSeverity
    }
}

extension Int {
    /// "64 kbit/s", "1.2 Mbit/s": bit rates as a reader wants them.
    public var formattedBitrate: String {
        // Rounded without adding first: a measured peak may be Int.max (see Int(saturating:)).
        if self >= 1_000_000 {
            let tenths = self / 100_000 + (self % 100_000 >= 50_000 ? 1 : 0)
            return "\(tenths / 10).\(tenths % 10) Mbit/s"
        }
        if self >= 10_000 { return "\(self / 1000 + (self % 1000 >= 500 ? 1 : 0)) kbit/s" }
        let tenths = (self + 50) / 100
        return "\(tenths / 10).\(tenths % 10) kbit/s"
    }
}

/// What one finding of a rule is about: the stream as a whole, or one variant. A JUnit report
/// gives a per-variant rule one test case per variant, and every other rule one per stream, so
/// that a stream of eight variants does not list eight copies of `audio-only-variant-missing`.
/// A per-variant rule's findings each concern one variant: its declaration (EXT-X-STREAM-INF and
/// URI lines), its media playlist, its segments or its renditions.
package enum RuleScope: String, Sendable, Hashable, Codable {
    case stream, variant
}

/// How a profile runs one rule.
package enum RuleSetting: Sendable, Hashable {
    /// Not run.
    case off
    /// Run at the rule's default severity, raised to an error where the profile's specification
    /// says MUST (`Profile.followsMust`).
    case on
    /// Run at this severity.
    case severity(Severity)
}

extension [Profile: RuleSetting] {
    /// A rule only Apple's authoring specification asks for: off in the profiles that do not
    /// follow it.
    package static let appleOnly: Self = [.audioOnly64k: .off, .rfc8216: .off]
    /// A rule of the audio-only budget and its poster, which no RFC asks for and tvOS, where
    /// audio-only variants are not allowed in the multivariant playlist, does not want.
    package static let audioOnlyBudget: Self = [.rfc8216: .off, .appleTVOS: .off]
    /// A rule whose MUST Apple's authoring specification states in its own words (CODECS, EXTINF,
    /// FRAME-RATE against the media): an error in the Apple profiles.
    package static let errorForApple: Self = [.appleIOS: .severity(.error), .appleTVOS: .severity(.error)]
}

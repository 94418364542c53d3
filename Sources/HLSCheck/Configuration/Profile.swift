/// A profile is default severities and parameters over the one rule catalogue (docs/profiles.md
/// has each table with the source of every number).
public enum Profile: String, Sendable, Hashable, CaseIterable, Codable {
    /// The rule this project exists for: an audio-only variant of at most 64 kbit/s, poster included.
    case audioOnly64k = "audio-only-64k"
    /// Apple's HLS Authoring Specification for Apple Devices, as it applies to iOS.
    case appleIOS = "apple-ios"
    /// The same for tvOS, where audio-only variants are not allowed in the multivariant playlist.
    case appleTVOS = "apple-tvos"
    /// Only what RFC 8216 says MUST or SHOULD.
    case rfc8216

    /// Whether the profile makes `rule` an error because the rule enforces a MUST of the
    /// specification the profile follows: an Apple profile, any MUST of Apple's authoring
    /// specification (its general items and those amended for the profile's platform). What the
    /// catalogue leaves a warning or a note for everyone else (segment-starts-without-keyframe,
    /// AS 7.4; continuity-error, AS 7.2; average-bandwidth-mismatch, AS 1.26;
    /// bandwidth-above-peak, AS 1.27) is an error where that specification is the contract.
    package func followsMust(of rule: RuleDescription) -> Bool {
        let platform: String
        switch self {
        case .appleIOS: platform = "iOS"
        case .appleTVOS: platform = "tvOS"
        case .audioOnly64k, .rfc8216: return false
        }
        return rule.defaultSeverity < .error
            && rule.specItems.contains { item in
                guard item.level == .must, item.isApple else { return false }
                let words = item.reference.split(separator: " ")
                // `AS 7.4` applies to every platform, `AS tvOS 9.20` to tvOS alone.
                return words.count == 2 || words[1] == platform
            }
    }

    /// Parameters the profile sets before a config file or a flag changes them.
    package func configure(_ configuration: inout CheckConfiguration) {
        configuration.profile = self
        // RFC 8216 §4.3.4.2: the peak segment bit rate MUST NOT exceed BANDWIDTH — no tolerance.
        configuration.bandwidthTolerance = self == .rfc8216 ? 0 : 0.10
        // AS 1.29: a live peak may reach 125 % of BANDWIDTH.
        configuration.liveBandwidthTolerance = self == .rfc8216 ? 0 : 0.25
        // The 64 kbit/s rule is the cellular fallback for video; this project's own profile also
        // holds a pure audio stream (and its poster) to it.
        configuration.budgetAppliesWithoutVideo = self == .audioOnly64k
    }
}

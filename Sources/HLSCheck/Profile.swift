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

    /// The severity this profile gives a rule: `.some(nil)` switches it off, nil keeps the
    /// catalogue default.
    public func severity(for rule: String) -> Severity?? {
        switch self {
        case .audioOnly64k:
            if Self.appleOnlyRules.contains(rule) { return .some(nil) }
        case .appleIOS:
            switch rule {
            case "audio-only-variant-present": return .some(nil)
            case "audio-only-variant-missing": return .warning
            // AS 9.15 asks for FRAME-RATE on video variants; a value the video does not have
            // misleads the player as much as none.
            case "codecs-missing", "extinf-duration-mismatch", "frame-rate-mismatch": return .error
            default: break
            }
        case .appleTVOS:
            switch rule {
            case "audio-only-variant-present", "codecs-missing", "extinf-duration-mismatch", "frame-rate-mismatch": return .error
            case "audio-only-variant-missing", "audio-only-over-budget", "artwork-over-budget", "artwork-missing",
                "artwork-inconsistent":
                return .some(nil)
            default: break
            }
        case .rfc8216:
            // RFC 8216 §4.3.4.2: RESOLUTION SHOULD be present for video.
            if rule == "resolution-missing" { return .warning }
            if Self.appleOnlyRules.contains(rule) || Self.audioOnlyRules.contains(rule) { return .some(nil) }
        }
        return nil
    }

    /// Whether the profile makes `rule` an error because the rule enforces a MUST of the
    /// specification the profile follows: an Apple profile, any MUST of Apple's authoring
    /// specification (its general items and those amended for the profile's platform). What the
    /// catalogue leaves a warning or a note for everyone else (segment-starts-without-keyframe,
    /// AS 7.4; continuity-error, AS 7.2; average-bandwidth-mismatch, AS 1.26;
    /// bandwidth-above-peak, AS 1.27) is an error where that specification is the contract.
    public func followsMust(of rule: RuleDescription) -> Bool {
        let platform: String
        switch self {
        case .appleIOS: platform = "iOS"
        case .appleTVOS: platform = "tvOS"
        case .audioOnly64k, .rfc8216: return false
        }
        return rule.defaultSeverity < .error && rule.specItems.contains { item in
            guard item.level == .must, item.isApple else { return false }
            let words = item.reference.split(separator: " ")
            // `AS 7.4` applies to every platform, `AS tvOS 9.20` to tvOS alone.
            return words.count == 2 || words[1] == platform
        }
    }

    /// Parameters the profile sets before a config file or a flag changes them.
    public func configure(_ configuration: inout CheckConfiguration) {
        configuration.profile = self
        // RFC 8216 §4.3.4.2: the peak segment bit rate MUST NOT exceed BANDWIDTH — no tolerance.
        configuration.bandwidthTolerance = self == .rfc8216 ? 0 : 0.10
        // AS 1.29: a live peak may reach 125 % of BANDWIDTH.
        configuration.liveBandwidthTolerance = self == .rfc8216 ? 0 : 0.25
        // The 64 kbit/s rule is the cellular fallback for video; this project's own profile also
        // holds a pure audio stream (and its poster) to it.
        configuration.budgetAppliesWithoutVideo = self == .audioOnly64k
    }

    /// Rules only Apple's authoring specification asks for.
    static let appleOnlyRules: Set<String> = [
        "cellular-variant-missing", "average-bandwidth-missing", "resolution-missing", "audio-only-variant-present",
        "playlist-type-missing", "frame-rate-missing", "independent-segments-missing", "iframe-playlist-missing",
        "language-missing", "live-segments-too-few", "program-date-time-missing",
    ]
    /// Rules of the audio-only budget and poster, which no RFC asks for.
    static let audioOnlyRules: Set<String> = [
        "audio-only-variant-missing", "audio-only-over-budget", "artwork-over-budget", "artwork-missing",
        "artwork-inconsistent", "artwork-invalid",
    ]
}

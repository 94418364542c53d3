import HLSPlaylist
import MediaInspection

/// Video above the profile or level Apple devices must decode.
package struct VideoProfileLevelUnsupportedRule: Rule {
    package static let description = RuleDescription(
        id: "video-profile-level-unsupported", name: "Video profile or level too high", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary:
            "H.264 above High Profile Level 5.2 (5.1 on tvOS), HEVC above Main 10 Level 5.1 (6.0 on iOS), AV1 above Level 6.2, or Dolby Vision other than Profile 5 Level 7 (Profile 5 or 10, Level 9 on iOS).",
        rationale:
            "Apple devices are specified to decode up to these profiles and levels; a variant above them may not play, or plays on some devices only. The limits depend on the platform, so the profile (apple-ios, apple-tvos) picks them.",
        specItems: [
            .apple("1.3b", .must, "H.264 is at most High Profile, Level 5.2."),
            .apple("1.3b", platform: "tvOS", .must, "H.264 is at most High Profile, Level 5.1."),
            .apple("1.6b", .must, "HEVC is at most Main 10 Profile, Level 5.1, High Tier."),
            .apple(
                "1.6b", platform: "iOS", .must,
                "iOS raises item 1.6b's limit to Level 6.0 (its text names H.264 High Profile)."),
            .apple("1.9", .must, "Dolby Vision is Profile 5 at Level 7 or lower."),
            .apple("1.9a", platform: "iOS", .must, "Dolby Vision is Profile 5 or Profile 10 at Level 9 or lower."),
            .apple("1.37", .must, "AV1 is at Level 6.2 or lower."),
        ],
        needsMedia: true)

    /// What is wrong with `format` under the limits of `profile`'s platform; nil when nothing is.
    static func excess(_ format: TrackFormat, profile: Profile) -> String? {
        guard format.kind == .video else { return nil }
        let iOS = profile == .appleIOS, tvOS = profile == .appleTVOS
        if let vision = format.dolbyVision {
            let profiles = iOS ? [5, 10] : [5]
            let maximumLevel = iOS ? 9 : 7
            if !profiles.contains(vision.profile) || vision.level > maximumLevel {
                let allowed = iOS ? "Profile 5 or 10 at Level 9" : "Profile 5 at Level 7"
                return
                    "Dolby Vision Profile \(vision.profile) Level \(vision.level): \(allowed) or lower is \(iOS ? "iOS's" : "the") limit (AS \(iOS ? "iOS 1.9a" : "1.9"))"
            }
        }
        guard let string = format.codecString, let declared = VideoProfileLevel(codecString: string) else { return nil }
        let describe = "\(declared.profileName) Profile, Level \(declared.levelName) (\(string))"
        switch declared.codec {
        case .h264:
            let maximum = tvOS ? 51 : 52
            guard ![66, 77, 100].contains(declared.profile) || declared.level > maximum else { return nil }
            return
                "H.264 \(describe): High Profile at Level \(tvOS ? "5.1" : "5.2") or lower is \(tvOS ? "tvOS's" : "the") limit (AS \(tvOS ? "tvOS 1.3b" : "1.3b"))"
        case .hevc:
            let maximum = iOS ? 180 : 153
            guard ![1, 2].contains(declared.profile) || declared.level > maximum else { return nil }
            return
                "HEVC \(describe): Main 10 Profile at Level \(iOS ? "6.0" : "5.1") or lower is \(iOS ? "iOS's" : "the") limit (AS \(iOS ? "iOS 1.6b" : "1.6b"))"
        case .av1:
            guard declared.level > 18 else { return nil }
            return "AV1 \(describe): Level 6.2 or lower is the limit (AS 1.37)"
        }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let (record, format) = measurement.firstTrack(where: {
                    Self.excess($0, profile: configuration.profile) != nil
                }),
                let excess = Self.excess(format, profile: configuration.profile)
            else { return nil }
            return Finding(
                "segment \(record.uri) carries \(excess); encode this variant within it",
                at: measurement.location(of: record))
        }
    }
}

import HLSPlaylist

/// The profile and level a video codec string declares (RFC 6381 §3.3, ISO/IEC 14496-15 Annex
/// E, AV1 ISOBMFF binding §5), as the segments' own parameter sets give them.
struct VideoProfileLevel: Equatable {
    enum Codec { case h264, hevc, av1 }
    var codec: Codec
    /// profile_idc (H.264), general_profile_idc (HEVC), seq_profile (AV1).
    var profile: Int
    /// level_idc (H.264: 10 × level; HEVC: 30 × level) or seq_level_idx (AV1).
    var level: Int

    init?(codecString: String) {
        let parts = codecString.split(separator: ".")
        guard let entry = parts.first else { return nil }
        switch entry {
        case "avc1", "avc3":
            guard parts.count >= 2, parts[1].count == 6, let value = Int(parts[1], radix: 16) else { return nil }
            (codec, profile, level) = (.h264, value >> 16, value & 0xFF)
        case "hvc1", "hev1", "dvh1", "dvhe":
            guard parts.count >= 4, let profile = Int(parts[1].drop { $0.isLetter }),
                let level = Int(parts[3].dropFirst())
            else { return nil }
            (codec, self.profile, self.level) = (.hevc, profile, level)
        case "av01":
            guard parts.count >= 3, let profile = Int(parts[1]), let level = Int(parts[2].prefix { $0.isNumber }) else {
                return nil
            }
            (codec, self.profile, self.level) = (.av1, profile, level)
        default:
            return nil
        }
    }

    /// The level as people write it: 5.1 for H.264 level_idc 51 or HEVC 153, 6.2 for AV1's 18.
    var levelName: String {
        switch codec {
        case .h264: return level == 9 ? "1b" : "\(level / 10).\(level % 10)"
        case .hevc: return level % 30 == 0 ? "\(level / 30)" : "\(level / 30).\(level % 30 / 3)"
        case .av1: return "\(2 + level / 4).\(level % 4)"
        }
    }

    var profileName: String {
        switch (codec, profile) {
        case (.h264, 66): return "Baseline"
        case (.h264, 77): return "Main"
        case (.h264, 88): return "Extended"
        case (.h264, 100): return "High"
        case (.h264, 110): return "High 10"
        case (.h264, 122): return "High 4:2:2"
        case (.h264, 244): return "High 4:4:4 Predictive"
        case (.hevc, 1): return "Main"
        case (.hevc, 2): return "Main 10"
        case (.hevc, 3): return "Main Still Picture"
        case (.hevc, 4): return "Range Extensions"
        case (.av1, 0): return "Main"
        case (.av1, 1): return "High"
        case (.av1, 2): return "Professional"
        default: return "profile \(profile)"
        }
    }
}

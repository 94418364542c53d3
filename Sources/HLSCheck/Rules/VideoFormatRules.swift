import HLSPlaylist
import MediaInspection

extension StreamAnalysis {
    /// Every measured media playlist, in URI order: variants, renditions and I-frame playlists.
    var measuredPlaylists: [PlaylistMeasurement] { measurements.values.sorted { $0.playlistURI < $1.playlistURI } }
}

extension PlaylistMeasurement {
    /// The first inspected segment with a track whose format satisfies `matches`, and that
    /// format; each distinct format is judged once, however many segments share it.
    func firstTrack(where matches: (TrackFormat) -> Bool) -> (record: SegmentRecord, format: TrackFormat)? {
        guard let record = records.firstInspected(where: matches),
            let format = record.trackFormats.first(where: matches)
        else { return nil }
        return (record, format)
    }

    /// Where a finding about `record` points: its EXTINF line in this playlist.
    func location(of record: SegmentRecord) -> SourceLocation {
        SourceLocation(uri: playlistURI, line: record.line)
    }
}

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

/// Video in a codec Apple devices do not play.
package struct VideoCodecUnsupportedRule: Rule {
    /// libavcodec's names of the codecs AS 1.1 allows; Dolby Vision is carried as HEVC or H.264.
    static let allowed: Set<String> = ["h264", "hevc", "av1"]

    package static let description = RuleDescription(
        id: "video-codec-unsupported", name: "Video codec not playable", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "A segment carries video that is not H.264, HEVC (Dolby Vision included) or AV1.",
        rationale:
            "Apple devices decode H.264/AVC, HEVC/H.265 (and Dolby Vision over it) and AV1 in HLS; video in any other codec (MPEG-2, VP9, …) is not played at all.",
        specItems: [.apple("1.1", .must, "Video is H.264/AVC, HEVC/H.265, Dolby Vision or AV1.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let (record, format) = measurement.firstTrack(where: {
                    $0.kind == .video && !Self.allowed.contains($0.codecName)
                })
            else { return nil }
            return Finding(
                "segment \(record.uri) carries \(format.codecName) video: Apple devices play H.264, HEVC, Dolby Vision or AV1 only; re-encode it in one of those",
                at: measurement.location(of: record))
        }
    }
}

/// A codec in a container Apple devices do not play it from.
package struct CodecContainerUnsupportedRule: Rule {
    package static let description = RuleDescription(
        id: "codec-container-unsupported", name: "Codec in the wrong container", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "HEVC, AV1, FLAC, Apple Lossless or xHE-AAC outside fMP4, or H.264 outside fMP4 and MPEG-TS.",
        rationale:
            "Apple devices play HEVC, AV1 and the lossless and USAC audio codecs only from fragmented MP4 (CMAF) segments, and H.264 from fMP4 or MPEG-TS; the same bitstream in another container is not played.",
        specItems: [
            .apple("1.2", .must, "H.264 video is in fMP4 or MPEG-TS."),
            .apple("1.5", .must, "HEVC video is in fMP4."),
            .apple("1.39", .must, "AV1 video is in fMP4."),
            .apple("2.25", .must, "xHE-AAC, Apple Lossless, FLAC and APAC audio are in fMP4."),
        ],
        needsMedia: true)

    /// The codec's name for a message when `container` is not one Apple allows it in; nil when it is.
    static func misplaced(_ format: TrackFormat, in container: SegmentContainer?) -> String? {
        guard let container else { return nil }
        switch format.codecName {
        case "h264": return container == .mpegTS || container == .fragmentedMP4 ? nil : "H.264 video"
        case "hevc": return container == .fragmentedMP4 ? nil : "HEVC video"
        case "av1": return container == .fragmentedMP4 ? nil : "AV1 video"
        case "flac": return container == .fragmentedMP4 ? nil : "FLAC audio"
        case "alac": return container == .fragmentedMP4 ? nil : "Apple Lossless audio"
        case "aac" where format.codecString == "mp4a.40.42": return container == .fragmentedMP4 ? nil : "xHE-AAC audio"
        default: return nil
        }
    }

    static func name(_ container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: return "MPEG-TS"
        case .adts, .mp3, .ac3, .eac3: return "packed audio"
        case .fragmentedMP4: return "fMP4"
        case .webVTT: return "WebVTT"
        case .unknown: return "an unrecognised container"
        }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let record = measurement.records.firstInspected(whereContent: { container, formats in
                    formats.contains { Self.misplaced($0, in: container) != nil }
                }),
                let container = record.container,
                let format = record.trackFormats.first(where: { Self.misplaced($0, in: container) != nil }),
                let codec = Self.misplaced(format, in: container)
            else { return nil }
            let allowed = format.codecName == "h264" ? "fMP4 or MPEG-TS" : "fMP4 (with EXT-X-MAP)"
            return Finding(
                "segment \(record.uri) carries \(codec) in \(Self.name(container)): Apple devices play it only from \(allowed) segments; package it so",
                at: measurement.location(of: record))
        }
    }
}

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

/// Interlaced video.
package struct VideoInterlacedRule: Rule {
    package static let description = RuleDescription(
        id: "video-interlaced", name: "Interlaced video", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary:
            "A segment's video is coded interlaced (H.264 field coding, HEVC interlaced source, or a field order).",
        rationale:
            "Apple devices show progressive video; interlaced sources must be deinterlaced before encoding, or they play with combing artefacts or not at all.",
        specItems: [.apple("1.14", .must, "Interlaced sources are deinterlaced.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard let (record, format) = measurement.firstTrack(where: { $0.kind == .video && $0.interlaced == true })
            else { return nil }
            return Finding(
                "segment \(record.uri) carries interlaced \(format.codecName) video: deinterlace the source before encoding (e.g. ffmpeg -vf bwdif, and no -flags +ildct)",
                at: measurement.location(of: record))
        }
    }
}

/// Video above 60 frames per second.
package struct FrameRateTooHighRule: Rule {
    /// 60 frames per second, with the 2 % by which `frame-rate-mismatch` tells two rates apart.
    static let limit = 60.0 * (1 + FrameRateMismatchRule.tolerance)

    package static let description = RuleDescription(
        id: "frame-rate-too-high", name: "Video above 60 fps", defaultSeverity: .error, scope: .variant,
        settings: .appleOnly,
        summary: "A playlist's video runs at more than 60 frames per second (measured from the segments).",
        rationale:
            "Apple's authoring specification caps HLS video at 60 frames per second; faster video is not played on every device.",
        specItems: [.apple("1.19", .must, "No video runs above 60 fps.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard let rate = measurement.measuredFrameRate, rate > Self.limit,
                let record = measurement.inspectedRecords.first(where: { ($0.videoFrameRate ?? 0) > Self.limit })
            else { return nil }
            return Finding(
                "segment \(record.uri) runs at \(FrameRateMissingRule.rate(record.videoFrameRate ?? rate)) frames per second: video must not exceed 60; encode at 60 or less (e.g. ffmpeg -r 60)",
                at: measurement.location(of: record))
        }
    }
}

/// PQ HEVC that is neither HDR10 nor Dolby Vision.
package struct HDRFormatUnsupportedRule: Rule {
    package static let description = RuleDescription(
        id: "hdr-format-unsupported", name: "HDR video that is not HDR10, HLG or Dolby Vision", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary:
            "HEVC video with the PQ transfer (16) that carries no Dolby Vision configuration and is not HDR10: its colour primaries are not BT.2020 (9) or not stated, it is coded in 8 bits (Main Profile, or an 8-bit pixel format), or it lacks HDR10's static metadata, the mastering display colour volume (SEI 137 or an mdcv box) and the content light level (SEI 144 or a clli box).",
        rationale:
            "Apple devices play HDR HEVC as HDR10, HLG or Dolby Vision (AS 1.7). HDR10 is PQ video with BT.2020 primaries in 10 bits that carries the SMPTE ST 2086 mastering display colour volume and the MaxCLL/MaxFALL content light level (CTA's HDR10 media profile; AS 1.8 asks for that static metadata in the hvcC box): PQ in 8 bits, with other primaries or none stated, or without the static metadata (what is sometimes called PQ10) is none of the three, and shows with wrong colours, banding or a tone mapping the display has to guess. The metadata is looked for in the hvcC box, in the prefix SEI of each segment's first keyframe and in the sample entry's mdcv and clli boxes. HLG (transfer 18) needs no metadata and is not judged here.",
        specItems: [.apple("1.7", .must, "HDR HEVC video is HDR10, HLG or Dolby Vision.")],
        needsMedia: true)

    static func problem(_ format: TrackFormat) -> String? {
        guard format.kind == .video, format.codecName == "hevc", format.transferCharacteristics == 16,
            format.dolbyVision == nil
        else { return nil }
        guard let primaries = format.colourPrimaries else {
            return "no colour primaries stated, where HDR10 needs BT.2020 (9)"
        }
        if primaries != 9 {
            return "colour primaries \(primaries), not BT.2020 (9)"
        }
        if let string = format.codecString, let declared = VideoProfileLevel(codecString: string), declared.profile == 1
        {
            return "8-bit Main Profile (\(string)), not 10-bit Main 10"
        }
        if let depth = format.bitDepth, depth != 10 {
            return "\(depth)-bit samples, not 10-bit"
        }
        if let metadata = format.hdrStaticMetadata, !metadata.masteringDisplay || !metadata.contentLightLevel {
            let missing = [
                metadata.masteringDisplay ? nil : "mastering display colour volume (SEI 137 or an mdcv box)",
                metadata.contentLightLevel ? nil : "content light level (SEI 144 or a clli box)",
            ].compactMap { $0 }
            return
                "no HDR10 static metadata: its \(missing.joined(separator: " and its ")) \(missing.count == 1 ? "is" : "are") missing"
        }
        return nil
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard let (record, format) = measurement.firstTrack(where: { Self.problem($0) != nil }),
                let problem = Self.problem(format)
            else { return nil }
            return Finding(
                "segment \(record.uri) carries PQ HEVC video with \(problem): HDR HEVC must be HDR10 (PQ, BT.2020, 10 bits, mastering display and content light level metadata), HLG or Dolby Vision; encode it as one of those (x265: hdr10=1 with master-display and max-cll)",
                at: measurement.location(of: record))
        }
    }
}

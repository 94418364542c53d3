import HLSPlaylist
import MediaInspection

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

import HLSPlaylist
import MediaInspection

/// HE-AAC in fMP4 whose AudioSpecificConfig does not signal SBR.
package struct SBRNotSignalledRule: Rule {
    /// HE-AAC v1 and v2 (ISO/IEC 14496-3 audio object types 5 and 29).
    static let heAAC: Set<String> = ["mp4a.40.5", "mp4a.40.29"]

    package static let description = RuleDescription(
        id: "sbr-not-signalled", name: "HE-AAC without explicit SBR signalling", defaultSeverity: .error,
        scope: .variant,
        settings: .appleOnly,
        summary:
            "The fMP4 audio of a variant is HE-AAC whose AudioSpecificConfig (the sample entry's esds) signals AAC-LC without SBR, neither object type 5 or 29 first nor the sync extension 0x2b7 with sbrPresentFlag set: either CODECS declares HE-AAC (mp4a.40.5 or mp4a.40.29), or the AAC frames themselves carry SBR data (libavcodec's decoder finds HE-AAC in the frames it decodes).",
        rationale:
            "Apple's authoring specification 2.24: HE-AAC in fMP4 signals SBR explicitly. A decoder told of SBR only by the frames themselves (implicit signalling) starts at the core's half rate and switches once it finds the SBR data, and a player that sets up its output from the sample entry sets it up for the wrong rate. HE-AAC is recognised by the CODECS that declares it, or, whatever CODECS says, by SBR data in the frames of the first segment of each playlist, which avformat_find_stream_info decodes: libavcodec's AAC decoder reports HE-AAC (v2) when a frame carries SBR the config did not announce. SBR runs through every frame of HE-AAC audio, so the first segment speaks for the rest.",
        specItems: [.apple("2.24", .must, "HE-AAC in fMP4 signals SBR explicitly.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            let declared = variant.stream?.codecs?.first(where: { Self.heAAC.contains($0.lowercased()) })
            let location = variant.location(ofAttribute: "CODECS")
            for measurement in variant.combinationMeasurements {
                // SBR the frames carry and the config does not announce is HE-AAC whatever CODECS
                // says; HE-AAC declared over a config that announces none is too.
                guard
                    let record = measurement.records.firstInspected(whereContent: { container, formats in
                        container == .fragmentedMP4
                            && formats.contains {
                                $0.kind == .audio
                                    && ($0.sbrSignalling == .implicit
                                        || (declared != nil && $0.sbrSignalling == .notSignalled))
                            }
                    })
                else { continue }
                if let he = declared {
                    return Finding(
                        "CODECS declares \(he) (HE-AAC), but the AudioSpecificConfig of the fMP4 audio of \(variant.uri) (segment \(record.uri) and its EXT-X-MAP) signals AAC-LC without SBR: signal SBR explicitly (object type 5 or 29, or the sync extension 0x2b7 with sbrPresentFlag set; e.g. re-encode with an HE-AAC encoder that writes it), or declare mp4a.40.2 if the audio is AAC-LC",
                        at: location)
                }
                return Finding(
                    "the AAC frames of the fMP4 audio of \(variant.uri) (segment \(record.uri)) carry SBR, HE-AAC, that its AudioSpecificConfig does not signal (an AAC-LC config without the sync extension 0x2b7): signal SBR explicitly (object type 5 or 29, or the sync extension with sbrPresentFlag set, as an HE-AAC encoder writes it) and declare mp4a.40.5 in CODECS (mp4a.40.29 with parametric stereo)",
                    at: location)
            }
            return nil
        }
    }
}

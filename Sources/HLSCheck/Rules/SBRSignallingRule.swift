import HLSPlaylist
import MediaInspection

/// HE-AAC in fMP4 whose AudioSpecificConfig does not signal SBR.
package struct SBRNotSignalledRule: Rule {
    /// Makes the rule; it holds no state, so one instance serves every check.
    package init() {}

    /// HE-AAC v1 and v2 (ISO/IEC 14496-3 audio object types 5 and 29).
    static let heAAC: Set<String> = ["mp4a.40.5", "mp4a.40.29"]

    package static let description = RuleDescription(
        id: "sbr-not-signalled", name: "HE-AAC without explicit SBR signalling", defaultSeverity: .error,
        scope: .variant,
        settings: .appleOnly,
        summary:
            "CODECS declares HE-AAC (mp4a.40.5 or mp4a.40.29), but the AudioSpecificConfig in the fMP4 sample entry (esds) of the variant's audio signals AAC-LC without SBR: neither object type 5 or 29 first nor the sync extension 0x2b7 with sbrPresentFlag set.",
        rationale:
            "Apple's authoring specification 2.24: HE-AAC in fMP4 signals SBR explicitly. A decoder told of SBR only by the frames themselves (implicit signalling) starts at the core's half rate and switches once it finds the SBR data, and a player that sets up its output from the sample entry sets it up for the wrong rate. HE-AAC is recognised by the CODECS that declares it: SBR in audio declared AAC-LC (mp4a.40.2) shows only when the raw frames are parsed, which hlscheck does not do.",
        specItems: [.apple("2.24", .must, "HE-AAC in fMP4 signals SBR explicitly.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream?.codecs?.filter({ Self.heAAC.contains($0.lowercased()) }),
                let he = declared.first
            else { return nil }
            for measurement in variant.combinationMeasurements {
                guard
                    let record = measurement.records.firstInspected(whereContent: { container, formats in
                        container == .fragmentedMP4
                            && formats.contains { $0.kind == .audio && $0.sbrSignalling == .notSignalled }
                    })
                else { continue }
                return Finding(
                    "CODECS declares \(he) (HE-AAC), but the AudioSpecificConfig of the fMP4 audio of \(variant.uri) (segment \(record.uri) and its EXT-X-MAP) signals AAC-LC without SBR: signal SBR explicitly (object type 5 or 29, or the sync extension 0x2b7 with sbrPresentFlag set; e.g. re-encode with an HE-AAC encoder that writes it), or declare mp4a.40.2 if the audio is AAC-LC",
                    at: SourceLocation(
                        uri: variant.location.uri, line: variant.location.line,
                        column: variant.stream?.attributes["CODECS"]?.column ?? 0))
            }
            return nil
        }
    }
}

import HLSPlaylist
import MediaFormats

/// SUPPLEMENTAL-CODECS whose elements do not sit on a base layer CODECS names, or whose further
/// fields are not brands.
package struct SupplementalCodecsMismatchRule: Rule {
    static func multivariant(_ attributes: String) -> [String: String] {
        Examples.stream(
            "#EXT-X-STREAM-INF:BANDWIDTH=9000000,\(attributes),RESOLUTION=3840x2160,VIDEO-RANGE=HLG\nvideo.m3u8\n")
    }

    package static let description = RuleDescription(
        id: "supplemental-codecs-mismatch", name: "SUPPLEMENTAL-CODECS without its base layer", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A SUPPLEMENTAL-CODECS element enhances a base layer whose codec CODECS does not list, or has a further field that is not a compatibility brand.",
        rationale: """
            bis-22 §4.4.6.2: SUPPLEMENTAL-CODECS describes an enhancement (such as Dolby Vision \
            profile 8 over HEVC) that a player may use when it can, and otherwise plays the base \
            layer CODECS describes; so every element's base layer codec must be in CODECS, and the \
            fields after its first one, separated by '/', are compatibility brands of the \
            bitstream: four-character codes such as db4h. Dolby Vision is the supplemental format \
            whose base layers are defined: dvh1 and dvhe (profiles 4, 7 and 8) over HEVC (hvc1, \
            hev1), dvav and dva1 (profile 9) over H.264 (avc1, avc3), dav1 (profile 10) over AV1 \
            (av01). Profile 5 has no backward-compatible base layer: it goes in CODECS itself. \
            Elements of other formats are not judged.
            """,
        specItems: [
            .bis(
                "4.4.6.2", .must,
                "Each SUPPLEMENTAL-CODECS element has its base layer codec in CODECS (for Dolby Vision: HEVC under dvh1 and dvhe, H.264 under dvav and dva1, AV1 under dav1)."
            ),
            .bis(
                "4.4.6.2", .must,
                "Further fields of a SUPPLEMENTAL-CODECS element are compatibility brands of that codec's bitstream (checked for the four-character form of a brand)."
            ),
        ],
        triggering: [
            RuleExample(
                "Dolby Vision profile 8 over H.264",
                files: multivariant(
                    "CODECS=\"avc1.640033,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dvh1.08.07/db4h\"")
            )
            .expecting(line: 3, column: 68, "dvh1.08.07 enhances an HEVC base layer, but CODECS names no HEVC format"),
            RuleExample(
                "Dolby Vision profile 10 without AV1",
                files: multivariant(
                    "CODECS=\"hvc1.2.4.L153.b0,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dav1.10.09/db4h\"")
            )
            .expecting(line: 3, column: 73, "dav1.10.09 enhances an AV1 base layer"),
            RuleExample(
                "a brand that is no four-character code",
                files: multivariant(
                    "CODECS=\"hvc1.2.4.L153.b0,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dvh1.08.07/HLG\"")
            )
            .expecting(
                line: 3, column: 73,
                "field \"HLG\" of SUPPLEMENTAL-CODECS element dvh1.08.07 is not a compatibility brand"),
            RuleExample(
                "profile 5 as a supplement",
                files: multivariant(
                    "CODECS=\"hvc1.2.4.L153.b0,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dvh1.05.06\"")
            )
            .expecting(line: 3, column: 73, "Dolby Vision profile 5, which has no backward-compatible base layer"),
        ],
        nonTriggering: [
            RuleExample(
                "Dolby Vision 8.4 over HEVC",
                files: multivariant(
                    "CODECS=\"hvc1.2.4.L153.b0,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dvh1.08.07/db4h\"")),
            RuleExample(
                "Dolby Vision 9 over H.264 and 10 over AV1",
                files: multivariant(
                    "CODECS=\"avc1.640033,av01.0.13M.10,mp4a.40.2\",SUPPLEMENTAL-CODECS=\"dva1.09.05/db2g,dav1.10.09/db1p\""
                )),
            RuleExample("no SUPPLEMENTAL-CODECS", files: Examples.stream(Examples.videoVariant)),
        ])

    /// The sample entries a Dolby Vision format's base layer may use, nil for a format that is
    /// not Dolby Vision (not judged); empty for profile 5, which has no base layer.
    static func baseLayer(of format: Substring) -> (name: String, entries: Set<String>)? {
        let parts = format.split(separator: ".", omittingEmptySubsequences: false)
        guard let entry = parts.first?.lowercased() else { return nil }
        switch entry {
        case "dvh1", "dvhe":
            if parts.count > 1, Int(parts[1]) == 5 { return ("no", []) }
            return ("HEVC", ["hvc1", "hev1"])
        case "dvav", "dva1": return ("H.264", ["avc1", "avc3"])
        case "dav1": return ("AV1", ["av01"])
        default: return nil
        }
    }

    /// An ISO base media file format brand: four letters, digits or spaces.
    static func isBrand(_ field: Substring) -> Bool {
        field.utf8.count == 4
            && field.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x20
            }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        let declarations =
            multivariant.variants.map { ($0.attributes, $0.codecs, $0.line) }
            + multivariant.iFrameVariants.map { ($0.attributes, $0.codecs, $0.line) }
        var findings: [Finding] = []
        for (attributes, codecs, line) in declarations {
            guard let attribute = attributes["SUPPLEMENTAL-CODECS"] else { continue }
            let location = stream.root.location(line: line, column: attribute.column)
            let declared = Set((codecs ?? []).map { String($0.prefix(4)).lowercased() })
            for element in attribute.stringValue.split(separator: ",") {
                let fields = element.split(separator: "/", omittingEmptySubsequences: false)
                guard let format = fields.first.map({ Substring($0.trimmingWhiteSpace(newlines: false)) }),
                    !format.isEmpty
                else { continue }
                for field in fields.dropFirst() where !Self.isBrand(field) {
                    findings.append(
                        Finding(
                            "field \"\(field)\" of SUPPLEMENTAL-CODECS element \(format) is not a compatibility brand (a four-character code such as db4h); keep only the codec's brands after the '/' (bis-22 §4.4.6.2)",
                            at: location))
                }
                guard let base = Self.baseLayer(of: format) else { continue }
                if base.entries.isEmpty {
                    findings.append(
                        Finding(
                            "SUPPLEMENTAL-CODECS element \(format) is Dolby Vision profile 5, which has no backward-compatible base layer: declare it in CODECS instead (bis-22 §4.4.6.2)",
                            at: location))
                } else if declared.isDisjoint(with: base.entries) {
                    findings.append(
                        Finding(
                            "SUPPLEMENTAL-CODECS element \(format) enhances an \(base.name) base layer, but CODECS names no \(base.name) format (\(base.entries.sorted().joined(separator: ", "))); list the base layer's codec in CODECS (bis-22 §4.4.6.2)",
                            at: location))
                }
            }
        }
        return findings
    }
}

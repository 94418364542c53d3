import HLSPlaylist

/// APIC present but not a decodable JPEG or PNG, or declared with the wrong MIME type.
package struct ArtworkInvalidRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-invalid", name: "Poster not a valid image", defaultSeverity: .error, scope: .variant,
        settings: [.rfc8216: .off],
        summary:
            "An APIC frame holds no decodable JPEG/PNG, declares a MIME type other than those, or declares one its bytes are not (a PNG labelled image/jpeg).",
        rationale:
            "Players show only JPEG or PNG still images; anything else costs budget and shows nothing (ID3v2.4 §4.14 APIC).",
        specItems: [
            SpecItem("ID3v2.4 §4.14", .must, "An APIC frame holds a picture of the MIME type it declares.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<String> = []
        for measurement in stream.measurements.values.sorted(by: { $0.playlistURI < $1.playlistURI }) {
            for record in measurement.records {
                guard let artwork = record.artwork, !reported.contains(artwork.contentHash) else { continue }
                let location = SourceLocation(uri: measurement.playlistURI, line: record.line)
                if let problem = artwork.decodeProblem {
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) (\(artwork.mimeType), \(artwork.byteCount) bytes) does not decode: \(problem)",
                            at: location))
                } else if !["image/jpeg", "image/jpg", "image/png"].contains(artwork.mimeType.lowercased()) {
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) declares MIME type \"\(artwork.mimeType)\": use image/jpeg or image/png",
                            at: location))
                } else if let actual = artwork.contentType,
                    actual
                        != (artwork.mimeType.lowercased() == "image/jpg" ? "image/jpeg" : artwork.mimeType.lowercased())
                {
                    // A decoder that sniffs shows it anyway; one that trusts the declared type does not.
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) declares MIME type \"\(artwork.mimeType)\" but its bytes are \(actual): declare \(actual), or re-embed it (hlscheck embed)",
                            at: location))
                }
            }
        }
        return findings
    }
}

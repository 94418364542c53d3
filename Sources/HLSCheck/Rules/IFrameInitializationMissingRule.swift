import HLSPlaylist

/// An I-frame resource without EXT-X-MAP that does not start with its Media Initialization Section.
package struct IFrameInitializationMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframe-initialization-missing", name: "I-frame resource without initialization section",
        defaultSeverity: .error,
        summary:
            "A resource that holds I-frame segments has no EXT-X-MAP and does not start with its Media Initialization Section (a PAT and PMT for MPEG-TS, an ftyp and moov for fMP4) before its first I-frame.",
        rationale:
            "bis-22 §4.4.3.6: a player scrubbing fetches I-frames in any order, each alone; it finds the tables that describe them in EXT-X-MAP or, without it, at the start of the resource, up to the first I-frame. A resource that starts with media (the PAT and PMT cut off, or in the middle of a range) leaves every I-frame of it undecodable. The first bytes of each resource, up to its first I-frame, are read, and decrypted when METHOD=AES-128 encrypts the resource (one CBC run from its start, bis-22 §6.2.3).",
        specItems: [
            .bis(
                "4.4.3.6", rfc: "4.3.3.6", .must,
                "A resource holding I-frame segments starts with a Media Initialization Section or has EXT-X-MAP.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.iFramePlaylists.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { inspection in
            inspection.missingInitialization.map { problem in
                Finding(
                    "the resource of this I-frame segment has no EXT-X-MAP, and \(problem.message): begin the resource with its PAT and PMT (or ftyp and moov) before the first I-frame, or declare them with EXT-X-MAP",
                    at: SourceLocation(uri: inspection.playlistURI, line: problem.line))
            }
        }
    }
}

import HLSPlaylist

// MUSTs of bis-22 that relate tags of the multivariant playlist to each other or to the media
// playlists it names: each tag is well formed on its own, the stream as a whole is not.

/// EXT-X-CONTENT-STEERING's PATHWAY-ID that no variant has, or that is not a pathway id.
package struct PathwayIDInvalidRule: Rule {
    static func stream(steering: String, pathway: String?) -> [String: String] {
        let attribute = pathway.map { ",PATHWAY-ID=\"\($0)\"" } ?? ""
        return Examples.stream(
            "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\(attribute)\naudio.m3u8\n",
            header:
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-CONTENT-STEERING:SERVER-URI=\"https://steer.example/manifest.json\"\(steering)\n"
        )
    }

    package static let description = RuleDescription(
        id: "pathway-id-invalid", name: "Content steering pathway unknown", defaultSeverity: .error,
        summary:
            "EXT-X-CONTENT-STEERING names a PATHWAY-ID that is not a pathway id (a-z, A-Z, 0-9, '-', '.', '_') or that no EXT-X-STREAM-INF belongs to.",
        rationale:
            "bis-22 §4.4.6.6: PATHWAY-ID is the pathway a player starts on before the steering server answers; a pathway no variant belongs to leaves it nothing to play.",
        specItems: [
            .bis(
                "4.4.6.6", .must,
                "The PATHWAY-ID of EXT-X-CONTENT-STEERING is a legal pathway id that the PATHWAY-ID of some variant stream names."
            )
        ],
        triggering: [
            RuleExample(
                "a pathway no variant belongs to", files: stream(steering: ",PATHWAY-ID=\"CDN-B\"", pathway: "CDN-A")
            )
            .expecting(line: 3, "PATHWAY-ID=\"CDN-B\" names no pathway of this playlist"),
            RuleExample(
                "a pathway id with a space", files: stream(steering: ",PATHWAY-ID=\"CDN A\"", pathway: "CDN A")),
        ],
        nonTriggering: [
            RuleExample("a pathway of a variant", files: stream(steering: ",PATHWAY-ID=\"CDN-A\"", pathway: "CDN-A")),
            RuleExample("no PATHWAY-ID", files: stream(steering: "", pathway: nil)),
        ])

    /// bis-22 §4.4.6.6: pathway ids use a-z, A-Z, 0-9, '-', '.' and '_'.
    static func isPathwayID(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x2E, 0x5F].contains(byte)
            }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant, let steering = multivariant.contentSteering,
            let pathway = steering.pathwayID
        else { return [] }
        let location = stream.root.location(line: steering.line)
        guard Self.isPathwayID(pathway) else {
            return [
                Finding(
                    "EXT-X-CONTENT-STEERING PATHWAY-ID=\"\(pathway)\" is not a pathway id: use only a-z, A-Z, 0-9, '-', '.' and '_'",
                    at: location)
            ]
        }
        // A variant without PATHWAY-ID is on the default pathway ".".
        let pathways = Set(multivariant.variants.map { $0.pathwayID ?? "." })
        guard !pathways.contains(pathway) else { return [] }
        return [
            Finding(
                "EXT-X-CONTENT-STEERING PATHWAY-ID=\"\(pathway)\" names no pathway of this playlist (its variants are on \(pathways.sorted().map { "\"\($0)\"" }.joined(separator: ", "))): name one of them",
                at: location)
        ]
    }
}

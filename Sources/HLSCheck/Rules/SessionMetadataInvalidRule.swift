import HLSPlaylist

// The MUSTs of draft-pantos-hls-rfc8216bis that the parser accepts syntactically but that
// relate values to each other: low-latency delivery attributes, date ranges, session metadata.
// Each message quotes the numbers it compares.

/// Duplicate EXT-X-SESSION-DATA and EXT-X-SESSION-KEY tags.
package struct SessionMetadataInvalidRule: Rule {
    static func multivariant(_ tags: String) -> [String: String] {
        Examples.stream(Examples.audioVariant(), header: "#EXTM3U\n#EXT-X-VERSION:3\n" + tags)
    }

    package static let description = RuleDescription(
        id: "session-metadata-invalid", name: "Duplicate session data or session key", defaultSeverity: .error,
        summary: "Two EXT-X-SESSION-DATA tags share DATA-ID and LANGUAGE, or two EXT-X-SESSION-KEY tags are identical.",
        rationale:
            "RFC 8216 §4.3.4.4: a Playlist MUST NOT contain more than one EXT-X-SESSION-DATA tag with the same DATA-ID and the same LANGUAGE. §4.3.4.5: a Multivariant Playlist MUST NOT contain more than one EXT-X-SESSION-KEY tag with the same METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS.",
        specItems: [
            .bis("4.4.6.4", rfc: "4.3.4.4", .must, "No two EXT-X-SESSION-DATA tags share DATA-ID and LANGUAGE."),
            .bis(
                "4.4.6.5", rfc: "4.3.4.5", .must,
                "No two EXT-X-SESSION-KEY tags share METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS."),
        ],
        triggering: [
            RuleExample(
                "the same DATA-ID and LANGUAGE twice",
                files: multivariant(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"One\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Two\",LANGUAGE=\"en\"\n"
                )
            ).expecting(line: 4, "EXT-X-SESSION-DATA DATA-ID=\"com.example.title\""),
            RuleExample(
                "the same session key twice",
                files: multivariant(
                    "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"key.bin\"\n"
                )),
        ],
        nonTriggering: [
            RuleExample(
                "one title per language, two different keys",
                files: multivariant(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"One\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Un\",LANGUAGE=\"fr\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"a.bin\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"b.bin\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        var findings: [Finding] = []
        var dataSeen: [String: Int] = [:]
        for data in multivariant.sessionData {
            guard let id = data.dataID else { continue }
            let key = id + "\u{0}" + (data.language ?? "")
            if let first = dataSeen[key] {
                findings.append(
                    Finding(
                        "EXT-X-SESSION-DATA DATA-ID=\"\(id)\"\(data.language.map { " LANGUAGE=\"\($0)\"" } ?? "") repeats the tag on line \(first): keep one",
                        at: stream.root.location(line: data.line)))
            } else {
                dataSeen[key] = data.line
            }
        }
        var keysSeen: [String: Int] = [:]
        for key in multivariant.sessionKeys {
            let identity = [
                key.method, key.uri ?? "", key.iv.map { $0.map { String($0, radix: 16) }.joined() } ?? "",
                key.keyFormat ?? "identity", key.keyFormatVersions ?? "1",
            ].joined(separator: "\u{0}")
            if let first = keysSeen[identity] {
                findings.append(
                    Finding(
                        "EXT-X-SESSION-KEY METHOD=\(key.method)\(key.uri.map { ",URI=\"\($0)\"" } ?? "") repeats the tag on line \(first): keep one",
                        at: stream.root.location(line: key.line)))
            } else {
                keysSeen[identity] = key.line
            }
        }
        return findings
    }
}

import HLSPlaylist

/// A CODECS entry naming APAC without its profile and level.
///
/// Apple's authoring specification asks for APAC's profile and level in its codec string; its
/// appendix ("Values for the CODECS attribute") shows the form: `apac.31.00` is profile 31,
/// level 0, each a decimal number after the sample entry `apac`. A player decides from CODECS
/// alone whether it can decode a variant's audio, and an APAC decoder supports only some
/// profiles and levels (Apple's APAC specification ties them to the channel count or
/// Ambisonics order), so a bare `apac` leaves it guessing.
package struct APACProfileLevelMissingRule: Rule {
    static func multivariant(codecs: String) -> [String: String] {
        Examples.stream(
            "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"\(codecs)\",RESOLUTION=1280x720\nvideo.m3u8\n")
    }

    package static let description = RuleDescription(
        id: "apac-profile-level-missing", name: "APAC codec string without profile and level",
        defaultSeverity: .error, scope: .variant, settings: .appleOnly,
        summary:
            "A CODECS entry names APAC (apac) without its profile and level as two decimal numbers (apac.<profile>.<level>, e.g. apac.31.00).",
        rationale:
            "Apple's authoring specification (item 9.20) requires APAC's profile and level in its codec string, in the form its appendix shows (apac.31.00: profile 31, level 0). A player chooses the variants it can play from CODECS before it loads any media; APAC decoders support some profiles and levels only, so an entry without them cannot be judged. The values themselves are in the APAC bitstream, which hlscheck does not parse: only their presence and form are checked.",
        specItems: [.apple("9.20", .must, "APAC's profile and level are part of its codec string (apac.31.00).")],
        triggering: [
            RuleExample("bare apac", files: multivariant(codecs: "avc1.4d401f,apac"))
                .expecting(line: 3, column: 37, "CODECS entry \"apac\" does not give APAC's profile and level"),
            RuleExample("a profile without a level", files: multivariant(codecs: "avc1.4d401f,apac.31"))
                .expecting(line: 3, column: 37, "CODECS entry \"apac.31\""),
            RuleExample(
                "profile and level that are not numbers", files: multivariant(codecs: "avc1.4d401f,apac.main.high")
            )
            .expecting(line: 3, column: 37, "CODECS entry \"apac.main.high\""),
        ],
        nonTriggering: [
            RuleExample("profile 31, level 0", files: multivariant(codecs: "avc1.4d401f,apac.31.00")),
            RuleExample(
                "profile 31, level 3 beside AAC", files: multivariant(codecs: "avc1.4d401f,mp4a.40.2,apac.31.03")),
            RuleExample("no APAC", files: Examples.stream(Examples.videoVariant)),
        ])

    /// Whether `entry` (one element of CODECS) is an APAC codec string without its profile and
    /// level: `apac`, then two elements of decimal digits, are what Apple's appendix shows.
    static func lacksProfileAndLevel(_ entry: String) -> Bool {
        let elements = entry.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.first?.lowercased() == "apac" else { return false }
        let rest = elements.dropFirst()
        return rest.count < 2
            || !rest.prefix(2).allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        let declarations =
            multivariant.variants.map { ($0.uri, $0.attributes, $0.codecs, $0.line) }
            + multivariant.iFrameVariants.map { ($0.uri, $0.attributes, $0.codecs, $0.line) }
        return declarations.flatMap { uri, attributes, codecs, line in
            (codecs ?? []).filter(Self.lacksProfileAndLevel).map { entry in
                Finding(
                    "CODECS entry \"\(entry)\" does not give APAC's profile and level (variant \(uri)): write them as apac.<profile>.<level>, e.g. apac.31.00 for profile 31, level 0 (AS 9.20)",
                    at: stream.root.location(line: line, column: attributes["CODECS"]?.column ?? 0))
            }
        }
    }
}

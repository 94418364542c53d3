import HLSPlaylist

/// AUDIO / VIDEO / SUBTITLES / CLOSED-CAPTIONS group references that match no EXT-X-MEDIA.
public struct MediaGroupMissingRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "media-group-missing", name: "Rendition group missing", defaultSeverity: .error,
        summary: "An EXT-X-STREAM-INF references a rendition group that no EXT-X-MEDIA defines.",
        rationale: "RFC 8216 §4.3.4.2: the AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS values MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE.",
        triggering: [
            RuleExample("AUDIO group without EXT-X-MEDIA", files: Examples.stream(
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
                Examples.audioVariant()))
        ],
        nonTriggering: [
            RuleExample("AUDIO group defined", files: Examples.stream(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n",
                Examples.audioVariant()))
        ]
    )

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        var findings: [Finding] = []
        for variant in master.variants {
            let references: [(String, MediaType, String?)] = [
                ("AUDIO", .audio, variant.audioGroup), ("VIDEO", .video, variant.videoGroup),
                ("SUBTITLES", .subtitles, variant.subtitlesGroup),
                ("CLOSED-CAPTIONS", .closedCaptions, variant.closedCaptionsGroup),
            ]
            for (attribute, type, group) in references {
                guard let group, master.renditions(ofType: type, group: group).isEmpty else { continue }
                let column = variant.attributes[attribute]?.column ?? 0
                findings.append(
                    Finding(
                        "\(attribute)=\"\(group)\" matches no EXT-X-MEDIA with TYPE=\(type.rawValue) and GROUP-ID=\"\(group)\"",
                        at: stream.root.location(line: variant.line, column: column)))
            }
        }
        return findings
    }
}

/// Rendition groups that break the group rules of RFC 8216 §4.3.4.1.1 and §4.3.4.1.
public struct MediaGroupInvalidRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "media-group-invalid", name: "Rendition group inconsistent", defaultSeverity: .error,
        summary: "A rendition group has two members with the same NAME, several DEFAULT=YES members, or DEFAULT=YES with AUTOSELECT=NO.",
        rationale: "RFC 8216 §4.3.4.1.1: each member of a group MUST have a different NAME and a group MUST NOT have more than one DEFAULT=YES member; §4.3.4.1: AUTOSELECT MUST be YES when DEFAULT is YES.",
        triggering: [
            RuleExample("two defaults", files: Examples.stream(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"French\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n")),
            RuleExample("duplicate NAME", files: Examples.stream(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",URI=\"audio.m3u8\"\n",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",URI=\"audio.m3u8\"\n",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n")),
            RuleExample("DEFAULT=YES with AUTOSELECT=NO", files: Examples.stream(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=NO,URI=\"audio.m3u8\"\n",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n")),
        ],
        nonTriggering: [
            RuleExample("two languages, one default", files: Examples.stream(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"French\",DEFAULT=NO,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"))
        ]
    )

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        var findings: [Finding] = []
        var seenNames: [String: Int] = [:]
        var firstDefault: [String: Int] = [:]
        for rendition in master.renditions {
            guard let type = rendition.type, let group = rendition.groupID else { continue }
            let key = "\(type.rawValue)\u{0}\(group)"
            let location = stream.root.location(line: rendition.line)
            if let name = rendition.name {
                if let earlier = seenNames["\(key)\u{0}\(name)"] {
                    findings.append(Finding("NAME=\"\(name)\" is used twice in \(type.rawValue) group \"\(group)\" (first on line \(earlier))", at: location))
                } else {
                    seenNames["\(key)\u{0}\(name)"] = rendition.line
                }
            }
            if rendition.isDefault {
                if let earlier = firstDefault[key] {
                    findings.append(Finding("\(type.rawValue) group \"\(group)\" has a second DEFAULT=YES member (the first is on line \(earlier))", at: location))
                } else {
                    firstDefault[key] = rendition.line
                }
                if rendition.attributes["AUTOSELECT"]?.rawValue == "NO" {
                    let column = rendition.attributes["AUTOSELECT"]?.column ?? 0
                    findings.append(Finding("DEFAULT=YES requires AUTOSELECT=YES", at: stream.root.location(line: rendition.line, column: column)))
                }
            }
        }
        return findings
    }
}

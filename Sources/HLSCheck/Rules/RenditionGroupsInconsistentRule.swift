import HLSPlaylist

// MUSTs of bis-22 that relate tags of the multivariant playlist to each other or to the media
// playlists it names: each tag is well formed on its own, the stream as a whole is not.

/// Renditions as a group compares them: by NAME, with the attributes that must agree.
private struct GroupMember: Equatable {
    var name: String
    var line: Int
    /// NAME=raw value of every attribute but GROUP-ID and the ones a group may vary.
    var attributes: [String: String]

    /// bis-22 §4.4.6.1.1: corresponding members of groups of one TYPE may differ in these.
    static let mayDiffer: Set<String> = [
        "GROUP-ID", "URI", "CHANNELS", "BIT-DEPTH", "SAMPLE-RATE", "STABLE-RENDITION-ID", "INSTREAM-ID",
    ]

    init(_ rendition: Rendition) {
        name = rendition.name ?? ""
        line = rendition.line
        var attributes: [String: String] = [:]
        for attribute in rendition.attributes.attributes where !Self.mayDiffer.contains(attribute.name) {
            attributes[attribute.name] = attribute.rawValue
        }
        self.attributes = attributes
    }
}

/// Groups of one TYPE whose members differ.
package struct RenditionGroupsInconsistentRule: Rule {
    static func multivariant(_ renditions: String, groups: [String]) -> [String: String] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n" + renditions
        for (index, group) in groups.enumerated() {
            text +=
                "#EXT-X-STREAM-INF:BANDWIDTH=\(800_000 * (index + 1)),CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"\(group)\"\nvideo\(index).m3u8\n"
        }
        var files = ["master.m3u8": text]
        for index in groups.indices { files["video\(index).m3u8"] = Examples.media() }
        for line in renditions.split(separator: "\n") {
            if let start = line.firstRange(of: "URI=\"") {
                files[String(line[start.upperBound...].prefix { $0 != "\"" })] = Examples.media()
            }
        }
        return files
    }

    package static let description = RuleDescription(
        id: "rendition-groups-inconsistent", name: "Groups of one TYPE differ", defaultSeverity: .error,
        summary:
            "Two EXT-X-MEDIA groups of the same TYPE do not have the same members (by NAME), or corresponding members differ in an attribute other than URI, CHANNELS, BIT-DEPTH, SAMPLE-RATE, STABLE-RENDITION-ID and INSTREAM-ID.",
        rationale:
            "bis-22 §4.4.6.1.1: several groups of one TYPE offer the same renditions in several encodings (an audio group per bit rate, say). A player switching variants switches group and keeps the rendition of the same NAME; a language missing from one group, or a member whose LANGUAGE or DEFAULT differs, changes what the viewer hears when the bit rate changes.",
        specItems: [
            .bis(
                "4.4.6.1.1", rfc: "4.3.4.1.1", .must,
                "Groups of the same TYPE have the same set of members, and corresponding members the same attributes except URI, CHANNELS, BIT-DEPTH, SAMPLE-RATE, STABLE-RENDITION-ID and INSTREAM-ID."
            )
        ],
        triggering: [
            RuleExample(
                "a language missing from the second audio group",
                files: multivariant(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"Deutsch\",LANGUAGE=\"de\",AUTOSELECT=YES,URI=\"de-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-lo.m3u8\"\n",
                    groups: ["hi", "lo"])
            ).expecting(line: 5, "lacks NAME=\"Deutsch\" of group \"hi\""),
            RuleExample(
                "the same NAME with another LANGUAGE",
                files: multivariant(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"main\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"main\",LANGUAGE=\"de\",DEFAULT=YES,AUTOSELECT=YES,URI=\"de-lo.m3u8\"\n",
                    groups: ["hi", "lo"])),
        ],
        nonTriggering: [
            RuleExample(
                "two groups that differ in URI and CHANNELS only",
                files: multivariant(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"6\",URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"en-lo.m3u8\"\n",
                    groups: ["hi", "lo"]))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        var findings: [Finding] = []
        for type in MediaType.allCases {
            // Groups of this TYPE in order of first appearance, each with its members.
            var order: [String] = []
            var groups: [String: [GroupMember]] = [:]
            for rendition in multivariant.renditions where rendition.type == type {
                guard let group = rendition.groupID else { continue }
                if groups[group] == nil { order.append(group) }
                groups[group, default: []].append(GroupMember(rendition))
            }
            guard order.count > 1, let reference = groups[order[0]] else { continue }
            let referenceByName = Dictionary(reference.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for group in order.dropFirst() {
                let members = groups[group] ?? []
                let names = Set(members.map(\.name))
                let missing = reference.map(\.name).filter { !names.contains($0) }
                if !missing.isEmpty, let first = members.first {
                    findings.append(
                        Finding(
                            "TYPE=\(type.rawValue) group \"\(group)\" lacks \(missing.map { "NAME=\"\($0)\"" }.joined(separator: ", ")) of group \"\(order[0])\": every group of one TYPE offers the same renditions; add \(missing.count == 1 ? "it" : "them") or drop \(missing.count == 1 ? "it" : "them") from \"\(order[0])\"",
                            at: stream.root.location(line: first.line)))
                }
                for member in members {
                    guard let counterpart = referenceByName[member.name] else {
                        findings.append(
                            Finding(
                                "TYPE=\(type.rawValue) group \"\(group)\" has NAME=\"\(member.name)\", which group \"\(order[0])\" does not: every group of one TYPE offers the same renditions",
                                at: stream.root.location(line: member.line)))
                        continue
                    }
                    let differing = Set(member.attributes.keys).union(counterpart.attributes.keys).sorted()
                        .filter { member.attributes[$0] != counterpart.attributes[$0] }
                    if let name = differing.first {
                        findings.append(
                            Finding(
                                "TYPE=\(type.rawValue) NAME=\"\(member.name)\" in group \"\(group)\" says \(name)=\(member.attributes[name] ?? "nothing"), but its counterpart on line \(counterpart.line) says \(name)=\(counterpart.attributes[name] ?? "nothing")\(differing.count > 1 ? " (and \(differing.count - 1) more attribute\(differing.count > 2 ? "s" : "") differ)" : ""): corresponding renditions differ only in URI, CHANNELS, BIT-DEPTH, SAMPLE-RATE, STABLE-RENDITION-ID and INSTREAM-ID",
                                at: stream.root.location(line: member.line)))
                    }
                }
            }
        }
        return findings
    }
}

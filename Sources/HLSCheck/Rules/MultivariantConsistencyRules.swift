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
    static func master(_ renditions: String, groups: [String]) -> [String: String] {
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
                files: master(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"Deutsch\",LANGUAGE=\"de\",AUTOSELECT=YES,URI=\"de-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-lo.m3u8\"\n",
                    groups: ["hi", "lo"])
            ).expecting(line: 5, "lacks NAME=\"Deutsch\" of group \"hi\""),
            RuleExample(
                "the same NAME with another LANGUAGE",
                files: master(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"main\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"main\",LANGUAGE=\"de\",DEFAULT=YES,AUTOSELECT=YES,URI=\"de-lo.m3u8\"\n",
                    groups: ["hi", "lo"])),
        ],
        nonTriggering: [
            RuleExample(
                "two groups that differ in URI and CHANNELS only",
                files: master(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"6\",URI=\"en-hi.m3u8\"\n"
                        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"en-lo.m3u8\"\n",
                    groups: ["hi", "lo"]))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        var findings: [Finding] = []
        for type in MediaType.allCases {
            // Groups of this TYPE in order of first appearance, each with its members.
            var order: [String] = []
            var groups: [String: [GroupMember]] = [:]
            for rendition in master.renditions where rendition.type == type {
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

/// CLOSED-CAPTIONS=NONE on some variants but not all.
package struct ClosedCaptionsNoneInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "closed-captions-none-inconsistent", name: "CLOSED-CAPTIONS=NONE on some variants only",
        defaultSeverity: .error,
        summary: "One EXT-X-STREAM-INF says CLOSED-CAPTIONS=NONE and another does not.",
        rationale:
            "bis-22 §4.4.6.2: CLOSED-CAPTIONS=NONE says the variant carries no captions; when one variant says so, all must, or a player switching to a variant that does not say so may show captions the viewer did not have a moment ago (or the reverse).",
        specItems: [
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "If one EXT-X-STREAM-INF has CLOSED-CAPTIONS=NONE, every EXT-X-STREAM-INF has CLOSED-CAPTIONS=NONE.")
        ],
        triggering: [
            RuleExample(
                "NONE on one of two variants",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,CLOSED-CAPTIONS=NONE\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720\nvideo2.m3u8\n"
                )
            ).expecting(line: 5, "has no CLOSED-CAPTIONS=NONE")
        ],
        nonTriggering: [
            RuleExample(
                "NONE on every variant",
                files: Examples.stream(
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,CLOSED-CAPTIONS=NONE\nvideo.m3u8\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=1600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,CLOSED-CAPTIONS=NONE\nvideo2.m3u8\n"
                )),
            RuleExample("NONE on no variant", files: Examples.stream(Examples.videoVariant)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant, let none = master.variants.first(where: \.closedCaptionsNone) else {
            return []
        }
        let without = master.variants.filter { !$0.closedCaptionsNone }
        guard let first = without.first else { return [] }
        let others = without.count > 1 ? " (and \(without.count - 1) other variant\(without.count > 2 ? "s" : ""))" : ""
        return [
            Finding(
                "variant \(first.uri)\(others) has no CLOSED-CAPTIONS=NONE, but the variant on line \(none.line) has: once one variant says NONE, every variant must; add CLOSED-CAPTIONS=NONE or give every variant its caption group",
                at: stream.root.location(line: first.line))
        ]
    }
}

/// EXT-X-START in the multivariant playlist and a media playlist with other values.
package struct StartMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "start-mismatch", name: "EXT-X-START differs between playlists", defaultSeverity: .error,
        summary:
            "EXT-X-START appears in both the multivariant playlist and a media playlist with a different TIME-OFFSET or PRECISE.",
        rationale:
            "bis-22 §4.4.2.2: a preferred start point given in both places must be the same, or the player starts at one place or the other depending on which playlist it read last.",
        specItems: [
            .bis(
                "4.4.2.2", rfc: "4.3.5.2", .must,
                "EXT-X-START in both the multivariant playlist and a media playlist has the same value.")
        ],
        triggering: [
            RuleExample(
                "TIME-OFFSET 10 in the multivariant playlist, 20 in the media playlist",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n" + Examples.audioVariant(),
                    "audio.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-START:TIME-OFFSET=20\n"),
                ]
            ).expecting(
                line: 5, "EXT-X-START:TIME-OFFSET=20.0 differs from the multivariant playlist's TIME-OFFSET=10.0")
        ],
        nonTriggering: [
            RuleExample(
                "the same start point in both",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n" + Examples.audioVariant(),
                    "audio.m3u8": Examples.media().replacing(
                        "#EXT-X-PLAYLIST-TYPE:VOD\n",
                        with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-START:TIME-OFFSET=10.0,PRECISE=NO\n"),
                ]),
            RuleExample(
                "a start point in the multivariant playlist only",
                files: Examples.stream(
                    Examples.audioVariant(), header: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-START:TIME-OFFSET=10\n")),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let start = stream.multivariant?.start, let offset = start.timeOffset else { return [] }
        return stream.mediaPlaylists.compactMap { uri, playlist, media in
            guard let own = media.start, let ownOffset = own.timeOffset,
                ownOffset != offset || own.precise != start.precise
            else { return nil }
            return Finding(
                "EXT-X-START:TIME-OFFSET=\(ownOffset)\(own.precise ? ",PRECISE=YES" : "") differs from the multivariant playlist's TIME-OFFSET=\(offset)\(start.precise ? ",PRECISE=YES" : "") (line \(start.line)): give the same start point in both, or keep it in the multivariant playlist only",
                at: playlist.location(line: own.line))
        }
    }
}

/// An EXT-X-SESSION-KEY that does not match the EXT-X-KEY tags with its URI.
package struct SessionKeyMismatchRule: Rule {
    static func stream(session: String, key: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:5\n\(session)\n" + Examples.audioVariant(),
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(key)\n#EXTINF:6,\nseg0.ts\n#EXT-X-ENDLIST\n",
        ]
    }

    package static let description = RuleDescription(
        id: "session-key-mismatch", name: "EXT-X-SESSION-KEY does not match EXT-X-KEY", defaultSeverity: .error,
        summary:
            "An EXT-X-KEY of a media playlist has the URI of an EXT-X-SESSION-KEY but another METHOD, KEYFORMAT or KEYFORMATVERSIONS.",
        rationale:
            "bis-22 §4.4.6.5: EXT-X-SESSION-KEY lets a player fetch keys before it reads a media playlist; a session key whose method or format differs from the key it announces makes the player prepare the wrong decryption.",
        specItems: [
            .bis(
                "4.4.6.5", rfc: "4.3.4.5", .must,
                "EXT-X-SESSION-KEY's METHOD, KEYFORMAT and KEYFORMATVERSIONS match every EXT-X-KEY with the same URI.")
        ],
        triggering: [
            RuleExample(
                "a SAMPLE-AES session key for an AES-128 key",
                files: stream(
                    session: "#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"https://keys.example/k1\"",
                    key: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\"")
            ).expecting(line: 5, "has the URI of the EXT-X-SESSION-KEY on line 3")
        ],
        nonTriggering: [
            RuleExample(
                "the same method and the default key format",
                files: stream(
                    session: "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\",KEYFORMAT=\"identity\"",
                    key: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\""))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant, !master.sessionKeys.isEmpty else { return [] }
        struct Identity: Equatable { var method: String, format: String, versions: String }
        func identity(_ key: EncryptionKey) -> Identity {
            Identity(method: key.method, format: key.keyFormat ?? "identity", versions: key.keyFormatVersions ?? "1")
        }
        var sessions: [String: (key: EncryptionKey, identities: [Identity])] = [:]
        for key in master.sessionKeys {
            guard let uri = key.uri else { continue }
            sessions[stream.loaded.resolve(uri), default: (key, [])].identities.append(identity(key))
        }
        var findings: [Finding] = []
        for (uri, playlist, media) in stream.mediaPlaylists {
            var seenLines: Set<Int> = []
            for segment in media.segments {
                guard let key = segment.key, seenLines.insert(key.line).inserted, let keyURI = key.uri,
                    let session = sessions[URIResolver.resolve(keyURI, against: uri)],
                    !session.identities.contains(identity(key))
                else { continue }
                let own = identity(key), announced = identity(session.key)
                findings.append(
                    Finding(
                        "EXT-X-KEY METHOD=\(own.method),KEYFORMAT=\"\(own.format)\",KEYFORMATVERSIONS=\"\(own.versions)\" has the URI of the EXT-X-SESSION-KEY on line \(session.key.line) of the multivariant playlist, which says METHOD=\(announced.method),KEYFORMAT=\"\(announced.format)\",KEYFORMATVERSIONS=\"\(announced.versions)\": make the session key say what the key is",
                        at: playlist.location(line: key.line)))
            }
        }
        return findings
    }
}

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
        guard let master = stream.multivariant, let steering = master.contentSteering, let pathway = steering.pathwayID
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
        let pathways = Set(master.variants.map { $0.pathwayID ?? "." })
        guard !pathways.contains(pathway) else { return [] }
        return [
            Finding(
                "EXT-X-CONTENT-STEERING PATHWAY-ID=\"\(pathway)\" names no pathway of this playlist (its variants are on \(pathways.sorted().map { "\"\($0)\"" }.joined(separator: ", "))): name one of them",
                at: location)
        ]
    }
}

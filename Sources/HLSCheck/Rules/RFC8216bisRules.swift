import HLSPlaylist

// The MUSTs of draft-pantos-hls-rfc8216bis that the parser accepts syntactically but that
// relate values to each other: low-latency delivery attributes, date ranges, session metadata.
// Each message quotes the numbers it compares.

/// The lines of the tags named `name`, in file order (models keep attribute lists, not lines).
private func lines(of name: String, in playlist: Playlist) -> [Int] {
    playlist.tagLines(named: name)
}

private func number(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
}

/// EXT-X-SERVER-CONTROL, EXT-X-PART and EXT-X-PRELOAD-HINT values that break rfc8216bis.
package struct LowLatencyInvalidRule: Rule {
    static func media(_ body: String, target: Int = 4) -> [String: String] {
        ["master.m3u8": "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:\(target)\n\(body)#EXTINF:4,\ns0.ts\n"]
    }

    package static let description = RuleDescription(
        id: "low-latency-invalid", name: "Low-latency attributes out of range", defaultSeverity: .error,
        summary:
            "EXT-X-SERVER-CONTROL hold-back or skip boundary too small, PART-HOLD-BACK missing or too small, a partial segment longer than PART-TARGET, or a preload hint that cannot be.",
        rationale:
            "rfc8216bis §4.4.3.8: the Skip Boundary (CAN-SKIP-UNTIL) MUST be at least six times the Target Duration; HOLD-BACK MUST be at least three times the Target Duration; PART-HOLD-BACK is REQUIRED with EXT-X-PART-INF and MUST be at least twice the Part Target Duration; CAN-SKIP-DATERANGES requires CAN-SKIP-UNTIL. §4.4.4.9: a Partial Segment's duration MUST be at most the Part Target Duration. §4.4.5.3: TYPE is PART or MAP, and a Playlist with EXT-X-ENDLIST MUST NOT contain EXT-X-PRELOAD-HINT.",
        specItems: [
            .bis(
                "4.4.3.8", .must,
                "CAN-SKIP-UNTIL is at least six target durations, HOLD-BACK at least three, and PART-HOLD-BACK, required with EXT-X-PART-INF, at least twice the part target."
            ),
            .bis("4.4.4.9", .must, "A partial segment lasts at most the part target duration."),
            .bis(
                "4.4.5.3", .must,
                "EXT-X-PRELOAD-HINT has TYPE PART or MAP, and a playlist with EXT-X-ENDLIST carries none."),
        ],
        triggering: [
            RuleExample(
                "CAN-SKIP-UNTIL below six target durations", files: media("#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12\n")
            ).expecting(line: 4, "CAN-SKIP-UNTIL=12 is less than six times"),
            RuleExample("HOLD-BACK below three target durations", files: media("#EXT-X-SERVER-CONTROL:HOLD-BACK=8\n")),
            RuleExample(
                "EXT-X-PART-INF without PART-HOLD-BACK",
                files: media("#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES\n")),
            RuleExample(
                "PART-HOLD-BACK below two part targets",
                files: media("#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.5\n")),
            RuleExample(
                "a part longer than PART-TARGET",
                files: media(
                    "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1.5,URI=\"p0.ts\"\n"
                )),
            RuleExample(
                "a preload hint in an ended playlist",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\ns0.ts\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p1.ts\"\n#EXT-X-ENDLIST\n"
                ]),
        ],
        nonTriggering: [
            RuleExample(
                "a well-formed low-latency playlist",
                files: media(
                    "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,HOLD-BACK=12,PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p0.ts\"\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p1.ts\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media else { return [] }
            var findings: [Finding] = []
            func report(_ message: String, _ line: Int?) {
                findings.append(Finding(message, at: playlist.location(line: line ?? 1)))
            }
            let controlLine = lines(of: "#EXT-X-SERVER-CONTROL", in: playlist).first
            let partInfLine = lines(of: "#EXT-X-PART-INF", in: playlist).first
            if let target = media.targetDuration.map(Double.init), let control = media.serverControl {
                if let skip = control.decimalFloatingPoint("CAN-SKIP-UNTIL"), skip < 6 * target {
                    report(
                        "CAN-SKIP-UNTIL=\(number(skip)) is less than six times EXT-X-TARGETDURATION (\(number(6 * target)) s)",
                        controlLine)
                }
                if let holdBack = control.decimalFloatingPoint("HOLD-BACK"), holdBack < 3 * target {
                    report(
                        "HOLD-BACK=\(number(holdBack)) is less than three times EXT-X-TARGETDURATION (\(number(3 * target)) s)",
                        controlLine)
                }
                if control.contains("CAN-SKIP-DATERANGES"), !control.contains("CAN-SKIP-UNTIL") {
                    report("CAN-SKIP-DATERANGES needs CAN-SKIP-UNTIL in the same EXT-X-SERVER-CONTROL tag", controlLine)
                }
            }
            if let partTarget = media.partTarget {
                if let partHoldBack = media.serverControl?.decimalFloatingPoint("PART-HOLD-BACK") {
                    if partHoldBack < 2 * partTarget {
                        report(
                            "PART-HOLD-BACK=\(number(partHoldBack)) is less than twice PART-TARGET (\(number(2 * partTarget)) s)",
                            controlLine)
                    }
                } else {
                    report(
                        "EXT-X-PART-INF is present but EXT-X-SERVER-CONTROL has no PART-HOLD-BACK (required; at least \(number(2 * partTarget)) s, three part targets recommended)",
                        controlLine ?? partInfLine)
                }
                let parts = media.segments.flatMap(\.parts) + media.trailingParts
                if let long = parts.first(where: { $0.duration > partTarget }) {
                    let count = parts.filter { $0.duration > partTarget }.count
                    report(
                        "partial segment \(long.uri) lasts \(number(long.duration)) s, longer than PART-TARGET \(number(partTarget)) s\(count > 1 ? " (\(count) such parts)" : "")",
                        long.line)
                }
            }
            let hintLines = lines(of: "#EXT-X-PRELOAD-HINT", in: playlist)
            for (index, hint) in media.preloadHints.enumerated() {
                let line = index < hintLines.count ? hintLines[index] : nil
                if let type = hint.string("TYPE"), type != "PART", type != "MAP" {
                    report("EXT-X-PRELOAD-HINT TYPE=\(type): the type is PART or MAP", line)
                }
                if media.endList {
                    report(
                        "EXT-X-PRELOAD-HINT in a playlist that has EXT-X-ENDLIST: nothing more will be published; remove the hint",
                        line)
                }
            }
            return findings
        }
    }
}

/// EXT-X-DATERANGE tags whose values contradict each other.
package struct DateRangeInvalidRule: Rule {
    static func media(_ ranges: String, programDateTime: Bool = true) -> [String: String] {
        let pdt = programDateTime ? "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n" : ""
        return [
            "master.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n\(pdt)\(ranges)#EXTINF:6,\ns0.ts\n#EXT-X-ENDLIST\n"
        ]
    }

    package static let description = RuleDescription(
        id: "daterange-invalid", name: "Date range contradicts itself", defaultSeverity: .error,
        summary:
            "An EXT-X-DATERANGE ends before it starts, has an END-DATE that is not START-DATE + DURATION, combines END-ON-NEXT with DURATION or END-DATE, cues PRE and POST, changes an attribute of an earlier tag with its ID, overlaps another range of an END-ON-NEXT class, or appears without EXT-X-PROGRAM-DATE-TIME.",
        rationale:
            "rfc8216bis §4.4.5.1: END-DATE MUST be equal to or later than START-DATE; DURATION and PLANNED-DURATION MUST NOT be negative; with both DURATION and END-DATE, END-DATE MUST equal START-DATE plus DURATION; END-ON-NEXT=YES MUST NOT come with DURATION or END-DATE, and other ranges of its CLASS MUST NOT overlap; CUE MUST NOT include both PRE and POST; tags with the same ID MUST give any attribute they share the same value; a Playlist with EXT-X-DATERANGE MUST contain EXT-X-PROGRAM-DATE-TIME.",
        specItems: [
            .bis(
                "4.4.5.1", rfc: "4.3.2.7", .must,
                "END-DATE is not before START-DATE and equals START-DATE + DURATION when both are given; END-ON-NEXT comes without DURATION or END-DATE; CUE never holds both PRE and POST."
            ),
            .bis(
                "4.4.5.1", rfc: "4.3.2.7", .must,
                "Tags with the same ID give the attributes they share the same values."),
            .bis(
                "4.4.5.1", rfc: "4.3.2.7", .must,
                "A playlist with EXT-X-DATERANGE also carries EXT-X-PROGRAM-DATE-TIME."),
        ],
        triggering: [
            RuleExample(
                "END-DATE before START-DATE",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:10.000Z\",END-DATE=\"2026-01-01T00:00:05.000Z\"\n"
                )
            ).expecting(line: 5, "EXT-X-DATERANGE ID=\"ad\": END-DATE is 5 s before"),
            RuleExample(
                "END-DATE is not START-DATE + DURATION",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",DURATION=30,END-DATE=\"2026-01-01T00:00:20.000Z\"\n"
                )),
            RuleExample(
                "END-ON-NEXT with DURATION",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ch1\",CLASS=\"chapter\",START-DATE=\"2026-01-01T00:00:00.000Z\",END-ON-NEXT=YES,DURATION=5\n"
                )),
            RuleExample(
                "CUE with PRE and POST",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",CUE=\"PRE,POST\"\n")),
            RuleExample(
                "the same ID with another START-DATE",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\"\n#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:01.000Z\",DURATION=5\n"
                )),
            RuleExample(
                "overlapping ranges of an END-ON-NEXT class",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"a\",CLASS=\"c\",START-DATE=\"2026-01-01T00:00:00.000Z\",END-ON-NEXT=YES\n#EXT-X-DATERANGE:ID=\"b\",CLASS=\"c\",START-DATE=\"2026-01-01T00:00:02.000Z\",DURATION=10\n#EXT-X-DATERANGE:ID=\"d\",CLASS=\"c\",START-DATE=\"2026-01-01T00:00:05.000Z\",DURATION=1\n"
                )),
            RuleExample(
                "no EXT-X-PROGRAM-DATE-TIME",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",DURATION=5\n",
                    programDateTime: false)),
        ],
        nonTriggering: [
            RuleExample(
                "consistent ranges, one completed by a later tag",
                files: media(
                    "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",PLANNED-DURATION=30\n#EXT-X-DATERANGE:ID=\"ad\",DURATION=30,END-DATE=\"2026-01-01T00:00:30.000+00:00\"\n#EXT-X-DATERANGE:ID=\"ch1\",CLASS=\"chapter\",START-DATE=\"2026-01-01T00:00:00.000Z\",END-ON-NEXT=YES\n#EXT-X-DATERANGE:ID=\"ch2\",CLASS=\"chapter\",START-DATE=\"2026-01-01T01:00:00.000+01:00\",END-ON-NEXT=YES\n"
                )),
            // globocom/m3u8's DELTA_UPDATE_SKIP_DATERANGES_PLAYLIST: the date-time went with the skipped segments.
            RuleExample(
                "a delta update whose EXT-X-PROGRAM-DATE-TIME was skipped",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:10\n#EXT-X-TARGETDURATION:6\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-SKIP:SKIPPED-SEGMENTS=16\n#EXTINF:6,\ns16.ts\n#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:00.000Z\",DURATION=5\n"
                ]),
        ])

    /// A date range consolidated over the tags that share its ID (§4.4.5.1).
    private struct Range {
        var id: String
        var line: Int
        var attributes: [String: Attribute] = [:]
        var start: Double? { attributes["START-DATE"].flatMap { ISO8601Instant.seconds($0.stringValue) } }
        var duration: Double? { attributes["DURATION"].flatMap { Self.seconds($0.value) } }
        var end: Double? {
            if let end = attributes["END-DATE"].flatMap({ ISO8601Instant.seconds($0.stringValue) }) { return end }
            if let start, let duration { return start + duration }
            return nil
        }

        static func seconds(_ value: AttributeValue?) -> Double? {
            switch value {
            case .decimalFloatingPoint(let v)?, .signedDecimalFloatingPoint(let v)?: v
            case .decimalInteger(let v)?: Double(v)
            default: nil
            }
        }
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media, !media.dateRanges.isEmpty else { return [] }
            var findings: [Finding] = []
            func report(_ message: String, _ line: Int) {
                findings.append(Finding(message, at: playlist.location(line: line)))
            }

            // A Playlist Delta Update (EXT-X-SKIP, rfc8216bis §4.4.5.2) leaves out the oldest
            // segments with their tags: its EXT-X-PROGRAM-DATE-TIME may be among them.
            if media.skippedSegments == nil, !media.segments.contains(where: { $0.programDateTime != nil }) {
                report(
                    "EXT-X-DATERANGE needs at least one EXT-X-PROGRAM-DATE-TIME in the playlist to place the range on the timeline",
                    media.dateRanges[0].line)
            }
            var ranges: [Range] = []
            var index: [String: Int] = [:]
            for tag in media.dateRanges {
                let attributes = tag.attributes
                let label = tag.id.map { "EXT-X-DATERANGE ID=\"\($0)\"" } ?? "EXT-X-DATERANGE"
                let cue = attributes.string("CUE")?.split(separator: ",").map { $0.filter { $0 != " " } } ?? []
                if cue.contains("PRE"), cue.contains("POST") {
                    report("\(label): CUE includes both PRE and POST", tag.line)
                }
                if attributes.contains("END-ON-NEXT"),
                    attributes.contains("DURATION") || attributes.contains("END-DATE")
                {
                    report(
                        "\(label): END-ON-NEXT=YES ends the range at the next one of its CLASS; it must not also have DURATION or END-DATE",
                        tag.line)
                }
                for name in ["DURATION", "PLANNED-DURATION"] {
                    if let value = Range.seconds(attributes[name]?.value), value < 0 {
                        report("\(label): \(name)=\(number(value)) is negative", tag.line)
                    }
                }
                guard let id = tag.id else { continue }
                if let position = index[id] {
                    for attribute in attributes.attributes {
                        if let earlier = ranges[position].attributes[attribute.name],
                            earlier.rawValue != attribute.rawValue,
                            !Self.sameInstant(attribute.name, earlier, attribute)
                        {
                            report(
                                "\(label) sets \(attribute.name)=\(attribute.rawValue), but the tag on line \(ranges[position].line) with this ID says \(earlier.rawValue); a later tag may add attributes, not change them",
                                tag.line)
                        } else if ranges[position].attributes[attribute.name] == nil {
                            ranges[position].attributes[attribute.name] = attribute
                        }
                    }
                } else {
                    index[id] = ranges.count
                    var range = Range(id: id, line: tag.line)
                    for attribute in attributes.attributes where range.attributes[attribute.name] == nil {
                        range.attributes[attribute.name] = attribute
                    }
                    ranges.append(range)
                }
            }
            for range in ranges {
                let label = "EXT-X-DATERANGE ID=\"\(range.id)\""
                guard let start = range.start else { continue }
                if let endDate = range.attributes["END-DATE"].flatMap({ ISO8601Instant.seconds($0.stringValue) }) {
                    if endDate < start {
                        report("\(label): END-DATE is \(number(start - endDate)) s before START-DATE", range.line)
                    } else if let duration = range.duration, abs(start + duration - endDate) > 0.001 {
                        report(
                            "\(label): END-DATE is \(number(endDate - start)) s after START-DATE, but DURATION=\(number(duration)); with both, END-DATE must be START-DATE + DURATION",
                            range.line)
                    }
                }
            }
            // Ranges of a CLASS that uses END-ON-NEXT must not overlap: sorted by start, each
            // must begin at or after the furthest end so far.
            let endOnNextClasses = Set(
                ranges.filter { $0.attributes["END-ON-NEXT"] != nil }.compactMap { $0.attributes["CLASS"]?.stringValue }
            )
            for className in endOnNextClasses.sorted() {
                let members = ranges.filter { $0.attributes["CLASS"]?.stringValue == className }
                    .compactMap { range in range.start.map { (range, $0) } }
                    .sorted { $0.1 < $1.1 }
                var furthest: (range: Range, end: Double)?
                for (range, start) in members {
                    if let furthest, start < furthest.end {
                        report(
                            "EXT-X-DATERANGE ID=\"\(range.id)\" starts inside ID=\"\(furthest.range.id)\" (line \(furthest.range.line)); ranges of CLASS \"\(className)\", which uses END-ON-NEXT, must not overlap",
                            range.line)
                    }
                    if let end = range.end, end > (furthest?.end ?? -.infinity) { furthest = (range, end) }
                }
            }
            return findings
        }
    }

    /// Two spellings of one instant ("…Z" and "…+00:00") are the same value.
    private static func sameInstant(_ name: String, _ a: Attribute, _ b: Attribute) -> Bool {
        guard name == "START-DATE" || name == "END-DATE",
            let first = ISO8601Instant.seconds(a.stringValue), let second = ISO8601Instant.seconds(b.stringValue)
        else { return false }
        return abs(first - second) < 0.0005
    }
}

/// Duplicate EXT-X-SESSION-DATA and EXT-X-SESSION-KEY tags.
package struct SessionMetadataInvalidRule: Rule {
    static func master(_ tags: String) -> [String: String] {
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
                files: master(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"One\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Two\",LANGUAGE=\"en\"\n"
                )
            ).expecting(line: 4, "EXT-X-SESSION-DATA DATA-ID=\"com.example.title\""),
            RuleExample(
                "the same session key twice",
                files: master(
                    "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"key.bin\"\n"
                )),
        ],
        nonTriggering: [
            RuleExample(
                "one title per language, two different keys",
                files: master(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"One\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Un\",LANGUAGE=\"fr\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"a.bin\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"b.bin\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        var findings: [Finding] = []
        var dataSeen: [String: Int] = [:]
        for data in master.sessionData {
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
        for key in master.sessionKeys {
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

/// ISO 8601 date-times as HLS writes them (`YYYY-MM-DDThh:mm:ss[.fff][Z|±hh[:]mm]`), to seconds
/// since 1970 UTC; nil for anything else. No time zone means UTC (rfc8216bis §4.4.4.6).
enum ISO8601Instant {
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: Set<UInt8>) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect([0x2D]), let month = digits(2), expect([0x2D]), let day = digits(2),
            expect([0x54, 0x74, 0x20]), let hour = digits(2), expect([0x3A]), let minute = digits(2), expect([0x3A]),
            let second = digits(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x2C {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            if bytes[index] == 0x5A || bytes[index] == 0x7A {
                index += 1
            } else {
                let sign = bytes[index] == 0x2D ? -1 : 1
                guard expect([0x2B, 0x2D]), let hours = digits(2) else { return nil }
                _ = expect([0x3A])
                let minutes = index < bytes.count ? digits(2) ?? 0 : 0
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == bytes.count else { return nil }
        // Days from the civil date (proleptic Gregorian), 1970-01-01 = 0.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}

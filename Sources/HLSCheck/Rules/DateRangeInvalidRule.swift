import HLSPlaylist

// The MUSTs of draft-pantos-hls-rfc8216bis that the parser accepts syntactically but that
// relate values to each other: low-latency delivery attributes, date ranges, session metadata.
// Each message quotes the numbers it compares.

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
                        report("\(label): \(name)=\(compactSeconds(value)) is negative", tag.line)
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
                        report(
                            "\(label): END-DATE is \(compactSeconds(start - endDate)) s before START-DATE", range.line)
                    } else if let duration = range.duration, abs(start + duration - endDate) > 0.001 {
                        report(
                            "\(label): END-DATE is \(compactSeconds(endDate - start)) s after START-DATE, but DURATION=\(compactSeconds(duration)); with both, END-DATE must be START-DATE + DURATION",
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

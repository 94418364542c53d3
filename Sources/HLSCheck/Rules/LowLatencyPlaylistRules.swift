import HLSPlaylist
import StreamSources

// What one version of a low-latency media playlist (EXT-X-PART-INF) must hold about its partial
// segments, their tags and its rendition reports (bis-22 §4.4.3.8, §4.4.4.9, §4.4.5.4). The
// attribute ranges of EXT-X-SERVER-CONTROL are LowLatencyInvalidRule's.

private func partSeconds(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
}

private enum LowLatencyExamples {
    /// A low-latency media playlist: a complete segment of four parts, then `tail` (more
    /// segments, parts or reports), with PART-HOLD-BACK `holdBack`.
    static func media(
        parts: [String] = ["1", "1", "1", "1"], tail: String = "", partTarget: String = "1", holdBack: String = "3"
    ) -> [String: String] {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=\(partTarget)\n"
            + "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=\(holdBack)\n#EXT-X-MEDIA-SEQUENCE:10\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        for (index, part) in parts.enumerated() {
            text += "#EXT-X-PART:DURATION=\(part),URI=\"s10.\(index).mp4\"\(index == 0 ? ",INDEPENDENT=YES" : "")\n"
        }
        return ["master.m3u8": text + "#EXTINF:4,\ns10.mp4\n" + tail]
    }
}

/// Two low-latency renditions of one variant, each reporting on the other.
private enum RenditionReportExamples {
    static func media(segments: Int, report: String) -> String {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1\n"
            + "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3\n#EXT-X-MEDIA-SEQUENCE:10\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        for segment in 10..<(10 + segments) {
            for part in 0..<4 {
                text += "#EXT-X-PART:DURATION=1,URI=\"s\(segment).\(part).mp4\"\(part == 0 ? ",INDEPENDENT=YES" : "")\n"
            }
            text += "#EXTINF:4,\ns\(segment).mp4\n"
        }
        return text + report
    }

    /// `high.m3u8` (segments 10 and 11, four parts each) reports on `low.m3u8` with `report`;
    /// `low.m3u8` holds `lowSegments` segments from 10.
    static func pair(report: String, lowSegments: Int) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:9\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360\nhigh.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=320x180\nlow.m3u8\n",
            "high.m3u8": media(segments: 2, report: report),
            "low.m3u8": media(
                segments: lowSegments, report: "#EXT-X-RENDITION-REPORT:URI=\"high.m3u8\",LAST-MSN=11,LAST-PART=3\n"),
        ]
    }
}

/// Partial segments shorter than 85 % of PART-TARGET where the protocol allows none.
package struct PartTooShortRule: Rule {
    package static let description = RuleDescription(
        id: "part-too-short", name: "Partial segment shorter than 85 % of PART-TARGET", defaultSeverity: .error,
        summary:
            "An EXT-X-PART lasts less than 85 % of the part target duration, and it is neither its segment's last part, nor INDEPENDENT, nor a gap, nor the part before a gap.",
        rationale:
            "bis-22 §4.4.4.9 keeps partial segments close to PART-TARGET, so that a client in low-latency mode, which reloads and fetches once per part target, gets a steady supply of media. Only the part that ends a segment, a part that starts with an independent frame (INDEPENDENT=YES), a gap part and the part before a gap may be shorter.",
        specItems: [
            .bis(
                "4.4.4.9", .must,
                "A partial segment lasts at least 85 % of the part target duration, except an independent part, a gap part, the part preceding a gap, and a segment's last part."
            )
        ],
        triggering: [
            RuleExample(
                "a 0.5 s part in the middle of a segment with PART-TARGET 1",
                files: LowLatencyExamples.media(parts: ["1", "0.5", "1", "1"])
            )
            .expecting(line: 9, "partial segment s10.1.mp4 lasts 0.5 s, less than 85 % of PART-TARGET 1 s")
        ],
        nonTriggering: [
            RuleExample("parts of the full part target", files: LowLatencyExamples.media()),
            RuleExample(
                "a short last part of a segment, a short INDEPENDENT part, a short part before a gap",
                files: LowLatencyExamples.media(
                    parts: ["0.4", "1", "1", "0.6"],
                    tail:
                        "#EXT-X-PART:DURATION=0.3,URI=\"s11.0.mp4\"\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\",GAP=YES\n#EXT-X-PART:DURATION=0.2,URI=\"s11.2.mp4\"\n"
                )),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, let partTarget = media.partTarget, partTarget > 0 else { return nil }
            let minimum = 0.85 * partTarget
            var short: [PartialSegment] = []
            // A complete segment's last part is exempt; of the trailing parts (the segment still
            // being written) the latest may yet turn out to be its last.
            for parts in media.segments.map(\.parts) + [media.trailingParts] {
                for (index, part) in parts.enumerated().dropLast()
                where part.duration < minimum && !part.independent && !part.gap && !parts[index + 1].gap {
                    short.append(part)
                }
            }
            guard let first = short.first else { return nil }
            return Finding(
                "partial segment \(first.uri) lasts \(partSeconds(first.duration)) s, less than 85 % of PART-TARGET \(partSeconds(partTarget)) s (\(partSeconds(minimum)) s)\(short.count > 1 ? " (\(short.count) such parts)" : ""); only a segment's last part, an INDEPENDENT or GAP part and the part before a gap may be shorter: cut parts of the part target duration",
                at: playlist.location(line: first.line))
        }
    }
}

/// EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP or EXT-X-PROGRAM-DATE-TIME after a segment's first part.
package struct PartTagMisplacedRule: Rule {
    /// The tags that apply to a whole parent segment, and so must precede its parts.
    static let segmentTags = ["#EXT-X-DISCONTINUITY", "#EXT-X-KEY", "#EXT-X-MAP", "#EXT-X-PROGRAM-DATE-TIME"]

    package static let description = RuleDescription(
        id: "part-tag-misplaced", name: "Segment tag after the segment's first part", defaultSeverity: .error,
        summary:
            "An EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP or EXT-X-PROGRAM-DATE-TIME stands between the partial segments of one parent segment instead of before its first EXT-X-PART.",
        rationale:
            "bis-22 §4.4.4.9: these tags apply to the whole parent segment, so they come before its first partial segment. A client in low-latency mode plays the parts as they appear; a key, map, date or discontinuity that arrives after the first part is seen too late for it.",
        specItems: [
            .bis(
                "4.4.4.9", .must,
                "EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP and EXT-X-PROGRAM-DATE-TIME of a segment come before its first EXT-X-PART."
            )
        ],
        triggering: [
            RuleExample(
                "a key between the parts of a segment",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-KEY:METHOD=NONE\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\"\n"
                )
            )
            .expecting(line: 15, "EXT-X-KEY comes after an EXT-X-PART of the segment it applies to"),
            RuleExample(
                "a discontinuity after the first part of the segment it starts",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\ns11.mp4\n"
                )),
        ],
        nonTriggering: [
            RuleExample(
                "the tags before the first part of their segment",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-DISCONTINUITY\n#EXT-X-KEY:METHOD=NONE\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04.000Z\n#EXT-X-PART:DURATION=1,URI=\"s11.0.mp4\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=1,URI=\"s11.1.mp4\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media else { return nil }
            let partLines = (media.segments.flatMap(\.parts) + media.trailingParts).map(\.line).sorted()
            guard !partLines.isEmpty else { return nil }
            // A segment ends at its URI line: a part seen since the last one belongs to the
            // segment the tag would apply to.
            let ends = media.segments.map(\.uriLine).sorted()
            func lastBefore(_ line: Int, in sorted: [Int]) -> Int? {
                var low = 0, high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle] < line { low = middle + 1 } else { high = middle }
                }
                return low > 0 ? sorted[low - 1] : nil
            }
            var misplaced: [(line: Int, tag: String)] = []
            for tag in Self.segmentTags {
                for line in playlist.tagLines(named: tag) {
                    guard let part = lastBefore(line, in: partLines), part > (lastBefore(line, in: ends) ?? 0) else {
                        continue
                    }
                    misplaced.append((line, tag))
                }
            }
            guard let first = misplaced.min(by: { $0.line < $1.line }) else { return nil }
            return Finding(
                "\(first.tag.dropFirst()) comes after an EXT-X-PART of the segment it applies to\(misplaced.count > 1 ? " (\(misplaced.count) such tags)" : ""); move it before the segment's first EXT-X-PART",
                at: playlist.location(line: first.line))
        }
    }
}

/// EXT-X-RENDITION-REPORT without a URI, or with one that is not relative.
package struct RenditionReportInvalidRule: Rule {
    package static let description = RuleDescription(
        id: "rendition-report-invalid", name: "Rendition report without a relative URI", defaultSeverity: .error,
        summary:
            "An EXT-X-RENDITION-REPORT has no URI, its URI is absolute (a scheme or a host) rather than relative to the playlist holding it, or it leaves out LAST-MSN or LAST-PART although the reported rendition's playlist, where it was read, is not at this playlist's own value.",
        rationale:
            "bis-22 §4.4.5.4: a rendition report tells a low-latency client where another rendition's live edge is, so that it can switch with one blocking request. The report names the rendition by a URI relative to the media playlist that holds it; an absolute one can point at another host or pathway than the client is using.",
        specItems: [
            .bis("4.4.5.4", .must, "EXT-X-RENDITION-REPORT's URI is relative to the playlist holding it."),
            .bis(
                "4.4.5.4", .must,
                "EXT-X-RENDITION-REPORT has URI, LAST-MSN and, for a rendition with parts, LAST-PART, unless a value equals that of the playlist's own report."
            ),
        ],
        triggering: [
            RuleExample(
                "an absolute report URI",
                files: LowLatencyExamples.media(
                    tail: "#EXT-X-RENDITION-REPORT:URI=\"https://cdn.example/low.m3u8\",LAST-MSN=10,LAST-PART=3\n")
            )
            .expecting(line: 14, column: 25, "URI https://cdn.example/low.m3u8 is absolute"),
            RuleExample(
                "a report without URI",
                files: LowLatencyExamples.media(tail: "#EXT-X-RENDITION-REPORT:LAST-MSN=10,LAST-PART=3\n")),
            RuleExample(
                "LAST-MSN and LAST-PART left out for a rendition that is a segment behind",
                files: RenditionReportExamples.pair(
                    report: "#EXT-X-RENDITION-REPORT:URI=\"low.m3u8\"\n", lowSegments: 1)
            )
            .expecting(
                line: 20, column: 25,
                "leaves out LAST-MSN, which then stands for this playlist's own last media sequence number, 11; but that rendition's playlist ends at 10"
            ),
        ],
        nonTriggering: [
            RuleExample(
                "relative report URIs",
                files: LowLatencyExamples.media(
                    tail:
                        "#EXT-X-RENDITION-REPORT:URI=\"../low/index.m3u8\",LAST-MSN=10,LAST-PART=3\n#EXT-X-RENDITION-REPORT:URI=\"high.m3u8\"\n"
                )),
            RuleExample(
                "values left out for a rendition at the same edge",
                files: RenditionReportExamples.pair(
                    report: "#EXT-X-RENDITION-REPORT:URI=\"low.m3u8\"\n", lowSegments: 2)),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media, !media.renditionReports.isEmpty else { return [] }
            let lines = playlist.tagLines(named: "#EXT-X-RENDITION-REPORT")
            return media.renditionReports.enumerated().compactMap { index, report in
                let location = playlist.location(
                    line: index < lines.count ? lines[index] : 1, column: report["URI"]?.column ?? 0)
                guard let uri = report.string("URI") else {
                    return Finding(
                        "EXT-X-RENDITION-REPORT has no URI: name the rendition it reports on, relative to this playlist",
                        at: location)
                }
                guard Self.isAbsolute(uri) else {
                    return Self.omittedValueFinding(report, uri: uri, in: playlist, media, stream: stream, at: location)
                }
                return Finding(
                    "EXT-X-RENDITION-REPORT URI \(uri) is absolute; write it relative to this playlist (bis-22 §4.4.5.4), as clients resolve it against where they loaded the playlist",
                    at: location)
            }
        }
    }

    /// The live edge a rendition report describes: LAST-MSN is the media sequence number of the
    /// last segment, or of the last partial segment when there are parts; LAST-PART the index
    /// of that part (bis-22 §4.4.5.4).
    static func edge(of media: MediaPlaylist) -> (msn: Int, part: Int?) {
        if let last = media.lastPart { return (last.sequence, last.index) }
        return (media.lastMediaSequence, nil)
    }

    /// bis-22 §4.4.5.4: an omitted LAST-MSN or LAST-PART stands for this playlist's own value;
    /// where the reported rendition's playlist was read, its edge must be that value. Read over
    /// HTTP a moment later, the rendition may have moved on: only a rendition found behind this
    /// playlist, or more than one segment ahead, contradicts the report there.
    static func omittedValueFinding(
        _ report: AttributeList, uri: String, in playlist: Playlist, _ media: MediaPlaylist, stream: StreamAnalysis,
        at location: SourceLocation
    ) -> Finding? {
        let resolved = URIResolver.resolve(uri, against: playlist.uri)
        guard resolved != playlist.uri, let other = stream.loaded.mediaPlaylists[resolved]?.media,
            !other.endList || !media.endList
        else { return nil }
        let remote = URIScheme.isRemote(playlist.uri)
        let own = edge(of: media), theirs = edge(of: other)
        if report["LAST-MSN"] == nil,
            remote ? (theirs.msn < own.msn || theirs.msn > own.msn + 1) : theirs.msn != own.msn
        {
            return Finding(
                "EXT-X-RENDITION-REPORT for \(uri) leaves out LAST-MSN, which then stands for this playlist's own last media sequence number, \(own.msn); but that rendition's playlist ends at \(theirs.msn): state LAST-MSN (bis-22 §4.4.5.4)",
                at: location)
        }
        guard report["LAST-PART"] == nil, let theirPart = theirs.part else { return nil }
        guard let ownPart = own.part else {
            return Finding(
                "EXT-X-RENDITION-REPORT for \(uri) leaves out LAST-PART, but that rendition has partial segments and this playlist has none whose index it could stand for: state LAST-PART (bis-22 §4.4.5.4)",
                at: location)
        }
        let reportedMSN = report.decimalInteger("LAST-MSN").map(Int.init) ?? own.msn
        guard theirs.msn == reportedMSN, remote ? theirPart < ownPart : theirPart != ownPart else { return nil }
        return Finding(
            "EXT-X-RENDITION-REPORT for \(uri) leaves out LAST-PART, which then stands for this playlist's own last part, \(ownPart); but that rendition's last part of segment \(theirs.msn) is \(theirPart): state LAST-PART (bis-22 §4.4.5.4)",
            at: location)
    }

    /// A URI with a scheme (`https:`) or an authority (`//host`): not relative to the playlist.
    static func isAbsolute(_ uri: String) -> Bool {
        if uri.hasPrefix("//") { return true }
        guard let colon = uri.firstIndex(of: ":"), let first = uri.first, first.isLetter else { return false }
        let scheme = uri[..<colon]
        return !scheme.contains("/") && !scheme.contains("?") && !scheme.contains("#")
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }
}

/// PART-HOLD-BACK under three part target durations.
package struct PartHoldBackShortRule: Rule {
    package static let description = RuleDescription(
        id: "part-hold-back-short", name: "PART-HOLD-BACK under three part targets", defaultSeverity: .warning,
        summary: "EXT-X-SERVER-CONTROL's PART-HOLD-BACK is less than three times PART-TARGET.",
        rationale:
            "A client in low-latency mode starts PART-HOLD-BACK from the live edge. bis-22 §4.4.3.8 requires at least two part targets and recommends three; Apple's authoring specification (14.3) requires three, so that one late part does not stall playback. Under two is low-latency-invalid's; this rule is the recommendation, an error in the Apple profiles.",
        specItems: [
            .bis("4.4.3.8", .should, "PART-HOLD-BACK is at least three part target durations."),
            .apple("14.3", .must, "PART-HOLD-BACK is at least three times the part target duration."),
        ],
        triggering: [
            RuleExample("PART-HOLD-BACK of 2.5 part targets", files: LowLatencyExamples.media(holdBack: "2.5"))
                .expecting(line: 5, "PART-HOLD-BACK=2.5 is less than three times PART-TARGET (3 s)")
        ],
        nonTriggering: [
            RuleExample("PART-HOLD-BACK of three part targets", files: LowLatencyExamples.media()),
            RuleExample(
                "PART-HOLD-BACK=1.0 over PART-TARGET=0.33334",
                files: LowLatencyExamples.media(
                    parts: ["0.33334", "0.33334", "0.33334"], partTarget: "0.33334", holdBack: "1.0")),
            RuleExample("no parts", files: Examples.stream(Examples.audioVariant())),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, let partTarget = media.partTarget,
                let holdBack = media.serverControl?.decimalFloatingPoint("PART-HOLD-BACK"),
                // Under twice is low-latency-invalid's error already.
                holdBack >= 2 * partTarget,
                // Within a millisecond is three part targets as written: PART-TARGET=0.33334
                // with PART-HOLD-BACK=1.0, Apple's own example, is not 20 µs short.
                holdBack < 3 * partTarget - 0.001
            else { return nil }
            return Finding(
                "PART-HOLD-BACK=\(partSeconds(holdBack)) is less than three times PART-TARGET (\(partSeconds(3 * partTarget)) s); set it to at least \(partSeconds(3 * partTarget)) s",
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-SERVER-CONTROL").first ?? 1))
        }
    }
}

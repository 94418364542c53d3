import HLSPlaylist
import StreamSources

// What one version of a low-latency media playlist (EXT-X-PART-INF) must hold about its partial
// segments, their tags and its rendition reports (bis-22 §4.4.3.8, §4.4.4.9, §4.4.5.4). The
// attribute ranges of EXT-X-SERVER-CONTROL are LowLatencyInvalidRule's.

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

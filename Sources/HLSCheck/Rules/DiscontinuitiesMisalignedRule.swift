import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// Discontinuities at different places, or numbered differently, in the media playlists of a
/// finished stream.
package struct DiscontinuitiesMisalignedRule: Rule {
    static func files(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(video)#EXT-X-ENDLIST\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(audio)#EXT-X-ENDLIST\n",
        ]
    }

    /// A live stream: the two media playlists without EXT-X-ENDLIST, target duration 6.
    static func liveFiles(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n\(video)",
            "audio.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n\(audio)",
        ]
    }

    /// EXT-X-PROGRAM-DATE-TIME `seconds` after midnight on 1 January 2026.
    static func dated(_ seconds: Int) -> String {
        "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:\(seconds < 10 ? "0" : "")\(seconds).000Z\n"
    }

    static let withBreakAt12 = "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n"

    package static let description = RuleDescription(
        id: "discontinuities-misaligned", name: "Discontinuities differ between media playlists",
        defaultSeverity: .error,
        summary:
            "The media playlists of a stream have EXT-X-DISCONTINUITY at different times, a different number of them, or number the same break differently. Finished streams are compared by EXTINF position; live windows by the discontinuity sequence number of each break and its time: its EXT-X-PROGRAM-DATE-TIME, else the media timestamps of the segments around it, else its EXTINF distance from a break both windows hold.",
        rationale:
            "bis-22 §6.2.4: matching content in every variant and rendition has matching discontinuity sequence numbers; Apple's authoring specification (8.15) asks for discontinuities at the same times in all of them. A player switching variants across a break it does not expect resets its timeline in the wrong place. Live playlists loaded at one moment hold different windows and may number their segments differently (bis-22 §6.3.2): a break is named by its discontinuity sequence number (EXT-X-DISCONTINUITY-SEQUENCE counts those the server dropped, §6.2.2) and placed by date or by media timestamp (§6.2.4: matching content has matching timestamps). A break is the same one within the smaller target duration, as segments of different playlists end at different instants.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "Matching content in every variant stream and rendition has matching Discontinuity Sequence Numbers."),
            .apple("8.15", .must, "All variants and renditions have discontinuities at the same points in time."),
        ],
        triggering: [
            RuleExample(
                "a break in the video playlist only",
                files: files(
                    video: withBreakAt12, audio: "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n")
            )
            .expecting(line: 1, "has 0 EXT-X-DISCONTINUITY tags, video.m3u8 has 1 (at 12 s)"),
            RuleExample(
                "the break 6 s later in the audio playlist",
                files: files(
                    video: withBreakAt12,
                    audio:
                        "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n"
                )),
            RuleExample(
                "live, dated: the break 6 s later in the audio playlist",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: dated(0) + "#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n")
            ).expecting(
                line: 12, "discontinuity 1 comes 6 s later here than in video.m3u8, by EXT-X-PROGRAM-DATE-TIME"),
            RuleExample(
                "live, dated: the same break numbered 2 in the audio playlist's later window",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: "#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n" + dated(6)
                        + "#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n")
            ).expecting(line: 10, "this discontinuity is number 2 here"),
            RuleExample(
                "live, undated: 6 s between the two breaks in the audio playlist, 12 s in the video",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n")
            ).expecting(
                line: 10,
                "discontinuity 2 comes 6 s earlier here than in video.m3u8, counted by EXTINF from discontinuity 1"
            ),
            RuleExample(
                "live, undated: the audio playlist plays through the video's second break",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXTINF:6,\nseg3.ts\n")
            ).expecting(line: 11, "video.m3u8 breaks during this segment (discontinuity 2"),
        ],
        nonTriggering: [
            RuleExample(
                "the break after 12 s in both",
                files: files(
                    video: withBreakAt12,
                    audio:
                        "#EXTINF:4,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n#EXTINF:4,\nseg2.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n"
                )),
            RuleExample(
                "live, dated: the audio window starts 6 s later, its break at the video's date",
                files: liveFiles(
                    video: dated(0) + withBreakAt12,
                    audio: "#EXT-X-MEDIA-SEQUENCE:7\n" + dated(6)
                        + "#EXTINF:6,\nseg1.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg2.ts\n#EXTINF:6,\nseg3.ts\n")),
            RuleExample(
                "live, dated: the audio window has dropped the break and counts it in EXT-X-DISCONTINUITY-SEQUENCE",
                files: liveFiles(
                    video: dated(0) + withBreakAt12 + "#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXT-X-MEDIA-SEQUENCE:2\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n" + dated(12)
                        + "#EXTINF:6,\nseg2.ts\n#EXTINF:6,\nseg3.ts\n")),
            RuleExample(
                "live, undated: windows a segment apart, 12 s between the same two breaks",
                files: liveFiles(
                    video: "#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n",
                    audio: "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n"
                        + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg3.ts\n#EXTINF:6,\nseg4.ts\n")),
        ])

    /// When each discontinuity of `media` happens, in seconds from the playlist's start.
    static func breaks(_ media: MediaPlaylist) -> [Double] {
        var time = 0.0, result: [Double] = []
        for segment in media.segments {
            if segment.discontinuity { result.append(time) }
            time += segment.duration
        }
        return result
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // Live playlists hold different windows of the presentation: their positions do not
        // compare without matching their segments in time.
        guard stream.isEnded else { return liveFindings(stream) }
        let playlists = stream.siblingMediaPlaylists.filter { !$0.media.segments.isEmpty }
        guard
            let reference = playlists.first(where: { $0.uri == stream.variants.first?.playlistURI }) ?? playlists.first
        else { return [] }
        let expected = Self.breaks(reference.media)
        let referenceName = stream.shortName(ofPlaylist: reference.uri)
        var findings: [Finding] = []
        for (uri, playlist, media) in playlists where uri != reference.uri {
            let own = Self.breaks(media)
            // Segments of different playlists end at different instants (audio frames are not
            // video frames): a break is the same one within the smaller target duration.
            let tolerance = Double(min(media.targetDuration ?? 1, reference.media.targetDuration ?? 1))
            let location = playlist.location(line: media.segments.first { $0.discontinuity }?.extinfLine ?? 1)
            if media.discontinuitySequence != reference.media.discontinuitySequence {
                findings.append(
                    Finding(
                        "EXT-X-DISCONTINUITY-SEQUENCE is \(media.discontinuitySequence) here but \(reference.media.discontinuitySequence) in \(referenceName): the same content has the same discontinuity sequence number in every playlist",
                        at: playlist.location(
                            line: playlist.tagLines(named: "#EXT-X-DISCONTINUITY-SEQUENCE").first ?? 1)))
            } else if own.count != expected.count {
                findings.append(
                    Finding(
                        "this playlist has \(own.count) EXT-X-DISCONTINUITY tag\(own.count == 1 ? "" : "s"), \(referenceName) has \(expected.count)\(expected.isEmpty ? "" : " (at \(expected.map { compactSeconds($0) + " s" }.joined(separator: ", ")))"): every variant and rendition breaks at the same points of the content",
                        at: location))
            } else if let index = Array(zip(own, expected)).firstIndex(where: { abs($0 - $1) >= tolerance }) {
                findings.append(
                    Finding(
                        "discontinuity \(index + 1) comes \(compactSeconds(own[index])) s into this playlist but \(compactSeconds(expected[index])) s into \(referenceName): every variant and rendition breaks at the same points of the content",
                        at: playlist.location(line: media.segments.filter(\.discontinuity)[index].extinfLine ?? 1)))
            }
        }
        return findings
    }
}

// Live windows start at different points of the presentation, and their media sequence numbers
// need not match (bis-22 §6.3.2). What names the same break in two windows is its discontinuity
// sequence number: EXT-X-DISCONTINUITY-SEQUENCE counts the breaks the server has dropped from
// the window (§6.2.2), each tag left in it adds one (§4.4.3.3). Where each break falls is then
// compared in time: by EXT-X-PROGRAM-DATE-TIME when both playlists are dated, else by the media
// timestamps of the measured segments (§6.2.4: matching content has matching timestamps), else
// by EXTINF from a break both windows hold.
extension DiscontinuitiesMisalignedRule {
    /// A live window as its discontinuities divide it.
    struct LiveWindow {
        /// One EXT-X-DISCONTINUITY: the discontinuity sequence number of the segment after it,
        /// that segment's line, its start in seconds from the window's first segment (by
        /// EXTINF) and, in a dated playlist, its date.
        struct Break {
            var number: Int
            var line: Int
            var offset: Double
            var date: Double?
        }

        /// Where the measured segments of one discontinuity sequence lie on the media timeline,
        /// and whether the window holds the break that starts it and the one that ends it.
        struct Span {
            var start: Double
            var end: Double
            var firstLine: Int
            var lastLine: Int
            var startsAtBreak: Bool
            var endsAtBreak: Bool
        }

        var breaks: [Break] = []
        /// The dates of the window's start and end; nil when the playlist is undated.
        var dates: (start: Double, end: Double)?
        /// The dated segments: line, start and end date.
        var segmentDates: [(line: Int, start: Double, end: Double)] = []
        /// The measured media timestamps of each discontinuity sequence, by its number.
        var spans: [Int: Span] = [:]

        /// The window with its times counted from `offset` (seconds from its first segment)
        /// instead of its dates.
        func rebased(at offset: Double) -> LiveWindow {
            var window = self
            var time = -offset
            window.segmentDates = durations.enumerated().map { index, duration in
                defer { time += duration }
                return (lines[index], time, time + duration)
            }
            window.dates = window.segmentDates.first.flatMap { first in
                window.segmentDates.last.map { (first.start, $0.end) }
            }
            window.breaks = breaks.map {
                Break(number: $0.number, line: $0.line, offset: $0.offset, date: $0.offset - offset)
            }
            return window
        }

        /// EXTINF duration and line of each segment.
        var durations: [Double] = []
        var lines: [Int] = []

        /// The window of `media`, with the timestamps `measurement` read from its segments.
        init(_ media: MediaPlaylist, measurement: PlaylistMeasurement?) {
            var offsets: [Double] = [], time = 0.0
            // A date names its own segment and, through EXTINF, the segments before it.
            var anchor: Double?
            for segment in media.segments {
                offsets.append(time)
                if anchor == nil, let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) {
                    anchor = date - time
                }
                time += segment.duration
            }
            // Clients count every EXT-X-DISCONTINUITY in the window, the first segment's too:
            // the server increments EXT-X-DISCONTINUITY-SEQUENCE only when it drops the tag.
            var number = media.discontinuitySequence
            var numbers: [Int: Int] = [:], indices: [Int: Int] = [:]
            for (index, segment) in media.segments.enumerated() {
                if let date = segment.programDateTime.flatMap(ISO8601Instant.seconds) { anchor = date - offsets[index] }
                let date = anchor.map { $0 + offsets[index] }
                let line = segment.extinfLine ?? 1
                if segment.discontinuity {
                    number += 1
                    breaks.append(Break(number: number, line: line, offset: offsets[index], date: date))
                }
                numbers[segment.mediaSequence] = number
                indices[segment.mediaSequence] = index
                durations.append(segment.duration)
                lines.append(line)
                if let date { segmentDates.append((line, date, date + segment.duration)) }
            }
            if let first = segmentDates.first, let last = segmentDates.last, segmentDates.count == media.segments.count
            {
                dates = (first.start, last.end)
            }
            for record in measurement.map({ Array($0.inspectedRecords) }) ?? [] {
                guard let number = numbers[record.mediaSequence], let index = indices[record.mediaSequence],
                    let start = record.timingStart ?? record.firstPTS
                else { continue }
                let end = start + (record.timingDuration ?? record.measuredDuration ?? record.extinf)
                let endsAtBreak = index + 1 < media.segments.count && media.segments[index + 1].discontinuity
                if var span = spans[number] {
                    if start < span.start { (span.start, span.firstLine) = (start, record.line) }
                    if end > span.end { (span.end, span.lastLine, span.endsAtBreak) = (end, record.line, endsAtBreak) }
                    spans[number] = span
                } else {
                    spans[number] = Span(
                        start: start, end: end, firstLine: record.line, lastLine: record.line,
                        startsAtBreak: media.segments[index].discontinuity, endsAtBreak: endsAtBreak)
                }
            }
        }
    }

    func liveFindings(_ stream: StreamAnalysis) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists.filter { !$0.media.segments.isEmpty }
        guard
            let reference = playlists.first(where: { $0.uri == stream.variants.first?.playlistURI }) ?? playlists.first
        else { return [] }
        let theirs = LiveWindow(reference.media, measurement: stream.measurements[reference.uri])
        let name = stream.shortName(ofPlaylist: reference.uri)
        return playlists.compactMap { uri, playlist, media -> Finding? in
            guard uri != reference.uri else { return nil }
            let mine = LiveWindow(media, measurement: stream.measurements[uri])
            // As in a finished stream, a break is the same one within the smaller target duration.
            let tolerance = Double(min(media.targetDuration ?? 1, reference.media.targetDuration ?? 1))
            let problem =
                Self.byDate(mine, theirs, tolerance, name) ?? Self.byTimestamps(mine, theirs, tolerance, name)
                ?? Self.byAnchor(mine, theirs, tolerance, name)
            return problem.map {
                Finding(
                    $0.message + ": every variant and rendition breaks at the same points of the content",
                    at: playlist.location(line: $0.line))
            }
        }
    }

    /// Both windows dated: the same break at the same date, and each break of one in the other
    /// wherever the other's window holds that date.
    static func byDate(
        _ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String,
        basis: String = "by EXT-X-PROGRAM-DATE-TIME"
    ) -> (message: String, line: Int)? {
        guard let myDates = mine.dates, let theirDates = theirs.dates else { return nil }
        func holds(_ dates: (start: Double, end: Double), _ date: Double) -> Bool {
            date >= dates.start + tolerance && date <= dates.end - tolerance
        }
        // Breaks by number and by date, so that the cost stays linear in the number of breaks
        // (some ad-inserted playlists break at every segment).
        let width = max(tolerance, 1)
        func index(_ breaks: [LiveWindow.Break]) -> (
            byNumber: [Int: LiveWindow.Break], byTime: [Int: [LiveWindow.Break]]
        ) {
            var byNumber: [Int: LiveWindow.Break] = [:], byTime: [Int: [LiveWindow.Break]] = [:]
            for item in breaks {
                if byNumber[item.number] == nil { byNumber[item.number] = item }
                if let date = item.date { byTime[Int((date / width).rounded(.down)), default: []].append(item) }
            }
            return (byNumber, byTime)
        }
        func near(_ date: Double, in byTime: [Int: [LiveWindow.Break]]) -> LiveWindow.Break? {
            let bucket = Int((date / width).rounded(.down))
            return (bucket - 1...bucket + 1).lazy.compactMap { byTime[$0] }.joined().first {
                $0.date.map { abs($0 - date) < tolerance } ?? false
            }
        }
        let ownIndex = index(mine.breaks), theirIndex = index(theirs.breaks)
        for own in mine.breaks {
            guard let date = own.date else { continue }
            if let same = theirIndex.byNumber[own.number], let other = same.date {
                guard abs(date - other) >= tolerance else { continue }
                return (
                    "discontinuity \(own.number) comes \(compactSeconds(abs(date - other))) s \(date > other ? "later" : "earlier") here than in \(name), \(basis)",
                    own.line
                )
            }
            if let near = near(date, in: theirIndex.byTime) {
                return (
                    "this discontinuity is number \(own.number) here (EXT-X-DISCONTINUITY-SEQUENCE plus the EXT-X-DISCONTINUITY tags up to it) but \(near.number) in \(name), at the same time (\(basis)): the same break has the same discontinuity sequence number in every playlist",
                    own.line
                )
            }
            if holds(theirDates, date) {
                return (
                    "\(name) plays through the time of this discontinuity (discontinuity \(own.number), \(basis)) without one",
                    own.line
                )
            }
        }
        for other in theirs.breaks {
            guard let date = other.date, holds(myDates, date), ownIndex.byNumber[other.number] == nil,
                near(date, in: ownIndex.byTime) == nil,
                let segment = mine.segmentDates.first(where: { $0.start <= date && date < $0.end })
            else { continue }
            return (
                "\(name) breaks during this segment (discontinuity \(other.number), \(basis)) but this playlist plays through without EXT-X-DISCONTINUITY",
                segment.line
            )
        }
        return nil
    }

    /// Both windows measured: the segments of one discontinuity sequence span the same media
    /// timestamps in both, as far as each window holds them.
    static func byTimestamps(_ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String) -> (
        message: String, line: Int
    )? {
        for number in Set(mine.spans.keys).intersection(theirs.spans.keys).sorted() {
            guard let own = mine.spans[number], let other = theirs.spans[number] else { continue }
            if own.startsAtBreak, other.startsAtBreak, abs(own.start - other.start) >= tolerance {
                return (
                    "discontinuity \(number) comes at media timestamp \(compactSeconds(own.start)) s here but \(compactSeconds(other.start)) s in \(name)",
                    own.firstLine
                )
            }
            if other.startsAtBreak, !own.startsAtBreak, own.start <= other.start - tolerance {
                return (
                    "the segments after discontinuity \(number) start at media timestamp \(compactSeconds(own.start)) s here, but \(name) breaks into them only at \(compactSeconds(other.start)) s",
                    own.firstLine
                )
            }
            if own.startsAtBreak, !other.startsAtBreak, other.start <= own.start - tolerance {
                return (
                    "discontinuity \(number) comes at media timestamp \(compactSeconds(own.start)) s here, but \(name) holds the content after it from \(compactSeconds(other.start)) s",
                    own.firstLine
                )
            }
            if other.endsAtBreak, !own.endsAtBreak, own.end >= other.end + tolerance {
                return (
                    "the segments before discontinuity \(number + 1) run to media timestamp \(compactSeconds(own.end)) s here, past where \(name) breaks (\(compactSeconds(other.end)) s)",
                    own.lastLine
                )
            }
            if own.endsAtBreak, !other.endsAtBreak, other.end >= own.end + tolerance,
                let next = mine.breaks.first(where: { $0.number == number + 1 })
            {
                return (
                    "discontinuity \(number + 1) comes at media timestamp \(compactSeconds(own.end)) s here, but \(name) plays on without a break to \(compactSeconds(other.end)) s",
                    next.line
                )
            }
        }
        return nil
    }

    /// Neither dated nor measured: a break both windows hold places each on the other's
    /// timeline, by EXTINF from it, and the other breaks are compared as dated ones are.
    static func byAnchor(_ mine: LiveWindow, _ theirs: LiveWindow, _ tolerance: Double, _ name: String) -> (
        message: String, line: Int
    )? {
        let numbers = Set(theirs.breaks.map(\.number))
        guard let anchor = mine.breaks.first(where: { numbers.contains($0.number) }),
            let other = theirs.breaks.first(where: { $0.number == anchor.number })
        else { return nil }
        return byDate(
            mine.rebased(at: anchor.offset), theirs.rebased(at: other.offset), tolerance, name,
            basis: "counted by EXTINF from discontinuity \(anchor.number), which both hold")
    }

}

import HLSPlaylist

/// One HTTP answer, whatever its status: what the probe of delivery directives judges.
package struct DirectiveAnswer: Sendable, Hashable {
    /// The final HTTP status; nil when no answer came (then `failure` says why).
    package var status: Int?
    /// The body of a 2xx answer.
    package var bytes: [UInt8]
    package var failure: String?

    package init(status: Int?, bytes: [UInt8] = [], failure: String? = nil) {
        self.status = status
        self.bytes = bytes
        self.failure = failure
    }
}

/// A playlist source that can send a request carrying delivery directives and report its status
/// (HLSRemote's): a 400 is an answer to judge there, not a failure to read.
package protocol DirectiveSource: Sendable {
    /// GETs `uri` as it is, query included, and returns the answer without recording it in the
    /// delivery log (the probe's requests are not the stream's).
    func answer(_ uri: String) async -> DirectiveAnswer
}

/// Sends the delivery directives of bis-22 §6.2.5 to a playlist whose EXT-X-SERVER-CONTROL
/// says the server supports them, and judges each answer against the section: blocking
/// reloads (`_HLS_msn`, `_HLS_part`, §6.2.5.2) and delta updates (`_HLS_skip`, §6.2.5.1).
/// A few requests per playlist; blocking ones wait at most as long as the server holds them
/// (bounded by the request timeout).
struct DeliveryDirectiveProbe: Sendable {
    var source: any DirectiveSource
    var limits: LoaderLimits
    /// Whether the parts and the preload hint of a low-latency playlist are requested too
    /// (not with --playlist-only, which reads no media).
    var readsMedia = true
    /// Distinct part resources requested per playlist at most.
    static let maximumPartRequests = 32

    /// The findings for the playlist at `uri`, first read as `first`.
    /// `watchedSeconds`: how long ago `first` was read.
    func probe(_ uri: String, first: MediaPlaylist, watchedSeconds: Double) async -> [LiveFinding] {
        var findings: [LiveFinding] = []
        if readsMedia, first.partTarget != nil { findings += await probeParts(uri) }
        if readsMedia, !first.endList {
            findings += await probeRemoved(uri, first: first, watchedSeconds: watchedSeconds)
        }
        guard let control = first.serverControl else { return findings }
        let blocking = control.string("CAN-BLOCK-RELOAD") == "YES"
        let skipUntil = control.decimalFloatingPoint("CAN-SKIP-UNTIL")
        let blockRule = BlockingReloadInvalidRule.description.id, deltaRule = DeltaUpdateInvalidRule.description.id
        func add(_ rule: String, _ message: String) {
            findings.append(LiveFinding(rule: rule, message: message, location: SourceLocation(uri: uri, line: 0)))
        }

        if first.endList {
            // §6.2.5.2, §6.2.5.1: directives to a playlist that has ended are ignored.
            let last = first.mediaSequence + first.segments.count - 1
            if blocking {
                let asked = Self.url(uri, ["_HLS_msn=\(last + 1)"])
                let answer = await source.answer(asked)
                if !Self.isSuccess(answer) {
                    add(
                        blockRule,
                        "\(asked) was answered \(Self.describe(answer)); the playlist has EXT-X-ENDLIST, so _HLS_msn must be ignored and the playlist served (bis-22 §6.2.5.2)"
                    )
                }
            }
            if skipUntil != nil, let delta = await playlist(Self.url(uri, ["_HLS_skip=YES"])),
                delta.media.skippedSegments != nil
            {
                add(
                    deltaRule,
                    "\(delta.uri) was answered with a delta update (EXT-X-SKIP) although the playlist has EXT-X-ENDLIST; _HLS_skip must be ignored then (bis-22 §6.2.5.1)"
                )
            }
            return findings
        }

        if blocking {
            findings += await probeBlocking(uri, first: first, rule: blockRule)
        }
        if let skipUntil {
            findings += await probeDelta(
                uri, first: first, skipUntil: skipUntil, watchedSeconds: watchedSeconds, rule: deltaRule)
        } else if let delta = await playlist(Self.url(uri, ["_HLS_skip=YES"])), delta.media.skippedSegments != nil {
            add(
                deltaRule,
                "\(delta.uri) was answered with a delta update (EXT-X-SKIP) although EXT-X-SERVER-CONTROL has no CAN-SKIP-UNTIL; _HLS_skip must be ignored then (bis-22 §6.2.5.1)"
            )
        }
        return findings
    }

    // MARK: - Parts and preload hints (§4.4.4.9, §6.2.1, §6.2.6)

    /// Requests every part the playlist lists now without GAP=YES, and the resource its preload
    /// hint names: each must be there for a client that asks.
    private func probeParts(_ uri: String) async -> [LiveFinding] {
        guard let current = await playlist(uri) else { return [] }
        let rule = PartUnavailableRule.description.id
        var findings: [LiveFinding] = []
        var asked: Set<String> = []
        for part in current.media.segments.flatMap(\.parts) + current.media.trailingParts where !part.gap {
            let resolved = URIResolver.resolve(part.uri, against: uri)
            guard asked.count < Self.maximumPartRequests, asked.insert(resolved).inserted else { continue }
            let answer = await source.answer(resolved)
            guard !Self.isSuccess(answer) else { continue }
            findings.append(
                LiveFinding(
                    rule: rule,
                    message:
                        "partial segment \(part.uri) is listed without GAP=YES but was answered \(Self.describe(answer)); a part must be there as soon as the playlist lists it, or be marked GAP=YES (bis-22 §4.4.4.9, §6.2.1)",
                    location: SourceLocation(uri: uri, line: part.line)))
        }
        let hintLines = current.playlist.tagLines(named: "#EXT-X-PRELOAD-HINT")
        for (index, hint) in current.media.preloadHints.enumerated() {
            guard let hinted = hint.string("URI") else { continue }
            let resolved = URIResolver.resolve(hinted, against: uri)
            guard asked.insert(resolved).inserted else { continue }
            let answer = await source.answer(resolved)
            guard !Self.isSuccess(answer) else { continue }
            findings.append(
                LiveFinding(
                    rule: rule,
                    message:
                        "preload hint \(hinted) was answered \(Self.describe(answer)); a hinted resource can be requested as soon as the hint is in the playlist, the server holding the request until it is ready (bis-22 §6.2.6)",
                    location: SourceLocation(uri: uri, line: index < hintLines.count ? hintLines[index] : 0)))
        }
        return findings
    }

    /// bis-22 §6.2.2: a part that left the playlist stays downloadable for three target
    /// durations, a segment for its duration plus the playlist's. What left during a watch
    /// shorter than that is requested once it is over.
    private func probeRemoved(_ uri: String, first: MediaPlaylist, watchedSeconds: Double) async -> [LiveFinding] {
        guard let current = await playlist(uri)?.media else { return [] }
        let rule = RemovedMediaUnavailableRule.description.id
        let target = Double(max(1, first.targetDuration ?? 1))
        var findings: [LiveFinding] = []
        var asked = 0
        let removedSegments = first.segments.filter { $0.mediaSequence < current.mediaSequence && !$0.gap }
        let stillListed = Set((current.segments.flatMap(\.parts) + current.trailingParts).map(\.uri))
        // Parts go before their segments (§6.2.2 removes them three target durations from the end).
        let removedParts =
            watchedSeconds < 3 * target
            ? (first.segments.flatMap(\.parts) + first.trailingParts).filter {
                !$0.gap && !stillListed.contains($0.uri)
            } : []
        var seen: Set<String> = []
        for (what, written, line) in removedParts.map({ ("partial segment", $0.uri, $0.line) })
            + removedSegments.filter({ watchedSeconds < $0.duration + first.totalDuration }).map({
                ("segment", $0.uri, $0.uriLine)
            })
        {
            let resolved = URIResolver.resolve(written, against: uri)
            guard asked < Self.maximumPartRequests, seen.insert(resolved).inserted else { continue }
            asked += 1
            let answer = await source.answer(resolved)
            guard !Self.isSuccess(answer) else { continue }
            findings.append(
                LiveFinding(
                    rule: rule,
                    message:
                        "\(what) \(written) left the playlist during the watch and was answered \(Self.describe(answer)) less than \(what == "segment" ? "its duration plus the playlist's" : "three target durations") later; clients that loaded an older version still fetch it (bis-22 §6.2.2)",
                    location: SourceLocation(uri: uri, line: line)))
        }
        return findings
    }

    // MARK: - Blocking reloads (§6.2.5.2)

    private func probeBlocking(_ uri: String, first: MediaPlaylist, rule: String) async -> [LiveFinding] {
        var findings: [LiveFinding] = []
        func add(_ message: String) {
            findings.append(LiveFinding(rule: rule, message: message, location: SourceLocation(uri: uri, line: 0)))
        }
        let target = Double(max(1, first.targetDuration ?? 1))
        // The next segment after the playlist as it is now: held until the playlist holds it,
        // then the whole playlist.
        var latest = await playlist(uri)?.media ?? first
        let next = Self.lastSequence(latest) + 1
        let askedSegment = Self.url(uri, ["_HLS_msn=\(next)"])
        switch await answer(askedSegment) {
        case .failed(let why):
            add(
                "\(askedSegment) was answered \(why); a server with CAN-BLOCK-RELOAD=YES holds a request for the next segment and then serves the playlist (bis-22 §6.2.5.2)"
            )
        case .playlist(let media):
            if media.skippedSegments != nil {
                add(
                    "\(askedSegment) was answered with a delta update (EXT-X-SKIP); a blocking reload without _HLS_skip returns the entire playlist (bis-22 §6.2.5.2)"
                )
            }
            if media.skippedSegments == nil, Self.lastSequence(media) < next {
                add(
                    "\(askedSegment) was answered before the playlist held segment \(next) (its last is \(Self.lastSequence(media))); the server must hold the request until it does (bis-22 §6.2.5.2)"
                )
            }
            latest = media
        }

        if let partTarget = first.partTarget, partTarget > 0 {
            // The part after the last one listed: held until the playlist holds it.
            let position = latest.lastPart
            let wanted =
                position.map {
                    $0.sequence == Self.lastSequence(latest)
                        ? (Self.lastSequence(latest) + 1, 0) : ($0.sequence, $0.index + 1)
                }
                ?? (Self.lastSequence(latest) + 1, 0)
            let askedPart = Self.url(uri, ["_HLS_msn=\(wanted.0)", "_HLS_part=\(wanted.1)"])
            switch await answer(askedPart) {
            case .failed(let why):
                add(
                    "\(askedPart) was answered \(why); a server with CAN-BLOCK-RELOAD=YES holds a request for the next part and then serves the playlist (bis-22 §6.2.5.2)"
                )
            case .playlist(let media):
                if media.skippedSegments == nil, !Self.holds(media, wanted) {
                    add(
                        "\(askedPart) was answered before the playlist held part \(wanted.1) of segment \(wanted.0); the server must hold the request until it does (bis-22 §6.2.5.2)"
                    )
                }
                latest = media
            }
            // A part index past the last part a segment can have means part 0 of the next
            // segment. Segments last at most the target duration (rounded), parts at least 85 %
            // of the part target except the last: this index is past any segment's last part.
            let writing = Self.lastSequence(latest) + 1
            let beyond = Int((target + 0.5) / (0.85 * partTarget)) + 1
            let askedBeyond = Self.url(uri, ["_HLS_msn=\(writing)", "_HLS_part=\(beyond)"])
            if case .playlist(let media) = await answer(askedBeyond), media.skippedSegments == nil,
                !Self.holds(media, (writing + 1, 0))
            {
                add(
                    "\(askedBeyond) was answered before the playlist held part 0 of segment \(writing + 1); a part index past a segment's last part means the first part of the next segment (bis-22 §6.2.5.2)"
                )
            }
        }

        // _HLS_part without _HLS_msn is a bad request.
        let partAlone = Self.url(uri, ["_HLS_part=0"])
        let alone = await source.answer(partAlone)
        if alone.status != 400 {
            add(
                "\(partAlone) was answered \(Self.describe(alone)); _HLS_part without _HLS_msn must be answered 400 Bad Request (bis-22 §6.2.5.2)"
            )
        }
        return findings
    }

    // MARK: - Delta updates (§6.2.5.1)

    private func probeDelta(
        _ uri: String, first: MediaPlaylist, skipUntil: Double, watchedSeconds: Double, rule: String
    ) async -> [LiveFinding] {
        var findings: [LiveFinding] = []
        func add(_ message: String, line: Int = 0) {
            findings.append(LiveFinding(rule: rule, message: message, location: SourceLocation(uri: uri, line: line)))
        }
        let target = Double(max(1, first.targetDuration ?? 1))
        // Only a playlist longer than the skip boundary (and a segment) has segments to skip.
        guard first.totalDuration > skipUntil + target else { return [] }
        let skipsDateRanges = first.serverControl?.string("CAN-SKIP-DATERANGES") == "YES"
        for directive in ["YES", "v2"] where directive == "YES" || skipsDateRanges {
            // A delta update and a whole playlist of the same version, compared line by line;
            // the stream may move between the two requests, so a pair that differs in its last
            // segment or part is asked for once more.
            var pair: (delta: (uri: String, media: MediaPlaylist, playlist: Playlist), full: MediaPlaylist)?
            for _ in 0..<2 {
                guard let delta = await playlist(Self.url(uri, ["_HLS_skip=\(directive)"])) else { break }
                guard delta.media.skippedSegments != nil else {
                    add(
                        "\(delta.uri) was answered with the whole playlist; with CAN-SKIP-UNTIL the server answers _HLS_skip=\(directive) with a delta update (EXT-X-SKIP) (bis-22 §6.2.5.1)"
                    )
                    break
                }
                guard let full = await playlist(uri)?.media else { break }
                if Self.lastSequence(full) == Self.lastSequence(delta.media),
                    full.lastPart == delta.media.lastPart
                {
                    pair = (delta, full)
                    break
                }
            }
            guard let (delta, full) = pair else { continue }
            if let difference = Self.unskippedDifference(delta: delta.media, full: full) {
                add(
                    "\(delta.uri): the delta update differs from the whole playlist in what it does not skip: \(difference); a delta update keeps every tag it does not skip (bis-22 §6.2.5.1)"
                )
            }
            let skipTag = delta.playlist.tags.first { $0.name == "#EXT-X-SKIP" }
            // The list as written: tab-separated IDs in one quoted string (bis-22 §4.4.5.2).
            let removedList = skipTag?.value.flatMap { value -> String? in
                guard let start = value.firstRange(of: "RECENTLY-REMOVED-DATERANGES=\"") else { return nil }
                return String(value[start.upperBound...].prefix { $0 != "\"" })
            }
            let deltaRanges = Set(delta.media.dateRanges.compactMap(\.id))
            let fullRanges = Set(full.dateRanges.compactMap(\.id))
            if directive == "YES", let missing = fullRanges.subtracting(deltaRanges).sorted().first {
                add(
                    "\(delta.uri): EXT-X-DATERANGE \(missing) is in the playlist but not in its _HLS_skip=YES delta update, which skips segments only (bis-22 §6.2.5.1)"
                )
            }
            if directive == "v2" {
                let removed = Set((removedList ?? "").split(separator: "\t").map(String.init))
                if !fullRanges.subtracting(deltaRanges).isEmpty, removedList == nil {
                    add(
                        "\(delta.uri): the _HLS_skip=v2 delta update skips date ranges but its EXT-X-SKIP has no RECENTLY-REMOVED-DATERANGES (bis-22 §4.4.5.2)",
                        line: skipTag?.line ?? 0)
                }
                // Ranges that went since the watch began were removed within the skip boundary,
                // when the watch was shorter than it.
                let gone =
                    watchedSeconds + target >= skipUntil
                    ? [] : Set(first.dateRanges.compactMap(\.id)).subtracting(fullRanges).subtracting(removed).sorted()
                if let range = gone.first {
                    add(
                        "\(delta.uri): EXT-X-DATERANGE \(range) was removed from the playlist during the check but is not listed in RECENTLY-REMOVED-DATERANGES (bis-22 §6.2.5.1)",
                        line: skipTag?.line ?? 0)
                }
            }
        }
        return findings
    }

    /// What a delta update lists differently from the whole playlist of the same moment, past
    /// the segments it skips: nil when nothing.
    static func unskippedDifference(delta: MediaPlaylist, full: MediaPlaylist) -> String? {
        if delta.targetDuration != full.targetDuration { return "EXT-X-TARGETDURATION" }
        if delta.mediaSequence != full.mediaSequence {
            return "EXT-X-MEDIA-SEQUENCE \(delta.mediaSequence) against \(full.mediaSequence)"
        }
        if delta.partTarget != full.partTarget { return "EXT-X-PART-INF" }
        let skipped = delta.skippedSegments ?? 0
        guard skipped + delta.segments.count == full.segments.count else {
            return "\(skipped) skipped and \(delta.segments.count) listed segments against \(full.segments.count)"
        }
        for (old, new) in zip(full.segments.dropFirst(skipped), delta.segments) {
            if old.uri != new.uri || abs(old.duration - new.duration) > 0.0005 || old.discontinuity != new.discontinuity
                || old.parts.map(\.uri) != new.parts.map(\.uri)
                || LiveSegmentChangedRule.keyChange(old: old, new: new) != nil
                || old.programDateTime != new.programDateTime || old.map?.uri != new.map?.uri
                || old.bitrate != new.bitrate
            {
                return "segment \(new.mediaSequence)"
            }
        }
        if delta.trailingParts.map(\.uri) != full.trailingParts.map(\.uri) {
            return "the partial segments after the last segment"
        }
        if delta.preloadHints != full.preloadHints { return "EXT-X-PRELOAD-HINT" }
        if delta.renditionReports.count != full.renditionReports.count { return "EXT-X-RENDITION-REPORT" }
        return nil
    }

    // MARK: - Requests

    private enum Outcome {
        case playlist(MediaPlaylist)
        case failed(String)
    }

    private func answer(_ uri: String) async -> Outcome {
        let answer = await source.answer(uri)
        guard Self.isSuccess(answer) else { return .failed(Self.describe(answer)) }
        guard answer.bytes.count <= limits.playlistBytes, let media = PlaylistParser.parse(answer.bytes, uri: uri).media
        else {
            return .failed("with something that is not a media playlist")
        }
        return .playlist(media)
    }

    private func playlist(_ uri: String) async -> (uri: String, media: MediaPlaylist, playlist: Playlist)? {
        let answer = await source.answer(uri)
        guard Self.isSuccess(answer), answer.bytes.count <= limits.playlistBytes else { return nil }
        let parsed = PlaylistParser.parse(answer.bytes, uri: uri)
        guard let media = parsed.media else { return nil }
        return (uri, media, parsed)
    }

    static func isSuccess(_ answer: DirectiveAnswer) -> Bool { answer.status.map { (200..<300).contains($0) } ?? false }

    static func describe(_ answer: DirectiveAnswer) -> String {
        if let status = answer.status { return "HTTP \(status)" }
        return "with no answer (\(answer.failure ?? "no response"))"
    }

    static func lastSequence(_ media: MediaPlaylist) -> Int { media.lastMediaSequence }

    /// Whether `media` holds part `part.1` of segment `part.0`, or a later one.
    static func holds(_ media: MediaPlaylist, _ part: (Int, Int)) -> Bool {
        if lastSequence(media) >= part.0 + 1 { return true }
        guard let last = media.lastPart else { return lastSequence(media) >= part.0 }
        return (last.sequence, last.index) >= part
    }

    /// `uri` with the directives appended to its query, in the order §6.2.5 lists them.
    static func url(_ uri: String, _ directives: [String]) -> String {
        let cut = uri.firstIndex(of: "#") ?? uri.endIndex
        let base = String(uri[..<cut])
        return base + (base.contains("?") ? "&" : "?") + directives.joined(separator: "&")
    }
}

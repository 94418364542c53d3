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

    /// Whether the answer was a 2xx.
    package var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// A playlist source that can send a request carrying delivery directives and report its status
/// (HLSRemote's): a 400 is an answer to judge there, not a failure to read.
package protocol DirectiveSource: Sendable {
    /// GETs `uri` as it is, query included, and returns the answer without recording it in the
    /// delivery log (the probe's requests are not the stream's).
    func answer(_ uri: String) async -> DirectiveAnswer
}

/// Sends the delivery directives of bis-22 §6.2.5 to a playlist whose EXT-X-SERVER-CONTROL
/// says the server supports them — blocking reloads (`_HLS_msn`, `_HLS_part`, §6.2.5.2) and delta
/// updates (`_HLS_skip`, §6.2.5.1) — and requests the parts, hinted resources and removed
/// resources a low-latency playlist names. The probe asks; the live rules judge each answer
/// (`DirectiveExchange`, `LiveRule.judge(_:memory:)`). A few requests per playlist; blocking
/// ones wait at most as long as the server holds them (bounded by the request timeout).
struct DeliveryDirectiveProbe: Sendable {
    var source: any DirectiveSource
    var limits: LoaderLimits
    /// Whether the parts and the preload hint of a low-latency playlist are requested too
    /// (not with --playlist-only, which reads no media).
    var readsMedia = true
    /// The rules that judge the answers: by default every live rule of the catalogue.
    var rules: [any LiveRule] = RuleCatalogue.liveRules
    /// Distinct part resources requested per playlist at most.
    static let maximumPartRequests = 32

    /// The findings for the playlist at `uri`, first read as `first`.
    /// `watchedSeconds`: how long ago `first` was read.
    func probe(_ uri: String, first: MediaPlaylist, watchedSeconds: Double) async -> [LiveFinding] {
        var asking = Asking(
            probe: self, uri: uri, watchedSeconds: watchedSeconds,
            judgement: LivePlaylistJudgement(rules: rules, first: first, uri: uri))
        if readsMedia, first.partTarget != nil { await asking.parts() }
        if readsMedia, !first.endList { await asking.removed(first: first) }
        guard let control = first.serverControl else { return asking.judgement.findings }
        let blocking = control.string("CAN-BLOCK-RELOAD") == "YES"
        let skipUntil = control.decimalFloatingPoint("CAN-SKIP-UNTIL")
        if first.endList {
            // §6.2.5.2, §6.2.5.1: directives to a playlist that has ended are ignored.
            if blocking {
                await asking.ask(
                    Self.url(uri, ["_HLS_msn=\(first.mediaSequence + first.segments.count)"]),
                    .blockingReloadOfEndedPlaylist)
            }
            if skipUntil != nil {
                await asking.ask(Self.url(uri, ["_HLS_skip=YES"]), .deltaUpdateNotOffered(ended: true))
            }
            return asking.judgement.findings
        }
        if blocking { await asking.blocking(first: first) }
        if let skipUntil {
            await asking.deltaUpdates(first: first, skipUntil: skipUntil)
        } else {
            await asking.ask(Self.url(uri, ["_HLS_skip=YES"]), .deltaUpdateNotOffered(ended: false))
        }
        return asking.judgement.findings
    }

    /// The requests about one playlist, each answer handed to the rules as it comes.
    private struct Asking {
        let probe: DeliveryDirectiveProbe
        let uri: String
        let watchedSeconds: Double
        var judgement: LivePlaylistJudgement

        /// Requests `asked` and hands the answer to the rules: the playlist it holds, if any.
        @discardableResult
        mutating func ask(_ asked: String, _ request: DirectiveExchange.Request) async -> Playlist? {
            let answer = await probe.source.answer(asked)
            var exchange = DirectiveExchange(
                uri: uri, asked: asked, request: request, answer: answer, watchedSeconds: watchedSeconds)
            if request.asksForPlaylist, exchange.succeeded, answer.bytes.count <= probe.limits.playlistBytes {
                let parsed = PlaylistParser.parse(answer.bytes, uri: asked)
                if parsed.media != nil { exchange.reply = parsed }
            }
            judgement.judge(exchange)
            return exchange.reply
        }

        /// Hands the rules an exchange made of answers already judged.
        mutating func tell(_ exchange: DirectiveExchange) { judgement.judge(exchange) }

        /// The playlist as it is now, unjudged: what the next request is worked out from.
        func current() async -> (playlist: Playlist, media: MediaPlaylist)? {
            let answer = await probe.source.answer(uri)
            guard answer.succeeded, answer.bytes.count <= probe.limits.playlistBytes else { return nil }
            let playlist = PlaylistParser.parse(answer.bytes, uri: uri)
            return playlist.media.map { (playlist, $0) }
        }

        // MARK: - Parts and preload hints (§4.4.4.9, §6.2.1, §6.2.6)

        /// Requests every part the playlist lists now without GAP=YES, and the resource its
        /// preload hint names.
        mutating func parts() async {
            guard let (playlist, media) = await current() else { return }
            var asked: Set<String> = []
            for part in media.segments.flatMap(\.parts) + media.trailingParts where !part.gap {
                let resolved = URIResolver.resolve(part.uri, against: uri)
                guard asked.count < DeliveryDirectiveProbe.maximumPartRequests, asked.insert(resolved).inserted
                else { continue }
                await ask(resolved, .listedPart(part))
            }
            let hintLines = playlist.tagLines(named: "#EXT-X-PRELOAD-HINT")
            for (index, hint) in media.preloadHints.enumerated() {
                guard let hinted = hint.string("URI") else { continue }
                let resolved = URIResolver.resolve(hinted, against: uri)
                guard asked.insert(resolved).inserted else { continue }
                await ask(resolved, .hintedResource(hinted, line: index < hintLines.count ? hintLines[index] : 0))
            }
        }

        /// bis-22 §6.2.2: what left the playlist during the watch and must still be served
        /// (`RemovedMediaUnavailableRule.mustStillServe`) is requested once it is over.
        mutating func removed(first: MediaPlaylist) async {
            guard let current = await current()?.media else { return }
            let target = Double(max(1, first.targetDuration ?? 1))
            let removedSegments = first.segments.filter { $0.mediaSequence < current.mediaSequence && !$0.gap }
            let stillListed = Set((current.segments.flatMap(\.parts) + current.trailingParts).map(\.uri))
            // Parts go before their segments (§6.2.2 removes them three target durations from the end).
            let removedParts =
                RemovedMediaUnavailableRule.mustStillServeParts(watchedSeconds: watchedSeconds, targetDuration: target)
                ? (first.segments.flatMap(\.parts) + first.trailingParts).filter {
                    !$0.gap && !stillListed.contains($0.uri)
                } : []
            var asked = 0
            var seen: Set<String> = []
            for (isPart, written, line) in removedParts.map({ (true, $0.uri, $0.line) })
                + removedSegments.filter({
                    RemovedMediaUnavailableRule.mustStillServe(
                        $0, of: first, watchedSeconds: watchedSeconds)
                }).map({ (false, $0.uri, $0.uriLine) })
            {
                let resolved = URIResolver.resolve(written, against: uri)
                guard asked < DeliveryDirectiveProbe.maximumPartRequests, seen.insert(resolved).inserted else {
                    continue
                }
                asked += 1
                await ask(resolved, .removedResource(written, isPart: isPart, line: line))
            }
        }

        // MARK: - Blocking reloads (§6.2.5.2)

        mutating func blocking(first: MediaPlaylist) async {
            let target = Double(max(1, first.targetDuration ?? 1))
            // The next segment after the playlist as it is now: held until the playlist holds
            // it, then the whole playlist.
            var latest = await current()?.media ?? first
            let next = latest.lastMediaSequence + 1
            if let media = await ask(
                DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(next)"]), .nextSegment(next))?.media
            {
                latest = media
            }
            if let partTarget = first.partTarget, partTarget > 0 {
                // The part after the last one listed: held until the playlist holds it.
                let last = latest.lastMediaSequence
                let wanted =
                    latest.lastPart.map {
                        $0.sequence == last
                            ? PartPosition(sequence: last + 1, index: 0)
                            : PartPosition(sequence: $0.sequence, index: $0.index + 1)
                    } ?? PartPosition(sequence: last + 1, index: 0)
                if let media = await ask(
                    DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(wanted.sequence)", "_HLS_part=\(wanted.index)"]),
                    .nextPart(wanted))?.media
                {
                    latest = media
                }
                // A part index past the last part a segment can have means part 0 of the next
                // segment. Segments last at most the target duration (rounded), parts at least
                // 85 % of the part target except the last: this index is past any segment's last part.
                let writing = latest.lastMediaSequence + 1
                let beyond = Int((target + 0.5) / (0.85 * partTarget)) + 1
                await ask(
                    DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(writing)", "_HLS_part=\(beyond)"]),
                    .partBeyondLast(writing))
            }
            await ask(DeliveryDirectiveProbe.url(uri, ["_HLS_part=0"]), .partWithoutMediaSequence)
        }

        // MARK: - Delta updates (§6.2.5.1)

        mutating func deltaUpdates(first: MediaPlaylist, skipUntil: Double) async {
            let target = Double(max(1, first.targetDuration ?? 1))
            // Only a playlist longer than the skip boundary (and a segment) has segments to skip.
            guard first.totalDuration > skipUntil + target else { return }
            let skipsDateRanges = first.serverControl?.string("CAN-SKIP-DATERANGES") == "YES"
            for directive in ["YES", "v2"] where directive == "YES" || skipsDateRanges {
                // A delta update and a whole playlist of the same version, compared by the rule;
                // the stream may move between the two requests, so a pair that differs in its
                // last segment or part is asked for once more.
                let asked = DeliveryDirectiveProbe.url(uri, ["_HLS_skip=\(directive)"])
                for _ in 0..<2 {
                    let answer = await probe.source.answer(asked)
                    guard answer.succeeded, answer.bytes.count <= probe.limits.playlistBytes
                    else { break }
                    let delta = PlaylistParser.parse(answer.bytes, uri: asked)
                    guard let deltaMedia = delta.media else { break }
                    var exchange = DirectiveExchange(
                        uri: uri, asked: asked, request: .deltaUpdate(directive: directive), answer: answer,
                        reply: delta, watchedSeconds: watchedSeconds)
                    guard deltaMedia.skippedSegments != nil else {
                        tell(exchange)
                        break
                    }
                    guard let full = await current()?.media else { break }
                    if full.lastMediaSequence == deltaMedia.lastMediaSequence, full.lastPart == deltaMedia.lastPart {
                        exchange.request = .deltaUpdateBesideWholePlaylist(directive: directive, full: full)
                        tell(exchange)
                        break
                    }
                }
            }
        }
    }

    /// `uri` with the directives appended to its query, in the order §6.2.5 lists them.
    static func url(_ uri: String, _ directives: [String]) -> String {
        let cut = uri.firstIndex(of: "#") ?? uri.endIndex
        let base = String(uri[..<cut])
        return base + (base.contains("?") ? "&" : "?") + directives.joined(separator: "&")
    }
}

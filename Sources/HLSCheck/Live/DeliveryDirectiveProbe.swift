import HLSPlaylist
import StreamSources

/// Sends the delivery directives of bis-22 §6.2.5 to a playlist whose EXT-X-SERVER-CONTROL
/// says the server supports them — blocking reloads (`_HLS_msn`, `_HLS_part`, §6.2.5.2) and delta
/// updates (`_HLS_skip`, §6.2.5.1) — and requests the parts, hinted resources and removed
/// resources a low-latency playlist names. The probe asks; the live rules judge each answer
/// (`DirectiveExchange`, `LiveRule.judge(_:memory:)`).
///
/// Every request of every watched playlist is in flight at once (the HTTP client's connection
/// limit, `--http-connections`, bounds how many are sent together), each worked out from one
/// reload of its playlist rather than from the answer before it: a blocking request that the
/// server holds delays no other. The whole probe is given one request timeout
/// (`DirectiveSource.answerTimeout`), so that a watch ends within `--live-duration` plus one
/// `--request-timeout` whatever the server does; what is unanswered then is judged unanswered.
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

    /// What the probe's deadline is kept by: the machine's monotonic clock, as the requests'
    /// own timeouts are (a watch's injected clock moves with its reloads, not with the network).
    var clock: any Clock<Duration> = ContinuousClock()

    /// The findings for every playlist of `playlists` (resolved URI → its first version), all
    /// probed at once and within `source.answerTimeout` on `clock`.
    /// `watchedSeconds`: how long ago the first versions were read.
    func probe(_ playlists: [String: MediaPlaylist], watchedSeconds: Double) async -> [LiveFinding] {
        await probe(playlists, watchedSeconds: watchedSeconds, clock: clock)
    }

    private func probe<C: Clock>(_ playlists: [String: MediaPlaylist], watchedSeconds: Double, clock: C) async
        -> [LiveFinding] where C.Duration == Duration
    {
        let deadline = clock.now.advanced(by: source.answerTimeout)
        let ordered = playlists.sorted { $0.key < $1.key }
        var found: [Int: [LiveFinding]] = [:]
        await withTaskGroup(of: (Int, [LiveFinding])?.self) { group in
            // The deadline: when it passes, every request still waiting is cancelled.
            group.addTask {
                try? await Task.sleep(until: deadline, clock: clock)
                return nil
            }
            for (index, (uri, first)) in ordered.enumerated() {
                group.addTask { (index, await probe(uri, first: first, watchedSeconds: watchedSeconds)) }
            }
            var left = ordered.count
            while left > 0, let next = await group.next() {
                guard let (index, findings) = next else {
                    group.cancelAll()
                    continue
                }
                found[index] = findings
                left -= 1
            }
            // Every playlist is done: the deadline's sleep is not waited for.
            group.cancelAll()
        }
        return ordered.indices.flatMap { found[$0] ?? [] }
    }

    /// The findings for the playlist at `uri`, first read as `first`.
    /// `watchedSeconds`: how long ago `first` was read.
    func probe(_ uri: String, first: MediaPlaylist, watchedSeconds: Double) async -> [LiveFinding] {
        let asking = Asking(probe: self, uri: uri, watchedSeconds: watchedSeconds)
        // The playlist as it is now: what the parts, the removed resources and the next segment
        // and part are worked out from. One reload, then every request at once.
        let now = await asking.current()
        async let parts = readsMedia && first.partTarget != nil ? asking.parts(now) : []
        async let removed = readsMedia && !first.endList ? asking.removed(first: first, now: now) : []
        async let directives = asking.directives(first: first, now: now)
        // Judged in one order whatever order the answers came in: parts, removed resources,
        // then the directives.
        var judgement = LivePlaylistJudgement(rules: rules, first: first, uri: uri)
        for exchange in await parts + removed + directives { judgement.judge(exchange) }
        return judgement.findings
    }

    /// The requests about one playlist. Each returns its exchanges, for the probe to judge.
    private struct Asking: Sendable {
        let probe: DeliveryDirectiveProbe
        let uri: String
        let watchedSeconds: Double

        /// Requests `asked`: the exchange, with the playlist the answer holds, if any. An
        /// answer cut off by the probe's deadline says so.
        func ask(_ asked: String, _ request: DirectiveExchange.Request) async -> DirectiveExchange {
            var answer = await probe.source.answer(asked)
            if Task.isCancelled, answer.status == nil { answer.failure = unansweredInTime }
            var exchange = DirectiveExchange(
                uri: uri, asked: asked, request: request, answer: answer, watchedSeconds: watchedSeconds)
            if request.asksForPlaylist, exchange.succeeded, answer.bytes.count <= probe.limits.playlistBytes {
                let parsed = PlaylistParser.parse(answer.bytes, uri: asked)
                if parsed.media != nil { exchange.reply = parsed }
            }
            return exchange
        }

        /// Why a request cut off by the deadline has no answer.
        var unansweredInTime: String {
            "no answer within \(compactSeconds(probe.source.answerTimeout.seconds)) s after the watch, the time every delivery-directive request of a run shares (raise it with --request-timeout)"
        }

        /// Every request of `requests` at once; the exchanges in the order asked.
        func askAll(_ requests: [(String, DirectiveExchange.Request)]) async -> [DirectiveExchange] {
            var exchanges: [Int: DirectiveExchange] = [:]
            await withTaskGroup(of: (Int, DirectiveExchange).self) { group in
                for (index, (asked, request)) in requests.enumerated() {
                    group.addTask { (index, await ask(asked, request)) }
                }
                for await (index, exchange) in group { exchanges[index] = exchange }
            }
            return requests.indices.compactMap { exchanges[$0] }
        }

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
        func parts(_ now: (playlist: Playlist, media: MediaPlaylist)?) async -> [DirectiveExchange] {
            guard let (playlist, media) = now else { return [] }
            var asked: Set<String> = []
            var requests: [(String, DirectiveExchange.Request)] = []
            for part in media.segments.flatMap(\.parts) + media.trailingParts where !part.gap {
                let resolved = URIResolver.resolve(part.uri, against: uri)
                guard asked.count < DeliveryDirectiveProbe.maximumPartRequests, asked.insert(resolved).inserted
                else { continue }
                requests.append((resolved, .listedPart(part)))
            }
            let hintLines = playlist.tagLines(named: "#EXT-X-PRELOAD-HINT")
            for (index, hint) in media.preloadHints.enumerated() {
                guard let hinted = hint.string("URI") else { continue }
                let resolved = URIResolver.resolve(hinted, against: uri)
                guard asked.insert(resolved).inserted else { continue }
                requests.append(
                    (resolved, .hintedResource(hinted, line: index < hintLines.count ? hintLines[index] : 0)))
            }
            return await askAll(requests)
        }

        /// bis-22 §6.2.2: what left the playlist during the watch and must still be served
        /// (`RemovedMediaUnavailableRule.mustStillServe`) is requested once it is over.
        func removed(first: MediaPlaylist, now: (playlist: Playlist, media: MediaPlaylist)?) async
            -> [DirectiveExchange]
        {
            guard let current = now?.media else { return [] }
            let target = Double(max(1, first.targetDuration ?? 1))
            let removedSegments = first.segments.filter { $0.mediaSequence < current.mediaSequence && !$0.gap }
            let stillListed = Set((current.segments.flatMap(\.parts) + current.trailingParts).map(\.uri))
            // Parts go before their segments (§6.2.2 removes them three target durations from the end).
            let removedParts =
                RemovedMediaUnavailableRule.mustStillServeParts(watchedSeconds: watchedSeconds, targetDuration: target)
                ? (first.segments.flatMap(\.parts) + first.trailingParts).filter {
                    !$0.gap && !stillListed.contains($0.uri)
                } : []
            var requests: [(String, DirectiveExchange.Request)] = []
            var seen: Set<String> = []
            for (isPart, written, line) in removedParts.map({ (true, $0.uri, $0.line) })
                + removedSegments.filter({
                    RemovedMediaUnavailableRule.mustStillServe(
                        $0, of: first, watchedSeconds: watchedSeconds)
                }).map({ (false, $0.uri, $0.uriLine) })
            {
                let resolved = URIResolver.resolve(written, against: uri)
                guard requests.count < DeliveryDirectiveProbe.maximumPartRequests, seen.insert(resolved).inserted
                else { continue }
                requests.append((resolved, .removedResource(written, isPart: isPart, line: line)))
            }
            return await askAll(requests)
        }

        // MARK: - Delivery directives (§6.2.5)

        /// What the playlist's EXT-X-SERVER-CONTROL offers, asked for: blocking reloads and delta
        /// updates, or — to a playlist that has ended — the directives it must ignore.
        func directives(first: MediaPlaylist, now: (playlist: Playlist, media: MediaPlaylist)?) async
            -> [DirectiveExchange]
        {
            guard let control = first.serverControl else { return [] }
            let blocking = control.string("CAN-BLOCK-RELOAD") == "YES"
            let skipUntil = control.decimalFloatingPoint("CAN-SKIP-UNTIL")
            if first.endList {
                // §6.2.5.2, §6.2.5.1: directives to a playlist that has ended are ignored.
                var requests: [(String, DirectiveExchange.Request)] = []
                if blocking {
                    requests.append(
                        (
                            DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(first.mediaSequence + first.segments.count)"]),
                            .blockingReloadOfEndedPlaylist
                        ))
                }
                if skipUntil != nil {
                    requests.append(
                        (DeliveryDirectiveProbe.url(uri, ["_HLS_skip=YES"]), .deltaUpdateNotOffered(ended: true)))
                }
                return await askAll(requests)
            }
            async let reloads = blocking ? askAll(blockingRequests(first: first, latest: now?.media ?? first)) : []
            async let deltas: [DirectiveExchange] =
                if let skipUntil {
                    deltaUpdates(first: first, skipUntil: skipUntil)
                } else {
                    askAll([
                        (DeliveryDirectiveProbe.url(uri, ["_HLS_skip=YES"]), .deltaUpdateNotOffered(ended: false))
                    ])
                }
            return await reloads + deltas
        }

        // MARK: - Blocking reloads (§6.2.5.2)

        /// The blocking reloads to send, all worked out from `latest`, the playlist as it is now.
        func blockingRequests(first: MediaPlaylist, latest: MediaPlaylist) -> [(String, DirectiveExchange.Request)] {
            let target = Double(max(1, first.targetDuration ?? 1))
            // The next segment after the playlist as it is now: held until the playlist holds
            // it, then the whole playlist.
            let next = latest.lastMediaSequence + 1
            var requests: [(String, DirectiveExchange.Request)] = [
                (DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(next)"]), .nextSegment(next))
            ]
            if let partTarget = first.partTarget, partTarget > 0 {
                // The part after the last one listed: held until the playlist holds it.
                let last = latest.lastMediaSequence
                let wanted =
                    latest.lastPart.map {
                        $0.sequence == last
                            ? PartPosition(sequence: last + 1, index: 0)
                            : PartPosition(sequence: $0.sequence, index: $0.index + 1)
                    } ?? PartPosition(sequence: last + 1, index: 0)
                requests.append(
                    (
                        DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(wanted.sequence)", "_HLS_part=\(wanted.index)"]),
                        .nextPart(wanted)
                    ))
                // A part index past the last part a segment can have means part 0 of the next
                // segment. Segments last at most the target duration (rounded), parts at least
                // 85 % of the part target except the last: this index is past any segment's last part.
                let writing = latest.lastMediaSequence + 1
                let beyond = Int((target + 0.5) / (0.85 * partTarget)) + 1
                requests.append(
                    (
                        DeliveryDirectiveProbe.url(uri, ["_HLS_msn=\(writing)", "_HLS_part=\(beyond)"]),
                        .partBeyondLast(writing)
                    ))
            }
            requests.append((DeliveryDirectiveProbe.url(uri, ["_HLS_part=0"]), .partWithoutMediaSequence))
            return requests
        }

        // MARK: - Delta updates (§6.2.5.1)

        func deltaUpdates(first: MediaPlaylist, skipUntil: Double) async -> [DirectiveExchange] {
            let target = Double(max(1, first.targetDuration ?? 1))
            // Only a playlist longer than the skip boundary (and a segment) has segments to skip.
            guard first.totalDuration > skipUntil + target else { return [] }
            let skipsDateRanges = first.serverControl?.string("CAN-SKIP-DATERANGES") == "YES"
            let directives = skipsDateRanges ? ["YES", "v2"] : ["YES"]
            var found: [Int: DirectiveExchange] = [:]
            await withTaskGroup(of: (Int, DirectiveExchange?).self) { group in
                for (index, directive) in directives.enumerated() {
                    group.addTask { (index, await deltaUpdate(directive)) }
                }
                for await (index, exchange) in group { found[index] = exchange }
            }
            return directives.indices.compactMap { found[$0] }
        }

        /// A delta update and a whole playlist of the same version, compared by the rule; the
        /// stream may move between the two requests, so a pair that differs in its last segment
        /// or part is asked for once more. Nil when neither pair matched.
        func deltaUpdate(_ directive: String) async -> DirectiveExchange? {
            let asked = DeliveryDirectiveProbe.url(uri, ["_HLS_skip=\(directive)"])
            for _ in 0..<2 where !Task.isCancelled {
                let answer = await probe.source.answer(asked)
                guard answer.succeeded, answer.bytes.count <= probe.limits.playlistBytes else { return nil }
                let delta = PlaylistParser.parse(answer.bytes, uri: asked)
                guard let deltaMedia = delta.media else { return nil }
                var exchange = DirectiveExchange(
                    uri: uri, asked: asked, request: .deltaUpdate(directive: directive), answer: answer,
                    reply: delta, watchedSeconds: watchedSeconds)
                guard deltaMedia.skippedSegments != nil else { return exchange }
                guard let full = await current()?.media else { return nil }
                if full.lastMediaSequence == deltaMedia.lastMediaSequence, full.lastPart == deltaMedia.lastPart {
                    exchange.request = .deltaUpdateBesideWholePlaylist(directive: directive, full: full)
                    return exchange
                }
            }
            return nil
        }
    }

    /// `uri` with the directives appended to its query, in the order §6.2.5 lists them.
    static func url(_ uri: String, _ directives: [String]) -> String {
        let cut = uri.firstIndex(of: "#") ?? uri.endIndex
        let base = String(uri[..<cut])
        return base + (base.contains("?") ? "&" : "?") + directives.joined(separator: "&")
    }
}

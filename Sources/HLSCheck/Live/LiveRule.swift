package import HLSPlaylist
package import StreamSources

/// One reload of a watched live playlist, as the watcher saw it: what the live rules judge.
/// The watcher holds only the latest version of each playlist, so a reload carries that version
/// and, when the playlist changed, the one before; whatever a rule must remember beyond that it
/// keeps in its own memory (`LiveRule.Memory`).
package struct LiveReload: Sendable {
    /// What the reload brought.
    package enum Outcome: Sendable {
        /// A version whose bytes differ from the last one read (or, for the one reload of a VOD
        /// playlist, the version read again), after `previous`.
        case changed(previous: MediaPlaylist, current: MediaPlaylist)
        /// The same bytes as the last version read, `current`.
        case unchanged(current: MediaPlaylist)
        /// The request failed; why, as the source said.
        case failed(String)
    }

    /// The playlist's URI, as the findings name it.
    package var uri: String
    /// Which reload this is: 1 for the first after the version read before the watch. Failed
    /// reloads are not counted, so a failed one has the number of the reload that follows it.
    package var number: Int
    /// When the reload began, counted from the start of the watch on the watch's clock.
    package var started: Duration
    /// When its answer had been read and parsed, on the same clock.
    package var answered: Duration
    package var outcome: Outcome

    package init(uri: String, number: Int, started: Duration, answered: Duration, outcome: Outcome) {
        self.uri = uri
        self.number = number
        self.started = started
        self.answered = answered
        self.outcome = outcome
    }

    /// The version the playlist is at after this reload; nil when the reload failed.
    package var current: MediaPlaylist? {
        switch outcome {
        case .changed(_, let current), .unchanged(let current): current
        case .failed: nil
        }
    }
}

/// One request `DeliveryDirectiveProbe` sent about a watched playlist once the watch was over,
/// and its answer: a delivery directive (bis-22 §6.2.5), or a part, hinted resource or removed
/// resource the playlist named (§6.2.2, §6.2.6). What the directive rules judge.
package struct DirectiveExchange: Sendable {
    /// What was asked, and why.
    package enum Request: Sendable {
        /// A partial segment the playlist lists without GAP=YES.
        case listedPart(PartialSegment)
        /// The resource an EXT-X-PRELOAD-HINT names, as written, with the hint's line.
        case hintedResource(String, line: Int)
        /// A segment (or, when `isPart`, a partial segment) that left the playlist during the
        /// watch, as written, with its line in the version first read.
        case removedResource(String, isPart: Bool, line: Int)
        /// `_HLS_msn` past the last segment of a playlist with EXT-X-ENDLIST.
        case blockingReloadOfEndedPlaylist
        /// `_HLS_msn` for the segment after the last one listed.
        case nextSegment(Int)
        /// `_HLS_msn` and `_HLS_part` for the part after the last one listed.
        case nextPart(PartPosition)
        /// `_HLS_part` past any segment's last part, for the segment being written, `Int`.
        case partBeyondLast(Int)
        /// `_HLS_part` without `_HLS_msn`.
        case partWithoutMediaSequence
        /// `_HLS_skip=YES` to a playlist with EXT-X-ENDLIST, or (`ended` false) whose
        /// EXT-X-SERVER-CONTROL has no CAN-SKIP-UNTIL.
        case deltaUpdateNotOffered(ended: Bool)
        /// `_HLS_skip` with `directive` (YES or v2) to a playlist with CAN-SKIP-UNTIL.
        case deltaUpdate(directive: String)
        /// The delta update `deltaUpdate` brought, beside the whole playlist `full` read just
        /// after it at the same live edge.
        case deltaUpdateBesideWholePlaylist(directive: String, full: MediaPlaylist)

        /// Whether the answer is a playlist (not a part or segment): read as one when it came.
        var asksForPlaylist: Bool {
            switch self {
            case .listedPart, .hintedResource, .removedResource: false
            default: true
            }
        }
    }

    /// The watched playlist, as the findings name it.
    package var uri: String
    /// The URL requested, directives included.
    package var asked: String
    package var request: Request
    package var answer: DirectiveAnswer
    /// The answer read as a playlist, when it was a 2xx answer within the playlist size limit.
    package var reply: Playlist?
    /// Seconds between the first read of the playlist and the end of the watch.
    package var watchedSeconds: Double

    package init(
        uri: String, asked: String, request: Request, answer: DirectiveAnswer, reply: Playlist? = nil,
        watchedSeconds: Double = 0
    ) {
        self.uri = uri
        self.asked = asked
        self.request = request
        self.answer = answer
        self.reply = reply
        self.watchedSeconds = watchedSeconds
    }

    /// Whether the answer was a 2xx.
    package var succeeded: Bool { answer.succeeded }

    /// The answer as a message gives it: "HTTP 404", or why none came.
    package var described: String {
        if let status = answer.status { return "HTTP \(status)" }
        return "with no answer (\(answer.failure ?? "no response"))"
    }
}

/// A rule judged across the reloads of a live playlist (`--live-duration`). For every playlist
/// it watches, the watcher asks each live rule for the memory it keeps about that playlist, hands
/// it every reload — and, once the watch is over, every answer `DeliveryDirectiveProbe` got
/// about it — and files what the rule finds under the rule's id, told once per message. The
/// rule holds its whole judgement — thresholds, messages and what it remembers — and its `check`
/// passes on what the watch recorded under its id.
package protocol LiveRule: Rule {
    /// What the rule remembers across the reloads of one playlist: as small as the judgement
    /// allows, never the versions themselves (an hour of low-latency reloads is ~12 000).
    associatedtype Memory: Sendable = Void
    /// The memory for the playlist at `uri`, first read as `first`; nil when the rule has
    /// nothing to judge in that playlist's reloads.
    static func memory(watching first: MediaPlaylist, at uri: String) -> Memory?
    /// Judges one reload; the findings are filed under the rule's id. By default nothing.
    static func judge(_ reload: LiveReload, memory: inout Memory) -> [Finding]
    /// Judges one answer to the probe's requests; by default nothing.
    static func judge(_ exchange: DirectiveExchange, memory: inout Memory) -> [Finding]
}

extension LiveRule {
    package static func judge(_ reload: LiveReload, memory: inout Memory) -> [Finding] { [] }
    package static func judge(_ exchange: DirectiveExchange, memory: inout Memory) -> [Finding] { [] }
}

extension LiveRule where Memory == Void {
    /// A rule that remembers nothing judges the reloads of live playlists: those without
    /// EXT-X-ENDLIST and not VOD (a VOD playlist is loaded once more, to see it unchanged).
    package static func memory(watching first: MediaPlaylist, at uri: String) -> Void? {
        first.endList || first.playlistType == .vod ? nil : ()
    }
}

extension LiveRule {
    /// What the watch recorded under the rule's id.
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.live?.findings(of: Self.description.id) ?? []
    }
}

extension RuleCatalogue {
    /// The rules of the catalogue that judge a live watch.
    package static let liveRules: [any LiveRule] = all.compactMap { $0 as? any LiveRule }
}

extension LiveObservation {
    /// The findings recorded under `rule`, as rule findings.
    package func findings(of rule: String) -> [Finding] {
        findings.filter { $0.rule == rule }.map { Finding($0.message, at: $0.location) }
    }
}

/// The live rules' judgement of one watched playlist: one memory per rule that judges it, and
/// the findings so far, each rule's message told once (a server that regresses on every reload
/// is told once).
struct LivePlaylistJudgement: Sendable {
    private var judges: [any LiveJudge]
    private(set) var findings: [LiveFinding] = []
    private var reported: Set<String> = []

    init(rules: [any LiveRule], first: MediaPlaylist, uri: String) {
        func judge<R: LiveRule>(_ rule: R) -> (any LiveJudge)? {
            R.memory(watching: first, at: uri).map { RuleJudge<R>(memory: $0) }
        }
        judges = rules.compactMap { judge($0) }
    }

    /// Hands `reload` to every rule.
    mutating func judge(_ reload: LiveReload) {
        for index in judges.indices { file(judges[index].judge(reload), of: judges[index].rule, uri: reload.uri) }
    }

    /// Hands `exchange` to every rule.
    mutating func judge(_ exchange: DirectiveExchange) {
        for index in judges.indices {
            file(judges[index].judge(exchange), of: judges[index].rule, uri: exchange.uri)
        }
    }

    private mutating func file(_ found: [Finding], of rule: String, uri: String) {
        for finding in found where reported.insert(rule + "\u{0}" + finding.message).inserted {
            findings.append(
                LiveFinding(
                    rule: rule, message: finding.message,
                    location: finding.location ?? SourceLocation(uri: uri, line: 0)))
        }
    }
}

/// One rule's memory of one playlist, behind a type the judgement can hold in a list.
private protocol LiveJudge: Sendable {
    var rule: String { get }
    mutating func judge(_ reload: LiveReload) -> [Finding]
    mutating func judge(_ exchange: DirectiveExchange) -> [Finding]
}

private struct RuleJudge<R: LiveRule>: LiveJudge {
    var memory: R.Memory
    var rule: String { R.description.id }
    mutating func judge(_ reload: LiveReload) -> [Finding] { R.judge(reload, memory: &memory) }
    mutating func judge(_ exchange: DirectiveExchange) -> [Finding] { R.judge(exchange, memory: &memory) }
}

extension RuleDescription {
    /// A rule judged across reloads: no single playlist file can show it; like the delivery
    /// rules, it needs a stream served over HTTP.
    static func live(
        id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String,
        specItems: [SpecItem] = []
    ) -> RuleDescription {
        network(
            id: id, name: name, defaultSeverity: defaultSeverity, summary: summary, rationale: rationale,
            specItems: specItems)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in seconds to a tenth, as the live rules' messages give an age ("6.5").
    var tenthsText: String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import Synchronization
import TestSupport
import Testing

/// A small low-latency HLS origin for the loopback tests: one-second parts, four to a segment,
/// published on an injected clock (the watch's own `SteppingClock`), never wall time. It
/// answers the delivery directives of bis-22 §6.2.5 as a server must: a blocking request is
/// "held" by answering with the playlist as it is when the part asked for exists (the origin's
/// time jumps there, and later answers never go back). `Flaw`s break one behaviour each.
final class LowLatencyOrigin: Sendable {
    enum Flaw: Sendable, Hashable {
        /// Answers _HLS_msn / _HLS_part at once, with the playlist as it is.
        case answersEarly
        /// Answers _HLS_part without _HLS_msn with the playlist instead of 400.
        case acceptsPartAlone
        /// Answers _HLS_skip with the whole playlist.
        case ignoresSkip
        /// Leaves EXT-X-PROGRAM-DATE-TIME out of its delta updates' first listed segment.
        case deltaDropsDate
        /// Stops publishing parts after ten seconds (segments stop too).
        case stallsAfterTenSeconds
        /// Its preload hint names a URI the part is then not published under.
        case hintsWrongURI
        /// Lists parts it answers 404 for.
        case partsMissing
        /// Answers 404 for the hinted part instead of holding the request until it exists.
        case refusesHintedPart
        /// Deletes parts and segments as soon as they leave the playlist.
        case deletesRemoved
    }

    /// What every part and segment holds: a real MPEG-TS segment of the committed sample.
    static let mediaBytes: [UInt8] = Array(
        (try? Data(contentsOf: URL(fileURLWithPath: Remote.samples + "/compliant/audio/seg0.ts"))) ?? Data())

    static let partsPerSegment = 4
    /// Segments in the window: 48 s, twice the skip boundary.
    static let window = 12

    let clock: SteppingClock
    let flaws: Set<Flaw>
    /// The most parts any answer has shown: time never goes back for a client.
    private let shown = Mutex(0)

    init(clock: SteppingClock, flaws: Set<Flaw> = []) {
        self.clock = clock
        self.flaws = flaws
    }

    /// Parts published by clock time `seconds`: 60 at the start of the watch, so the window is full.
    func published(at seconds: Double) -> Int {
        let elapsed = flaws.contains(.stallsAfterTenSeconds) ? min(seconds, 10) : seconds
        return 60 + Int(elapsed.rounded(.down))
    }

    /// The answer to one request of `live.m3u8` with `query`.
    func answer(_ query: String) -> (status: Int, body: String) {
        var directives: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { directives[String(parts[0])] = String(parts[1]) }
        }
        if directives["_HLS_part"] != nil, directives["_HLS_msn"] == nil, !flaws.contains(.acceptsPartAlone) {
            return (400, "_HLS_part needs _HLS_msn\n")
        }
        var needed = 0
        if !flaws.contains(.answersEarly), let msn = directives["_HLS_msn"].flatMap(Int.init) {
            if let part = directives["_HLS_part"].flatMap(Int.init) {
                // A part index past the segment's last part is the next segment's first part.
                needed =
                    part >= Self.partsPerSegment
                    ? (msn + 1) * Self.partsPerSegment + 1 : msn * Self.partsPerSegment + part + 1
            } else {
                needed = (msn + 1) * Self.partsPerSegment
            }
        }
        let count = shown.withLock { shown in
            shown = max(shown, published(at: clock.elapsedSeconds), needed)
            return shown
        }
        let skip = flaws.contains(.ignoresSkip) ? nil : directives["_HLS_skip"]
        return (200, playlist(parts: count, skip: skip))
    }

    /// The answer to a request for a part (`/s12.3.mp4`) or a segment (`/s12.mp4`): there once
    /// published; the part after the last published one is held until it exists (the origin's
    /// time jumps there); anything later is 404.
    func media(_ path: String) -> (status: Int, body: [UInt8]) {
        let numbers = path.dropFirst(2).dropLast(4).split(separator: ".").compactMap { Int($0) }
        guard path.hasPrefix("/s"), path.hasSuffix(".mp4"), !numbers.isEmpty else { return (404, []) }
        // Parts published once this one exists: a segment needs all of its parts.
        let needed =
            numbers.count == 2
            ? numbers[0] * Self.partsPerSegment + numbers[1] + 1 : (numbers[0] + 1) * Self.partsPerSegment
        if numbers.count == 2, flaws.contains(.partsMissing) { return (404, []) }
        if flaws.contains(.deletesRemoved) {
            // What the playlist no longer lists: segments before its window, parts before its last three segments.
            let complete = shown.withLock { max($0, published(at: clock.elapsedSeconds)) } / Self.partsPerSegment
            if numbers[0] < (numbers.count == 2 ? complete - 3 : complete - Self.window) { return (404, []) }
        }
        let available = shown.withLock { shown -> Bool in
            let now = max(shown, published(at: clock.elapsedSeconds))
            if needed <= now { return true }
            guard needed == now + 1, numbers.count == 2, !flaws.contains(.refusesHintedPart) else { return false }
            shown = needed
            return true
        }
        return available ? (200, Self.mediaBytes) : (404, [])
    }

    /// The playlist when `parts` parts exist; a delta update with `skip`.
    func playlist(parts: Int, skip: String?) -> String {
        let complete = parts / Self.partsPerSegment, trailing = parts % Self.partsPerSegment
        let first = max(0, complete - Self.window)
        var text = """
            #EXTM3U
            #EXT-X-VERSION:10
            #EXT-X-TARGETDURATION:4
            #EXT-X-PART-INF:PART-TARGET=1
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,PART-HOLD-BACK=3
            #EXT-X-MEDIA-SEQUENCE:\(first)

            """
        // Segments that end more than the skip boundary (24 s) before the end are skipped.
        let skipped = skip == nil ? 0 : max(0, (complete - first) - 24 / 4)
        if skipped > 0 { text += "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)\n" }
        for number in (first + skipped)..<complete {
            // A date on every segment, so that a delta update keeps the mapping it skips.
            if !(skipped > 0 && number == first + skipped && flaws.contains(.deltaDropsDate)) {
                text += "#EXT-X-PROGRAM-DATE-TIME:\(Self.date(ofSegment: number))\n"
            }
            // Parts are listed for the last three segments (bis-22 §6.2.2 removes older ones).
            if number >= complete - 3 {
                for index in 0..<Self.partsPerSegment { text += part(number, index) }
            }
            text += "#EXTINF:4,\ns\(number).mp4\n"
        }
        for index in 0..<trailing { text += part(complete, index) }
        let hinted = flaws.contains(.hintsWrongURI) ? "next.mp4" : "s\(complete).\(trailing).mp4"
        text += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(hinted)\"\n"
        return text
    }

    private func part(_ segment: Int, _ index: Int) -> String {
        "#EXT-X-PART:DURATION=1,URI=\"s\(segment).\(index).mp4\"\(index == 0 ? ",INDEPENDENT=YES" : "")\n"
    }

    static func date(ofSegment number: Int) -> String {
        let seconds = number * 4
        return String(format: "2026-01-01T%02d:%02d:%02d.000Z", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// Watches the origin over loopback for `seconds` of its clock, playlists only.
    static func check(_ flaws: Set<Flaw> = [], seconds: Double = 6, media: Bool = false) async throws -> (
        CheckReport, [ReceivedRequest]
    ) {
        let clock = SteppingClock()
        let origin = LowLatencyOrigin(clock: clock, flaws: flaws)
        return try await Remote.withSamplesServer { server in
            server.inject(.respond { origin.answer($0) }, at: "live.m3u8")
            server.fallback(.media { origin.media($0) })
            let report = try await Remote.check(server.url("live.m3u8"), liveClock: LiveClock { clock }) {
                $0.playlistOnly = !media
                $0.liveWatchSeconds = seconds
            }
            return (report, server.requests)
        }
    }
}

@Suite("Low-latency origin over loopback")
struct LowLatencyOriginTests {
    static let probeRules = [
        "blocking-reload-invalid", "delta-update-invalid", "live-part-stale", "live-preload-hint-broken",
    ]

    @Test func wellBehavedOriginPassesEveryDirectiveAndReloadRule() async throws {
        let (report, requests) = try await LowLatencyOrigin.check()
        let live = report.diagnostics.filter { $0.rule.hasPrefix("live-") || Self.probeRules.contains($0.rule) }
        #expect(live.isEmpty, "\(live)")
        // Every directive was sent: blocking for a segment and a part, a part past the last,
        // _HLS_part alone, and both kinds of delta update were not (no CAN-SKIP-DATERANGES).
        let queries = requests.compactMap(\.query)
        #expect(queries.contains { $0.hasPrefix("_HLS_msn=") && !$0.contains("_HLS_part") })
        #expect(queries.contains { $0.contains("_HLS_msn=") && $0.contains("_HLS_part=") })
        #expect(queries.contains("_HLS_part=0"))
        #expect(queries.contains("_HLS_skip=YES"))
        #expect(!queries.contains("_HLS_skip=v2"))
        // Reloaded once per part target: about six reloads in six seconds, not one per segment.
        #expect(requests.filter { $0.path == "/live.m3u8" && $0.query == nil }.count >= 5)
    }

    @Test func everyListedPartAndTheHintedOneAreRequestedAndServed() async throws {
        let (report, requests) = try await LowLatencyOrigin.check(seconds: 2, media: true)
        #expect(report.findings("part-unavailable").isEmpty, "\(report.findings("part-unavailable"))")
        // The parts of the last three segments, those after them, and the hinted one.
        let parts = Set(requests.map(\.path).filter { $0.split(separator: ".").count == 3 })
        #expect(parts.count >= 13, "\(parts.sorted())")
    }

    @Test func missingPartsAndARefusedHintAreErrors() async throws {
        let (missing, _) = try await LowLatencyOrigin.check([.partsMissing], seconds: 2, media: true)
        let parts = missing.findings("part-unavailable")
        #expect(
            parts.contains { $0.message.contains("is listed without GAP=YES but was answered HTTP 404") }, "\(parts)")
        #expect(parts.contains { $0.message.contains("preload hint") }, "\(parts)")
        #expect(parts.allSatisfy { $0.severity == .error })
        let (refused, _) = try await LowLatencyOrigin.check([.refusesHintedPart], seconds: 2, media: true)
        let hint = refused.findings("part-unavailable")
        #expect(hint.count == 1, "\(hint)")
        #expect(hint.first?.message.contains("preload hint s") == true, "\(hint)")
        // With --playlist-only no part is requested.
        let (listed, requests) = try await LowLatencyOrigin.check([.partsMissing], seconds: 2)
        #expect(listed.findings("part-unavailable").isEmpty)
        #expect(!requests.contains { $0.path.hasSuffix(".mp4") })
    }

    @Test func partsAndSegmentsDeletedAsSoonAsTheyLeaveAreErrors() async throws {
        let (report, _) = try await LowLatencyOrigin.check([.deletesRemoved], seconds: 6, media: true)
        let removed = report.findings("removed-media-unavailable")
        #expect(
            removed.contains {
                $0.message.hasPrefix(
                    "partial segment s12.0.mp4 left the playlist during the watch and was answered HTTP 404")
            }, "\(removed)")
        #expect(removed.contains { $0.message.hasPrefix("segment s3.mp4 left the playlist") }, "\(removed)")
        let (kept, _) = try await LowLatencyOrigin.check(seconds: 6, media: true)
        #expect(kept.findings("removed-media-unavailable").isEmpty, "\(kept.findings("removed-media-unavailable"))")
    }

    @Test func originThatAnswersBlockingRequestsEarlyIsAnError() async throws {
        let (report, _) = try await LowLatencyOrigin.check([.answersEarly])
        let blocking = report.findings("blocking-reload-invalid")
        #expect(blocking.contains { $0.message.contains("before the playlist held segment") }, "\(blocking)")
        #expect(blocking.contains { $0.message.contains("before the playlist held part") }, "\(blocking)")
        #expect(blocking.allSatisfy { $0.severity == .error })
    }

    @Test func partWithoutSequenceNumberMustBeABadRequest() async throws {
        let (report, _) = try await LowLatencyOrigin.check([.acceptsPartAlone])
        let blocking = report.findings("blocking-reload-invalid")
        #expect(blocking.count == 1, "\(blocking)")
        #expect(blocking.first?.message.contains("_HLS_part=0 was answered HTTP 200") == true, "\(blocking)")
    }

    @Test func deltaUpdatesThatAreWholeOrDropTagsAreErrors() async throws {
        let (whole, _) = try await LowLatencyOrigin.check([.ignoresSkip])
        #expect(
            whole.findings("delta-update-invalid").first?.message.contains("answered with the whole playlist") == true,
            "\(whole.diagnostics)")
        let (dropped, _) = try await LowLatencyOrigin.check([.deltaDropsDate])
        #expect(
            dropped.findings("delta-update-invalid").first?.message.contains("keeps every tag it does not skip")
                == true, "\(dropped.diagnostics)")
    }

    @Test func stalledPartsAndWrongPreloadHintsAreReported() async throws {
        let (stalled, _) = try await LowLatencyOrigin.check([.stallsAfterTenSeconds], seconds: 14)
        let stale = stalled.findings("live-part-stale")
        #expect(stale.count == 1, "\(stalled.diagnostics)")
        #expect(stale.first?.message.contains("part target duration of 1.0 s") == true, "\(stale)")
        let (hinted, _) = try await LowLatencyOrigin.check([.hintsWrongURI])
        let broken = hinted.findings("live-preload-hint-broken")
        #expect(broken.first?.message.contains("as next.mp4") == true, "\(hinted.diagnostics)")
    }
}

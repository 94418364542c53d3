import Foundation
import HLSCheck
@testable import HLSRemote
import HTTPTestServer
import Synchronization
import TestSupport
import Testing

/// Segments are fetched ahead of their inspection: within a window, each once.
/// A fetch the test answers when it chooses, as the network would: the requests started, in order.
final class ManualFetches: Sendable {
    typealias Value = Result<[UInt8], any Error>
    private let state = Mutex<
        (started: [SegmentReadAheadKey], completions: [String: @Sendable (Value) -> Void], cancelled: [String])
    >(
        ([], [:], []))

    var started: [SegmentReadAheadKey] { state.withLock { $0.started } }
    var cancelled: [String] { state.withLock { $0.cancelled } }

    func fetch(_ key: SegmentReadAheadKey, _ completion: @escaping @Sendable (Value) -> Void) -> (@Sendable () -> Void)?
    {
        state.withLock {
            $0.started.append(key)
            $0.completions[key.uri] = completion
        }
        return { [self] in state.withLock { $0.cancelled.append(key.uri) } }
    }

    /// Answers the request for `key` (once).
    func answer(_ key: SegmentReadAheadKey, _ value: Value) {
        let completion = state.withLock { $0.completions.removeValue(forKey: key.uri) }
        completion?(value)
    }
}

@Suite("Segments fetched ahead of their inspection")
struct ReadAheadTests {
    typealias Key = SegmentReadAheadKey
    typealias Value = Result<[UInt8], any Error>

    static func keys(_ count: Int) -> [Key] {
        (0..<count).map { Key(uri: "http://127.0.0.1/seg\($0).ts", range: nil) }
    }

    /// The body the test fetch gives for `key`: its URI's bytes.
    static func body(_ key: Key) -> [UInt8] { Array(key.uri.utf8) }

    /// A read-ahead whose fetches answer at once with `answer`.
    static func immediate(
        _ plan: [Key], window: Int, maximumInFlight: Int = 8, permits: Permits? = nil,
        _ answer: @escaping @Sendable (Key) -> Value = { .success(body($0)) }
    ) -> SegmentReadAhead<Value> {
        SegmentReadAhead<Value>(
            plan: plan, window: window, byteBudget: 1 << 20, maximumInFlight: maximumInFlight, permits: permits,
            size: { (try? $0.get().count) ?? 0 }
        ) { key, completion in
            completion(answer(key))
            return nil
        }
    }

    @Test func fetchesNoFurtherAheadThanTheWindow() async throws {
        let keys = Self.keys(10)
        let ahead = Self.immediate(keys, window: 3)
        ahead.start()
        #expect(ahead.started == 3)
        let first = try #require(ahead.take(keys[0]))
        #expect(try await first.value().get() == Self.body(keys[0]))
        // Reading one moves the window on by one.
        #expect(ahead.started == 4)
        // A segment read before its turn is fetched by its reader, and never fetched ahead.
        #expect(ahead.take(keys[6]) == nil)
        #expect(ahead.started == 4)
        for key in keys[1...3] {
            let pending = try #require(ahead.take(key))
            #expect(try await pending.value().get() == Self.body(key))
        }
        // Positions 4, 5 and 7 (6 was read already): three more, not four.
        #expect(ahead.started == 7)
        ahead.stop()
        // Once stopped, every read goes to the network directly.
        #expect(ahead.take(keys[4]) == nil)
        #expect(ahead.started == 7)
    }

    @Test func aSegmentPlannedTwiceIsFetchedTwice() async throws {
        let keys = Self.keys(2)
        let ahead = Self.immediate([keys[0], keys[1], keys[0]], window: 4)
        ahead.start()
        #expect(ahead.started == 3)
        #expect(try await #require(ahead.take(keys[0])).value().get() == Self.body(keys[0]))
        #expect(try await #require(ahead.take(keys[0])).value().get() == Self.body(keys[0]))
        // A third read of it is not in the plan: read directly.
        #expect(ahead.take(keys[0]) == nil)
        ahead.stop()
    }

    @Test func aFailedFetchAheadFailsItsReadAndNoOther() async throws {
        struct Refused: Error {}
        let keys = Self.keys(3)
        let ahead = Self.immediate(keys, window: 3) { key in
            key == keys[1] ? .failure(Refused()) : .success(Self.body(key))
        }
        ahead.start()
        #expect(try await #require(ahead.take(keys[0])).value().get() == Self.body(keys[0]))
        let failing = try #require(ahead.take(keys[1]))
        let failed = await failing.value()
        #expect(throws: Refused.self) { try failed.get() }
        #expect(try await #require(ahead.take(keys[2])).value().get() == Self.body(keys[2]))
        ahead.stop()
    }

    /// Requests in flight stay within the bound, the next one starts as an answer completes, and
    /// answers that come out of order still reach the reader of their own segment.
    @Test func answersOutOfOrderReachTheirOwnReaders() async throws {
        let keys = Self.keys(5)
        let fetches = ManualFetches()
        let ahead = SegmentReadAhead<Value>(
            plan: keys, window: 5, byteBudget: 1 << 20, maximumInFlight: 2, size: { (try? $0.get().count) ?? 0 }
        ) { fetches.fetch($0, $1) }
        ahead.start()
        #expect(fetches.started == Array(keys[0..<2]))
        // The second answer first: it frees a request, and the third segment is asked for.
        fetches.answer(keys[1], .success(Self.body(keys[1])))
        #expect(fetches.started == Array(keys[0..<3]))
        // A reader waiting for the first segment gets the first body, not the one that came first.
        let first = try #require(ahead.take(keys[0]))
        async let firstBody = first.value()
        fetches.answer(keys[0], .success(Self.body(keys[0])))
        #expect(try await firstBody.get() == Self.body(keys[0]))
        #expect(try await #require(ahead.take(keys[1])).value().get() == Self.body(keys[1]))
        // Two answers in, two more asked for: never more than two in flight.
        #expect(fetches.started == Array(keys[0..<4]))
        ahead.stop()
        // What was still on its way is cancelled, and nothing more is asked for.
        #expect(Set(fetches.cancelled) == Set(keys[2..<4].map(\.uri)))
        fetches.answer(keys[2], .success(Self.body(keys[2])))
        #expect(fetches.started == Array(keys[0..<4]))
    }

    /// Each request ahead holds one of the fetcher's permits: none free, none started, and the
    /// reader fetches its segment itself.
    @Test func aReadAheadWaitsForNoPermit() async throws {
        let keys = Self.keys(3)
        let permits = Permits(2)
        #expect(permits.tryAcquire())
        let fetches = ManualFetches()
        let ahead = SegmentReadAhead<Value>(
            plan: keys, window: 3, byteBudget: 1 << 20, maximumInFlight: 3, permits: permits,
            size: { (try? $0.get().count) ?? 0 }
        ) { fetches.fetch($0, $1) }
        ahead.start()
        // One permit was free: one request.
        #expect(fetches.started == [keys[0]])
        #expect(!permits.tryAcquire())
        fetches.answer(keys[0], .success(Self.body(keys[0])))
        // Its permit went back and was taken again for the next segment.
        #expect(fetches.started == Array(keys[0..<2]))
        ahead.stop()
        fetches.answer(keys[1], .success(Self.body(keys[1])))
        // Both permits are free again once the read-ahead's answers are in.
        permits.release()
        #expect(permits.tryAcquire() && permits.tryAcquire())
        #expect(!permits.tryAcquire())
    }

    @Test func everySegmentOfARemoteStreamIsFetchedOnce() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            (try await Remote.check(server.url("compliant/master.m3u8")), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        // A segment whole, and the byte ranges of it that the I-frame playlists name (its start,
        // which holds the tables, and its I-frame): each request once.
        let segments = requests.filter { $0.path.hasSuffix(".ts") }.map { request in
            request.path + (request.headers.first { $0.0.lowercased() == "range" }.map { " " + $0.1 } ?? "")
        }
        #expect(!segments.isEmpty)
        #expect(segments.count == Set(segments).count, "fetched more than once: \(segments.sorted())")
        #expect(report.variants.allSatisfy { $0.segmentsMeasured == $0.segmentCount && $0.segmentCount != nil })
    }

    /// The second line of `seg0.aac` takes the first one's facts (SegmentFactsCache): one GET,
    /// three segments measured.
    @Test func aSegmentListedTwiceIsFetchedOnceAndMeasuredTwice() async throws {
        let folder = try TemporaryFolder()
        for name in ["seg0.aac", "seg1.aac"] {
            try folder.write(
                try Data(contentsOf: URL(fileURLWithPath: Remote.samples + "/packed-audio/audio/" + name)), to: name)
        }
        try folder.write(
            Data(
                """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:6
                #EXTINF:6.013968,
                seg0.aac
                #EXTINF:5.990748,
                seg1.aac
                #EXTINF:6.013968,
                seg0.aac
                #EXT-X-ENDLIST

                """.utf8), to: "index.m3u8")
        let (report, requests) = try await Remote.withServer(folder: folder.url.path) { server in
            (try await Remote.check(server.url("index.m3u8")), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        #expect(requests.filter { $0.path == "/seg0.aac" }.count == 1)
        #expect(report.variants.first?.segmentsMeasured == 3)
    }

    @Test func oneConnectionStillReadsEverySegment() async throws {
        var options = Remote.fast
        options.maximumConnections = 1
        let (report, requests) = try await Remote.withSamplesServer { server in
            (try await Remote.check(server.url("packed-audio/audio/index.m3u8"), options: options), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        #expect(
            requests.map(\.path).filter { $0.hasSuffix(".aac") }.sorted()
                == ["/packed-audio/audio/seg0.aac", "/packed-audio/audio/seg1.aac", "/packed-audio/audio/seg2.aac"])
        #expect(report.variants.first?.segmentsMeasured == 3)
    }
    /// A failure in the middle of a batch fetched ahead lands on its own segment (line, status),
    /// a failure that heals is retried and reported for its segment, and every other segment
    /// is measured from its own body.
    @Test func failuresInTheMiddleOfAReadAheadLandOnTheirOwnSegments() async throws {
        let folder = try TemporaryFolder()
        let names = (0..<24).map { "s\($0).aac" }
        for (index, name) in names.enumerated() {
            try folder.write(
                try Data(contentsOf: URL(fileURLWithPath: Remote.samples + "/packed-audio/audio/seg\(index % 3).aac")),
                to: name)
        }
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n"
            + names.map { "#EXTINF:6.0,\n\($0)\n" }.joined() + "#EXT-X-ENDLIST\n"
        try folder.write(Data(playlist.utf8), to: "index.m3u8")
        let (report, requests) = try await Remote.withServer(folder: folder.url.path) { server in
            server.inject(.status(404), at: "s13.aac")
            server.inject(.failFirst(times: 1, status: 503), at: "s17.aac")
            return (try await Remote.check(server.url("index.m3u8")), server.requests)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("HTTP 404") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("s13.aac") == true, "\(unreadable)")
        // s13.aac's EXTINF is on line 30: three header lines, then two per segment (EXTINF, URI).
        #expect(unreadable.first?.location?.line == 3 + 2 * 13 + 1)
        let retried = report.findings("delivery-retried")
        #expect(retried.count == 1)
        #expect(retried.first?.message.contains("s17.aac") == true, "\(retried)")
        #expect(report.variants.first?.segmentsMeasured == 23)
        // The 404 is not retried; the 503 once; every other segment fetched once.
        #expect(requests.filter { $0.path == "/s13.aac" }.count == 1)
        #expect(requests.filter { $0.path == "/s17.aac" }.count == 2)
        #expect(requests.filter { $0.path.hasSuffix(".aac") }.count == 25)
    }
}

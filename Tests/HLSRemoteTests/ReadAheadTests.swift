import Foundation
import HLSCheck
@testable import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// Segments are fetched ahead of their inspection (issue 11): within a window, each once.
@Suite("Segments fetched ahead of their inspection")
struct ReadAheadTests {
    static func keys(_ count: Int) -> [SegmentReadAhead.Key] {
        (0..<count).map { SegmentReadAhead.Key(uri: "http://127.0.0.1/seg\($0).ts", range: nil) }
    }

    /// The body the test fetch gives for `key`: its URI's bytes.
    static func body(_ key: SegmentReadAhead.Key) -> [UInt8] { Array(key.uri.utf8) }

    @Test func fetchesNoFurtherAheadThanTheWindow() async throws {
        let keys = Self.keys(10)
        let ahead = SegmentReadAhead(plan: keys, window: 3, byteBudget: 1 << 20) { Self.body($0) }
        ahead.start()
        #expect(ahead.started == 3)
        let first = try #require(ahead.take(keys[0]))
        #expect(try await first.value == Self.body(keys[0]))
        // Reading one moves the window on by one.
        #expect(ahead.started == 4)
        // A segment read before its turn is fetched by its reader, and never fetched ahead.
        #expect(ahead.take(keys[6]) == nil)
        #expect(ahead.started == 4)
        for key in keys[1...3] {
            let task = try #require(ahead.take(key))
            #expect(try await task.value == Self.body(key))
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
        let ahead = SegmentReadAhead(plan: [keys[0], keys[1], keys[0]], window: 4, byteBudget: 1 << 20) { Self.body($0) }
        ahead.start()
        #expect(ahead.started == 3)
        #expect(try await #require(ahead.take(keys[0])).value == Self.body(keys[0]))
        #expect(try await #require(ahead.take(keys[0])).value == Self.body(keys[0]))
        // A third read of it is not in the plan: read directly.
        #expect(ahead.take(keys[0]) == nil)
        ahead.stop()
    }

    @Test func aFailedFetchAheadFailsItsRead() async throws {
        struct Refused: Error {}
        let keys = Self.keys(3)
        let ahead = SegmentReadAhead(plan: keys, window: 3, byteBudget: 1 << 20) { key in
            if key == keys[1] { throw Refused() }
            return Self.body(key)
        }
        ahead.start()
        let failing = try #require(ahead.take(keys[1]))
        await #expect(throws: Refused.self) { try await failing.value }
        #expect(try await #require(ahead.take(keys[2])).value == Self.body(keys[2]))
        ahead.stop()
    }

    @Test func everySegmentOfARemoteStreamIsFetchedOnce() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            (try await Remote.check(server.url("compliant/master.m3u8")), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        let segments = requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect(!segments.isEmpty)
        #expect(segments.count == Set(segments).count, "fetched more than once: \(segments.sorted())")
        #expect(report.variants.allSatisfy { $0.segmentsMeasured == $0.segmentCount && $0.segmentCount != nil })
    }

    @Test func aSegmentListedTwiceIsFetchedAndMeasuredTwice() async throws {
        let folder = try TemporaryFolder()
        for name in ["seg0.aac", "seg1.aac"] {
            try folder.write(try Data(contentsOf: URL(fileURLWithPath: Remote.samples + "/packed-audio/audio/" + name)), to: name)
        }
        try folder.write(Data("""
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
        #expect(requests.filter { $0.path == "/seg0.aac" }.count == 2)
        #expect(report.variants.first?.segmentsMeasured == 3)
    }

    @Test func oneConnectionStillReadsEverySegment() async throws {
        var options = Remote.fast
        options.maximumConnections = 1
        let (report, requests) = try await Remote.withSamplesServer { server in
            (try await Remote.check(server.url("packed-audio/audio/index.m3u8"), options: options), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        #expect(requests.map(\.path).filter { $0.hasSuffix(".aac") }.sorted()
            == ["/packed-audio/audio/seg0.aac", "/packed-audio/audio/seg1.aac", "/packed-audio/audio/seg2.aac"])
        #expect(report.variants.first?.segmentsMeasured == 3)
    }
}

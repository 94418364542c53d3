import Foundation
import HLSCheck
import MediaInspection
import TestSupport
import Testing
import StreamSources

/// `Checker.knownSegments`: records a caller vouches for are taken instead of reading segments,
/// only where the playlist still lists what they describe.
@Suite struct KnownSegmentsTests {
    static let multivariant = PackageRoot.url.appendingPathComponent("Samples/compliant/master.m3u8").path

    /// A segment source that reads nothing: every segment it is asked for is unreadable.
    struct NothingReadable: SegmentByteSource {
        func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
            throw InputReadError(uri: uri, reason: "not readable in this test")
        }
    }

    /// The analysis's records of every measured playlist, with `change` applied to each.
    static func known(_ analysis: StreamAnalysis, _ change: (inout SegmentRecord) -> Void = { _ in }) -> KnownSegments {
        var known = KnownSegments()
        for (uri, measurement) in analysis.measurements {
            known.set(
                measurement.records.map { record -> SegmentRecord? in
                    var record = record
                    change(&record)
                    return record
                }, forPlaylistAt: uri)
        }
        return known
    }

    @Test func knownRecordsStandInForSegmentsThatAreNeverRead() async throws {
        let full = try await Checker().check(Self.multivariant)
        let analysis = try await Checker().analyse(Self.multivariant)
        var checker = Checker(segmentSource: NothingReadable())
        checker.knownSegments = Self.known(analysis)
        let reused = try await checker.check(Self.multivariant)
        // Nothing could be read, and nothing needed to be: the same report as reading everything.
        #expect(reused.diagnostics == full.diagnostics)
        #expect(reused.variants == full.variants)
        #expect(!reused.variants.isEmpty && reused.variants.allSatisfy { ($0.segmentCount ?? 0) > 0 })
    }

    @Test func theReportIsMadeFromTheKnownRecords() async throws {
        let analysis = try await Checker().analyse(Self.multivariant)
        var checker = Checker()
        checker.knownSegments = Self.known(analysis) { $0.bytes += 100_000 }
        let report = try await checker.check(Self.multivariant)
        // 100 000 bytes more in every segment: every variant now peaks far above its BANDWIDTH.
        #expect(report.diagnostics.contains { $0.rule == "bandwidth-below-peak" })
    }

    @Test func aRecordOfAnotherSegmentIsIgnoredAndTheSegmentRead() async throws {
        let full = try await Checker().check(Self.multivariant)
        let analysis = try await Checker().analyse(Self.multivariant)
        var checker = Checker(segmentSource: NothingReadable())
        // Every record claims another EXTINF than its playlist's: none describes its segment.
        checker.knownSegments = Self.known(analysis) {
            $0.extinf += 1; $0.bytes += 100_000
        }
        let report = try await checker.check(Self.multivariant)
        #expect(report.diagnostics != full.diagnostics)
        #expect(report.diagnostics.contains { $0.rule == "segment-unreadable" })
        #expect(!report.diagnostics.contains { $0.rule == "bandwidth-below-peak" })
    }
}

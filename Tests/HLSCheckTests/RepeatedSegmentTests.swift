import Foundation
import HLSCheck
import MediaFormats
import MediaInspection
import TestSupport
import Testing

/// A segment request listed on many lines, or by two playlists, is read once per check
/// (SegmentFactsCache); a segment read twice that changed in between makes its line say so.
@Suite struct RepeatedSegmentTests {
    /// Counts the reads of each segment file, by the file's name.
    actor ReadCounter {
        private(set) var reads: [String: Int] = [:]
        /// Counts one read of `uri`; returns how many there were, this one included.
        func count(_ uri: String) -> Int {
            let name = URL(fileURLWithPath: uri).lastPathComponent
            reads[name, default: 0] += 1
            return reads[name] ?? 0
        }
    }

    /// Local files, each read counted; from its second read on, the file named `changing.name`
    /// holds `changing.bytes` instead (a file rewritten while the check runs).
    struct CountingSource: SegmentByteSource {
        let counter = ReadCounter()
        var changing: (name: String, bytes: [UInt8])?
        let base = LocalSegmentSource()

        func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
            _ = await counter.count(uri)
            return try await base.read(uri, range: range)
        }

        func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
            let reads = await counter.count(uri)
            if let changing, uri.hasSuffix("/" + changing.name), reads > 1 { return InMemoryBytes(changing.bytes) }
            return try await base.open(uri, range: range)
        }

        func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
            base.residentByteEstimate(uri, range: range)
        }
    }

    static let sample = PackageRoot.url.appendingPathComponent("Samples/compliant")

    static func segmentBytes(_ path: String) throws -> Data {
        try Data(contentsOf: sample.appendingPathComponent(path))
    }

    static func mediaPlaylist(_ names: [String]) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for name in names { text += "#EXTINF:5.990756,\n\(name)\n" }
        return Data((text + "#EXT-X-ENDLIST\n").utf8)
    }

    @Test(arguments: [false, true])
    func aSegmentListedOnFiftyLinesIsReadOnce(decode: Bool) async throws {
        let folder = try TemporaryFolder()
        try folder.write(try Self.segmentBytes("audio/seg1.ts"), to: "seg.ts")
        try folder.write(Self.mediaPlaylist(Array(repeating: "seg.ts", count: 50)), to: "index.m3u8")
        var configuration = CheckConfiguration()
        configuration.decode = decode
        let source = CountingSource()
        let report = try await Checker(configuration: configuration, segmentSource: source).check(
            folder.path("index.m3u8"))
        #expect(await source.counter.reads["seg.ts"] == 1)
        #expect(report.variants.first?.segmentCount == 50)
    }

    @Test func filesListedByAnAudioOnlyVariantAndAnAudioRenditionAreReadOnce() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Self.sample, to: folder.url.appendingPathComponent("compliant"))
        let multivariant = try makeAudioRenditionShareTheAudioOnlySegments(compliantAt: folder.path("compliant"))

        let source = CountingSource()
        let analysis = try await Checker(segmentSource: source).analyse(multivariant)
        #expect(analysis.measurements.keys.contains { $0.hasSuffix("audio/rendition.m3u8") })
        #expect(analysis.measurements.keys.contains { $0.hasSuffix("audio/index.m3u8") })
        // Each name is read once for the audio (v0 and v1 have files of the same names: 3 reads),
        // and twice for each of the two I-frame playlists over v0's and v1's files (the start of
        // the resource, which is also its I-frame's initialization section, and the I-frame): 7.
        #expect(await source.counter.reads == ["seg0.ts": 7, "seg1.ts": 7, "seg2.ts": 7])
        // Both playlists have the same measurement of the same files.
        let own = try #require(analysis.measurements.first { $0.key.hasSuffix("audio/index.m3u8") }?.value)
        let rendition = try #require(analysis.measurements.first { $0.key.hasSuffix("audio/rendition.m3u8") }?.value)
        #expect(own.peakBitrate == rendition.peakBitrate && own.peakBitrate != nil)
    }

    /// `a.ts` on line 5 (its EXTINF) and again after more distinct segments than the cache keeps records
    /// of: it is read again, finds other bytes, and that line says so; `b.ts`, read again
    /// unchanged, says nothing.
    @Test func aSegmentThatChangedBetweenTwoReadsMakesTheLaterLineSaySo() async throws {
        let folder = try TemporaryFolder()
        let segment = try Self.segmentBytes("audio/seg1.ts")
        let other = try Self.segmentBytes("audio/seg2.ts")
        #expect(segment.count != other.count)
        try folder.write(segment, to: "a.ts")
        try folder.write(segment, to: "b.ts")
        let fillers = (0..<1_500).map { "f\($0).ts" }
        for name in fillers { try FileManager.default.linkItem(atPath: folder.path("a.ts"), toPath: folder.path(name)) }
        try folder.write(Self.mediaPlaylist(["a.ts", "b.ts"] + fillers + ["a.ts", "b.ts"]), to: "index.m3u8")

        var source = CountingSource()
        source.changing = ("a.ts", [UInt8](other))
        let report = try await Checker(segmentSource: source).check(folder.path("index.m3u8"))
        let reads = await source.counter.reads
        #expect(reads["a.ts"] == 2, "\(reads["a.ts"] ?? -1) \(report.diagnostics.prefix(3))")
        let lastA = 5 + 2 * (2 + fillers.count)
        let changed = report.diagnostics.filter { $0.message.contains("changed while the stream was checked") }
        #expect(changed.map { $0.location?.line } == [lastA], "\(changed)")
        #expect(changed.first?.rule == "segment-unreadable")
        #expect(changed.first?.message.contains("line 5") == true)
        #expect(changed.first?.message.contains("\(segment.count) bytes") == true)
    }
}

import Foundation
import Testing
@testable import MediaInspection
import MediaFormats
import TestSupport

/// An MPEG-TS segment is read once: the scanner takes the bytes libavformat reads
/// through the inspector's I/O callback, and reads itself only what libavformat skipped. The
/// facts are those of the two separate passes, intact or damaged.
struct OnePassInspectionTests {
    /// Serves bytes from memory and counts what is read (not the in-memory shortcut).
    final class CountingBytes: RandomAccessBytes {
        let storage: [UInt8]
        private(set) var bytesRead = 0

        init(_ storage: [UInt8]) {
            self.storage = storage
        }

        var count: Int { storage.count }

        func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
            let count = try InMemoryBytes(storage).read(at: offset, into: buffer)
            bytesRead += count
            return count
        }
    }

    static let transportStreams = ["audio-aac.ts", "video-h264-aac.ts", "gstreamer-audio.ts"]

    /// The facts of libavformat's pass and the scanners' walk, each reading the bytes itself.
    static func twoPasses(_ bytes: [UInt8], uri: String, streamInfo: Bool) throws -> SegmentFacts {
        let segment = StreamingInspectionTests.WindowedBytes(storage: bytes)
        let demuxed = try SegmentInspector.demuxPass(
            uri: uri, segment: segment, initSection: nil, wantsStreamInfo: streamInfo, wantsDecode: false,
            maximumImagePixels: ImageHeader.defaultMaximumPixels, gauge: nil)
        let scanned = try SegmentInspector.scanPass(
            uri: uri, segment: segment, container: demuxed.container, maximumID3Bytes: EmbeddedID3.maximumPESSize)
        return SegmentInspector.finish(demuxed, scanned, maximumImagePixels: ImageHeader.defaultMaximumPixels)
    }

    @Test(arguments: transportStreams, [nil] + DamagedSegmentTests.Damage.allCases.map(Optional.some))
    func oneReadGivesTheFactsOfTwoPasses(_ file: String, damage: DamagedSegmentTests.Damage?) throws {
        let original = try Fixtures.bytes(file)
        let bytes = damage?.apply(original) ?? original
        for streamInfo in [false, true] {
            let once = try SegmentInspector.inspect(
                uri: file, segment: StreamingInspectionTests.WindowedBytes(storage: bytes), initSection: nil,
                wantsStreamInfo: streamInfo)
            #expect(
                once == (try Self.twoPasses(bytes, uri: file, streamInfo: streamInfo)),
                "\(file) \(damage.map(\.rawValue) ?? "intact") stream info \(streamInfo)")
        }
    }

    @Test func transportStreamSegmentIsReadOnce() async throws {
        let folder = try StreamingInspectionTests.bigSegments()
        let ts = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.ts")))
        let counted = CountingBytes(ts)
        let facts = try SegmentInspector.inspect(
            uri: "big.ts", segment: counted, initSection: nil, wantsStreamInfo: false)
        #expect(facts.problem == nil)
        #expect(facts.continuity?.errorCount == 0)
        // The container sniff reads the first few KiB; every other byte is read once (two
        // passes read each twice).
        #expect(
            counted.bytesRead <= ts.count + (8 << 10), "\(counted.bytesRead) bytes read for a \(ts.count)-byte segment")
        #expect(facts == (try Self.twoPasses(ts, uri: "big.ts", streamInfo: false)))
    }

    /// libavformat's reads as they come: a probe re-read, a jump to the end and back, a gap it
    /// never reads. The scanner sees each byte once, in order, and reads the gap itself.
    @Test func feedTakesEachByteOnceInOrder() throws {
        let intact = try Fixtures.bytes("video-h264-aac.ts")
        // Bit flips give continuity gaps all along: a byte fed twice or skipped would show.
        for (bytes, segmentOffset) in [(intact, 0), (DamagedSegmentTests.Damage.bitFlipped.apply(intact), 1000)] {
            let whole = TransportStreamScanner(count: bytes.count)
            bytes.withUnsafeBytes { whole.feed($0) }
            let expected = whole.finish()
            // What libavformat reads: an init section of `segmentOffset` bytes, then the segment.
            let input = [UInt8](repeating: 0x47, count: segmentOffset) + bytes
            let feed = ScanFeed(scanner: TransportStreamScanner(count: bytes.count), segmentOffset: segmentOffset)
            func read(_ start: Int, _ end: Int) {
                input.withUnsafeBytes { feed.observe(UnsafeRawBufferPointer(rebasing: $0[start..<end]), at: start) }
            }
            read(0, segmentOffset + 3000)  // probe
            read(0, segmentOffset + 2000)  // read again from the start
            read(input.count - 5000, input.count)  // the end, for timing
            read(segmentOffset + 2500, segmentOffset + 9000)  // on from the probe
            #expect(feed.scanner.consumed == 9000)
            read(segmentOffset + 12_000, segmentOffset + 15_000)  // past a gap it never reads
            #expect(feed.scanner.consumed == 9000)
            try feed.complete(from: InMemoryBytes(bytes), bufferSize: 1024, gauge: nil)
            #expect(feed.scanner.consumed == bytes.count)
            let found = feed.scanner.finish()
            #expect(found.continuity == expected.continuity, "init section of \(segmentOffset) bytes")
            #expect(segmentOffset == 0 || found.continuity.errorCount > 0)
            #expect(found.tags == expected.tags)
        }
    }
}

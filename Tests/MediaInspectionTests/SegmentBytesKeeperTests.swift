import Foundation
import MediaFormats
@testable import MediaInspection
import TestSupport
import Testing

/// `hlscheck embed` rewrites the audio segments its analysis has just read, taking their bytes
/// from the analysis (SegmentBytesKeeper) instead of reading every file again. What a user would
/// notice if that went wrong: other facts than a check gives, a rewrite of other bytes than those
/// measured, or memory that grows with the stream (video segments kept, the budget ignored).
@Suite struct SegmentBytesKeeperTests {
    @Test(arguments: ["audio-aac.ts", "audio.aac", "audio-apic.mp3", "audio.ac3"])
    func aKeptSegmentHasTheFactsOfACheckAndIsHandedOverOnceAsItsFileHoldsIt(_ name: String) async throws {
        let keeper = SegmentBytesKeeper(byteBudget: 1 << 20)
        var inspector = SegmentInspector(source: LocalSegmentSource())
        let plain = try await inspector.inspect(SegmentRequest(uri: Fixtures.path(name), wantsStreamInfo: true))
        inspector.keeper = keeper
        let kept = try await inspector.inspect(SegmentRequest(uri: Fixtures.path(name), wantsStreamInfo: true))
        #expect(kept == plain, "read whole or where asked for, the same facts")
        #expect(keeper.take(Fixtures.path(name), range: nil) == (try Fixtures.bytes(name)))
        #expect(keeper.take(Fixtures.path(name), range: nil) == nil, "handed over once")
        #expect(keeper.keptBytes == 0)
    }

    @Test func aByteRangeIsKeptAsTheRangeAlone() async throws {
        let bytes = try Fixtures.bytes("audio-aac.ts")
        let range = SegmentByteRange(offset: 188 * 4, length: 188 * 10)
        let keeper = SegmentBytesKeeper(byteBudget: 1 << 20)
        var inspector = SegmentInspector(source: LocalSegmentSource())
        inspector.keeper = keeper
        _ = try await inspector.inspect(SegmentRequest(uri: Fixtures.path("audio-aac.ts"), range: range))
        #expect(keeper.take(Fixtures.path("audio-aac.ts"), range: nil) == nil, "the whole file was never read")
        #expect(
            keeper.take(Fixtures.path("audio-aac.ts"), range: range)
                == Array(bytes[range.offset..<range.offset + range.length]))
    }

    @Test func videoSegmentsAndSegmentsOverTheBudgetAreNotKept() async throws {
        let audio = try Fixtures.bytes("audio-aac.ts")
        let keeper = SegmentBytesKeeper(byteBudget: audio.count + 10)
        var inspector = SegmentInspector(source: LocalSegmentSource())
        inspector.keeper = keeper
        let video = try await inspector.inspect(SegmentRequest(uri: Fixtures.path("video-h264-aac.ts")))
        #expect(video.tracks.contains { $0.kind == .video })
        #expect(keeper.keptBytes == 0, "embed never rewrites a segment with video: nothing to keep it for")
        _ = try await inspector.inspect(SegmentRequest(uri: Fixtures.path("audio-aac.ts")))
        _ = try await inspector.inspect(SegmentRequest(uri: Fixtures.path("audio.aac")))
        #expect(keeper.keptBytes == audio.count, "the second segment would pass the budget")
        #expect(keeper.take(Fixtures.path("audio.aac"), range: nil) == nil)
        keeper.removeAll()
        #expect(keeper.keptBytes == 0)
        #expect(keeper.take(Fixtures.path("audio-aac.ts"), range: nil) == nil)
    }

    @Test func segmentsLargerThanTheScannersWindowAreReadWhereAskedForAndNotKept() async throws {
        let folder = try TemporaryFolder()
        let audio = try Fixtures.bytes("audio-aac.ts")
        var large: [UInt8] = []
        while large.count <= SegmentBytesKeeper.defaultMaximumSegmentBytes { large += audio }
        try folder.write(Data(large), to: "large.ts")
        let keeper = SegmentBytesKeeper(byteBudget: 64 << 20)
        var inspector = SegmentInspector(source: LocalSegmentSource())
        inspector.keeper = keeper
        let facts = try await inspector.inspect(SegmentRequest(uri: folder.path("large.ts")))
        #expect(facts.byteCount == large.count)
        #expect(keeper.keptBytes == 0)
    }

    /// The same poster in every segment is hashed once; pictures of the same size with other
    /// bytes keep hashes of their own, also past the memo's capacity.
    @Test func rememberedPictureHashesAreThoseOfTheirOwnBytes() {
        let images = DecodedImages()
        let pictures = (0...DecodedImages.capacity).map { index in [UInt8](repeating: 7, count: 100) + [UInt8(index)] }
        for round in 0..<2 {
            for picture in pictures + [pictures[0]] {
                #expect(images.contentHash(picture) == SHA256.hexDigest(picture), "round \(round)")
            }
        }
    }
}

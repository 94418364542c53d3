import Foundation
import MediaFormats
@testable import MediaInspection
import TestSupport
import Testing

/// One inspector decodes a poster once however many segments carry it (DecodedImages), and
/// never hands one image's decoding to another: two posters of the same size whose headers
/// say different heights keep their own.
@Suite struct DecodedImagesTests {
    @Test func eachPosterKeepsItsOwnDecodingThroughOneInspector() async throws {
        let original = try Fixtures.bytes("audio-apic.mp3")
        // The JPEG's SOF0 header: 48 rows of 64 pixels; the copy says 40 rows, same byte count.
        let sof = try #require(original.firstRange(of: [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x30, 0x00, 0x40]))
        var shorter = original
        shorter[sof.lowerBound + 6] = 0x28
        let folder = try TemporaryFolder()
        try folder.write(Data(original), to: "a.mp3")
        try folder.write(Data(shorter), to: "b.mp3")
        try folder.write(Data(original), to: "c.mp3")
        let inspector = SegmentInspector(source: LocalSegmentSource())

        var sizes: [String] = []
        var hashes: Set<String> = []
        for name in ["a.mp3", "b.mp3", "c.mp3", "b.mp3"] {
            let facts = try await inspector.inspect(SegmentRequest(uri: folder.path(name)))
            let poster = try #require(facts.artwork.first)
            #expect(
                poster.byteCount == (try Fixtures.bytes("poster.jpg")).count,
                "the same size: only the content tells them apart")
            sizes.append("\(poster.width.map(String.init) ?? "?")x\(poster.height.map(String.init) ?? "?")")
            hashes.insert(poster.contentHash)
        }
        #expect(sizes == ["64x48", "64x40", "64x48", "64x40"], "\(sizes)")
        #expect(hashes.count == 2)
    }

    @Test func aKnownImageIsNotDecodedAgainAndTheMemoStaysBounded() {
        let images = DecodedImages()
        var decodes = 0
        func look(_ index: Int) -> PixelSize? {
            let key = DecodedImages.Key(
                contentHash: "\(index)", byteCount: 100, mimeType: "image/jpeg", maximumPixels: 100)
            let result = images.result(key) {
                decodes += 1
                return .success(PixelSize(width: index, height: 1))
            }
            return try? result.get()
        }
        for index in 0..<DecodedImages.capacity { #expect(look(index)?.width == index) }
        #expect(decodes == DecodedImages.capacity)
        #expect(look(5)?.width == 5)
        #expect(decodes == DecodedImages.capacity, "remembered: not decoded again")
        #expect(look(DecodedImages.capacity)?.width == DecodedImages.capacity)
        #expect(look(5)?.width == 5)
        #expect(decodes == DecodedImages.capacity + 2, "one image past the capacity starts the memo over")
    }
}

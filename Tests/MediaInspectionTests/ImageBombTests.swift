import Foundation
@testable import MediaInspection
@testable import MediaEncoding
import MediaFormats
import Testing
import TestSupport
import StreamSources

/// Images that declare more pixels than they carry: refused from their header, before a
/// decoder allocates width × height.
@Suite("Image bombs and segment limits")
struct ImageBombTests {
    /// A complete, valid PNG of `width` × `height` whose IDAT holds a few bytes: well under
    /// 200 bytes on disk, gigabytes once decoded.
    static func pngBomb(width: UInt32 = 16_000, height: UInt32 = 16_000) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            var body = Array(type.utf8) + data
            let crc = crc32(body)
            body = be32(UInt32(data.count)) + body + be32(crc)
            return body
        }
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        // zlib stream of one stored (uncompressed) block of 16 zero bytes.
        let raw = [UInt8](repeating: 0, count: 16)
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x10, 0x00, 0xEF, 0xFF] + raw + be32(adler32(raw))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat)
            + chunk("IEND", [])
    }

    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    /// An ID3v2.4 tag with one APIC frame holding `image`.
    static func apicTag(_ image: [UInt8], mimeType: String = "image/png") -> [UInt8] {
        func synchsafe(_ n: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((n >> $0) & 0x7F) } }
        let body = [0x00] + Array(mimeType.utf8) + [0x00, 0x03, 0x00] + image
        let frame = Array("APIC".utf8) + synchsafe(body.count) + [0, 0] + body
        return Array("ID3".utf8) + [4, 0, 0] + synchsafe(frame.count) + frame
    }

    @Test func readsThePixelSizeFromPNGAndJPEGHeaders() throws {
        #expect(ImageHeader.size(Self.pngBomb()) == PixelSize(width: 16_000, height: 16_000))
        #expect(ImageHeader.size(try Fixtures.bytes("poster.jpg")) == PixelSize(width: 64, height: 48))
        #expect(ImageHeader.size(try Fixtures.bytes("poster-alpha.png")) == PixelSize(width: 32, height: 24))
        #expect(ImageHeader.size(Array("GIF89a".utf8)) == nil)
    }

    @Test func aJPEGIsJudgedByItsLargestFrameHeaderWhereverItIs() throws {
        // A small SOF0 first, junk, then a second SOF0 declaring 30000 × 30000: a decoder
        // re-sizes at every frame header, so the largest counts.
        let small: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10]
        let huge: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30]
        let jpeg: [UInt8] = [0xFF, 0xD8] + small + [0x12, 0x34, 0x56] + huge + [UInt8](repeating: 0, count: 16)
        #expect(ImageHeader.size(jpeg) == PixelSize(width: 30_000, height: 30_000))
        #expect(ImageHeader.refusal(jpeg, maximumPixels: 1_000_000)?.contains("30000x30000") == true)
    }

    @Test func decoderRefusesAPNGBombFromItsHeader() {
        guard case .failure(let failure) = PosterDecoder.decode(Self.pngBomb(), mimeType: "image/png") else {
            Issue.record("a 16000x16000 PNG was decoded")
            return
        }
        // This message comes only from the header check, which runs before any decoder exists.
        #expect(
            failure.description
                == "PNG declares 16000x16000 pixels, over the limit of 40000000 pixels; not decoded (raise the limit with --max-image-pixels)"
        )
        // Within a raised limit the same bytes reach the decoder (and fail there: 16 bytes of data).
        guard
            case .failure(let decoded) = PosterDecoder.decode(
                Self.pngBomb(width: 4, height: 4), mimeType: "image/png", maximumPixels: 100)
        else {
            return
        }
        #expect(!decoded.description.contains("over the limit"))
    }

    @Test func fitRefusesAPNGBombBeforeDecoding() {
        let error = #expect(throws: EncodingFailure.self) {
            try ImageFitter.fit(Self.pngBomb(), mimeType: "image/png", maxBytes: 10_000)
        }
        #expect(error?.description.contains("over the limit of 40000000 pixels") == true)
        #expect(error?.description.contains("--max-image-pixels") == true)
    }

    /// An ADTS segment whose APIC is the bomb: inspect says why the poster is not shown, and
    /// libav's stream-info pass (which decodes attached pictures) never decodes it either.
    @Test func inspectingASegmentWithAnAPICBombStaysSmall() async throws {
        let segment = Self.apicTag(Self.pngBomb()) + (try Fixtures.bytes("audio.aac"))
        let source = MemorySource(files: ["bomb.aac": segment])
        let facts = try await SegmentInspector(source: source).inspect(
            SegmentRequest(uri: "bomb.aac", wantsStreamInfo: true))
        let artwork = try #require(facts.artwork.first)
        #expect(artwork.width == nil)
        #expect(artwork.decodeProblem?.contains("declares 16000x16000 pixels, over the limit") == true)
        let picture = facts.tracks.first { $0.kind == .attachedPicture }
        #expect(
            picture?.width == nil || picture?.width == 0,
            "libav decoded the 16000x16000 picture: \(String(describing: picture))")
        #expect(facts.tracks.contains { $0.kind == .audio })
    }

    @Test func anID3TagOverTheLimitIsReportedNotParsed() async throws {
        let segment =
            Self.apicTag(try Fixtures.bytes("poster.jpg"), mimeType: "image/jpeg") + (try Fixtures.bytes("audio.aac"))
        let inspector = SegmentInspector(source: MemorySource(files: ["a.aac": segment]), maximumID3Bytes: 100)
        let facts = try await inspector.inspect(SegmentRequest(uri: "a.aac"))
        #expect(facts.artwork.isEmpty)
        let problem = try #require(facts.id3.first?.problem)
        #expect(
            problem.contains("is over the limit of 100 bytes; not read (raise it with --max-id3-bytes)"), "\(problem)")
        let relaxed = try await SegmentInspector(source: MemorySource(files: ["a.aac": segment])).inspect(
            SegmentRequest(uri: "a.aac"))
        #expect(relaxed.artwork.count == 1)
    }

    @Test func segmentSourceNamesTheByteLimitAndRefusesFolders() async throws {
        let folder = try TemporaryFolder(["seg.ts": String(repeating: "x", count: 5000), "dir.ts/.keep": ""])
        let source = LocalSegmentSource(maximumByteCount: 4096)
        let error = await #expect(throws: InputReadError.self) {
            try await source.read(folder.path("seg.ts"), range: nil)
        }
        #expect(
            error?.reason == "5000 bytes, over the limit of 4096 bytes per segment (raise it with --max-segment-bytes)")
        let folderError = await #expect(throws: InputReadError.self) {
            try await source.read(folder.path("dir.ts"), range: nil)
        }
        #expect(folderError?.reason == "is a folder, not a regular file; only regular files are read")
    }

    @Test func refusingSourceNeverAsksItsBase() async throws {
        let source = RefusingSegmentSource(
            base: MemorySource(files: ["outside.ts": [0x47]]), refused: ["outside.ts"], reason: "outside the root")
        let error = await #expect(throws: InputReadError.self) { try await source.read("outside.ts", range: nil) }
        #expect(error?.reason == "outside the root")
    }
}

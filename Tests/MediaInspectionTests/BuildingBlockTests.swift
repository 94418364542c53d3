import Testing
import StreamSources
@testable import MediaInspection

struct BuildingBlockTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesFIPSVectors(_ input: String, _ digest: String) {
        #expect(SHA256.hexDigest(Array(input.utf8)) == digest)
    }

    @Test func posterSizesComeFromDecoding() throws {
        #expect(
            try PosterDecoder.decode(Fixtures.bytes("poster.jpg"), mimeType: "image/jpeg").get()
                == PixelSize(width: 64, height: 48))
        #expect(
            try PosterDecoder.decode(Fixtures.bytes("poster.png"), mimeType: "image/png").get()
                == PixelSize(width: 40, height: 30))
        // Magic bytes win over a wrong MIME type.
        #expect(
            try PosterDecoder.decode(Fixtures.bytes("poster.png"), mimeType: "image/jpeg").get()
                == PixelSize(width: 40, height: 30))
    }

    @Test func imscCodecStringNamesTheProfileTheDocumentDesignates() {
        let text = Array(
            #"<tt xmlns="http://www.w3.org/ns/ttml" ttp:profile="http://www.w3.org/ns/ttml/profile/imsc1/text">"#.utf8)
        #expect(CodecStringBuilder.stpp(firstDocument: text) == "stpp.ttml.im1t")
        let image = Array(#"<tt ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/image">"#.utf8)
        #expect(CodecStringBuilder.stpp(firstDocument: image) == "stpp.ttml.im2i")
        #expect(
            CodecStringBuilder.stpp(firstDocument: Array(#"<tt xmlns="http://www.w3.org/ns/ttml">"#.utf8)) == "stpp")
    }

    @Test func avcCodecStringFromConfigurationRecordAndAnnexB() {
        #expect(CodecStringBuilder.avc1(extradata: [1, 0x64, 0x00, 0x1F, 0xFF]) == "avc1.64001f")
        #expect(
            CodecStringBuilder.avc1(annexB: [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0xAA][...])
                == "avc1.42c01e")
    }

    @Test func hevcCodecStringFollowsISO14496AnnexE() {
        // Main profile, Main tier, level 3.1, progressive + frame-only constraints (0x90).
        let ptl: [UInt8] = [0x01, 0x60, 0x00, 0x00, 0x00, 0x90, 0, 0, 0, 0, 0, 93]
        #expect(CodecStringBuilder.hevc(sampleEntry: "hvc1", profileTierLevel: ptl) == "hvc1.1.6.L93.90")
    }

    @Test func aacObjectTypeFromAudioSpecificConfigAndADTS() {
        #expect(CodecStringBuilder.audioObjectType(audioSpecificConfig: [0x12, 0x10]) == 2)
        #expect(CodecStringBuilder.audioObjectType(audioSpecificConfig: [0x2B, 0x92]) == 5)
        let adts = CodecStringBuilder.adts([0xFF, 0xF1, 0x50, 0x80, 0x0E, 0x5F, 0xFC][...])
        #expect(adts == .init(objectType: 2, sampleRate: 44100, channels: 2))
    }

    @Test(arguments: [
        ("https://cdn/x/seg1.ts?token=a.b", SegmentContainer.mpegTS),
        ("a/b/c.AAC", .adts), ("x.m4s", .fragmentedMP4), ("x.cmfa", .fragmentedMP4), ("x.ec3", .eac3),
    ])
    func containerFromExtension(_ uri: String, _ expected: SegmentContainer) {
        #expect(ContainerSniffer.container(extension: ContainerSniffer.pathExtension(of: uri)) == expected)
    }

    @Test func localSourceHonoursRangesAndRefusesOversizedReads() async throws {
        let all = try Fixtures.bytes("audio.ac3")
        let source = LocalSegmentSource(maximumByteCount: 4096)
        let part = try await source.read(Fixtures.path("audio.ac3"), range: SegmentByteRange(offset: 100, length: 50))
        #expect(part == Array(all[100..<150]))
        await #expect(throws: InputReadError.self) { try await source.read(Fixtures.path("audio.ac3"), range: nil) }
        await #expect(throws: InputReadError.self) {
            try await source.read(
                Fixtures.path("audio.ac3"), range: SegmentByteRange(offset: all.count - 10, length: 20))
        }
        await #expect(throws: InputReadError.self) { try await source.read(Fixtures.path("nope.ts"), range: nil) }
    }
}

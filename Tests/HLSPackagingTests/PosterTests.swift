import Testing
import MediaFormats
import HLSPackaging

@Suite struct PosterTests {
    @Test func recognisesJPEGAndPNG() throws {
        let jpeg = try TestMedia.jpegPoster()
        #expect(jpeg.mimeType == "image/jpeg")
        #expect(
            jpeg.frame
                == .attachedPicture(
                    AttachedPicture(
                        mimeType: "image/jpeg", pictureType: 3, description: "poster",
                        data: try TestMedia.fixture("poster.jpg"))))
        #expect(try TestMedia.pngPoster().mimeType == "image/png")
    }

    @Test(
        arguments: [
            ([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0], "GIF"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "WebP"),
            (Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "SVG"),
            ([0, 0, 0, 0x1C] + Array("ftypheic".utf8), "HEIF"),
            ([], "empty"),
            ([0x01, 0x02, 0x03], "unknown format"),
        ] as [([UInt8], String)])
    func refusesImagesThatAreNotJPEGOrPNG(_ bytes: [UInt8], named: String) {
        let error = #expect(throws: PackagingError.self) { try Poster(image: bytes) }
        #expect(error?.kind == .unsupportedImage)
        #expect(error?.description.contains(named) == true)
        #expect(error?.description.contains("JPEG or PNG") == true)
    }

    @Test func refusesAMediaSegmentGivenAsImage() throws {
        let error = #expect(throws: PackagingError.self) { try Poster(image: try TestMedia.fixture("audio-aac.ts")) }
        #expect(error?.description.contains("transport stream") == true)
    }
}

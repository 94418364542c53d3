import Testing
@testable import MediaInspection
@testable import MediaEncoding

/// `hlscheck embed --fit`: the poster is re-encoded to the largest JPEG under the byte budget.
/// The fixture is 640x360, 22.7 KB (testsrc2 at -q:v 2, see Fixtures/make-fixtures.sh).
@Suite struct ImageFitterTests {
    static let large = PixelSize(width: 640, height: 360)

    func largePoster() throws -> [UInt8] { try Fixtures.bytes("poster-large.jpg") }

    @Test(arguments: [40_000, 10_000, 3_000, 1_000])
    func fitsUnderBudgetAndDecodesAtTheReportedSize(budget: Int) throws {
        let fitted = try #require(try ImageFitter.fit(try largePoster(), mimeType: "image/jpeg", maxBytes: budget))
        #expect(fitted.data.count <= budget)
        #expect(fitted.mimeType == "image/jpeg")
        #expect(ImageFitter.qscaleRange.contains(fitted.quality))
        let decoded = try PosterDecoder.decode(fitted.data, mimeType: fitted.mimeType).get()
        #expect(decoded == PixelSize(width: fitted.width, height: fitted.height))
    }

    @Test func generousBudgetKeepsFullSizeAtBestQuality() throws {
        let fitted = try #require(try ImageFitter.fit(try largePoster(), mimeType: "image/jpeg", maxBytes: 40_000))
        #expect(PixelSize(width: fitted.width, height: fitted.height) == Self.large)
        #expect(fitted.quality == 2)
        #expect(fitted.description == "JPEG 640x360 at qscale 2, \(ImageFitter.groupedDigits(fitted.data.count)) bytes")
    }

    @Test func smallBudgetScalesDownAndSaysSo() throws {
        let fitted = try #require(try ImageFitter.fit(try largePoster(), mimeType: "image/jpeg", maxBytes: 3_000))
        #expect(fitted.width < 640)
        #expect(fitted.description.hasPrefix("JPEG \(fitted.width)x\(fitted.height) ("))
        #expect(fitted.description.contains("% of 640x360) at qscale \(fitted.quality), "))
        #expect(fitted.description.hasSuffix("\(ImageFitter.groupedDigits(fitted.data.count)) bytes"))
    }

    /// A budget one byte above what a given (size, qscale) produces must give that size or a
    /// larger one, and at the same size at least as many bytes (the same or a better qscale).
    /// Pixels come first: 160x90 at qscale 3 (3 001 bytes) loses to 224x126 at qscale 8.
    @Test(arguments: [(640, 360, 5), (640, 360, 10), (320, 180, 8), (160, 90, 3)])
    func choosesTheLargestEncodingThatFits(width: Int, height: Int, qscale: Int) throws {
        let image = try largePoster()
        let reference = try ImageReencoder(decoding: image, kind: .jpeg)
            .jpeg(size: PixelSize(width: width, height: height), qscale: qscale)
        let fitted = try #require(try ImageFitter.fit(image, mimeType: "image/jpeg", maxBytes: reference.count + 1))
        #expect(fitted.data.count <= reference.count + 1)
        #expect(fitted.width >= width && fitted.height >= height)
        if fitted.width == width {
            #expect(fitted.data.count >= reference.count)
            #expect(fitted.quality <= qscale)
        }
    }

    @Test func biggerBudgetNeverGivesASmallerResult() throws {
        let image = try largePoster()
        let budgets = [400, 600, 900, 1_300, 2_000, 3_000, 4_500, 6_000, 8_000, 11_000, 15_000, 20_000, 30_000]
        var previous = 0
        for budget in budgets {
            let fitted = try #require(try ImageFitter.fit(image, mimeType: "image/jpeg", maxBytes: budget))
            #expect(fitted.data.count <= budget)
            #expect(fitted.data.count >= previous, "budget \(budget): \(fitted.description)")
            previous = fitted.data.count
        }
    }

    @Test(arguments: [12_000, 5_000, 2_000, 700])
    func keepsTheAspectRatio(budget: Int) throws {
        let fitted = try #require(try ImageFitter.fit(try largePoster(), mimeType: "image/jpeg", maxBytes: budget))
        // Even dimensions cost at most a pixel each way; 16:9 stays within 3 %.
        #expect(abs(Double(fitted.width) / Double(fitted.height) / (16.0 / 9.0) - 1) < 0.03)
        #expect(fitted.width % 2 == 0 && fitted.height % 2 == 0)
        #expect(min(fitted.width, fitted.height) >= 16)
    }

    @Test func acceptsPNGInput() throws {
        let png = try Fixtures.bytes("poster.png")
        let fitted = try #require(try ImageFitter.fit(png, mimeType: "image/png", maxBytes: 100_000))
        #expect(fitted.data.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(fitted.mimeType == "image/jpeg")
        #expect(
            try PosterDecoder.decode(fitted.data, mimeType: "image/jpeg").get() == PixelSize(width: 40, height: 30))
    }

    /// JPEG has no alpha: half-transparent white laid over black is mid-grey, not white.
    @Test func compositesTransparentPNGOverBlack() throws {
        let png = try Fixtures.bytes("poster-alpha.png")
        let fitted = try #require(try ImageFitter.fit(png, mimeType: "image/png", maxBytes: 10_000))
        let luma = try ImageReencoder(decoding: fitted.data, kind: .jpeg).lumaSamples()
        #expect(luma.count == 32 * 24)
        #expect(luma.allSatisfy { (124...131).contains($0) }, "luma \(luma.min() ?? 0)…\(luma.max() ?? 0)")
    }

    @Test(arguments: [100, 0, -1])
    func returnsNilWhenEvenTheSmallestAttemptDoesNotFit(budget: Int) throws {
        #expect(try ImageFitter.fit(try largePoster(), mimeType: "image/jpeg", maxBytes: budget) == nil)
    }

    @Test func rejectsGarbageWithAReadableError() throws {
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: 200)
        let error = #expect(throws: EncodingFailure.self) {
            try ImageFitter.fit(garbage, mimeType: "image/jpeg", maxBytes: 10_000)
        }
        #expect(error?.description.hasPrefix("JPEG does not decode: ") == true)
    }

    @Test func rejectsTruncatedJPEG() throws {
        let image = try largePoster()
        #expect(throws: EncodingFailure.self) {
            try ImageFitter.fit(Array(image.prefix(image.count / 2)), mimeType: "image/jpeg", maxBytes: 10_000)
        }
    }

    @Test func rejectsUnsupportedAndEmptyImages() {
        let gif = #expect(throws: EncodingFailure.self) {
            try ImageFitter.fit(Array("GIF89a".utf8), mimeType: "image/gif", maxBytes: 10_000)
        }
        #expect(gif?.description == "unsupported image type \"image/gif\" (expected JPEG or PNG)")
        #expect(throws: EncodingFailure.self) { try ImageFitter.fit([], mimeType: "image/jpeg", maxBytes: 10_000) }
    }

    @Test(arguments: [("poster-large.jpg", "image/jpeg", 5_000), ("poster.png", "image/png", 1_000)])
    func isDeterministic(name: String, mimeType: String, budget: Int) throws {
        let image = try Fixtures.bytes(name)
        let first = try ImageFitter.fit(image, mimeType: mimeType, maxBytes: budget)
        let second = try ImageFitter.fit(image, mimeType: mimeType, maxBytes: budget)
        #expect(first != nil)
        #expect(first == second)
    }

    // MARK: The search, without libav

    @Test func candidateSizesShrinkEvenlyDownToSixteenPixels() {
        let sizes = ImageFitter.candidateSizes(for: Self.large)
        #expect(
            Array(sizes.prefix(5)) == [
                Self.large, PixelSize(width: 480, height: 270), PixelSize(width: 320, height: 180),
                PixelSize(width: 224, height: 126), PixelSize(width: 160, height: 90),
            ])
        #expect(sizes.last.map { min($0.width, $0.height) } == 16)
        for (larger, smaller) in zip(sizes, sizes.dropFirst()) {
            #expect(smaller.width < larger.width && smaller.height <= larger.height)
            #expect(smaller.width % 2 == 0 && smaller.height % 2 == 0)
        }
        #expect(ImageFitter.candidateSizes(for: PixelSize(width: 15, height: 9)) == [PixelSize(width: 15, height: 9)])
    }

    /// A fake encoder whose output shrinks with area and qscale: the search takes the first size
    /// where anything fits, and there the lowest qscale that fits.
    @Test func searchTakesTheBestQualityAtTheFirstSizeThatFits() {
        let sizes = [
            PixelSize(width: 400, height: 200), PixelSize(width: 200, height: 100), PixelSize(width: 100, height: 50),
        ]
        func encode(_ size: PixelSize, _ qscale: Int) -> [UInt8] {
            Array(repeating: 0, count: size.width * size.height / qscale)
        }
        // 400x200 at the acceptable qscale (12) is 6 666 bytes: too big, so 200x100 at qscale 4.
        let scaled = ImageFitter.search(sizes: sizes, maxBytes: 6_000, encode: encode)
        #expect(scaled?.size == sizes[1])
        #expect(scaled?.qscale == 4)
        let full = ImageFitter.search(sizes: sizes, maxBytes: 20_000, encode: encode)
        #expect(full?.size == sizes[0] && full?.qscale == 4)
        // Only the smallest size goes past the acceptable qscale, up to 31.
        let smallest = ImageFitter.search(sizes: sizes, maxBytes: 200, encode: encode)
        #expect(smallest?.size == sizes[2] && smallest?.qscale == 25)
        #expect(ImageFitter.search(sizes: sizes, maxBytes: 100, encode: encode) == nil)
    }

    @Test func groupsDigitsInThousands() {
        #expect(ImageFitter.groupedDigits(7_912) == "7 912")
        #expect(ImageFitter.groupedDigits(912) == "912")
        #expect(ImageFitter.groupedDigits(1_234_567) == "1 234 567")
    }
}

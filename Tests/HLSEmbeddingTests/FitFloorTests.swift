import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaInspection
import MediaEncoding
import TestSupport
import Testing

/// `--fit` searches JPEG quality, then smaller sizes, down to a stated floor (smallest side
/// 16 px at qscale 31), finds a small re-encoding wherever one fits, and names the floor when
/// none does.
@Suite(.serialized) struct FitFloorTests {
    /// At 16 kbit/s the 22 740-byte poster would fit as it is; at 32 and 48 only re-encoded.
    @Test(arguments: [32_000, 48_000])
    func addAudioOnlyFitFindsASmallReencodingOnALadderEndingInARunt(_ audioBitRate: Int) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder().make(in: folder)
        var request = AudioOnlyRequest(
            input: multivariant, poster: try Poster(image: try fixture("poster-large.jpg")),
            posterName: "poster-large.jpg",
            destination: .folder(folder.path("out")))
        request.fit = true
        request.audioBitRate = audioBitRate
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        let fitted = try #require(outcome.fittedImage)
        #expect(fitted.hasPrefix("JPEG "), "\(fitted)")
        #expect(try #require(outcome.peak) <= 64_000)
        let verification = try #require(outcome.verification)
        #expect(verification.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(verification.diagnostics)")
        let playlist = (folder.path("out") as NSString).appendingPathComponent(try #require(outcome.variantURI))
        let first = try #require(try segmentFiles(of: playlist).first)
        let picture = try #require(try pictures(in: first, container: .mpegTS).first)
        #expect(picture.data.count < 22_740)
        // ffprobe decodes the re-encoded poster.
        let path = folder.path("poster.jpg")
        try Data(picture.data).write(to: URL(fileURLWithPath: path))
        let probed = try Shell.run([
            "ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path,
        ])
        #expect(probed.hasPrefix("mjpeg"), "\(probed)")
    }

    /// An fMP4 ladder with a 5.1 rendition ending in the runt: --fit beside 32 kbit/s of audio
    /// finds a re-encoding (it used to size the poster over the 21 ms segment and refuse).
    @Test func addAudioOnlyFitFindsAReencodingOnAFragmentedSurroundLadder() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 192, fragmentedMP4: true, surround: true).make(in: folder)
        var request = AudioOnlyRequest(
            input: multivariant, poster: try Poster(image: try fixture("poster-large.jpg")),
            posterName: "poster-large.jpg",
            destination: .folder(folder.path("out")))
        request.fit = true
        request.audioBitRate = 32_000
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.fittedImage != nil)
        #expect(try #require(outcome.peak) <= 64_000)
        let verification = try #require(outcome.verification)
        #expect(verification.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(verification.diagnostics)")
        // libavcodec decodes the new variant (init section and fragments, through ffmpeg's HLS demuxer).
        let playlist = (folder.path("out") as NSString).appendingPathComponent(try #require(outcome.variantURI))
        let decoded = try Shell.decodedSamples(playlist)
        let source = try Shell.decodedSamples(folder.path("stream/audio/index.m3u8"))
        #expect(abs(decoded - source) <= 1024, "decoded \(decoded) samples, the source \(source)")
    }

    @Test func embedFitNamesItsFloorWhenNoReencodingFits() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 40, audioOnlyVariant: true).make(in: folder)
        let image = try fixture("poster-large.jpg")
        let floor = try ImageFitter.floor(image, mimeType: "image/jpeg")
        #expect(floor.quality == 31 && min(floor.width, floor.height) == 16, "\(floor.description)")
        // A budget that leaves room for an image, but less than the floor's bytes.
        let analysis = try await Checker(configuration: CheckConfiguration()).analyse(multivariant)
        let variant = try #require(analysis.variants.first { $0.uri == "audio/index.m3u8" })
        var budget = try #require(variant.measuredPeakBitrate)
        while (variant.largestPoster(within: budget) ?? 0) < 1 { budget += 20 }
        let room = try #require(variant.largestPoster(within: budget))
        #expect(room < floor.data.count)

        var request = EmbedRequest(
            input: multivariant, poster: try Poster(image: image), posterName: "poster-large.jpg",
            destination: .folder(folder.path("out")),
            fit: true, configuration: CheckConfiguration(audioOnlyBudget: budget))
        request.fit = true
        let error = await #expect(throws: EmbedError.self) { try await PosterEmbedder(request).run() }
        let message = error?.description ?? ""
        #expect(
            message.contains(
                "an image of at most \(room) bytes fits, and no re-encoding of the image fits (--fit searches JPEG quality, then smaller sizes; it goes down to \(floor.description))"
            ), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }
}

import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// The poster of the `make run` example: a 6 449-byte JPEG.
func samplePoster() throws -> Poster {
    try Poster(image: [UInt8](Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/poster.jpg"))))
}

/// Streams of elementary streams ffprobe finds in a file, by codec_type ("audio", "data" …).
func probedStreamTypes(_ path: String) throws -> [String] {
    try Shell.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        .split(separator: "\n").map { String($0) }
}

/// One runt policy (docs/measurement.md, "Runt segments"): a last segment shorter than half the
/// target duration goes without the poster in what embed writes, and the checker's budget
/// arithmetic and artwork-inconsistent agree with that.
@Suite(.serialized) struct RuntPolicyTests {
    @Test func embedLeavesTheFinalRuntWithoutThePosterAndTheCheckAgrees() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 40, audioOnlyVariant: true).make(in: folder)
        let poster = try samplePoster()
        let output = folder.path("out")
        let outcome = try await PosterEmbedder(
            EmbedRequest(input: multivariant, poster: poster, posterName: "poster.jpg", destination: .folder(output))
        ).run()

        let target = try #require(outcome.targets.first { $0.uri == "audio/index.m3u8" })
        #expect(target.withoutPoster == 1)
        #expect(
            target.notes.contains {
                $0.hasPrefix(
                    "left the poster out of the last segment seg3.ts of audio/index.m3u8 (0.021 s, under half the 6 s target duration)"
                )
            }, "\(target.notes)")
        // ffprobe sees the timed-ID3 stream in the three full segments, not in the runt.
        let files = try segmentFiles(of: folder.path("out/audio/index.m3u8"))
        #expect(files.count == 4)
        for (index, file) in files.enumerated() {
            let types = try probedStreamTypes(file)
            #expect(types.contains("data") == (index < 3), "\(file): \(types)")
            #expect(try pictures(in: file, container: .mpegTS).count == (index < 3 ? 1 : 0), "\(file)")
        }
        // The re-check agrees: no artwork-inconsistent for the runt, within budget.
        #expect(
            !outcome.verification.diagnostics.contains { $0.rule.hasPrefix("artwork-") },
            "\(outcome.verification.diagnostics)")
        let variant = try #require(outcome.verification.variants.first { $0.uri == "audio/index.m3u8" })
        let peak = try #require(variant.measuredPeakBitrate)
        #expect(peak <= 64_000)

        // The check's largest poster is embed's: at the budget the written peak sets, the poster
        // fits with nothing to spare, and one byte of budget less it does not — in both.
        let analysis = try await Checker(configuration: CheckConfiguration()).analyse(multivariant)
        let source = try #require(analysis.variants.first { $0.uri == "audio/index.m3u8" })
        let fits = try #require(source.largestPoster(within: peak))
        #expect(fits >= poster.data.count)
        let below = try #require(source.largestPoster(within: peak - 1))
        #expect(below < poster.data.count)
        let tight = EmbedRequest(
            input: multivariant, poster: poster, posterName: "poster.jpg", destination: .folder(folder.path("tight")),
            configuration: CheckConfiguration(audioOnlyBudget: peak - 1))
        await #expect(throws: EmbedError.self) { _ = try await PosterEmbedder(tight).run() }
        do {
            _ = try await PosterEmbedder(tight).run()
        } catch {
            #expect(error.description.contains("an image of at most \(below) bytes fits"), "\(error.description)")
        }
    }

    @Test func artworkInconsistentCountsFullSegmentsWithoutThePosterButNotTheRunt() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 40, audioOnlyVariant: true).make(in: folder)
        let output = folder.path("out")
        _ = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try samplePoster(), posterName: "poster.jpg", destination: .folder(output))
        ).run()
        // The second segment loses its poster again: that one a player joining there misses.
        let files = try segmentFiles(of: folder.path("out/audio/index.m3u8"))
        try FileManager.default.removeItem(atPath: files[1])
        try FileManager.default.copyItem(atPath: folder.path("stream/audio/seg1.ts"), toPath: files[1])
        let report = try await Checker(configuration: CheckConfiguration()).check(folder.path("out/master.m3u8"))
        let findings = report.diagnostics.filter { $0.rule == "artwork-inconsistent" }
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("1 of 3 segments carry no poster") == true, "\(findings)")
    }

    @Test func addAudioOnlyLeavesTheRuntWithoutThePosterAndKeepsStereo() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder().make(in: folder)
        let request = AudioOnlyRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg",
            destination: .folder(folder.path("out")))
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(try #require(outcome.audioBitRate) >= 32_000)
        #expect(try #require(outcome.peak) <= 64_000)
        #expect(outcome.arithmetic.first?.contains("stereo") == true, "\(outcome.arithmetic)")
        #expect(outcome.arithmetic.contains { $0.contains("in every segment but the last") }, "\(outcome.arithmetic)")
        let verification = try #require(outcome.verification)
        #expect(verification.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(verification.diagnostics)")

        let playlist = (folder.path("out") as NSString).appendingPathComponent(try #require(outcome.variantURI))
        let files = try segmentFiles(of: playlist)
        #expect(files.count == 4)
        for (index, file) in files.enumerated() {
            #expect(try pictures(in: file, container: .mpegTS).count == (index < 3 ? 1 : 0), "\(file)")
            #expect(try probedStreamTypes(file).contains("data") == (index < 3), "\(file)")
        }
        // libavcodec decodes the new variant to the source's length.
        let decoded = try Shell.decodedSamples(playlist)
        let source = try Shell.decodedSamples(folder.path("stream/audio/index.m3u8"))
        #expect(abs(decoded - source) <= 1024, "decoded \(decoded) samples, the source \(source)")
    }
}

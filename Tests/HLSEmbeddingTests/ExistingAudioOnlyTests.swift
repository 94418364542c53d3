import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// `--add-audio-only` on a ladder that has an audio-only variant already: one that does its job
/// is left alone; one that does not is named with its faults, and rebuilt in its place only
/// with `--replace`.
@Suite(.serialized) struct ExistingAudioOnlyTests {
    @Test func aValidAudioOnlyVariantIsSaidSoAndNothingIsWritten() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 40, audioOnlyVariant: true).make(in: folder)
        let withPoster = folder.path("with-poster")
        _ = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try samplePoster(), posterName: "poster.jpg",
                destination: .folder(withPoster))
        ).run()
        let input = (withPoster as NSString).appendingPathComponent("master.m3u8")
        let before = try snapshot(withPoster)

        var request = AudioOnlyRequest(
            input: input, poster: try samplePoster(), posterName: "poster.jpg", destination: .inPlace)
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.action == .alreadyPresent)
        #expect(outcome.variantURI == "audio/index.m3u8")
        let existing = try #require(outcome.existing)
        #expect(existing.hasPrefix("audio/index.m3u8 peaks at "), "\(existing)")
        #expect(
            existing.hasSuffix("within the 64.0 kbit/s budget, the poster in every segment but the final runt"),
            "\(existing)")
        #expect(try snapshot(withPoster) == before)

        // --replace does not touch a variant that does its job either.
        request.replace = true
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .alreadyPresent)
        #expect(try snapshot(withPoster) == before)
    }

    @Test func anInvalidAudioOnlyVariantIsNamedWithItsFaultsAndReplacedInItsPlaceOnlyWhenAsked() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 96, audioOnlyVariant: true).make(in: folder)
        let originalText = try String(contentsOfFile: multivariant, encoding: .utf8)
        var request = AudioOnlyRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg",
            destination: .folder(folder.path("out")))

        let error = await #expect(throws: EmbedError.self) { try await AudioOnlyVariantBuilder(request).run() }
        let message = error?.description ?? ""
        #expect(message.contains("audio/index.m3u8: it peaks at "), "\(message)")
        #expect(message.contains("against the 64.0 kbit/s budget; it carries no poster"), "\(message)")
        #expect(message.contains("--replace"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))

        request.replace = true
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.action == .replaced)
        #expect(outcome.replaced == ["audio/index.m3u8"])
        let variantURI = try #require(outcome.variantURI)

        // The new entry sits where the old one did; every other line is as it was (the
        // rendition the video plays with included).
        let written = try String(contentsOfFile: outcome.output, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let original = originalText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(written.count == original.count)
        let oldLine = try #require(original.firstIndex { $0 == "audio/index.m3u8" })
        for (index, line) in written.enumerated() {
            if index == oldLine {
                #expect(line == variantURI)
            } else if index == oldLine - 1 {
                #expect(
                    line.hasPrefix("#EXT-X-STREAM-INF:BANDWIDTH=\(outcome.peak ?? 0),AVERAGE-BANDWIDTH="), "\(line)")
            } else {
                #expect(line == original[index])
            }
        }
        // The re-check: one audio-only variant, within budget, the poster where it belongs.
        let verification = try #require(outcome.verification)
        let audioOnly = verification.variants.filter(\.audioOnly)
        #expect(audioOnly.map(\.uri) == [variantURI])
        #expect(try #require(audioOnly.first?.measuredPeakBitrate) <= 64_000)
        #expect(
            !verification.diagnostics.contains { $0.rule.hasPrefix("artwork-") || $0.rule.hasPrefix("audio-only") },
            "\(verification.diagnostics)")
        // The old playlist's files stay: the video variant still plays its audio from them.
        #expect(FileManager.default.fileExists(atPath: folder.path("out/audio/seg0.ts")))
    }
}

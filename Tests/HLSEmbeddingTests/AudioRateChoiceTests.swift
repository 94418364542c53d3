import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// `--add-audio-only` chooses like a streaming engineer: the highest rung of the AAC-LC ladder
/// whose peak, poster included, fits the budget, stereo kept, and says what the next rung needed.
@Suite(.serialized) struct AudioRateChoiceTests {
    @Test func choosesTheHighestRungThatFitsWithThePosterAndSaysWhatTheNextNeeded() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder().make(in: folder)
        let poster = try samplePoster()
        #expect((6_000...7_000).contains(poster.data.count))
        let request = AudioOnlyRequest(
            input: multivariant, poster: poster, posterName: "poster.jpg", destination: .folder(folder.path("out")))
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        let rate = try #require(outcome.audioBitRate)
        #expect([32_000, 40_000, 48_000, 56_000].contains(rate), "\(rate)")
        #expect(try #require(outcome.peak) <= 64_000)
        #expect(outcome.arithmetic.first?.contains("stereo") == true)
        #expect(
            outcome.arithmetic.first?.hasSuffix(
                "the highest of 24, 32, 40, 48, 56, 64, 80, 96, 112, 128 kbit/s whose peak with the poster fits")
                == true, "\(outcome.arithmetic)")
        let next = rate + (rate < 64_000 ? 8_000 : 16_000)
        let note = try #require(outcome.arithmetic.first { $0.hasPrefix("next step up: ") })
        #expect(
            note.hasPrefix("next step up: \(String(format: "%.1f", Double(next) / 1000)) kbit/s would peak at"),
            "\(note)")
        #expect(note.contains("it needs "), "\(note)")

        // ffprobe: two channels of AAC in the new segments.
        let playlist = (folder.path("out") as NSString).appendingPathComponent(try #require(outcome.variantURI))
        let first = try #require(try segmentFiles(of: playlist).first)
        let probed = try Shell.run([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,profile,channels",
            "-of", "csv=p=0", first,
        ])
        #expect(probed.split(separator: "\n").first.map(String.init) == "aac,LC,2", "\(probed)")

        // The next rung does not fit: asked for explicitly, the same poster is refused with its peak.
        var higher = request
        higher.destination = .folder(folder.path("higher"))
        higher.audioBitRate = next
        let error = await #expect(throws: EmbedError.self) { try await AudioOnlyVariantBuilder(higher).run() }
        #expect(
            error?.description.contains(
                "an audio-only variant at \(String(format: "%.1f", Double(next) / 1000)) kbit/s of audio would peak at")
                == true, "\(error?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: folder.path("higher")))
    }
}

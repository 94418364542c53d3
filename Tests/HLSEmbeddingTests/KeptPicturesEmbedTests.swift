import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// `hlscheck embed` on segments that carry a back cover: the back cover stays, counts in the
/// bit-rate budget the plan measures, and the user is told so.
@Suite struct KeptPicturesEmbedTests {
    static let back = AttachedPicture(
        mimeType: "image/jpeg", pictureType: 4, description: "back", data: [UInt8](repeating: 0, count: 0))

    /// The packed-audio sample with a 12 000-byte back cover in the leading tag of each of its
    /// three segments (beside the PRIV timestamp and the poster the sample carries).
    static func streamWithBackCovers(bytes: Int = 12_000) throws -> (
        folder: TemporaryFolder, multivariant: String, back: AttachedPicture
    ) {
        let (folder, multivariant) = try sampleCopy("packed-audio")
        var back = Self.back
        back.data = EmbedTests.padded(try fixture("poster.jpg"), to: bytes)
        for index in 0..<3 {
            let path = folder.path("packed-audio/audio/seg\(index).aac")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let (tag, length) = try ID3Tag.parse(bytes[...])
            let frames = tag.frames + [.attachedPicture(back)]
            try Data(ID3Tag(majorVersion: 4, frames: frames).serialized() + bytes[length...]).write(
                to: URL(fileURLWithPath: path))
        }
        return (folder, multivariant, back)
    }

    static func embed(_ multivariant: String, into output: String, image: [UInt8]? = nil) async throws -> EmbedOutcome {
        try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: image ?? fixture("poster.jpg")),
                posterName: "poster.jpg",
                destination: .folder(output))
        ).run()
    }

    /// The refusal of a poster over budget, as the user reads it.
    static func refusal(_ multivariant: String, into output: String, image: [UInt8]) async throws -> String {
        do {
            _ = try await embed(multivariant, into: output, image: image)
        } catch {
            return "\(error)"
        }
        Issue.record("a poster over budget was embedded")
        return ""
    }

    /// A 30 KB poster is over the 64 kbit/s budget either way; with a 10 000-byte back cover in
    /// every segment, 10 000 bytes less of image fit, and the refusal says what is kept.
    @Test func theBudgetAdviceCountsTheBackCover() async throws {
        let image = EmbedTests.padded(try fixture("poster.jpg"), to: 30_000)
        let (folder, multivariant, _) = try Self.streamWithBackCovers(bytes: 10_000)
        let (plainFolder, plainMultivariant) = try sampleCopy("packed-audio")
        let withBack = try await Self.refusal(multivariant, into: folder.path("out"), image: image)
        let plain = try await Self.refusal(plainMultivariant, into: plainFolder.path("out"), image: image)
        func fitting(_ message: String) -> Int? {
            guard let range = message.range(of: "an image of at most ") else { return nil }
            return Int(message[range.upperBound...].prefix { $0.isNumber })
        }
        let fitsWithBack = try #require(fitting(withBack), "\(withBack)")
        let fitsPlain = try #require(fitting(plain), "\(plain)")
        #expect(
            fitsPlain - fitsWithBack >= 9_950 && fitsPlain - fitsWithBack <= 10_050, "\(fitsPlain) - \(fitsWithBack)")
        #expect(
            withBack.contains("(kept 1 other picture (back cover, 10 KB) in 3 segments of audio/index.m3u8;"),
            "\(withBack)")
        #expect(!plain.contains("other picture"), "\(plain)")
    }

    @Test func theBackCoverStaysCountsInTheBudgetAndIsToldAbout() async throws {
        let (folder, multivariant, back) = try Self.streamWithBackCovers()
        let outcome = try await Self.embed(multivariant, into: folder.path("out"))
        let (plainFolder, plainMultivariant) = try sampleCopy("packed-audio")
        let plain = try await Self.embed(plainMultivariant, into: plainFolder.path("out"))

        // Every written segment: the new poster first, then the back cover, unchanged.
        let written = URL(fileURLWithPath: outcome.output).deletingLastPathComponent().path
        let segments = try segmentFiles(of: written + "/audio/index.m3u8")
        #expect(segments.count == 3)
        for segment in segments {
            let found = try pictures(in: segment, container: .packedAudio)
            #expect(found.map(\.pictureType) == [3, 4])
            #expect(found.first?.data == (try fixture("poster.jpg")))
            #expect(found.last == back)
        }
        // The back cover's 12 000 bytes in every 6-second segment: ≈ 16 kbit/s more at the peak,
        // in the plan and in BANDWIDTH.
        let target = try #require(outcome.targets.first)
        let plainTarget = try #require(plain.targets.first)
        let extra = try #require(target.peakAfter) - (try #require(plainTarget.peakAfter))
        #expect(extra > 15_000 && extra < 17_500, "\(extra) bit/s")
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(audio.declaredBandwidth == audio.measuredPeakBitrate)
        #expect(audio.measuredPeakBitrate == target.peakAfter)
        // Said once, with what, how large, where, and that it counts.
        #expect(
            target.notes.contains(
                "kept 1 other picture (back cover, 12 KB) in 3 segments of audio/index.m3u8; it is the segments' own content, not the poster, and counts in the budget"
            ), "\(target.notes)")
        #expect(!plainTarget.notes.contains { $0.contains("other picture") })
        // The re-check sees the poster as the poster: no artwork finding.
        #expect(
            !outcome.verification.diagnostics.contains { $0.rule.hasPrefix("artwork") },
            "\(outcome.verification.diagnostics)")

        // mutagen (a reader we did not write) sees both pictures, under their own descriptions.
        if Shell.available("python3"), (try? Shell.run(["python3", "-c", "import mutagen"])) != nil {
            let script =
                "import sys, mutagen.id3\nfor f in sys.argv[1:]: print(sorted((k, int(fr.type), len(fr.data)) for k, fr in mutagen.id3.ID3(f).items() if k.startswith('APIC')))"
            let listed = try Shell.run(["python3", "-c", script] + segments)
            let posterBytes = try fixture("poster.jpg").count
            #expect(
                listed == String(repeating: "[('APIC:', 3, \(posterBytes)), ('APIC:back', 4, 12000)]\n", count: 3),
                "\(listed)")
        }
    }
}

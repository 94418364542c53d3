import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import HLSPlaylist
import TestSupport
import Testing

/// The re-check `hlscheck embed` runs on what it wrote takes the facts it already knows instead of
/// reading the segments again (docs/embed.md, "The re-check"). What it reports must be exactly
/// what a full check of the output, run afterwards and reading every segment, reports.
@Suite struct RecheckReuseTests {
    /// The streams: MPEG-TS (with video variants beside the audio-only one), packed ADTS (whose
    /// video variants live in ../compliant), fMP4 (init section + fragments), packed MP3 (5 s cut
    /// in 2 s segments: 6 s would leave a runt of one frame libavformat cannot open).
    enum Kind: String, CaseIterable, Sendable {
        case transportStream = "compliant", adts = "packed-audio", fragmentedMP4 = "fmp4", mp3
    }

    /// A private copy of the stream of `kind`: a bundled sample, or for MP3 one made with ffmpeg.
    static func stream(_ kind: Kind) throws -> (folder: TemporaryFolder, multivariant: String) {
        guard kind == .mp3 else { return try sampleCopy(kind.rawValue) }
        return try generatedAudioOnlyStream(
            "mp3", sine: "frequency=440:sample_rate=44100:duration=5", codecs: "mp4a.40.34"
        ) { audio in
            [
                "-c:a", "libmp3lame", "-b:a", "32k", "-ac", "1", "-f", "segment", "-segment_time", "2",
                "-segment_format", "mp3",
                "-segment_list", "\(audio)/index.m3u8", "-segment_list_type", "m3u8", "\(audio)/seg%d.mp3",
            ]
        }
    }

    /// The posters of each step, one after the other on the same stream: a JPEG, a PNG over it, a
    /// JPEG padded past the budget with --force (findings in the re-check), then removal.
    static let steps: [(image: String?, padTo: Int?)] = [
        ("poster.jpg", nil), ("poster.png", nil), ("poster.jpg", 60_000), (nil, nil),
    ]

    @Test(arguments: Kind.allCases, [false, true])
    func theRecheckReportsExactlyWhatAFullCheckOfTheOutputReports(_ kind: Kind, _ inPlace: Bool) async throws {
        let (folder, multivariant) = try Self.stream(kind)
        var input = multivariant
        for (step, (image, padTo)) in Self.steps.enumerated() {
            var poster: Poster?
            if let image {
                var bytes = try fixture(image)
                if let padTo { bytes = EmbedTests.padded(bytes, to: padTo) }
                poster = try Poster(image: bytes)
            }
            var configuration = CheckConfiguration()
            configuration.keepsSegmentDetail = true  // the HTML report's series and posters too
            let destination: EmbedRequest.Destination = inPlace ? .inPlace : .folder(folder.path("out\(step)"))
            let outcome = try await PosterEmbedder(
                EmbedRequest(
                    input: input, poster: poster, posterName: image ?? "-", destination: destination,
                    force: padTo != nil,
                    configuration: configuration)
            ).run()

            // What the user would run next: a full check of the output, every segment read.
            var full = configuration
            full.confinement.root = StreamRoot.commonFolder(of: [input, outcome.output])
            let expected = try await Checker(configuration: full).check(outcome.output)
            let got = outcome.verification
            let context = "\(kind) step \(step) (\(image ?? "removal")\(padTo.map { ", padded to \($0) bytes" } ?? ""))"
            #expect(got.diagnostics == expected.diagnostics, "\(context)")
            #expect(got.variants == expected.variants, "\(context)")
            #expect(got.checkedRules.map(\.id) == expected.checkedRules.map(\.id), "\(context)")
            #expect(got.bitrateSeries == expected.bitrateSeries, "\(context)")
            #expect(got.posterImages == expected.posterImages, "\(context)")
            if padTo != nil {
                // Not a comparison of two empty lists: the forced poster breaks the budget.
                #expect(
                    got.diagnostics.contains {
                        $0.rule == "artwork-over-budget" || $0.rule == "audio-only-over-budget"
                    }, "\(context)")
            }
            input = outcome.output
        }
    }
}

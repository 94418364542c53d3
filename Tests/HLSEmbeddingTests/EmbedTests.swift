import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// A private copy of a bundled sample, so a test can write next to it or over it.
func sampleCopy(_ name: String) throws -> (folder: TemporaryFolder, master: String) {
    let folder = try TemporaryFolder()
    let source = PackageRoot.url.appendingPathComponent("Samples")
    // packed-audio references ../compliant: copy both, as they sit in Samples/.
    for sample in Set([name, "compliant"]) {
        try FileManager.default.copyItem(at: source.appendingPathComponent(sample), to: folder.url.appendingPathComponent(sample))
    }
    return (folder, folder.path("\(name)/master.m3u8"))
}

func fixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/\(name)")))
}

func pictures(in path: String, container: ContainerKind) throws -> [AttachedPicture] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return EmbeddedID3.tags(in: bytes, container: container).flatMap { $0.tag?.frames ?? [] }.compactMap {
        if case .attachedPicture(let picture) = $0 { return picture }
        return nil
    }
}

@Suite struct EmbedTests {
    static let samples: [(String, String, ContainerKind)] = [
        ("compliant", "audio/seg%d.ts", .mpegTS),
        ("packed-audio", "audio/seg%d.aac", .packedAudio),
        ("fmp4", "audio/seg%d.m4s", .fragmentedMP4),
    ]

    @Test(arguments: samples)
    func embedsThePosterInEverySegmentAndTheResultChecksClean(_ sample: String, _ pattern: String, _ container: ContainerKind) async throws {
        let (folder, master) = try sampleCopy(sample)
        let image = try fixture("poster.jpg")
        let output = folder.path("out")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: image), posterName: "poster.jpg", destination: .folder(output))).run()
        #expect(outcome.verification.diagnostics.isEmpty, "\(outcome.verification.diagnostics)")
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(audio.artwork?.segmentsWithArtwork == 3)
        #expect(audio.declaredBandwidth == audio.measuredPeakBitrate)
        let written = URL(fileURLWithPath: outcome.output).deletingLastPathComponent().path
        for index in 0..<3 {
            let segment = (written as NSString).appendingPathComponent(String(format: pattern, index))
            #expect(try pictures(in: segment, container: container).map(\.data) == [image], "segment \(index)")
        }
    }

    @Test func playlistsChangeOnlyInTheRecomputedAttributes() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .folder(folder.path("out")))).run()
        let before = try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let after = try String(contentsOfFile: outcome.output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed == [7], "only the audio variant's EXT-X-STREAM-INF (line 8) changes")
        let peak = try #require(outcome.targets.first?.peakAfter)
        #expect(after[7].contains("BANDWIDTH=\(peak),"))
        #expect(after[7].hasSuffix(",CODECS=\"mp4a.40.2\""))
        // Media playlists and untouched segments are the same bytes (hard links).
        let out = folder.path("out")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/audio/index.m3u8")) == Data(contentsOf: URL(fileURLWithPath: folder.path("compliant/audio/index.m3u8"))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/v0/seg1.ts")) == Data(contentsOf: URL(fileURLWithPath: folder.path("compliant/v0/seg1.ts"))))
    }

    @Test(arguments: ["compliant", "packed-audio", "fmp4"])
    func embeddingAgainChangesNothingAndRemovingLeavesNoTrace(_ sample: String) async throws {
        let (folder, master) = try sampleCopy(sample)
        let poster = try Poster(image: fixture("poster.jpg"))
        func embed(_ input: String, _ poster: Poster?, into name: String) async throws -> EmbedOutcome {
            try await PosterEmbedder(EmbedRequest(input: input, poster: poster, posterName: "p", destination: .folder(folder.path(name)))).run()
        }
        let once = try await embed(master, poster, into: "once")
        let twice = try await embed(once.output, poster, into: "twice")
        #expect(try snapshot(folder.path("once")) == snapshot(folder.path("twice")))
        // The samples already carry a poster: removing it from them and from our re-embedded
        // copy must give the same poster-free stream.
        let removedOriginal = try await embed(master, nil, into: "removed-original")
        let removedOurs = try await embed(twice.output, nil, into: "removed-ours")
        #expect(removedOurs.verification.variants.allSatisfy { $0.artwork == nil })
        #expect(try snapshot(folder.path("removed-original")) == snapshot(folder.path("removed-ours")))
        #expect(removedOriginal.verification.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func refusesAPosterThatBlowsTheBudgetWithTheNumbersAndWritesNothing() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let image = try fixture("poster-large.jpg")
        let output = folder.path("out")
        do {
            _ = try await PosterEmbedder(EmbedRequest(
                input: master, poster: try Poster(image: image), posterName: "poster-large.jpg", destination: .folder(output),
                configuration: CheckConfiguration(audioOnlyBudget: 48_000))).run()
            Issue.record("expected a refusal")
        } catch let error as EmbedError {
            // Exact bytes, and the very number the check gives for the same budget.
            let check = try await Checker(configuration: CheckConfiguration(audioOnlyBudget: 48_000)).check(master)
            let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
            #expect(error.description.contains("poster-large.jpg is \(image.count) bytes"))
            #expect(error.description.contains("audio/index.m3u8 would peak at "))
            #expect(error.description.contains("against a budget of 48000 bit/s; an image of at most \(fits) bytes fits"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A JPEG of exactly `size` bytes: `image` with a comment segment (COM, ITU-T T.81 §B.2.4.5)
    /// after its SOI marker.
    static func padded(_ image: [UInt8], to size: Int) -> [UInt8] {
        var padding: [UInt8] = []
        var missing = size - image.count
        while missing > 0 {
            let body = min(max(missing - 4, 0), 65_533)
            let segment = [0xFF, 0xFE, UInt8((body + 2) >> 8), UInt8((body + 2) & 0xFF)] + [UInt8](repeating: 0x20, count: body)
            padding += segment
            missing -= segment.count
        }
        return Array(image.prefix(2)) + padding + image.dropFirst(2)
    }

    /// One answer for "the largest poster that fits": what the check reports passes the real
    /// embed, one byte more is refused with that same number, and --fit stays within it.
    @Test(arguments: ["compliant", "packed-audio", "fmp4"])
    func theLargestPosterTheCheckNamesFitsToTheByte(_ sample: String) async throws {
        let (folder, master) = try sampleCopy(sample)
        let budget = 56_000
        let configuration = CheckConfiguration(audioOnlyBudget: budget)
        let check = try await Checker(configuration: configuration).check(master)
        let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
        let image = try fixture("poster.jpg")
        try #require(fits > image.count + 8, "the sample leaves room for a poster at \(budget) bit/s")

        let exact = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: Self.padded(image, to: fits)), posterName: "exact.jpg",
            destination: .folder(folder.path("exact")), configuration: configuration)).run()
        let audio = try #require(exact.verification.variants.first { $0.audioOnly })
        #expect((audio.measuredPeakBitrate ?? .max) <= budget)
        #expect(audio.artwork?.maxBytes == fits)
        #expect(!exact.verification.diagnostics.contains { $0.rule == "artwork-over-budget" })

        await #expect(throws: EmbedError.self) {
            _ = try await PosterEmbedder(EmbedRequest(
                input: master, poster: try Poster(image: Self.padded(image, to: fits + 1)), posterName: "one-more.jpg",
                destination: .folder(folder.path("one-more")), configuration: configuration)).run()
        }
        do {
            _ = try await PosterEmbedder(EmbedRequest(
                input: master, poster: try Poster(image: Self.padded(image, to: fits + 1)), posterName: "one-more.jpg",
                destination: .folder(folder.path("one-more")), configuration: configuration)).run()
        } catch let error as EmbedError {
            #expect(error.description.contains("an image of at most \(fits) bytes fits"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("one-more")))
    }

    /// An audio-only variant whose URI is also its AUDIO rendition is one playlist: counted twice,
    /// a 48 kbit/s variant with a poster "peaked" near 100 kbit/s and embed refused.
    @Test func aPosterFitsAVariantThatIsItsOwnAudioRendition() async throws {
        let folder = try VerdictFixtures.make("double-count")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: VerdictFixtures.master(folder, "double-count"), poster: try Poster(image: fixture("poster.jpg")),
            posterName: "poster.jpg", destination: .folder(folder.path("out")))).run()
        let audio = try #require(outcome.verification.variants.first { $0.uri == "audio/index.m3u8" })
        let peak = try #require(outcome.targets.first?.peakAfter)
        #expect(audio.declaredBandwidth == peak, "BANDWIDTH is the one playlist's peak")
        #expect(peak <= 64_000)
        #expect(!outcome.verification.diagnostics.contains { $0.rule == "bandwidth-below-peak" || $0.rule == "artwork-over-budget" },
                "\(outcome.verification.diagnostics)")
        let video = try #require(outcome.verification.variants.first { $0.uri == "video/index.m3u8" })
        #expect(video.declaredBandwidth == video.measuredPeakBitrate, "video + its audio rendition, rewritten")
    }

    @Test func forceWritesOverBudgetAndTheRecheckSaysSo() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: fixture("poster-large.jpg")), posterName: "poster-large.jpg",
            destination: .folder(folder.path("out")), force: true, configuration: CheckConfiguration(audioOnlyBudget: 48_000))).run()
        #expect(outcome.verification.diagnostics.contains { $0.rule == "artwork-over-budget" })
        #expect(outcome.verification.fails(at: .error))
    }

    @Test func fitReencodesTheImageToTheLargestSizeWithinTheBudget() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: fixture("poster-large.jpg")), posterName: "poster-large.jpg",
            destination: .folder(folder.path("out")), fit: true, configuration: CheckConfiguration(audioOnlyBudget: 48_000))).run()
        let fitted = try #require(outcome.fittedImage)
        #expect(fitted.contains("JPEG"))
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect((audio.measuredPeakBitrate ?? .max) <= 48_000)
        #expect(audio.artwork?.mimeType == "image/jpeg")
        // Within the number the check gives for the original stream.
        let check = try await Checker(configuration: CheckConfiguration(audioOnlyBudget: 48_000)).check(master)
        let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
        #expect((audio.artwork?.maxBytes ?? .max) <= fits)
        #expect(outcome.verification.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func inPlaceRewritesTheStreamAndLeavesNoStagingBehind() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let image = try fixture("poster.png")
        let outcome = try await PosterEmbedder(EmbedRequest(
            input: master, poster: try Poster(image: image), posterName: "poster.png", destination: .inPlace)).run()
        #expect(outcome.output.hasSuffix("compliant/master.m3u8"))
        #expect(try pictures(in: folder.path("compliant/audio/seg0.ts"), container: .mpegTS).first?.mimeType == "image/png")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("hlscheck") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func refusesEncryptedSegmentsBeforeWritingAnything() async throws {
        let (folder, master) = try sampleCopy("compliant")
        let media = folder.path("compliant/audio/index.m3u8")
        let text = try String(contentsOfFile: media, encoding: .utf8)
            .replacingOccurrences(of: "#EXTINF", with: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF", options: [], range: nil)
        try Data(text.utf8).write(to: URL(fileURLWithPath: media))
        try Data(repeating: 7, count: 16).write(to: URL(fileURLWithPath: folder.path("compliant/audio/key.bin")))
        await #expect {
            _ = try await PosterEmbedder(EmbedRequest(
                input: master, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
                destination: .folder(folder.path("out")))).run()
        } throws: { error in
            "\(error)".contains("encrypted (METHOD=AES-128)") && "\(error)".contains("index.m3u8:")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func namesTheCandidatesWhenVariantMatchesNothing() async throws {
        let copy = try sampleCopy("compliant")
        await #expect {
            _ = try await PosterEmbedder(EmbedRequest(
                input: copy.master, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
                destination: .folder(copy.folder.path("out")), variants: ["v0/index.m3u8"])).run()
        } throws: { error in
            "\(error)".contains("--variant v0/index.m3u8 is not an audio-only variant") && "\(error)".contains("audio/index.m3u8")
        }
    }

    @Test func refusesAFileThatIsNoImage() {
        #expect(throws: PackagingError.self) { try Poster(image: Array("GIF89a not supported".utf8)) }
    }
}

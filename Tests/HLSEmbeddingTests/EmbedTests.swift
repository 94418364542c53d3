import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// A private copy of a bundled sample, so a test can write next to it or over it.
func sampleCopy(_ name: String) throws -> (folder: TemporaryFolder, multivariant: String) {
    let folder = try TemporaryFolder()
    let source = PackageRoot.url.appendingPathComponent("Samples")
    // packed-audio references ../compliant: copy both, as they sit in Samples/.
    for sample in Set([name, "compliant"]) {
        try FileManager.default.copyItem(
            at: source.appendingPathComponent(sample), to: folder.url.appendingPathComponent(sample))
    }
    return (folder, folder.path("\(name)/master.m3u8"))
}

/// A private audio-only stream made with the ffmpeg CLI: `NAME/audio/` holds what `encode` (the
/// arguments after a one-line lavfi sine input, given the audio folder) writes, with its
/// `index.m3u8`, and `NAME/master.m3u8` names it as one variant of `codecs`.
func generatedAudioOnlyStream(
    _ name: String, sine: String, codecs: String, encode: (_ audio: String) -> [String]
) throws -> (folder: TemporaryFolder, multivariant: String) {
    let folder = try TemporaryFolder()
    let audio = folder.path("\(name)/audio")
    try FileManager.default.createDirectory(atPath: audio, withIntermediateDirectories: true)
    try Shell.run(
        ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=\(sine)"]
            + encode(audio))
    try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"\(codecs)\"\naudio/index.m3u8\n"
        .write(toFile: folder.path("\(name)/master.m3u8"), atomically: true, encoding: .utf8)
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

/// The segment files a media playlist refers to, resolved, in order.
func segmentFiles(of playlist: String) throws -> [String] {
    let base = (playlist as NSString).deletingLastPathComponent
    return try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        .map { (base as NSString).appendingPathComponent($0) }
}

@Suite struct EmbedTests {
    static let samples: [(String, String, ContainerKind)] = [
        ("compliant", "audio/seg%d.ts", .mpegTS),
        ("packed-audio", "audio/seg%d.aac", .packedAudio),
        ("fmp4", "audio/seg%d.m4s", .fragmentedMP4),
    ]

    @Test(arguments: samples)
    func embedsThePosterInEverySegmentAndTheResultChecksClean(
        _ sample: String, _ pattern: String, _ container: ContainerKind
    ) async throws {
        let (folder, multivariant) = try sampleCopy(sample)
        let image = try fixture("poster.jpg")
        let output = folder.path("out")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: image), posterName: "poster.jpg",
                destination: .folder(output))
        ).run()
        #expect(outcome.verification.diagnostics.isEmpty, "\(outcome.verification.diagnostics)")
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(audio.artwork?.segmentsWithArtwork == 3)
        #expect(audio.declaredBandwidth == audio.measuredPeakBitrate)
        let written = URL(fileURLWithPath: outcome.output).deletingLastPathComponent().path
        let segments = try segmentFiles(of: (written as NSString).appendingPathComponent("audio/index.m3u8"))
        #expect(segments.count == 3)
        for (index, segment) in segments.enumerated() {
            // Rewritten segments get new names (seg0.ts → seg0.embed-<8 hex>.ts), see StreamWriter.
            let original = String(format: pattern, index)
            let name = (segment as NSString).lastPathComponent
            #expect(
                name.hasPrefix(
                    ((original as NSString).lastPathComponent as NSString).deletingPathExtension + ".embed-"), "\(name)"
            )
            #expect(try pictures(in: segment, container: container).map(\.data) == [image], "segment \(index)")
        }
    }

    @Test func playlistsChangeOnlyInTheRecomputedAttributes() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
                destination: .folder(folder.path("out")))
        ).run()
        let before = try String(contentsOfFile: multivariant, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let after = try String(contentsOfFile: outcome.output, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed == [7], "only the audio variant's EXT-X-STREAM-INF (line 8) changes")
        let peak = try #require(outcome.targets.first?.peakAfter)
        #expect(after[7].contains("BANDWIDTH=\(peak),"))
        #expect(after[7].hasSuffix(",CODECS=\"mp4a.40.2\""))
        // In the audio playlist only the URI lines change (the segments' new names); untouched
        // playlists and segments are the same bytes (hard links).
        let out = folder.path("out")
        let mediaBefore = try String(contentsOfFile: folder.path("compliant/audio/index.m3u8"), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let mediaAfter = try String(contentsOfFile: out + "/audio/index.m3u8", encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(mediaBefore.count == mediaAfter.count)
        for (old, new) in zip(mediaBefore, mediaAfter) where old != new {
            #expect(
                old.hasSuffix(".ts") && new.hasPrefix(old.dropLast(3) + ".embed-") && new.count == old.count + 15,
                "\(old) → \(new)")
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: out + "/v0/index.m3u8"))
                == Data(contentsOf: URL(fileURLWithPath: folder.path("compliant/v0/index.m3u8"))))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: out + "/v0/seg1.ts"))
                == Data(contentsOf: URL(fileURLWithPath: folder.path("compliant/v0/seg1.ts"))))
    }

    @Test(arguments: ["compliant", "packed-audio", "fmp4"])
    func embeddingAgainChangesNothingAndRemovingLeavesNoTrace(_ sample: String) async throws {
        let (folder, multivariant) = try sampleCopy(sample)
        let poster = try Poster(image: fixture("poster.jpg"))
        func embed(_ input: String, _ poster: Poster?, into name: String) async throws -> EmbedOutcome {
            try await PosterEmbedder(
                EmbedRequest(input: input, poster: poster, posterName: "p", destination: .folder(folder.path(name)))
            ).run()
        }
        let once = try await embed(multivariant, poster, into: "once")
        let twice = try await embed(once.output, poster, into: "twice")
        #expect(try snapshot(folder.path("once")) == snapshot(folder.path("twice")))
        // The samples already carry a poster: removing it from them and from our re-embedded
        // copy must give the same poster-free stream.
        let removedOriginal = try await embed(multivariant, nil, into: "removed-original")
        let removedOurs = try await embed(twice.output, nil, into: "removed-ours")
        #expect(removedOurs.verification.variants.allSatisfy { $0.artwork == nil })
        #expect(try snapshot(folder.path("removed-original")) == snapshot(folder.path("removed-ours")))
        #expect(removedOriginal.verification.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func refusesAPosterThatBlowsTheBudgetWithTheNumbersAndWritesNothing() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let image = try fixture("poster-large.jpg")
        let output = folder.path("out")
        do {
            _ = try await PosterEmbedder(
                EmbedRequest(
                    input: multivariant, poster: try Poster(image: image), posterName: "poster-large.jpg",
                    destination: .folder(output),
                    configuration: CheckConfiguration(audioOnlyBudget: 48_000))
            ).run()
            Issue.record("expected a refusal")
        } catch let error as EmbedError {
            // Exact bytes, and the very number the check gives for the same budget.
            let check = try await Checker(configuration: CheckConfiguration(audioOnlyBudget: 48_000)).check(
                multivariant)
            let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
            #expect(error.description.contains("poster-large.jpg is \(image.count) bytes"))
            #expect(error.description.contains("audio/index.m3u8 would peak at "))
            #expect(
                error.description.contains("against a budget of 48000 bit/s; an image of at most \(fits) bytes fits"),
                "\(error.description)")
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
            let segment =
                [0xFF, 0xFE, UInt8((body + 2) >> 8), UInt8((body + 2) & 0xFF)] + [UInt8](repeating: 0x20, count: body)
            padding += segment
            missing -= segment.count
        }
        return Array(image.prefix(2)) + padding + image.dropFirst(2)
    }

    /// One answer for "the largest poster that fits": what the check reports passes the real
    /// embed, one byte more is refused with that same number, and --fit stays within it.
    @Test(arguments: ["compliant", "packed-audio", "fmp4"])
    func theLargestPosterTheCheckNamesFitsToTheByte(_ sample: String) async throws {
        let (folder, multivariant) = try sampleCopy(sample)
        let budget = 56_000
        let configuration = CheckConfiguration(audioOnlyBudget: budget)
        let check = try await Checker(configuration: configuration).check(multivariant)
        let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
        let image = try fixture("poster.jpg")
        try #require(fits > image.count + 8, "the sample leaves room for a poster at \(budget) bit/s")

        let exact = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: Self.padded(image, to: fits)), posterName: "exact.jpg",
                destination: .folder(folder.path("exact")), configuration: configuration)
        ).run()
        let audio = try #require(exact.verification.variants.first { $0.audioOnly })
        #expect((audio.measuredPeakBitrate ?? .max) <= budget)
        #expect(audio.artwork?.maxBytes == fits)
        #expect(!exact.verification.diagnostics.contains { $0.rule == "artwork-over-budget" })

        await #expect(throws: EmbedError.self) {
            _ = try await PosterEmbedder(
                EmbedRequest(
                    input: multivariant, poster: try Poster(image: Self.padded(image, to: fits + 1)),
                    posterName: "one-more.jpg",
                    destination: .folder(folder.path("one-more")), configuration: configuration)
            ).run()
        }
        do {
            _ = try await PosterEmbedder(
                EmbedRequest(
                    input: multivariant, poster: try Poster(image: Self.padded(image, to: fits + 1)),
                    posterName: "one-more.jpg",
                    destination: .folder(folder.path("one-more")), configuration: configuration)
            ).run()
        } catch let error as EmbedError {
            #expect(error.description.contains("an image of at most \(fits) bytes fits"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("one-more")))
    }

    /// An audio-only variant whose URI is also its AUDIO rendition is one playlist: counted twice,
    /// a 48 kbit/s variant with a poster "peaked" near 100 kbit/s and embed refused.
    @Test func aPosterFitsAVariantThatIsItsOwnAudioRendition() async throws {
        let folder = try VerdictFixtures.make("double-count")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: VerdictFixtures.multivariant(folder, "double-count"),
                poster: try Poster(image: fixture("poster.jpg")),
                posterName: "poster.jpg", destination: .folder(folder.path("out")))
        ).run()
        let audio = try #require(outcome.verification.variants.first { $0.uri == "audio/index.m3u8" })
        let peak = try #require(outcome.targets.first?.peakAfter)
        #expect(audio.declaredBandwidth == peak, "BANDWIDTH is the one playlist's peak")
        #expect(peak <= 64_000)
        #expect(
            !outcome.verification.diagnostics.contains {
                $0.rule == "bandwidth-below-peak" || $0.rule == "artwork-over-budget"
            },
            "\(outcome.verification.diagnostics)")
        let video = try #require(outcome.verification.variants.first { $0.uri == "video/index.m3u8" })
        #expect(video.declaredBandwidth == video.measuredPeakBitrate, "video + its audio rendition, rewritten")
    }

    @Test func forceWritesOverBudgetAndTheRecheckSaysSo() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster-large.jpg")),
                posterName: "poster-large.jpg",
                destination: .folder(folder.path("out")), force: true,
                configuration: CheckConfiguration(audioOnlyBudget: 48_000))
        ).run()
        #expect(outcome.verification.diagnostics.contains { $0.rule == "artwork-over-budget" })
        #expect(outcome.verification.fails(at: .error))
    }

    @Test func fitReencodesTheImageToTheLargestSizeWithinTheBudget() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster-large.jpg")),
                posterName: "poster-large.jpg",
                destination: .folder(folder.path("out")), fit: true,
                configuration: CheckConfiguration(audioOnlyBudget: 48_000))
        ).run()
        let fitted = try #require(outcome.fittedImage)
        #expect(fitted.contains("JPEG"))
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect((audio.measuredPeakBitrate ?? .max) <= 48_000)
        #expect(audio.artwork?.mimeType == "image/jpeg")
        // Within the number the check gives for the original stream.
        let check = try await Checker(configuration: CheckConfiguration(audioOnlyBudget: 48_000)).check(multivariant)
        let fits = try #require(check.variants.first { $0.audioOnly }?.largestPosterBytes)
        #expect((audio.artwork?.maxBytes ?? .max) <= fits)
        #expect(outcome.verification.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func inPlaceRewritesTheStreamAndLeavesNothingOfTheRunBehind() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let image = try fixture("poster.png")
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: image), posterName: "poster.png", destination: .inPlace)
        ).run()
        #expect(outcome.output.hasSuffix("compliant/master.m3u8"))
        let segments = try segmentFiles(of: folder.path("compliant/audio/index.m3u8"))
        #expect(try pictures(in: segments[0], container: .mpegTS).first?.mimeType == "image/png")
        // The old segments are gone; nothing of the run is left beside the stream or in it.
        #expect(!FileManager.default.fileExists(atPath: folder.path("compliant/audio/seg0.ts")))
        let everything = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
        #expect(everything.filter { $0.contains("hlscheck") }.isEmpty, "\(everything)")
    }

    @Test func refusesEncryptedSegmentsBeforeWritingAnything() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let media = folder.path("compliant/audio/index.m3u8")
        let text = try String(contentsOfFile: media, encoding: .utf8)
            .replacingOccurrences(
                of: "#EXTINF", with: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF", options: [], range: nil)
        try Data(text.utf8).write(to: URL(fileURLWithPath: media))
        try Data(repeating: 7, count: 16).write(to: URL(fileURLWithPath: folder.path("compliant/audio/key.bin")))
        await #expect {
            _ = try await PosterEmbedder(
                EmbedRequest(
                    input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
                    destination: .folder(folder.path("out")))
            ).run()
        } throws: { error in
            "\(error)".contains("encrypted (METHOD=AES-128)") && "\(error)".contains("index.m3u8:")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func namesTheCandidatesWhenVariantMatchesNothing() async throws {
        let copy = try sampleCopy("compliant")
        await #expect {
            _ = try await PosterEmbedder(
                EmbedRequest(
                    input: copy.multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
                    destination: .folder(copy.folder.path("out")), variants: ["v0/index.m3u8"])
            ).run()
        } throws: { error in
            "\(error)".contains("--variant v0/index.m3u8 is not an audio-only variant")
                && "\(error)".contains("audio/index.m3u8")
        }
    }

    @Test func refusesAFileThatIsNoImage() {
        #expect(throws: PackagingError.self) { try Poster(image: Array("GIF89a not supported".utf8)) }
    }
}

/// What `hlscheck embed` must leave alone, and where it must not write (docs/security.md).
@Suite struct EmbedSafetyTests {
    /// `root`: the folder the stream is confined to (`--root`), for streams that reach beyond the
    /// input playlist's folder through `../` or links.
    static func embed(
        _ input: String, _ destination: EmbedRequest.Destination, image: String = "poster.jpg", root: String? = nil,
        variants: [String] = []
    ) async throws -> EmbedOutcome {
        var configuration = CheckConfiguration()
        configuration.confinement.root = root
        return try await PosterEmbedder(
            EmbedRequest(
                input: input, poster: try Poster(image: fixture(image)), posterName: image, destination: destination,
                variants: variants,
                configuration: configuration)
        ).run()
    }

    static func status(_ path: String) throws -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw EmbedError("\(path): \(String(cString: strerror(errno)))") }
        return info
    }

    @Test func inPlaceKeepsModesOwnersLinksAndEveryOtherFile() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o750], ofItemAtPath: audio)
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: audio + "/seg1.ts")
        try manager.setAttributes([.posixPermissions: 0o640], ofItemAtPath: audio + "/index.m3u8")
        let asRoot = getuid() == 0
        if asRoot { #expect(chown(audio + "/seg2.ts", 1234, 2345) == 0) }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: audio + "/notes.txt"))
        try manager.createSymbolicLink(atPath: audio + "/latest.ts", withDestinationPath: "seg2.ts")
        try manager.createDirectory(atPath: audio + "/drafts", withIntermediateDirectories: false)
        try Data("draft".utf8).write(to: URL(fileURLWithPath: audio + "/drafts/a.ts"))
        let notesBefore = try Self.status(audio + "/notes.txt")

        _ = try await Self.embed(multivariant, .inPlace)

        let segments = try segmentFiles(of: audio + "/index.m3u8")
        #expect(
            segments.map { ($0 as NSString).lastPathComponent.hasPrefix("seg") && $0.contains(".embed-") } == [
                true, true, true,
            ])
        #expect(try Self.status(audio).st_mode & 0o7777 == 0o750)
        #expect(try Self.status(audio + "/index.m3u8").st_mode & 0o7777 == 0o640)
        #expect(try Self.status(segments[0]).st_mode & 0o7777 == 0o644)
        #expect(try Self.status(segments[1]).st_mode & 0o7777 == 0o600, "seg1 keeps its 600")
        if asRoot {
            let owner = try Self.status(segments[2])
            #expect((owner.st_uid, owner.st_gid) == (1234, 2345), "seg2 keeps its owner")
        }
        // Everything else: the same inode, the same bytes, the link still a link.
        let notesAfter = try Self.status(audio + "/notes.txt")
        #expect(notesAfter.st_ino == notesBefore.st_ino)
        #expect(FileManager.default.contents(atPath: audio + "/notes.txt") == Data("notes".utf8))
        #expect(try manager.destinationOfSymbolicLink(atPath: audio + "/latest.ts") == "seg2.ts")
        #expect(try String(contentsOfFile: audio + "/drafts/a.ts", encoding: .utf8) == "draft")
        #expect(!manager.fileExists(atPath: audio + "/seg1.ts"), "the old segments are removed")
    }

    @Test func inPlaceThroughLinkedFoldersKeepsTheLinks() async throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        // The stream is reached through a link; its audio folder is itself a link elsewhere.
        try manager.copyItem(
            atPath: PackageRoot.url.appendingPathComponent("Samples/compliant").path, toPath: folder.path("real"))
        try manager.moveItem(atPath: folder.path("real/audio"), toPath: folder.path("audio-store"))
        try manager.createSymbolicLink(atPath: folder.path("real/audio"), withDestinationPath: "../audio-store")
        try manager.createSymbolicLink(atPath: folder.path("stream"), withDestinationPath: "real")

        _ = try await Self.embed(folder.path("stream/master.m3u8"), .inPlace, root: folder.url.path)

        #expect(try manager.destinationOfSymbolicLink(atPath: folder.path("stream")) == "real")
        #expect(try manager.destinationOfSymbolicLink(atPath: folder.path("real/audio")) == "../audio-store")
        let segments = try segmentFiles(of: folder.path("audio-store/index.m3u8"))
        #expect(try pictures(in: segments[0], container: .mpegTS).map(\.data) == [try fixture("poster.jpg")])
        #expect(try manager.contentsOfDirectory(atPath: folder.path("audio-store")).count == 4)
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path).sorted() == ["audio-store", "real", "stream"])
    }

    @Test(arguments: [
        ("compliant", "is the folder"), ("compliant/audio/out", "is inside the folder"), (".", "contains the folder"),
    ])
    func refusesAnOutputThatIsInsideOrContainsTheInputEvenThroughALink(_ target: String, _ relation: String)
        async throws
    {
        let (folder, multivariant) = try sampleCopy("compliant")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("alias"), withDestinationPath: folder.path(target))
        let before = try snapshot(folder.path("compliant"))
        await #expect {
            _ = try await Self.embed(multivariant, .folder(folder.path("alias")))
        } throws: { error in
            "\(error)".contains("--output \(folder.path("alias")) \(relation)")
                && "\(error)".contains("of the input stream")
        }
        #expect(try snapshot(folder.path("compliant")) == before)
    }

    @Test func refusesToWriteThroughALinkInsideTheOutputFolder() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let before = try snapshot(folder.path("compliant"))
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("out/audio"), withDestinationPath: folder.path("compliant/audio"))
        await #expect {
            _ = try await Self.embed(multivariant, .folder(folder.path("out")))
        } throws: { error in
            "\(error)".contains("out/audio is a symbolic link: embed does not write through links")
        }
        #expect(try snapshot(folder.path("compliant")) == before, "the input is untouched")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == ["audio"],
            "and no journal or lock is left")
    }

    @Test func inPlaceRefusesToReplaceALinkedPlaylistBeforeWritingAnything() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        try FileManager.default.moveItem(atPath: audio + "/index.m3u8", toPath: audio + "/real.m3u8")
        try FileManager.default.createSymbolicLink(atPath: audio + "/index.m3u8", withDestinationPath: "real.m3u8")
        let before = try snapshot(folder.path("compliant"))
        await #expect {
            _ = try await Self.embed(multivariant, .inPlace)
        } throws: { error in
            "\(error)".contains("audio/index.m3u8 is a symbolic link; embed does not replace it")
        }
        #expect(try snapshot(folder.path("compliant")) == before, "nothing was written")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: audio + "/index.m3u8") == "real.m3u8")
    }

    @Test func aFailureBeforeThePlaylistsAreSwappedTakesBackTheNewSegments() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        // The name the third segment will get, taken by a file with other bytes.
        let probe = try await Self.embed(multivariant, .folder(folder.path("probe")))
        let names = try segmentFiles(of: (probe.output as NSString).deletingLastPathComponent + "/audio/index.m3u8")
        let taken = folder.path("compliant/audio/" + (names[2] as NSString).lastPathComponent)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: taken))
        let before = try snapshot(folder.path("compliant"))
        await #expect {
            _ = try await Self.embed(multivariant, .inPlace)
        } throws: { error in
            "\(error)".contains("\(taken) exists with other content; embed does not overwrite it")
        }
        #expect(
            try snapshot(folder.path("compliant")) == before,
            "the first two new segments were removed again, the other file kept")
    }

    @Test func theJournalOfAnInterruptedRunLeadsTheNextRunToRemoveItsLeftovers() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        // What a run killed before swapping in its playlists leaves: a temporary file, a new
        // segment no playlist references, and its journal.
        let journal = """
            {"run":"5eed","pid":1,"playlists":["\(folder.path("compliant/master.m3u8"))","\(audio)/index.m3u8"],\
            "replaced":["\(audio)/seg0.ts"],"folders":["\(audio)"]}
            """
        try Data(journal.utf8).write(to: URL(fileURLWithPath: folder.path("compliant/.hlscheck-embed.journal")))
        try Data("half".utf8).write(
            to: URL(fileURLWithPath: audio + "/.seg1.embed-0badf00d.ts.hlscheck-embed-5eed.tmp"))
        try Data("orphan".utf8).write(to: URL(fileURLWithPath: audio + "/seg0.embed-0badf00d.ts"))
        // Not the run's: another program's temporary file and a file named like ours but referenced by nobody else's run.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: audio + "/.seg1.ts.hlscheck-embed-other.tmp"))
        let messages = Messages()
        var request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
            destination: .inPlace)
        request.report = { messages.append($0) }
        _ = try await PosterEmbedder(request).run()
        #expect(messages.all == ["removed 2 leftovers of an interrupted run in \(folder.path("compliant"))"])
        let names = try FileManager.default.contentsOfDirectory(atPath: audio).sorted()
        #expect(
            !names.contains("seg0.embed-0badf00d.ts")
                && !names.contains(".seg1.embed-0badf00d.ts.hlscheck-embed-5eed.tmp"))
        #expect(names.contains(".seg1.ts.hlscheck-embed-other.tmp"), "a file of another run stays")
        #expect(!FileManager.default.fileExists(atPath: folder.path("compliant/.hlscheck-embed.journal")))
    }
}

/// Collects the messages a run reports (a test-only box; every access holds the lock).
final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}

extension EmbedSafetyTests {
    /// Segments that are links to files elsewhere: read through, never written through.
    @Test(arguments: [false, true])
    func segmentsThatAreLinksAreReadThroughAndLeftAlone(_ inPlace: Bool) async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder.path("store"), withIntermediateDirectories: false)
        try manager.moveItem(atPath: folder.path("compliant/audio/seg1.ts"), toPath: folder.path("store/seg1.ts"))
        try manager.setAttributes([.posixPermissions: 0o640], ofItemAtPath: folder.path("store/seg1.ts"))
        try manager.createSymbolicLink(
            atPath: folder.path("compliant/audio/seg1.ts"), withDestinationPath: "../../store/seg1.ts")
        let stored = try snapshot(folder.path("store"))

        let outcome = try await Self.embed(
            multivariant, inPlace ? .inPlace : .folder(folder.path("out")), root: folder.url.path)

        #expect(try snapshot(folder.path("store")) == stored, "the link's target is never written")
        let written = (outcome.output as NSString).deletingLastPathComponent + "/audio"
        let segments = try segmentFiles(of: written + "/index.m3u8")
        let second = try Self.status(segments[1])
        #expect(second.st_mode & S_IFMT == S_IFREG, "the rewritten segment is a file of its own")
        #expect(try pictures(in: segments[1], container: .mpegTS).count == 1)
        if inPlace {
            #expect(second.st_mode & 0o7777 == 0o640, "with the mode of the file the link pointed at")
            #expect(
                try manager.destinationOfSymbolicLink(atPath: folder.path("compliant/audio/seg1.ts"))
                    == "../../store/seg1.ts",
                "the link itself stays")
        }
    }
}

extension EmbedSafetyTests {
    /// A segment that a playlist embed leaves alone (not chosen with --variant) also lists stays,
    /// in place and in the copy.
    @Test(arguments: [false, true])
    func segmentsSharedWithAPlaylistLeftAloneStay(_ inPlace: Bool) async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let audio = folder.path("compliant/audio")
        try FileManager.default.copyItem(atPath: audio + "/index.m3u8", toPath: audio + "/same.m3u8")
        let text =
            try String(contentsOfFile: multivariant, encoding: .utf8)
            + "#EXT-X-STREAM-INF:BANDWIDTH=47133,CODECS=\"mp4a.40.2\"\naudio/same.m3u8\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        var request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.png")), posterName: "poster.png",
            destination: inPlace ? .inPlace : .folder(folder.path("out")), variants: ["audio/index.m3u8"])
        request.force = true
        let outcome = try await PosterEmbedder(request).run()
        let written = (outcome.output as NSString).deletingLastPathComponent + "/audio"
        let chosen = try segmentFiles(of: written + "/index.m3u8")
        let other = try segmentFiles(of: written + "/same.m3u8")
        #expect(chosen.allSatisfy { $0.contains(".embed-") })
        #expect(other.map { ($0 as NSString).lastPathComponent } == ["seg0.ts", "seg1.ts", "seg2.ts"])
        for segment in other {
            #expect(
                try pictures(in: segment, container: .mpegTS).first?.mimeType == "image/jpeg",
                "the other playlist's segments keep their poster")
        }
    }
}

extension EmbedSafetyTests {
    /// Another run holding the folder of a media playlist this stream shares through `../`.
    @Test func inPlaceRefusesWhenAnotherRunHoldsTheFolderOfASharedMediaPlaylist() async throws {
        let (folder, _) = try sampleCopy("compliant")
        let multivariant = folder.path("other/master.m3u8")
        try FileManager.default.createDirectory(atPath: folder.path("other"), withIntermediateDirectories: false)
        try Data(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=47133,CODECS=\"mp4a.40.2\"\n../compliant/audio/index.m3u8\n".utf8
        )
        .write(to: URL(fileURLWithPath: multivariant))
        let lockPath = folder.path("compliant/audio/.hlscheck-embed.lock")
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX) == 0)
        _ = "pid 1 on elsewhere, since then\n".withCString { write(descriptor, $0, strlen($0)) }
        defer { close(descriptor) }
        let before = try snapshot(folder.path("compliant"))
        await #expect {
            _ = try await Self.embed(multivariant, .inPlace, root: folder.url.path)
        } throws: { error in
            "\(error)".contains("another hlscheck embed (pid 1 on elsewhere, since then) is rewriting this stream")
                && "\(error)".contains("compliant/audio/index.m3u8 belongs to this stream too")
        }
        #expect(try snapshot(folder.path("compliant")) == before)
    }
}

extension EmbedSafetyTests {
    /// A media playlist as the input: the copy holds its segments and its EXT-X-MAP.
    @Test func aMediaPlaylistInputIsCopiedWhole() async throws {
        let (folder, _) = try sampleCopy("fmp4")
        let outcome = try await Self.embed(folder.path("fmp4/audio/index.m3u8"), .folder(folder.path("out")))
        #expect(
            FileManager.default.contents(atPath: folder.path("out/init.mp4"))
                == FileManager.default.contents(atPath: folder.path("fmp4/audio/init.mp4")))
        #expect(try segmentFiles(of: outcome.output).allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(
            outcome.verification.diagnostics.filter { $0.severity == .error }.isEmpty,
            "\(outcome.verification.diagnostics)")
    }
}

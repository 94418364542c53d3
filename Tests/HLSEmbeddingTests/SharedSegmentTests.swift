import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// Third-party ladders list the same segment files in more than one media playlist: an
/// audio-only variant and an audio rendition (ffmpeg's var_stream_map with agroup, a copied
/// playlist per group). Named with --variant, embed rewrites such a segment once and points
/// every playlist at it; by default the rendition, which plays beside video, keeps its files.
@Suite struct SharedSegmentTests {
    /// The compliant sample with a second audio playlist, `audio/rendition.m3u8`, listing the
    /// same three segment files as the audio-only variant `audio/index.m3u8`, as the rendition of
    /// an AUDIO group the first video variant uses.
    static func sharedSegmentsCopy() throws -> (folder: TemporaryFolder, multivariant: String) {
        let (folder, multivariant) = try sampleCopy("compliant")
        _ = try makeAudioRenditionShareTheAudioOnlySegments(compliantAt: folder.path("compliant"))
        return (folder, multivariant)
    }

    enum Destination: String, CaseIterable, Sendable { case inPlace, existingOutputFolder, newOutputFolder }

    /// The audio-only variant and the rendition beside the video, both named.
    static let both = ["audio/index.m3u8", "audio/rendition.m3u8"]

    @Test func byDefaultTheRenditionBesideTheVideoKeepsTheSharedFiles() async throws {
        let (folder, multivariant) = try Self.sharedSegmentsCopy()
        let before = try segmentFiles(of: folder.path("compliant/audio/rendition.m3u8"))
        let outcome = try await EmbedSafetyTests.embed(multivariant, .folder(folder.path("out")))
        #expect(outcome.targets.map(\.uri) == ["audio/index.m3u8"])
        let rendition = try segmentFiles(of: folder.path("out/audio/rendition.m3u8"))
        #expect(
            rendition.map { ($0 as NSString).lastPathComponent } == before.map { ($0 as NSString).lastPathComponent })
        for (old, new) in zip(before, rendition) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == Data(contentsOf: URL(fileURLWithPath: new)))
        }
        for segment in try segmentFiles(of: folder.path("out/audio/index.m3u8")) {
            #expect(try pictures(in: segment, container: .mpegTS).map(\.data) == [try fixture("poster.jpg")])
        }
    }

    @Test(arguments: Destination.allCases)
    func aSegmentTwoPlaylistsShareIsRewrittenOnceAndBothPlaylistsPointAtIt(_ destination: Destination) async throws {
        let (folder, multivariant) = try Self.sharedSegmentsCopy()
        let written: String
        switch destination {
        case .inPlace:
            written = folder.path("compliant")
            _ = try await EmbedSafetyTests.embed(multivariant, .inPlace, variants: Self.both)
        case .existingOutputFolder, .newOutputFolder:
            written = folder.path("out")
            if destination == .existingOutputFolder {
                try FileManager.default.createDirectory(atPath: written, withIntermediateDirectories: false)
            }
            _ = try await EmbedSafetyTests.embed(multivariant, .folder(written), variants: Self.both)
        }
        let variant = try segmentFiles(of: written + "/audio/index.m3u8")
        let rendition = try segmentFiles(of: written + "/audio/rendition.m3u8")
        #expect(variant.count == 3)
        #expect(rendition == variant, "both playlists name the same rewritten files")
        for segment in variant {
            #expect(segment.contains(".embed-"), "\(segment)")
            #expect(try pictures(in: segment, container: .mpegTS).map(\.data) == [try fixture("poster.jpg")])
        }
        let audioFiles = try FileManager.default.contentsOfDirectory(atPath: written + "/audio").sorted()
        #expect(
            audioFiles.filter { $0.hasSuffix(".ts") }.count == 3,
            "one file per segment, the old ones gone: \(audioFiles)")
        let everything = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
        #expect(everything.filter { $0.contains("hlscheck") }.isEmpty, "\(everything)")
    }

    @Test func embeddingAgainIntoTheSameOutputReplacesThePosterOfSharedSegments() async throws {
        let (folder, multivariant) = try Self.sharedSegmentsCopy()
        _ = try await EmbedSafetyTests.embed(multivariant, .folder(folder.path("out")), variants: Self.both)
        _ = try await EmbedSafetyTests.embed(
            multivariant, .folder(folder.path("out")), image: "poster.png", variants: Self.both)
        for playlist in ["index.m3u8", "rendition.m3u8"] {
            let segments = try segmentFiles(of: folder.path("out/audio/" + playlist))
            #expect(
                try segments.map { try pictures(in: $0, container: .mpegTS).map(\.mimeType) }
                    == Array(repeating: ["image/png"], count: 3))
        }
        let audioFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/audio"))
        #expect(
            audioFiles.filter { $0.hasSuffix(".ts") }.count == 3, "the first run's segments are removed: \(audioFiles)")
    }
}

/// A second stream in the same folder that lists the same segment files through its own
/// playlist (`audio/archive.m3u8` beside `audio/index.m3u8`): embed rewrites this stream only,
/// and must not remove the files the other one still plays.
@Suite struct OtherStreamInTheFolderTests {
    static func copyWithAnotherPlaylist() throws -> (folder: TemporaryFolder, multivariant: String, other: String) {
        let (folder, multivariant) = try sampleCopy("compliant")
        let other = folder.path("compliant/audio/archive.m3u8")
        try FileManager.default.copyItem(atPath: folder.path("compliant/audio/index.m3u8"), toPath: other)
        return (folder, multivariant, other)
    }

    @Test func inPlaceKeepsTheOldSegmentsAnotherPlaylistStillLists() async throws {
        let (folder, multivariant, other) = try Self.copyWithAnotherPlaylist()
        let before = try snapshot(folder.path("compliant/audio")).filter { $0.key.hasPrefix("seg") }
        let messages = Messages()
        var request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "p",
            destination: .inPlace)
        request.report = { messages.append($0) }
        _ = try await PosterEmbedder(request).run()

        // This stream has the poster; the other still plays its own, untouched files.
        let rewritten = try segmentFiles(of: folder.path("compliant/audio/index.m3u8"))
        #expect(try rewritten.map { try pictures(in: $0, container: .mpegTS).count } == [1, 1, 1])
        let kept = try segmentFiles(of: other)
        #expect(kept.map { ($0 as NSString).lastPathComponent } == ["seg0.ts", "seg1.ts", "seg2.ts"])
        let after = try snapshot(folder.path("compliant/audio"))
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) is still there, unchanged") }
        #expect(
            messages.all.contains { $0.contains("kept 3 old segments") && $0.contains("archive.m3u8 still lists") },
            "\(messages.all)")
        let check = try await Checker(configuration: CheckConfiguration()).check(other)
        #expect(check.diagnostics.filter { $0.rule == "segment-unreadable" }.isEmpty, "\(check.diagnostics)")
    }

    @Test func anotherPlaylistListingTheSegmentsAsEncodedURIsKeepsThemToo() async throws {
        // The other playlist names the same files as URIs (RFC 8216 §4.1): a cache-busting query
        // and a percent-encoded letter. The check reads them as seg0.ts…; embed must keep them.
        let (folder, multivariant, other) = try Self.copyWithAnotherPlaylist()
        let text = try String(contentsOfFile: other, encoding: .utf8)
            .replacingOccurrences(of: "seg0.ts", with: "seg0.ts?v=2")
            .replacingOccurrences(of: "seg1.ts", with: "s%65g1.ts")
        try Data(text.utf8).write(to: URL(fileURLWithPath: other))
        _ = try await EmbedSafetyTests.embed(multivariant, .inPlace)
        for name in ["seg0.ts", "seg1.ts", "seg2.ts"] {
            #expect(
                FileManager.default.fileExists(atPath: folder.path("compliant/audio/" + name)),
                "\(name) is still there for archive.m3u8")
        }
        let check = try await Checker(configuration: CheckConfiguration()).check(other)
        #expect(check.diagnostics.filter { $0.rule == "segment-unreadable" }.isEmpty, "\(check.diagnostics)")
    }

    @Test func recoveryAfterAKilledRunKeepsTheOldSegmentsAnotherPlaylistStillLists() async throws {
        let (folder, multivariant, other) = try Self.copyWithAnotherPlaylist()
        let audio = folder.path("compliant/audio")
        // A run killed after it swapped in its playlists: they list new segments, its journal
        // names the old ones as replaced. The other playlist lists the old ones.
        _ = try await EmbedSafetyTests.embed(multivariant, .inPlace)
        for name in ["seg0.ts", "seg1.ts", "seg2.ts"] where !FileManager.default.fileExists(atPath: audio + "/" + name)
        {
            try FileManager.default.copyItem(
                atPath: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/" + name).path,
                toPath: audio + "/" + name)
        }
        let journal = """
            {"run":"5eed","pid":1,"playlists":["\(multivariant)","\(audio)/index.m3u8"],\
            "replaced":["\(audio)/seg0.ts","\(audio)/seg1.ts","\(audio)/seg2.ts"],"folders":["\(audio)"]}
            """
        try Data(journal.utf8).write(to: URL(fileURLWithPath: folder.path("compliant/.hlscheck-embed.journal")))
        _ = try await EmbedSafetyTests.embed(multivariant, .inPlace, image: "poster.png")
        for segment in try segmentFiles(of: other) {
            #expect(FileManager.default.fileExists(atPath: segment), "\(segment) is still there for archive.m3u8")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("compliant/.hlscheck-embed.journal")))
    }
}

/// `--output` names near the 255-byte limit: embed adds `.` and `.hlscheck-embed-<run>.owner`
/// (31 bytes) for the names it builds the copy under beside the folder.
@Suite struct LongOutputNameTests {
    @Test func aNameTooLongForTheStagingNamesIsRefusedSayingHowLongItMayBe() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let output = folder.path("new/" + String(repeating: "o", count: 230))
        await #expect {
            _ = try await EmbedSafetyTests.embed(multivariant, .folder(output))
        } throws: { error in
            "\(error)".contains("the folder name is 230 bytes")
                && "\(error)".contains("choose a name of at most 224 bytes")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["compliant"], "nothing was created"
        )
    }

    @Test func theLongestNameAllowedWorks() async throws {
        let (folder, multivariant) = try sampleCopy("compliant")
        let output = folder.path(String(repeating: "o", count: 224))
        let outcome = try await EmbedSafetyTests.embed(multivariant, .folder(output))
        #expect(outcome.output == output + "/master.m3u8")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                "compliant", String(repeating: "o", count: 224),
            ])
    }
}

import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// Where `--add-audio-only` writes the new variant: `--name DIR/PLAYLIST`, by default a plain
/// `audio-only/index.m3u8`; found again by the marker comment in its playlist, never by folder
/// alone, so a user's files are never taken for ours.
@Suite(.serialized) struct VariantNameTests {
    func request(_ multivariant: String, _ destination: EmbedRequest.Destination) throws -> AudioOnlyRequest {
        AudioOnlyRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg", destination: destination)
    }

    @Test func theNameAskedForIsUsedAndTheVariantIsFoundAgainUnderIt() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.tsRendition.make(in: folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: multivariant))
        var request = try request(multivariant, .inPlace)
        request.name = "radio/low.m3u8"
        let added = try await AudioOnlyVariantBuilder(request).run()
        #expect(added.action == .added)
        #expect(added.variantURI == "radio/low.m3u8")
        let stream = (multivariant as NSString).deletingLastPathComponent
        let playlist = try String(contentsOfFile: stream + "/radio/low.m3u8", encoding: .utf8)
        #expect(playlist.hasPrefix("#EXTM3U\n\(AudioOnlyVariantBuilder.marker)\n"), "\(playlist)")
        #expect(try String(contentsOfFile: multivariant, encoding: .utf8).hasSuffix("\nradio/low.m3u8\n"))

        request.name = nil
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .alreadyPresent)
        request.remove = true
        request.poster = nil
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .removed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: multivariant)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: stream + "/radio").isEmpty)
    }

    @Test func aUsersFileAtThePlainNameIsNeverTakenOrOverwritten() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.tsRendition.make(in: folder)
        let stream = (multivariant as NSString).deletingLastPathComponent
        try folder.write(Data("#EXTM3U\n# the user's notes\n".utf8), to: "stream/audio-only/index.m3u8")
        #expect(FileManager.default.fileExists(atPath: stream + "/audio-only/index.m3u8"))

        var request = try request(multivariant, .folder(folder.path("named")))
        request.name = "audio-only/index.m3u8"
        let error = await #expect(throws: EmbedError.self) { try await AudioOnlyVariantBuilder(request).run() }
        #expect(
            error?.description.contains(
                "audio-only/index.m3u8 exists and is not a variant hlscheck added; nothing was written — choose another --name"
            ) == true, "\(error?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: folder.path("named")))

        request.name = nil
        request.destination = .folder(folder.path("out"))
        let added = try await AudioOnlyVariantBuilder(request).run()
        let uri = try #require(added.variantURI)
        #expect(uri.hasPrefix(AudioOnlyVariantBuilder.folderName + "/index.embed-"), "\(uri)")
        #expect(
            try String(contentsOfFile: stream + "/audio-only/index.m3u8", encoding: .utf8)
                == "#EXTM3U\n# the user's notes\n")
    }
}

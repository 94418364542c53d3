import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// Where `embed --image` puts the poster: the audio-only variants (and their own renditions) by
/// default; a full-rate AUDIO rendition that plays beside video only when `--variant` names it.
@Suite(.serialized) struct PosterTargetTests {
    @Test func withoutAnAudioOnlyVariantEmbedSaysSoAndSuggestsAddAudioOnly() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder().make(in: folder)
        let before = try snapshot(folder.path("stream"))
        let request = EmbedRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg",
            destination: .folder(folder.path("out")))
        let error = await #expect(throws: EmbedError.self) { try await PosterEmbedder(request).run() }
        let message = error?.description ?? ""
        #expect(
            message.contains(
                "has no audio-only variant to put the poster in (its audio renditions audio/index.m3u8 play beside video"
            ), "\(message)")
        #expect(message.contains("hlscheck embed --add-audio-only --image poster.jpg creates one"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
        #expect(try snapshot(folder.path("stream")) == before)

        // Named, the rendition gets it.
        var named = request
        named.variants = ["audio/index.m3u8"]
        let outcome = try await PosterEmbedder(named).run()
        #expect(outcome.targets.map(\.uri) == ["audio/index.m3u8"])
        let files = try segmentFiles(of: folder.path("out/audio/index.m3u8"))
        #expect(try pictures(in: files[0], container: .mpegTS).count == 1)
    }

    @Test func theFullRateRenditionBesideTheVideoKeepsItsBytesWhenTheAudioOnlyVariantGetsThePoster() async throws {
        let folder = try TemporaryFolder()
        let added = try await ladderWithAudioOnlyVariant(in: folder)
        let input = added.output
        let renditionBefore = try snapshot(folder.path("with-variant/audio"))
        let videoLine = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").first {
            $0.contains("RESOLUTION=")
        }

        let png = try Poster(image: try fixture("poster.png"))
        let outcome = try await PosterEmbedder(
            EmbedRequest(input: input, poster: png, posterName: "poster.png", destination: .folder(folder.path("out")))
        ).run()
        #expect(outcome.targets.map(\.uri) == [try #require(added.variantURI)])
        #expect(try snapshot(folder.path("out/audio")) == renditionBefore)
        let written = try String(contentsOfFile: outcome.output, encoding: .utf8).split(separator: "\n")
        #expect(written.first { $0.contains("RESOLUTION=") } == videoLine)
        let variantPlaylist = (folder.path("out") as NSString).appendingPathComponent(try #require(added.variantURI))
        let files = try segmentFiles(of: variantPlaylist)
        #expect(try pictures(in: files[0], container: .mpegTS).map(\.data) == [try fixture("poster.png")])
    }

    @Test func anAudioOnlyVariantEmbedCannotReadIsNamedAndNothingIsWritten() async throws {
        let folder = try TemporaryFolder()
        let added = try await ladderWithAudioOnlyVariant(in: folder)
        // A second audio-only variant whose playlist is missing.
        let text = try String(contentsOfFile: added.output, encoding: .utf8)
        try (text + "#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\ngone/index.m3u8\n")
            .write(toFile: added.output, atomically: true, encoding: .utf8)
        let before = try snapshot(folder.path("with-variant"))

        let request = EmbedRequest(
            input: added.output, poster: try Poster(image: try fixture("poster.png")), posterName: "poster.png",
            destination: .folder(folder.path("out")))
        let error = await #expect(throws: EmbedError.self) { try await PosterEmbedder(request).run() }
        let message = error?.description ?? ""
        #expect(message.contains("an audio-only variant could not be read"), "\(message)")
        #expect(message.contains("gone/index.m3u8 could not be read: No such file or directory"), "\(message)")
        #expect(message.contains("--variant URI embeds into the others alone"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
        #expect(try snapshot(folder.path("with-variant")) == before)

        var named = request
        named.variants = [try #require(added.variantURI)]
        #expect(try await PosterEmbedder(named).run().targets.map(\.uri) == [try #require(added.variantURI)])
    }

    /// A runt ladder with the audio-only variant `--add-audio-only` makes, in `with-variant`.
    func ladderWithAudioOnlyVariant(in folder: TemporaryFolder) async throws -> AudioOnlyOutcome {
        let multivariant = try await RuntLadder().make(in: folder)
        return try await AudioOnlyVariantBuilder(
            AudioOnlyRequest(
                input: multivariant, poster: try samplePoster(), posterName: "poster.jpg",
                destination: .folder(folder.path("with-variant")))
        ).run()
    }
}

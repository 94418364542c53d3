import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// `embed --keep-names`: the segments keep their names (each replaced whole by a rename), the
/// media playlists keep their bytes, only BANDWIDTH changes in the multivariant playlist.
@Suite(.serialized) struct KeepNamesTests {
    enum Destination: String, CaseIterable, Sendable { case inPlace, newOutputFolder, existingOutputFolder }

    @Test(arguments: Destination.allCases)
    func segmentsKeepTheirNamesAndGainThePoster(_ destination: Destination) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(audioKbps: 40, audioOnlyVariant: true).make(in: folder)
        let stream = folder.path("stream")
        let before = try snapshot(stream)
        let written: String
        var request = EmbedRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg", destination: .inPlace)
        request.keepNames = true
        switch destination {
        case .inPlace:
            written = stream
        case .newOutputFolder, .existingOutputFolder:
            written = folder.path("out")
            if destination == .existingOutputFolder {
                try FileManager.default.createDirectory(atPath: written, withIntermediateDirectories: false)
            }
            request.destination = .folder(written)
        }
        let outcome = try await PosterEmbedder(request).run()
        #expect(outcome.targets.map(\.uri) == ["audio/index.m3u8"])
        #expect(!outcome.verification.fails(at: .error), "\(outcome.verification.diagnostics)")

        let after = try snapshot(written)
        // The media playlists as they were; the names as they were; nothing else left behind.
        #expect(after["audio/index.m3u8"] == before["audio/index.m3u8"])
        #expect(Set(after.keys) == Set(before.keys), "\(Set(after.keys).symmetricDifference(before.keys))")
        for index in 0..<4 {
            let name = "audio/seg\(index).ts"
            let pictures = try pictures(in: (written as NSString).appendingPathComponent(name), container: .mpegTS)
            #expect(pictures.count == (index < 3 ? 1 : 0), "\(name)")
            #expect((after[name] != before[name]) == (index < 3), "\(name)")
        }
        #expect(try probedStreamTypes((written as NSString).appendingPathComponent("audio/seg0.ts")).contains("data"))
        let text = String(decoding: try #require(after["master.m3u8"]), as: UTF8.self)
        #expect(text.contains("BANDWIDTH=\(outcome.targets.first?.peakAfter ?? 0),"), "\(text)")
        if destination != .inPlace {
            #expect(try snapshot(stream) == before, "the input is untouched")
        }
    }
}

import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// Packed audio as the ffmpeg CLI writes it has no RFC 8216 §3.4 timestamps; the ones `embed`
/// adds must put it on the stream's own timeline, where the TS variants start (1.4 s).
@Suite struct TimelineEmbedTests {
    @Test func timestampsAddedToPackedAudioStartWhereTheOtherVariantsStart() async throws {
        let (folder, multivariant) = try sampleCopy("packed-audio")
        // Strip the leading ID3 tag (PRIV + poster) from every segment: raw ADTS again.
        var durations: [Double] = []
        for index in 0..<3 {
            let path = folder.path("packed-audio/audio/seg\(index).aac")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let tagSize = try ID3Tag.parse(bytes[...]).byteCount
            try Data(bytes[tagSize...]).write(to: URL(fileURLWithPath: path))
        }
        let playlist = try String(contentsOfFile: folder.path("packed-audio/audio/index.m3u8"), encoding: .utf8)
        for line in playlist.split(separator: "\n") where line.hasPrefix("#EXTINF:") {
            durations.append(try #require(Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })))
        }

        // The TS variants live in ../compliant: the stream's root is the folder holding both.
        var configuration = CheckConfiguration()
        configuration.confinement.root = folder.url.path
        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
                destination: .folder(folder.path("out")), configuration: configuration)
        ).run()
        #expect(outcome.verification.diagnostics.isEmpty, "\(outcome.verification.diagnostics)")
        let written = try String(contentsOfFile: folder.path("out/packed-audio/audio/index.m3u8"), encoding: .utf8)
        let segments = written.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(segments.count == 3)

        var expected = Int64(126_000)  // ffmpeg's TS variants start at 1.4 s
        for index in 0..<3 {
            let bytes = [UInt8](
                try Data(contentsOf: URL(fileURLWithPath: folder.path("out/packed-audio/audio/\(segments[index])"))))
            let tag = try #require(try ID3Tag.parse(bytes[...]).tag)
            #expect(TransportStreamTimestamp(tag: tag)?.pts90k == expected, "segment \(index)")
            expected += Int64((durations[index] * 90_000).rounded())
        }
    }
}

import Foundation
import HLSCheck
import HLSReporting
import TestSupport
import Testing

/// An audio-only variant whose segments hlscheck measured but could not read — encrypted with
/// SAMPLE-AES, which it does not decrypt — is not reported as carrying no poster: whether it
/// carries one is unknown. (The poster column said "none" while the segments held one.)
@Suite struct EncryptedPosterReportTests {
    /// The compliant sample's audio (which carries a poster in every segment), declared `method`.
    static func audioStream(method: String?) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let samples = PackageRoot.url.appendingPathComponent("Samples/compliant/audio")
        var media = "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
        if let method {
            media += "#EXT-X-KEY:METHOD=\(method),URI=\"skd://key\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n"
        }
        for index in 0..<3 {
            try folder.write(
                Data(contentsOf: samples.appendingPathComponent("seg\(index).ts")), to: "audio/seg\(index).ts")
            media += "#EXTINF:6.0,\nseg\(index).ts\n"
        }
        try folder.write(Data((media + "#EXT-X-ENDLIST\n").utf8), to: "audio/index.m3u8")
        try folder.write(
            Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n".utf8),
            to: "master.m3u8")
        return (folder, folder.path("master.m3u8"))
    }

    /// The POSTER column of the variant table's audio row.
    static func posterColumn(_ text: String) throws -> String {
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("  audio/index.m3u8") })
        return String(row)
    }

    @Test func sampleAESSegmentsSayNotReadWhereClearOnesShowThePoster() async throws {
        let (encryptedFolder, encrypted) = try Self.audioStream(method: "SAMPLE-AES")
        let (clearFolder, clear) = try Self.audioStream(method: nil)

        let hidden = await Checker.check(encrypted)
        let variant = try #require(hidden.first?.variants.first)
        #expect(variant.segmentsMeasured == 3 && variant.segmentsInspected == 0)
        let row = try Self.posterColumn(TextReporter().render(hidden))
        #expect(row.hasSuffix("not read"), "\(row)")
        #expect(!row.hasSuffix("none"))
        let html = try HTMLReporter().render(hidden)
        #expect(html.contains("Segments are encrypted and were not decrypted: whether they carry a poster is unknown."))

        let shown = await Checker.check(clear)
        #expect(shown.first?.variants.first?.segmentsInspected == 3)
        let clearRow = try Self.posterColumn(TextReporter().render(shown))
        #expect(clearRow.contains(" in 3/3"), "\(clearRow)")
        withExtendedLifetime((encryptedFolder, clearFolder)) {}
    }
}

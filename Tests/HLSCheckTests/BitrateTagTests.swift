import Foundation
import HLSCheck
import TestSupport
import Testing

/// EXT-X-BITRATE against the bit rate of the committed sample's real audio segments.
@Suite struct BitrateTagTests {
    /// The sample with an EXT-X-BITRATE before every audio segment, `scale` times that
    /// segment's own bit rate (bytes × 8 / EXTINF, in kbit/s).
    static func stream(scale: Double) throws -> TemporaryFolder {
        let folder = try MediaFixtures.sampleStream(multivariant: "#EXTM3U\n" + MediaFixtures.v0 + MediaFixtures.audio)
        let path = folder.path("audio/index.m3u8")
        var lines: [String] = []
        var extinf = 0.0
        for line in try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init) {
            if line.hasPrefix("#EXTINF:") { extinf = Double(line.dropFirst(8).prefix { $0 != "," }) ?? 0 }
            if line.hasSuffix(".ts") {
                let bytes = try #require(
                    try FileManager.default.attributesOfItem(atPath: folder.path("audio/" + line))[.size] as? Int)
                let kbits = Double(bytes) * 8 / extinf / 1000
                // Before the EXTINF line just written: the tag applies from the next segment on.
                lines.insert("#EXT-X-BITRATE:\(Int((kbits * scale).rounded()))", at: lines.count - 1)
            }
            lines.append(line)
        }
        try folder.write(Data(lines.joined(separator: "\n").utf8), to: "audio/index.m3u8")
        return folder
    }

    @Test func bitrateTagsWithinTenPercentPass() async throws {
        let report = try await check(try Self.stream(scale: 1.05))
        #expect(!rules(report).contains("bitrate-tag-mismatch"), "\(report.diagnostics)")
    }

    @Test func bitrateTagsOffByAQuarterAreAnErrorAtTheFirstSegment() async throws {
        let report = try await check(try Self.stream(scale: 1.25))
        let findings = report.diagnostics.filter { $0.rule == "bitrate-tag-mismatch" }
        #expect(findings.count == 1, "\(report.diagnostics)")
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("applies to seg0.ts") == true, "\(findings)")
        #expect(findings.first?.message.contains("(3 such segments)") == true, "\(findings)")
        #expect(findings.first?.location?.uri.hasSuffix("audio/index.m3u8") == true)
    }
}

import Foundation
import TestSupport
import Testing

/// `check --decode` and what `embed --remove` says on stderr, through the real binary.
@Suite struct DecodeAndRemoveCommandTests {
    @Test func decodeFlagReportsADamagedFrameAndIsOffByDefault() throws {
        let folder = try TemporaryFolder()
        let stream = folder.url.appendingPathComponent("stream")
        try FileManager.default.copyItem(at: PackageRoot.url.appendingPathComponent("Samples/compliant"), to: stream)
        let segment = stream.appendingPathComponent("v1/seg2.ts")
        let bytes = [UInt8](try Data(contentsOf: segment))
        let pid = try #require(TransportStreamDamage.videoPID(bytes))
        let damaged = TransportStreamDamage.zeroingPayload(
            bytes, packets: Array(TransportStreamDamage.framePackets(bytes, pid: pid).prefix(2)))
        try Data(damaged).write(to: segment)

        let plain = try HLSCheckBinary.run(["check", "stream/master.m3u8"], in: folder.url)
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(!plain.stdout.contains("decode-error"))

        let decoded = try HLSCheckBinary.run(["check", "stream/master.m3u8", "--decode"], in: folder.url)
        #expect(decoded.status == 1)
        let lines = decoded.stdout.split(separator: "\n").filter { $0.contains("[decode-error]") }
        #expect(lines.count == 1, "\(decoded.stdout)")
        #expect(lines.first?.contains("v1/index.m3u8:11:") == true, "located at the EXTINF of seg2.ts: \(lines)")
        #expect(lines.first?.contains("segment seg2.ts:") == true)
    }

    @Test func removeSaysItKeepsThePackedAudioTimestamp() throws {
        let folder = try TemporaryFolder()
        let multivariant = try EmbedCommandTests.smallStream(.packedAudio, in: folder)
        let result = try #require(
            try EmbedCommandTests.embed(["--remove", multivariant + "/master.m3u8", "--output", folder.path("out")]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "hlscheck: kept the ID3 PRIV timestamp that starts 3 packed-audio segments of audio/index.m3u8: RFC 8216 §3.4 requires it"
            ), "\(result.stderr)")
    }
}

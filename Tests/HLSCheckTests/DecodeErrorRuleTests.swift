import Foundation
import HLSCheck
import TestSupport
import Testing

/// `decode-error` (`--decode`): reported on the damaged segment only, and silent when decoding
/// is off — the facts are absent then, not "no errors".
struct DecodeErrorRuleTests {
    /// Samples/compliant copied, with the payload of two video packets inside a frame of
    /// v0/seg1.ts zeroed (continuity counters intact).
    static func damagedStream() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let sample = PackageRoot.url.appendingPathComponent("Samples/compliant").path
        for (path, data) in try snapshot(sample) {
            var bytes = [UInt8](data)
            if path == "v0/seg1.ts" {
                let pid = try #require(TransportStreamDamage.videoPID(bytes))
                bytes = TransportStreamDamage.zeroingPayload(
                    bytes, packets: Array(TransportStreamDamage.framePackets(bytes, pid: pid).prefix(2)))
            }
            try folder.write(Data(bytes), to: path)
        }
        return folder
    }

    static func check(_ path: String, decode: Bool) async throws -> CheckReport {
        var configuration = CheckConfiguration()
        configuration.decode = decode
        return try await Checker(configuration: configuration).check(path)
    }

    @Test func damagedSegmentIsReportedAndNoOtherOne() async throws {
        let stream = try Self.damagedStream()
        let report = try await Self.check(stream.path("master.m3u8"), decode: true)
        let found = report.diagnostics.filter { $0.rule == "decode-error" }
        #expect(found.count == 1, "\(found)")
        #expect(report.checkedRules.contains { $0.id == "decode-error" })
        let finding = try #require(found.first)
        #expect(finding.severity == .error)
        #expect(finding.location?.uri.hasSuffix("v0/index.m3u8") == true)
        #expect(finding.location?.line == 9, "the EXTINF line of seg1.ts")
        #expect(finding.message.contains("segment seg1.ts"), "\(finding.message)")
        #expect(finding.message.contains("video frames (h264) fail to decode"), "\(finding.message)")
        #expect(finding.message.contains("error while decoding MB"), "\(finding.message)")
        // Zeroed bytes keep the transport packets in order: no other rule claims the damage.
        #expect(!report.diagnostics.contains { $0.rule == "continuity-error" || $0.rule == "segment-unreadable" })
    }

    @Test func silentWithoutDecode() async throws {
        let stream = try Self.damagedStream()
        let report = try await Self.check(stream.path("master.m3u8"), decode: false)
        #expect(!report.diagnostics.contains { $0.rule == "decode-error" })
        // Not listed as checked either (JUnit, SARIF): it did not run.
        #expect(!report.checkedRules.contains { $0.id == "decode-error" })
    }

    @Test func cleanSampleDecodesWithoutErrors() async throws {
        let report = try await Self.check(
            PackageRoot.url.appendingPathComponent("Samples/compliant/master.m3u8").path, decode: true)
        #expect(!report.diagnostics.contains { $0.rule == "decode-error" }, "\(report.diagnostics)")
        #expect(!report.fails(at: .error), "\(report.diagnostics)")
    }
}

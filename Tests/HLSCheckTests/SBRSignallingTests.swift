import Foundation
import HLSCheck
import TestSupport
import Testing

/// HE-AAC signalling in fMP4, on ffmpeg's AAC-LC with the AudioSpecificConfig of its init
/// section rewritten: ffmpeg has no HE-AAC encoder, but what the rule reads is the config alone
/// (ISO/IEC 14496-3 §1.6.2.1), five bytes in the esds that the rewrite keeps at five.
@Suite struct SBRSignallingTests {
    /// ffmpeg writes AAC-LC 48 kHz stereo with the sync extension 0x2b7 and sbrPresentFlag 0.
    static let ffmpegConfig: [UInt8] = [0x11, 0x90, 0x56, 0xE5, 0x00]

    /// Encodes two seconds of stereo AAC-LC into `audio/` as fMP4 and puts `config` in place of
    /// its AudioSpecificConfig. Returns the multivariant playlist, which declares `codecs`.
    static func stream(_ folder: TemporaryFolder, config: [UInt8], codecs: String) throws -> String {
        try EncodedStream.encode(folder, "audio", fmp4: true, ["-map", "1:a"] + EncodedStream.stereoAAC)
        let initPath = folder.path("audio/init.mp4")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: initPath)))
        // DecoderSpecificInfo: tag 5, its length in four bytes (as ffmpeg writes it), the config.
        let header: [UInt8] = [0x05, 0x80, 0x80, 0x80, 0x05]
        let start =
            try #require(
                (0...(bytes.count - header.count - 5)).first { Array(bytes[$0..<($0 + header.count)]) == header })
            + header.count
        #expect(Array(bytes[start..<(start + 5)]) == ffmpegConfig)
        bytes.replaceSubrange(start..<(start + 5), with: config)
        try Data(bytes).write(to: URL(fileURLWithPath: initPath))
        return try EncodedStream.master(folder, [("BANDWIDTH=100000,CODECS=\"\(codecs)\"", "audio/index.m3u8")])
    }

    @Test(arguments: [
        // AAC-LC 24 kHz core, nothing after it: implicit signalling.
        ("implicit", [0x13, 0x10, 0x00, 0x00, 0x00] as [UInt8], "mp4a.40.5", true),
        // ffmpeg's own config says SBR is absent: not HE-AAC's signalling either.
        ("explicitly absent", ffmpegConfig, "mp4a.40.5", true),
        // Object type 5, 24 kHz core, 48 kHz output, then the core's type 2.
        ("hierarchical", [0x2B, 0x11, 0x88, 0x00, 0x00], "mp4a.40.5", false),
        // AAC-LC 24 kHz core, sync extension 0x2b7, type 5, sbrPresentFlag 1, 48 kHz output.
        ("backward compatible", [0x13, 0x10, 0x56, 0xE5, 0x98], "mp4a.40.5", false),
        // AAC-LC declared as such: no HE-AAC to signal.
        ("AAC-LC", ffmpegConfig, "mp4a.40.2", false),
    ])
    func heAACInFragmentedMP4SignalsSBRExplicitly(_ name: String, _ config: [UInt8], _ codecs: String, _ fires: Bool)
        async throws
    {
        let folder = try TemporaryFolder()
        let master = try Self.stream(folder, config: config, codecs: codecs)
        let diagnostics = try await EncodedStream.check(master, profile: .appleIOS)
        let found = diagnostics.filter { $0.rule == "sbr-not-signalled" }
        guard fires else {
            #expect(found.isEmpty, "\(name): \(found)")
            return
        }
        let finding = try #require(found.first, "\(name): \(diagnostics)")
        #expect(finding.severity == .error)
        #expect(finding.location?.line == 4, "\(finding)")
        #expect(
            finding.message.contains(
                "CODECS declares mp4a.40.5 (HE-AAC), but the AudioSpecificConfig of the fMP4 audio of audio/index.m3u8"),
            "\(finding.message)")
        #expect(finding.message.contains("signal SBR explicitly"), "\(finding.message)")
        // An Apple requirement only.
        let rfc = try await EncodedStream.check(master, profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "sbr-not-signalled" }, "\(rfc)")
    }
}

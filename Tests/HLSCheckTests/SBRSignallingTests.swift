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
        return try EncodedStream.multivariant(folder, [("BANDWIDTH=100000,CODECS=\"\(codecs)\"", "audio/index.m3u8")])
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
        let multivariant = try Self.stream(folder, config: config, codecs: codecs)
        let diagnostics = try await EncodedStream.check(multivariant, profile: .appleIOS)
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
        let rfc = try await EncodedStream.check(multivariant, profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "sbr-not-signalled" }, "\(rfc)")
    }

    /// ADTS frames of silent stereo AAC-LC at 24 kHz (ISO/IEC 14496-3 §1.A.2 and §4.4.2), each a
    /// channel pair of two zero-band channels and, with `sbr`, a fill element whose extension
    /// payload is SBR data (EXT_SBR_DATA, §4.4.2.7) before the END element: what an HE-AAC
    /// encoder's output is to a decoder told of no SBR. ffmpeg has no HE-AAC encoder; the
    /// frames are written bit by bit here, then muxed into fMP4 by the ffmpeg CLI.
    static func adts(sbr: Bool, frames: Int) -> Data {
        func bits(_ value: Int, _ count: Int) -> String {
            let binary = String(value, radix: 2)
            return String(repeating: "0", count: count - binary.count) + binary
        }
        func bytes(_ text: String) -> [UInt8] {
            let padded = text + String(repeating: "0", count: (8 - text.count % 8) % 8)
            return stride(from: 0, to: padded.count, by: 8).map {
                let start = padded.index(padded.startIndex, offsetBy: $0)
                return UInt8(padded[start..<padded.index(start, offsetBy: 8)], radix: 2) ?? 0
            }
        }
        // global_gain, ics_info (long window, max_sfb 0, no prediction), no pulse, TNS or gain control.
        let channel = bits(100, 8) + "0" + "00" + "0" + bits(0, 6) + "0" + "000"
        var block = bits(1, 3) + bits(0, 4) + "0" + channel + channel
        if sbr { block += bits(6, 3) + bits(2, 4) + bits(13, 4) + bits(0, 12) }
        let payload = bytes(block + bits(7, 3))
        // syncword, MPEG-4, layer 0, no CRC, AAC-LC, 24 kHz (index 6), stereo, the frame length.
        let header = bytes(
            bits(0xFFF, 12) + "0" + "00" + "1" + bits(1, 2) + bits(6, 4) + "0" + bits(2, 3) + "0000"
                + bits(payload.count + 7, 13) + bits(0x7FF, 11) + "00")
        return Data(Array(repeating: header + payload, count: frames).joined())
    }

    @Test(arguments: [true, false])
    func flagsSBRThatOnlyTheFramesCarry(_ sbr: Bool) async throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.adts(sbr: sbr, frames: 24 * 4), to: "source.aac")
        try FileManager.default.createDirectory(atPath: folder.path("audio"), withIntermediateDirectories: true)
        try await ChildProcess.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", "../source.aac", "-c", "copy",
                "-bsf:a", "aac_adtstoasc", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-hls_segment_type", "fmp4", "index.m3u8",
            ], in: folder.path("audio"))
        let multivariant = try EncodedStream.multivariant(
            folder, [("BANDWIDTH=100000,CODECS=\"mp4a.40.2\"", "audio/index.m3u8")])
        let diagnostics = try await EncodedStream.check(multivariant, profile: .appleIOS)
        let found = diagnostics.filter { $0.rule == "sbr-not-signalled" }
        // Only the first segment's frames are decoded: the track must not seem to change codec or
        // rate after it, nor hold a codec the sample entry does not name.
        #expect(
            !diagnostics.contains { $0.rule == "track-change-without-discontinuity" || $0.rule == "codecs-mismatch" },
            "\(diagnostics)")
        guard sbr else {
            #expect(found.isEmpty, "\(found)")
            return
        }
        let finding = try #require(found.first, "\(diagnostics)")
        #expect(found.count == 1)
        #expect(finding.severity == .error)
        #expect(finding.location?.line == 4 && finding.location?.column == 36, "\(finding)")
        #expect(
            finding.message.contains(
                "the AAC frames of the fMP4 audio of audio/index.m3u8 (segment index0.m4s) carry SBR, HE-AAC, that its AudioSpecificConfig does not signal"
            ), "\(finding.message)")
    }
}

import Foundation
import HLSCheck
import TestSupport
import Testing

/// bis-22 §6.2.3 on real segments the ffmpeg CLI cuts (and encrypts, AES-128): an encrypted
/// segment whose EXT-X-KEY is missing, and a clear one under a key, are told apart from other
/// unreadable segments.
@Suite struct EncryptionEvidenceTests {
    /// Three 2-second MPEG-TS segments of H.264 and AAC in `folder/name/`, AES-128 encrypted with
    /// `key.bin` when `encrypted`. Returns the media playlist's text.
    static func stream(in folder: TemporaryFolder, _ name: String, encrypted: Bool) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        var arguments = [
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=6", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=6",
            "-c:v", "libx264", "-threads", "1", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-b:v", "100k",
            "-c:a", "aac", "-b:a", "32k", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        ]
        if encrypted {
            try folder.write(Data(Array(0..<16) as [UInt8]), to: "\(name)/key.bin")
            try folder.write(
                Data("key.bin\n\(folder.path("\(name)/key.bin"))\n000102030405060708090a0b0c0d0e0f\n".utf8),
                to: "\(name)/keyinfo")
            arguments += ["-hls_key_info_file", folder.path("\(name)/keyinfo")]
        }
        arguments += ["-hls_segment_filename", folder.path("\(name)/seg%d.ts"), folder.path("\(name)/index.m3u8")]
        try ChildProcess.run(arguments, in: folder.path(name))
        return try String(contentsOfFile: folder.path("\(name)/index.m3u8"), encoding: .utf8)
    }

    static func check(_ folder: TemporaryFolder, media: String, in name: String) async throws -> [Diagnostic] {
        try folder.write(Data(media.utf8), to: "\(name)/index.m3u8")
        try folder.write(
            Data(
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS=\"avc1.64000c,mp4a.40.2\",RESOLUTION=160x90\n\(name)/index.m3u8\n"
                    .utf8), to: "\(name).m3u8")
        return try await Checker().check(folder.path("\(name).m3u8")).diagnostics.filter {
            $0.rule == "segment-unreadable"
        }
    }

    @Test func encryptedSegmentsWithoutTheirKeyAreToldAsEncrypted() async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.stream(in: folder, "enc", encrypted: true)
        // The same playlist with its EXT-X-KEY decrypts cleanly.
        #expect(try await Self.check(folder, media: playlist, in: "enc").isEmpty)
        let keyless = playlist.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#EXT-X-KEY") }.joined(separator: "\n")
        let findings = try await Self.check(folder, media: keyless, in: "enc")
        #expect(findings.count == 3, "\(findings)")
        #expect(
            findings.allSatisfy {
                $0.message.contains("its bytes look encrypted") && $0.message.contains("but no EXT-X-KEY applies to it")
            }, "\(findings.map(\.message))")
    }

    @Test func clearSegmentsUnderAKeyAreToldAsClear() async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.stream(in: folder, "clear", encrypted: false)
        try folder.write(Data(Array(0..<16) as [UInt8]), to: "clear/key.bin")
        let keyed = playlist.replacingOccurrences(
            of: "#EXTINF", with: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF", options: [],
            range: playlist.range(of: "#EXTINF"))
        let findings = try await Self.check(folder, media: keyed, in: "clear")
        #expect(findings.count == 3, "\(findings)")
        #expect(
            findings.allSatisfy {
                $0.message.contains(
                    "is not encrypted: its bytes are plain MPEG-TS before any decryption, but EXT-X-KEY METHOD=AES-128 applies to it"
                )
            }, "\(findings.map(\.message))")
        // Under METHOD=NONE the same segments are clean.
        let none = playlist.replacingOccurrences(
            of: "#EXTINF", with: "#EXT-X-KEY:METHOD=NONE\n#EXTINF", options: [], range: playlist.range(of: "#EXTINF"))
        #expect(try await Self.check(folder, media: none, in: "clear").isEmpty)
    }

    @Test func damagedClearSegmentIsNotCalledEncrypted() async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.stream(in: folder, "damaged", encrypted: false)
        // Every TS sync byte of the first segment overwritten: it no longer demuxes, but its bytes
        // keep the uneven spread of compressed media and headers.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("damaged/seg0.ts"))))
        for offset in stride(from: 0, to: bytes.count, by: 188) { bytes[offset] = 0x00 }
        try folder.write(Data(bytes), to: "damaged/seg0.ts")
        let findings = try await Self.check(folder, media: playlist, in: "damaged")
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.message.contains("encrypted") == false, "\(findings.map(\.message))")
    }
}

import Foundation
import HLSCheck
import TestSupport
import Testing

/// I-frame streams as ffmpeg's HLS muxer writes them (`-hls_flags iframes_only+single_file`:
/// one resource, each I-frame an EXT-X-BYTERANGE of it), then edited the way real packagers go
/// wrong, checked with their resources read by the real inspector.
enum IFrameLadder {
    /// Writes `name/iframes.m3u8` over `name/video.ts` (or `.m4s` with its EXT-X-MAP): three
    /// 2-second GOPs of H.264 Baseline 128x72. Returns the I-frame playlist's text.
    static func make(_ folder: TemporaryFolder, _ name: String, fmp4: Bool) throws -> String {
        let directory = folder.path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ChildProcess.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=128x72:rate=25:duration=6",
                "-c:v", "libx264", "-threads", "1", "-profile:v", "baseline", "-level", "3.0", "-pix_fmt", "yuv420p",
                "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-an",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_flags", "iframes_only+single_file",
            ] + (fmp4 ? ["-hls_segment_type", "fmp4"] : []) + [
                "-hls_segment_filename", "video.\(fmp4 ? "m4s" : "ts")", "iframes.m3u8",
            ], in: directory)
        return try String(contentsOfFile: folder.path("\(name)/iframes.m3u8"), encoding: .utf8)
    }

    /// The byte ranges of `playlist`, in order: (length, offset).
    static func ranges(_ playlist: String) -> [(length: Int, offset: Int)] {
        playlist.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("#EXT-X-BYTERANGE:") else { return nil }
            let parts = line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }

    /// `playlist` with its `index`th byte range moved to start `by` bytes later (its end kept).
    static func moving(_ playlist: String, range index: Int, by shift: Int) -> String {
        let range = ranges(playlist)[index]
        return playlist.replacing(
            "#EXT-X-BYTERANGE:\(range.length)@\(range.offset)\n",
            with: "#EXT-X-BYTERANGE:\(range.length - shift)@\(range.offset + shift)\n")
    }

    /// Writes a multivariant playlist with a video variant (the I-frames' own resource, as a
    /// stand-in) and one I-frame stream over `name/iframes.m3u8`, whose text is `playlist`.
    static func multivariant(
        _ folder: TemporaryFolder, _ name: String, _ playlist: String, codecs: String
    ) throws -> String {
        try folder.write(Data(playlist.utf8), to: "\(name)/iframes.m3u8")
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=150000,CODECS="\(codecs)",RESOLUTION=128x72,URI="\(name)/iframes.m3u8"

            """
        try folder.write(Data(text.utf8), to: "\(name).m3u8")
        return folder.path("\(name).m3u8")
    }

    static func check(_ path: String, profile: Profile = .appleIOS) async throws -> [Diagnostic] {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return try await Checker(configuration: configuration).check(path).diagnostics
    }

    static let rules: Set<String> = [
        "iframe-initialization-missing", "iframe-range-includes-initialization", "iframe-moof-missing",
        "codecs-mismatch",
    ]

    static func found(_ diagnostics: [Diagnostic]) -> [Diagnostic] { diagnostics.filter { rules.contains($0.rule) } }
}

@Suite struct IFrameMediaRuleTests {
    /// ffmpeg's MPEG-TS I-frame playlist starts its first range at byte 0, over the SDT, PAT and
    /// PMT at the start of the file; started after them, nothing is wrong; started after the SDT
    /// only, the bytes before the first I-frame hold no PAT.
    @Test func transportStreamIFrameRangesAreReadAgainstTheInitializationSection() async throws {
        let folder = try TemporaryFolder()
        let written = try IFrameLadder.make(folder, "ts", fmp4: false)
        #expect(IFrameLadder.ranges(written).first?.offset == 0)

        let ffmpeg = IFrameLadder.found(
            try await IFrameLadder.check(try IFrameLadder.multivariant(folder, "ts", written, codecs: "avc1.42c01e")))
        #expect(ffmpeg.map(\.rule) == ["iframe-range-includes-initialization"], "\(ffmpeg)")
        #expect(
            ffmpeg.first?.location?.line == 7 && ffmpeg.first?.message.contains("starts at byte 0 of video.ts") == true,
            "\(ffmpeg)")

        // SDT, PAT and PMT: three packets.
        let repaired = IFrameLadder.moving(written, range: 0, by: 3 * 188)
        let clean = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "ts", repaired, codecs: "avc1.42c01e"))
        #expect(IFrameLadder.found(clean).isEmpty, "\(clean)")

        let afterSDT = IFrameLadder.moving(written, range: 0, by: 188)
        let noPAT = IFrameLadder.found(
            try await IFrameLadder.check(try IFrameLadder.multivariant(folder, "ts", afterSDT, codecs: "avc1.42c01e")))
        #expect(noPAT.map(\.rule) == ["iframe-initialization-missing"], "\(noPAT)")
        #expect(
            noPAT.first?.message.contains("its first 188 bytes before its first I-frame (byte 188) hold no PAT")
                == true, "\(noPAT)")
        #expect(
            noPAT.first?.location?.uri.hasSuffix("ts/iframes.m3u8") == true && noPAT.first?.location?.line == 7,
            "\(noPAT)")
    }

    /// Under METHOD=AES-128 an I-frame resource is one CBC run from its first byte (bis-22
    /// §6.2.3): its start is decrypted with the key and the first I-frame's IV (its media
    /// sequence number) before the tables are looked for.
    @Test func anEncryptedResourceIsDecryptedBeforeItsStartIsJudged() async throws {
        let folder = try TemporaryFolder()
        let written = try IFrameLadder.make(folder, "ts", fmp4: false)
        let key = "000102030405060708090a0b0c0d0e0f"
        try await ChildProcess.run(
            [
                "openssl", "enc", "-aes-128-cbc", "-K", key, "-iv", String(repeating: "0", count: 32),
                "-in", "video.ts", "-out", "video.enc.ts",
            ], in: folder.path("ts"))
        try FileManager.default.removeItem(atPath: folder.path("ts/video.ts"))
        try FileManager.default.moveItem(atPath: folder.path("ts/video.enc.ts"), toPath: folder.path("ts/video.ts"))
        try folder.write(Data((0..<16).map { UInt8($0) }), to: "ts/key.bin")
        let encrypted = written.replacing(
            "#EXT-X-I-FRAMES-ONLY\n", with: "#EXT-X-I-FRAMES-ONLY\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n")

        let repaired = IFrameLadder.moving(encrypted, range: 0, by: 3 * 188)
        let clean = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "ts", repaired, codecs: "avc1.42c01e"))
        #expect(!clean.contains { $0.rule == "iframe-initialization-missing" }, "\(clean)")

        let afterSDT = IFrameLadder.moving(encrypted, range: 0, by: 188)
        let noPAT = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "ts", afterSDT, codecs: "avc1.42c01e"))
        let finding = try #require(noPAT.first { $0.rule == "iframe-initialization-missing" }, "\(noPAT)")
        #expect(finding.location?.line == 8, "\(finding)")
        #expect(
            finding.message.contains("hold no PAT (decrypted with the AES-128 key and IV of its first I-frame)"),
            "\(finding.message)")
    }

    /// The CODECS of an I-frame stream is compared with what its I-frames hold, read with the
    /// section before the first I-frame as their initialization section.
    @Test func iFrameStreamCodecsAreComparedWithTheIFrames() async throws {
        let folder = try TemporaryFolder()
        let repaired = IFrameLadder.moving(try IFrameLadder.make(folder, "ts", fmp4: false), range: 0, by: 3 * 188)
        let wrong = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "ts", repaired, codecs: "hvc1.1.6.L93.B0,mp4a.40.2"))
        let finding = try #require(wrong.first { $0.rule == "codecs-mismatch" })
        #expect(finding.location?.line == 4, "\(finding)")
        #expect(
            finding.message.contains(
                "I-frame stream ts/iframes.m3u8: the I-frames hold avc1.42c01e, not declared; mp4a.40.2 is declared but absent"
            ), "\(finding.message)")
    }

    /// ffmpeg's fMP4 I-frame playlist makes its first range start at byte 0, over the ftyp and
    /// moov that EXT-X-MAP names; each range holds its fragment's sidx and moof. A range moved
    /// past its moof holds only sample data.
    @Test func fragmentedMP4IFrameRangesNeedTheirMoofAndNotTheMap() async throws {
        let folder = try TemporaryFolder()
        let written = try IFrameLadder.make(folder, "fmp4", fmp4: true)
        let map = try #require(written.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MAP:") })
        #expect(map.contains("BYTERANGE=\""), "\(map)")

        let ffmpeg = IFrameLadder.found(
            try await IFrameLadder.check(try IFrameLadder.multivariant(folder, "fmp4", written, codecs: "avc1.42c01e")))
        #expect(ffmpeg.map(\.rule) == ["iframe-range-includes-initialization"], "\(ffmpeg)")
        #expect(ffmpeg.first?.message.contains("overlaps the initialization section") == true, "\(ffmpeg)")

        // The map is the ftyp and moov: the first range starts right after it.
        let mapLength = try #require(
            map.split(separator: "\"").dropFirst(3).first.flatMap { Int($0.split(separator: "@")[0]) })
        let repaired = IFrameLadder.moving(written, range: 0, by: mapLength)
        let clean = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "fmp4", repaired, codecs: "avc1.42c01e"))
        #expect(IFrameLadder.found(clean).isEmpty, "\(clean)")

        // The second range without its sidx (52 bytes) and moof: it starts in the mdat.
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path("fmp4/video.m4s")))
        let second = IFrameLadder.ranges(repaired)[1]
        func boxSize(at offset: Int) -> Int { data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let sidx = boxSize(at: second.offset), moof = boxSize(at: second.offset + sidx)
        let broken = IFrameLadder.moving(repaired, range: 1, by: sidx + moof)
        let noMoof = IFrameLadder.found(
            try await IFrameLadder.check(try IFrameLadder.multivariant(folder, "fmp4", broken, codecs: "avc1.42c01e")))
        #expect(noMoof.map(\.rule) == ["iframe-moof-missing"], "\(noMoof)")
        #expect(
            noMoof.first?.message.contains("starts with the mdat") == true && noMoof.first?.location?.line == 11,
            "\(noMoof)")
        // Apple's requirement only.
        let rfc = try await IFrameLadder.check(
            try IFrameLadder.multivariant(folder, "fmp4", broken, codecs: "avc1.42c01e"), profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "iframe-moof-missing" }, "\(rfc)")
    }

    /// Two English renditions, stereo and 5.1 AAC, in two groups: without CHANNELS a player
    /// cannot tell them apart, so both need it; with it, or under different NAMEs, all is well.
    @Test(arguments: [
        ("", "", "English", true),
        (",CHANNELS=\"2\"", ",CHANNELS=\"6\"", "English", false),
        ("", "", "English 5.1", false),
    ])
    func renditionsOfOneNameWithDifferentChannelCountsNeedChannels(
        _ stereoChannels: String, _ surroundChannels: String, _ surroundName: String, _ fires: Bool
    ) async throws {
        let folder = try TemporaryFolder()
        try EncodedStream.encode(folder, "video", ["-map", "0:v"] + EncodedStream.x264)
        try EncodedStream.encode(folder, "stereo", ["-map", "1:a"] + EncodedStream.stereoAAC)
        try EncodedStream.encode(folder, "surround", ["-map", "1:a", "-c:a", "aac", "-ac", "6", "-b:a", "192k"])
        let multivariant = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES\(stereoChannels),URI="stereo/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="surround",NAME="\(surroundName)",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES\(surroundChannels),URI="surround/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS="avc1.64000c,mp4a.40.2",RESOLUTION=160x90,AUDIO="stereo"
            video/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64000c,mp4a.40.2",RESOLUTION=160x90,AUDIO="surround"
            video/index.m3u8

            """
        try folder.write(Data(multivariant.utf8), to: "master.m3u8")
        let found = try await EncodedStream.check(folder.path("master.m3u8"), profile: .rfc8216).filter {
            $0.rule == "channels-missing"
        }
        guard fires else {
            #expect(found.isEmpty, "\(found)")
            return
        }
        #expect(found.map { $0.location?.line } == [3, 4], "\(found)")
        let stereo = try #require(found.first)
        #expect(stereo.severity == .error)
        #expect(
            stereo.message.contains(
                "NAME=\"English\" in group \"stereo\" has no CHANNELS, but its mp4a.40.2 audio has 2 channels and the rendition of the same NAME in group \"surround\" (line 4) has 6: add CHANNELS=\"2\""
            ), "\(stereo.message)")
    }
}

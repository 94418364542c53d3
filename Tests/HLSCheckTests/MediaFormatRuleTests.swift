import Foundation
import HLSCheck
import TestSupport
import Testing

/// One-variant streams the ffmpeg CLI encodes at test time, so that the media format rules
/// (codec, container, profile and level, colour, field coding, frame rate, audio layout) are
/// judged on real bitstreams read by the real inspector.
enum EncodedStream {
    /// A 2-second 160x90 test pattern and a 440 Hz tone.
    static let sources = [
        "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=48000",
    ]

    /// Encodes `arguments` (codecs, filters, maps) with ffmpeg's HLS muxer into `folder/name/`,
    /// one-second segments, MPEG-TS unless `fmp4`. Returns the media playlist's path in the folder.
    @discardableResult
    static func encode(
        _ folder: TemporaryFolder, _ name: String, inputs: [String] = sources, seconds: Double = 2, fmp4: Bool = false,
        _ arguments: [String]
    ) throws -> String {
        let directory = folder.path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var command =
            ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + inputs + ["-t", String(seconds)]
            + arguments
        command += ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
        if fmp4 { command += ["-hls_segment_type", "fmp4"] }
        try ChildProcess.run(command + ["index.m3u8"], in: directory)
        return "\(name)/index.m3u8"
    }

    static let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "25"]
    static let stereoAAC = ["-c:a", "aac", "-ac", "2", "-b:a", "64k"]

    /// A multivariant playlist with one line per variant: `attributes` then the URI.
    static func multivariant(
        _ folder: TemporaryFolder, _ variants: [(attributes: String, uri: String)]
    ) throws -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        for variant in variants { text += "#EXT-X-STREAM-INF:\(variant.attributes)\n\(variant.uri)\n" }
        try folder.write(Data(text.utf8), to: "master.m3u8")
        return folder.path("master.m3u8")
    }

    static func check(_ path: String, profile: Profile = .audioOnly64k) async throws -> [Diagnostic] {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return try await Checker(configuration: configuration).check(path).diagnostics
    }
}

/// A Dolby Vision configuration box (`dvcC`, Dolby Vision streams within ISO BMFF §3.2) put into
/// the HEVC sample entry of an fMP4 init section: no encoder here writes Dolby Vision, but the
/// profile and level hlscheck reads are the box's, as a real Dolby Vision stream carries them.
enum DolbyVisionBox {
    static func box(profile: Int, level: Int) -> [UInt8] {
        // dv_profile (7 bits), dv_level (6), rpu_present_flag, el_present_flag, bl_present_flag.
        let bits = UInt16(profile) << 9 | UInt16(level) << 3 | 0b101
        let payload: [UInt8] = [1, 0, UInt8(bits >> 8), UInt8(bits & 0xFF), 0x10] + [UInt8](repeating: 0, count: 19)
        return [0, 0, 0, UInt8(8 + payload.count)] + Array("dvcC".utf8) + payload
    }

    /// Appends `box` to the end of the first box at `path` (moov/trak/…/hvc1), growing every box
    /// around it. Returns false when there is no such box.
    static func insert(_ box: [UInt8], at path: [String], in bytes: inout [UInt8]) -> Bool {
        insert(box, at: path[...], in: &bytes, from: 0, to: bytes.count)
    }

    private static func insert(
        _ box: [UInt8], at path: ArraySlice<String>, in bytes: inout [UInt8], from start: Int, to end: Int
    ) -> Bool {
        guard let name = path.first else { return false }
        var offset = start
        while offset + 8 <= end {
            let size =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            guard size >= 8, offset + size <= end else { return false }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == name {
                // stsd has version, flags and an entry count; a visual sample entry 78 bytes of fields.
                let children = offset + (name == "stsd" ? 16 : name == "hvc1" ? 86 : 8)
                let inserted: Bool
                if path.count == 1 {
                    bytes.insert(contentsOf: box, at: offset + size)
                    inserted = true
                } else {
                    inserted = insert(box, at: path.dropFirst(), in: &bytes, from: children, to: offset + size)
                }
                if inserted {
                    let grown = UInt32(size + box.count)
                    bytes.replaceSubrange(
                        offset..<(offset + 4),
                        with: [
                            UInt8(grown >> 24), UInt8(grown >> 16 & 0xFF), UInt8(grown >> 8 & 0xFF),
                            UInt8(grown & 0xFF),
                        ])
                    return true
                }
            }
            offset += size
        }
        return false
    }
}

@Suite struct MediaFormatRuleTests {
    let video = "BANDWIDTH=2000000,CODECS=\"avc1.64000c,mp4a.40.2\",RESOLUTION=160x90,FRAME-RATE=25.000"

    @Test func pqDeclaredOnSDRVideoIsAnErrorUnderEveryProfile() async throws {
        let folder = try TemporaryFolder()
        let sdr = try EncodedStream.encode(
            folder, "sdr",
            EncodedStream.x264 + EncodedStream.stereoAAC
                + ["-color_trc", "bt709", "-color_primaries", "bt709", "-colorspace", "bt709"])
        let multivariant = try EncodedStream.multivariant(folder, [("\(video),VIDEO-RANGE=PQ", sdr)])
        for profile in Profile.allCases {
            let found = try await EncodedStream.check(multivariant, profile: profile).filter {
                $0.rule == "video-range-mismatch"
            }
            let finding = try #require(found.first, "\(profile)")
            #expect(finding.severity == .error)
            #expect(
                finding.message.contains("VIDEO-RANGE=PQ") && finding.message.contains("1 (BT.709)")
                    && finding.message.contains("VIDEO-RANGE=SDR"), "\(finding.message)")
            #expect(finding.location?.line == 4)
        }
        // The same video declared SDR, or with no VIDEO-RANGE (SDR implied), is right.
        for attributes in ["\(video),VIDEO-RANGE=SDR", video] {
            let clean = try await EncodedStream.check(
                try EncodedStream.multivariant(folder, [(attributes, sdr)]), profile: .appleIOS)
            #expect(!clean.contains { $0.rule == "video-range-mismatch" }, "\(clean)")
        }
    }

    @Test func pqVideoWithoutVideoRangeIsAnError() async throws {
        let folder = try TemporaryFolder()
        let pq = try EncodedStream.encode(
            folder, "pq",
            EncodedStream.x264 + EncodedStream.stereoAAC
                + ["-color_trc", "smpte2084", "-color_primaries", "bt2020", "-colorspace", "bt2020nc"])
        let undeclared = try await EncodedStream.check(try EncodedStream.multivariant(folder, [(video, pq)]))
        let finding = try #require(undeclared.first { $0.rule == "video-range-mismatch" })
        #expect(
            finding.message.contains("no VIDEO-RANGE") && finding.message.contains("declare VIDEO-RANGE=PQ"),
            "\(finding.message)")
        let declared = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("\(video),VIDEO-RANGE=PQ", pq)]), profile: .appleIOS)
        #expect(!declared.contains { $0.rule == "video-range-mismatch" }, "\(declared)")
        // HDR only: the Apple profiles ask for SDR video beside it.
        #expect(declared.contains { $0.rule == "sdr-variant-missing" && $0.severity == .error })
    }

    @Test func hevcInTransportStreamIsAnAppleError() async throws {
        let folder = try TemporaryFolder()
        let ts = try EncodedStream.encode(
            folder, "ts",
            ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error"]
                + EncodedStream.stereoAAC)
        let diagnostics = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, ts)]), profile: .appleIOS)
        let finding = try #require(diagnostics.first { $0.rule == "codec-container-unsupported" })
        #expect(finding.severity == .error)
        #expect(finding.message.contains("HEVC video in MPEG-TS"), "\(finding.message)")
        // RFC 8216 allows any codec in any container it defines.
        let rfc = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, ts)]), profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "codec-container-unsupported" })

        let fmp4 = try EncodedStream.encode(
            folder, "fmp4", fmp4: true,
            ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=error"]
                + EncodedStream.stereoAAC)
        let clean = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, fmp4)]), profile: .appleIOS)
        #expect(
            !clean.contains { $0.rule == "codec-container-unsupported" || $0.rule == "video-codec-unsupported" },
            "\(clean)")
    }

    @Test func hdrHEVCMustBeHDR10() async throws {
        let folder = try TemporaryFolder()
        let colour = ["-color_trc", "smpte2084", "-color_primaries", "bt2020", "-colorspace", "bt2020nc"]
        let hevc = ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=error"]
        let eightBit = try EncodedStream.encode(
            folder, "main", fmp4: true, hevc + colour + ["-pix_fmt", "yuv420p"] + EncodedStream.stereoAAC)
        let tenBit = try EncodedStream.encode(
            folder, "main10", fmp4: true, hevc + colour + ["-pix_fmt", "yuv420p10le"] + EncodedStream.stereoAAC)
        let pq = "\(video),VIDEO-RANGE=PQ"
        let flagged = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(pq, eightBit)]), profile: .appleIOS)
        let finding = try #require(flagged.first { $0.rule == "hdr-format-unsupported" }, "\(flagged)")
        #expect(finding.message.contains("8-bit Main Profile"), "\(finding.message)")
        // The transfer is read from HEVC in fMP4 too: PQ declared PQ is right.
        #expect(!flagged.contains { $0.rule == "video-range-mismatch" }, "\(flagged)")
        // 10-bit PQ without HDR10's static metadata (PQ10) is not HDR10.
        let pq10 = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(pq, tenBit)]), profile: .appleIOS)
        let bare = try #require(pq10.first { $0.rule == "hdr-format-unsupported" }, "\(pq10)")
        #expect(
            bare.message.contains(
                "no HDR10 static metadata: its mastering display colour volume (SEI 137 or an mdcv box) and its content light level (SEI 144 or a clli box) are missing"
            ), "\(bare.message)")
        #expect(!pq10.contains { $0.rule == "video-range-mismatch" }, "\(pq10)")
    }

    /// HDR10 as x265 writes it: the mastering display colour volume and content light level SEI
    /// messages in the hvcC box and the first keyframe. Without master-display (max-cll alone)
    /// the mastering display colour volume is missing; with PQ stated but no primaries, the
    /// video is not HDR10 either.
    @Test(arguments: ["complete", "no master-display", "no primaries"])
    func hdr10NeedsItsStaticMetadata(_ variant: String) async throws {
        let folder = try TemporaryFolder()
        let display = "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)"
        var x265 = "log-level=error:transfer=smpte2084:colormatrix=bt2020nc:max-cll=1000,400"
        if variant != "no primaries" { x265 += ":colorprim=bt2020" }
        if variant != "no master-display" { x265 += ":hdr10=1:" + display }
        let hevc = [
            "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-pix_fmt", "yuv420p10le", "-x265-params",
            x265,
        ]
        let playlist = try EncodedStream.encode(folder, "hdr10", fmp4: true, hevc + EncodedStream.stereoAAC)
        let diagnostics = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("\(video),VIDEO-RANGE=PQ", playlist)]), profile: .appleIOS)
        let findings = diagnostics.filter { $0.rule == "hdr-format-unsupported" }
        switch variant {
        case "complete":
            #expect(findings.isEmpty, "\(findings)")
        case "no master-display":
            let finding = try #require(findings.first, "\(diagnostics)")
            #expect(
                finding.message.contains(
                    "no HDR10 static metadata: its mastering display colour volume (SEI 137 or an mdcv box) is missing"),
                "\(finding.message)")
            #expect(finding.severity == .error)
        default:
            let finding = try #require(findings.first, "\(diagnostics)")
            #expect(finding.message.contains("no colour primaries stated"), "\(finding.message)")
        }
        // Apple's requirement alone.
        let rfc = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("\(video),VIDEO-RANGE=PQ", playlist)]), profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "hdr-format-unsupported" })
    }

    @Test func interlacedVideoIsFlagged() async throws {
        let folder = try TemporaryFolder()
        // Field coding needs a height divisible by 4.
        let inputs = EncodedStream.sources.map { $0.replacingOccurrences(of: "160x90", with: "160x96") }
        let interlaced = try EncodedStream.encode(
            folder, "i", inputs: inputs,
            EncodedStream.x264 + ["-flags", "+ildct+ilme", "-top", "1"] + EncodedStream.stereoAAC)
        let progressive = try EncodedStream.encode(folder, "p", EncodedStream.x264 + EncodedStream.stereoAAC)
        let flagged = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, interlaced)]), profile: .appleTVOS)
        let finding = try #require(flagged.first { $0.rule == "video-interlaced" })
        #expect(finding.severity == .error && finding.message.contains("deinterlace"), "\(finding.message)")
        let clean = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, progressive)]), profile: .appleTVOS)
        #expect(!clean.contains { $0.rule == "video-interlaced" }, "\(clean)")
    }

    @Test func h264LevelLimitDependsOnThePlatform() async throws {
        let folder = try TemporaryFolder()
        let level52 = try EncodedStream.encode(
            folder, "l52", EncodedStream.x264 + ["-profile:v", "high", "-level", "5.2"] + EncodedStream.stereoAAC)
        let multivariant = try EncodedStream.multivariant(folder, [(video, level52)])
        // Level 5.2 is iOS's limit and above tvOS's 5.1.
        let tvOS = try await EncodedStream.check(multivariant, profile: .appleTVOS)
        let finding = try #require(tvOS.first { $0.rule == "video-profile-level-unsupported" })
        #expect(
            finding.message.contains("High Profile, Level 5.2") && finding.message.contains("tvOS 1.3b"),
            "\(finding.message)")
        let iOS = try await EncodedStream.check(multivariant, profile: .appleIOS)
        #expect(!iOS.contains { $0.rule == "video-profile-level-unsupported" }, "\(iOS)")

        let high10 = try EncodedStream.encode(
            folder, "h10", EncodedStream.x264 + ["-pix_fmt", "yuv420p10le"] + EncodedStream.stereoAAC)
        let above = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, high10)]), profile: .appleIOS)
        let profile = try #require(above.first { $0.rule == "video-profile-level-unsupported" })
        #expect(profile.message.contains("High 10 Profile"), "\(profile.message)")
    }

    @Test func videoAbove60FramesPerSecondIsFlagged() async throws {
        let folder = try TemporaryFolder()
        let fast = try EncodedStream.encode(
            folder, "fast", inputs: ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=120"],
            ["-c:v", "libx264", "-preset", "veryfast", "-g", "120"])
        let diagnostics = try await EncodedStream.check(
            try EncodedStream.multivariant(
                folder, [("BANDWIDTH=2000000,CODECS=\"avc1.64000c\",RESOLUTION=160x90,FRAME-RATE=120.000", fast)]),
            profile: .appleIOS)
        let finding = try #require(diagnostics.first { $0.rule == "frame-rate-too-high" })
        #expect(finding.message.contains("120.000 frames per second"), "\(finding.message)")
    }

    @Test func twoAudioTracksAndMuxedSurroundAreFlagged() async throws {
        let folder = try TemporaryFolder()
        let two = try EncodedStream.encode(
            folder, "two", ["-map", "0:v", "-map", "1:a", "-map", "1:a"] + EncodedStream.x264 + EncodedStream.stereoAAC)
        let twoFound = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, two)]), profile: .appleIOS)
        let finding = try #require(twoFound.first { $0.rule == "audio-streams-multiple" })
        #expect(finding.message.contains("2 audio tracks"), "\(finding.message)")
        #expect(
            !twoFound.contains { $0.rule == "stereo-audio-missing" || $0.rule == "multichannel-audio-muxed" },
            "\(twoFound)")

        let surround = try EncodedStream.encode(
            folder, "surround", EncodedStream.x264 + ["-c:a", "aac", "-ac", "6", "-b:a", "192k"])
        let surroundFound = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, surround)]), profile: .appleIOS)
        let muxed = try #require(surroundFound.first { $0.rule == "multichannel-audio-muxed" })
        #expect(muxed.message.contains("6-channel mp4a.40.2"), "\(muxed.message)")
        let stereo = try #require(surroundFound.first { $0.rule == "stereo-audio-missing" })
        #expect(stereo.message.contains("6-channel mp4a.40.2"), "\(stereo.message)")
    }

    @Test func aFrameRateChangeNeedsADiscontinuity() async throws {
        let folder = try TemporaryFolder()
        try EncodedStream.encode(folder, "a", EncodedStream.x264 + EncodedStream.stereoAAC)
        try EncodedStream.encode(
            folder, "b",
            inputs: [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=50", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000",
            ],
            EncodedStream.x264 + EncodedStream.stereoAAC)
        func media(discontinuity: Bool) -> String {
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\na/index0.ts\n#EXTINF:1.0,\na/index1.ts\n"
                + (discontinuity ? "#EXT-X-DISCONTINUITY\n" : "") + "#EXTINF:1.0,\nb/index0.ts\n#EXT-X-ENDLIST\n"
        }
        try folder.write(Data(media(discontinuity: false).utf8), to: "joined.m3u8")
        let found = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, "joined.m3u8")]), profile: .appleIOS)
        let finding = try #require(found.first { $0.rule == "format-change-without-discontinuity" }, "\(found)")
        #expect(
            finding.message.contains("from 25.000 to 50.000 frames per second") && finding.location?.line == 9,
            "\(finding)")

        try folder.write(Data(media(discontinuity: true).utf8), to: "joined.m3u8")
        let marked = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [(video, "joined.m3u8")]), profile: .appleIOS)
        #expect(!marked.contains { $0.rule == "format-change-without-discontinuity" }, "\(marked)")
    }

    @Test func aChannelLayoutChangeNeedsADiscontinuity() async throws {
        let folder = try TemporaryFolder()
        try EncodedStream.encode(
            folder, "stereo", inputs: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
            EncodedStream.stereoAAC)
        try EncodedStream.encode(
            folder, "surround", inputs: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
            ["-c:a", "aac", "-ac", "6"])
        try folder.write(
            Data(
                ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                    + "#EXTINF:1.0,\nstereo/index0.ts\n#EXTINF:1.0,\nsurround/index1.ts\n#EXT-X-ENDLIST\n").utf8),
            to: "audio.m3u8")
        let found = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("BANDWIDTH=300000,CODECS=\"mp4a.40.2\"", "audio.m3u8")]),
            profile: .appleIOS)
        let finding = try #require(found.first { $0.rule == "format-change-without-discontinuity" }, "\(found)")
        #expect(finding.message.contains("from 2 to 6 channels"), "\(finding.message)")
    }

    @Test func losslessAudioOutsideFragmentedMP4IsFlagged() async throws {
        let folder = try TemporaryFolder()
        try await ChildProcess.run([
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000", "-t", "1", "-ac", "2", "-c:a", "flac", folder.path("seg0.flac"),
        ])
        try folder.write(
            Data(
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\nseg0.flac\n#EXT-X-ENDLIST\n"
                    .utf8),
            to: "audio.m3u8")
        let found = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("BANDWIDTH=1500000,CODECS=\"fLaC\"", "audio.m3u8")]),
            profile: .appleIOS)
        let finding = try #require(found.first { $0.rule == "codec-container-unsupported" }, "\(found)")
        #expect(finding.message.contains("FLAC audio") && finding.message.contains("fMP4"), "\(finding.message)")

        let fmp4 = try EncodedStream.encode(
            folder, "flac", inputs: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"], fmp4: true,
            ["-ac", "2", "-c:a", "flac", "-strict", "experimental"])
        let clean = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("BANDWIDTH=1500000,CODECS=\"fLaC\"", fmp4)]), profile: .appleIOS)
        #expect(!clean.contains { $0.rule == "codec-container-unsupported" }, "\(clean)")
    }

    @Test func aPNGPosterLabelledJPEGIsInvalid() async throws {
        let folder = try TemporaryFolder()
        try await ChildProcess.run([
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            "color=red:size=32x32", "-frames:v", "1", folder.path("poster.png"),
        ])
        let png = try MediaFixtures.bytes("poster.png", in: folder.url)
        let mislabelled = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: 0, poster: png, mimeType: "image/jpeg")],
            streamInf: "BANDWIDTH=64000,CODECS=\"mp4a.40.2\"")
        let found = try await check(mislabelled)
        let finding = try #require(found.diagnostics.first { $0.rule == "artwork-invalid" }, "\(found.diagnostics)")
        #expect(
            finding.message.contains("declares MIME type \"image/jpeg\" but its bytes are image/png"),
            "\(finding.message)")

        let labelled = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: 0, poster: png, mimeType: "image/png")],
            streamInf: "BANDWIDTH=64000,CODECS=\"mp4a.40.2\"")
        #expect(!(try await check(labelled)).diagnostics.contains { $0.rule == "artwork-invalid" })
    }

    @Test(arguments: [(5, 6, false), (8, 6, true), (5, 10, true)])
    func dolbyVisionProfileAndLevelAreCheckedForIOS(_ profile: Int, _ level: Int, _ fires: Bool) async throws {
        let folder = try TemporaryFolder()
        let uri = try EncodedStream.encode(
            folder, "dv", fmp4: true,
            [
                "-map", "0:v", "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params",
                "log-level=error",
            ])
        var initSection = try MediaFixtures.bytes("dv/init.mp4", in: folder.url)
        #expect(
            DolbyVisionBox.insert(
                DolbyVisionBox.box(profile: profile, level: level),
                at: ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"], in: &initSection))
        try folder.write(Data(initSection), to: "dv/init.mp4")
        let diagnostics = try await EncodedStream.check(
            try EncodedStream.multivariant(
                folder, [("BANDWIDTH=2000000,CODECS=\"hvc1.1.6.L63.90\",RESOLUTION=160x90,FRAME-RATE=25.000", uri)]),
            profile: .appleIOS)
        let found = diagnostics.filter { $0.rule == "video-profile-level-unsupported" }
        #expect(found.isEmpty != fires, "\(diagnostics)")
        if fires {
            #expect(found.first?.message.contains("Dolby Vision Profile \(profile) Level \(level)") == true, "\(found)")
        }
    }

    @Test func av1InFragmentedMP4IsCheckedAgainstLevel62() async throws {
        let folder = try TemporaryFolder()
        let uri = try EncodedStream.encode(
            folder, "av1", fmp4: true,
            ["-map", "0:v", "-c:v", "libsvtav1", "-preset", "12", "-g", "25", "-svtav1-params", "tile-columns=0"])
        let multivariant = try EncodedStream.multivariant(
            folder, [("BANDWIDTH=2000000,CODECS=\"av01.0.00M.08\",RESOLUTION=160x90,FRAME-RATE=25.000", uri)])
        let clean = try await EncodedStream.check(multivariant, profile: .appleIOS)
        #expect(
            !clean.contains {
                ["codec-container-unsupported", "video-codec-unsupported", "video-profile-level-unsupported"].contains(
                    $0.rule)
            },
            "\(clean)")
        // The codec string comes from the av1C record: seq_level_idx_0 19 is Level 6.3.
        var initSection = try MediaFixtures.bytes("av1/init.mp4", in: folder.url)
        let record =
            try #require(
                initSection.indices.dropLast(12).first { Array(initSection[$0..<($0 + 4)]) == Array("av1C".utf8) }) + 4
        initSection[record + 1] = initSection[record + 1] & 0xE0 | 19
        try folder.write(Data(initSection), to: "av1/init.mp4")
        let above = try await EncodedStream.check(multivariant, profile: .appleIOS)
        let finding = try #require(above.first { $0.rule == "video-profile-level-unsupported" }, "\(above)")
        #expect(
            finding.message.contains("AV1 Main Profile, Level 6.3") && finding.message.contains("AS 1.37"),
            "\(finding.message)")
    }
}

import Foundation
import HLSCheck
import TestSupport
import Testing

/// The rules that hold segments to their own timing and encoding — EXTINF over runs of segments
/// (extinf-drift), the target duration by the media's duration (target-duration-exceeded), fMP4
/// decode times (decode-time-discontinuous) and unmarked changes of container or tracks
/// (track-change-without-discontinuity) — on streams the ffmpeg CLI encodes at test time, read
/// by the real inspector, then bent the way spliced or hand-edited streams are.
@Suite struct SegmentTimingRuleTests {
    static let x264 = EncodedStream.x264 + ["-threads", "1"]

    /// ffmpeg's HLS output, 1-second segments (a keyframe every second at 25 fps): video and
    /// stereo AAC, or AAC alone with `audioOnly`; `extra` goes before the muxer's options.
    static func encode(
        _ folder: TemporaryFolder, _ name: String, seconds: Double = 3, audioOnly: Bool = false, fmp4: Bool = false,
        _ extra: [String] = []
    ) throws -> String {
        if audioOnly {
            return try EncodedStream.encode(
                folder, name, inputs: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"], seconds: seconds,
                fmp4: fmp4, EncodedStream.stereoAAC + extra)
        }
        return try EncodedStream.encode(
            folder, name, seconds: seconds, fmp4: fmp4, x264 + EncodedStream.stereoAAC + extra)
    }

    static func text(_ folder: TemporaryFolder, _ name: String) throws -> String {
        try String(contentsOfFile: folder.path(name), encoding: .utf8)
    }

    /// The 1-based number of the first line of `name` that equals `line`.
    static func line(of line: String, in folder: TemporaryFolder, _ name: String) throws -> Int {
        let lines = try text(folder, name).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0 == line }) + 1
    }

    /// The findings of `rule` on the stream of one variant at `playlist`.
    static func findings(
        _ rule: String, _ folder: TemporaryFolder, _ playlist: String, codecs: String = "avc1.64000c,mp4a.40.2",
        profile: Profile = .appleIOS
    ) async throws -> [Diagnostic] {
        let multivariant = try EncodedStream.multivariant(folder, [("BANDWIDTH=300000,CODECS=\"\(codecs)\"", playlist)])
        return try await EncodedStream.check(multivariant, profile: profile).filter { $0.rule == rule }
    }

    /// `playlist` with every EXTINF value passed through `change`.
    static func editDurations(_ folder: TemporaryFolder, _ playlist: String, _ change: (Double) -> Double) throws {
        let lines = try text(folder, playlist).split(separator: "\n", omittingEmptySubsequences: false).map {
            line -> String in
            guard line.hasPrefix("#EXTINF:"), let value = Double(line.dropFirst(8).prefix { $0 != "," }) else {
                return String(line)
            }
            return "#EXTINF:\(String(format: "%.6f", change(value))),"
        }
        try folder.write(Data(lines.joined(separator: "\n").utf8), to: playlist)
    }

    // MARK: extinf-drift (AS 8.1)

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func ffmpegsOwnDurationsStayWithinAFrame(_ audioOnly: Bool, _ fmp4: Bool) async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.encode(folder, "s", seconds: 6, audioOnly: audioOnly, fmp4: fmp4)
        let report = try await EncodedStream.check(
            try EncodedStream.multivariant(
                folder, [("BANDWIDTH=300000,CODECS=\"\(audioOnly ? "mp4a.40.2" : "avc1.64000c,mp4a.40.2")\"", playlist)]
            ),
            profile: .appleIOS)
        let timing: Set = [
            "extinf-drift", "extinf-duration-mismatch", "target-duration-exceeded",
            "track-change-without-discontinuity",
            "decode-time-discontinuous", "discontinuity-missing",
        ]
        #expect(report.filter { timing.contains($0.rule) }.isEmpty, "\(report)")
    }

    /// 15 ms too much in every EXTINF: within 0.5 s and within a frame for each segment, but
    /// more than a video frame (40 ms at 25 fps) apart after three segments, and for audio alone
    /// more than two AAC frames (42.7 ms at 48 kHz: one, and one for the frames that straddle
    /// the boundaries) after three too.
    @Test(arguments: [(false, 3), (true, 3)])
    func flagsTheFirstRunWhoseEXTINFDriftsMoreThanAFrame(_ audioOnly: Bool, _ run: Int) async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.encode(folder, "s", seconds: 6, audioOnly: audioOnly)
        try Self.editDurations(folder, playlist) { $0 + 0.015 }
        let codecs = audioOnly ? "mp4a.40.2" : "avc1.64000c,mp4a.40.2"
        let findings = try await Self.findings("extinf-drift", folder, playlist, codecs: codecs)
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "one finding per playlist: \(findings)")
        #expect(finding.severity == .error, "AS 8.1 is a MUST in the Apple profiles")
        #expect(
            finding.message.contains(
                "the EXTINF durations of the \(run) segments from index0.ts to index\(run - 1).ts add up to"))
        #expect(
            finding.message.contains(
                "more than the \(audioOnly ? "0.043" : "0.040") s allowed (\(audioOnly ? "one audio frame, and one more" : "one video frame)")"
            ), "\(finding.message)")
        #expect(finding.location?.line == (try Self.line(of: "index\(run - 1).ts", in: folder, playlist)) - 1)
        #expect(finding.location?.uri.hasSuffix(playlist) == true)

        // bis-22 §4.4.4.1 only asks for it (SHOULD): a warning in the RFC's profile.
        let rfc = try await Self.findings("extinf-drift", folder, playlist, codecs: codecs, profile: .rfc8216)
        #expect(rfc.map(\.severity) == [.warning])
    }

    /// Audio that goes with video is held to one video frame (AS 8.1), and one of its own frames
    /// for those that straddle the boundaries: the same 15 ms a segment drift past 61.3 ms after
    /// five segments.
    @Test func audioBesideVideoIsHeldToOneVideoFrame() async throws {
        let folder = try TemporaryFolder()
        try Self.encode(folder, "video", seconds: 6, ["-an"])
        let audio = try Self.encode(folder, "audio", seconds: 6, audioOnly: true)
        try Self.editDurations(folder, audio) { $0 + 0.015 }
        let multivariant =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
            + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.64000c,mp4a.40.2\",AUDIO=\"aud\"\nvideo/index.m3u8\n"
        try folder.write(Data(multivariant.utf8), to: "master.m3u8")
        let findings = try await EncodedStream.check(folder.path("master.m3u8"), profile: .appleIOS).filter {
            $0.rule == "extinf-drift"
        }
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.uri.hasSuffix("audio/index.m3u8") == true)
        #expect(finding.message.contains("the 5 segments from index0.ts to index4.ts"), "\(finding.message)")
        #expect(
            finding.message.contains(
                "more than the 0.061 s allowed (one video frame, and one audio frame for the frames that straddle segment boundaries)"
            ))
    }

    /// A segment whose EXTINF is off by more than the duration tolerance is
    /// extinf-duration-mismatch's alone: the runs on either side of it are judged on their own.
    @Test func aSegmentOffByMoreThanTheToleranceEndsTheRun() async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.encode(folder, "s", seconds: 6)
        var index = 0
        try Self.editDurations(folder, playlist) { value in
            defer { index += 1 }
            return index == 2 ? value + 0.7 : value
        }
        let report = try await EncodedStream.check(
            try EncodedStream.multivariant(folder, [("BANDWIDTH=300000,CODECS=\"avc1.64000c,mp4a.40.2\"", playlist)]),
            profile: .appleIOS)
        #expect(report.filter { $0.rule == "extinf-duration-mismatch" }.count == 1)
        #expect(report.filter { $0.rule == "extinf-drift" }.isEmpty, "\(report)")
    }

    // MARK: target-duration-exceeded by the measured duration (bis-22 §6.2.1, AS 7.7)

    /// Keyframes every 2.6 s make 2.6 s segments; with EXTINF 2.4 (which rounds to 2) and a
    /// target duration of 2, only the media's own duration shows the segment is too long.
    @Test(arguments: [2, 3])
    func flagsASegmentWhoseMeasuredDurationRoundsAboveTheTarget(_ target: Int) async throws {
        let folder = try TemporaryFolder()
        let playlist = try EncodedStream.encode(
            folder, "s", seconds: 5.2, Self.x264.map { $0 == "25" ? "65" : $0 } + EncodedStream.stereoAAC)
        let edited = try Self.text(folder, playlist)
            .replacingOccurrences(of: "#EXT-X-TARGETDURATION:3", with: "#EXT-X-TARGETDURATION:\(target)")
            .replacingOccurrences(of: "#EXTINF:2.600000,", with: "#EXTINF:2.4,")
        try folder.write(Data(edited.utf8), to: playlist)
        #expect(edited.components(separatedBy: "#EXTINF:2.4,").count == 3, "\(edited)")
        let findings = try await Self.findings("target-duration-exceeded", folder, playlist)
        if target == 3 {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        #expect(findings.count == 2, "\(findings)")
        let finding = try #require(findings.first)
        #expect(
            finding.message.contains(
                "segment index0.ts lasts 2.600 s by its timestamps (EXTINF says 2.400 s), which rounds to more than EXT-X-TARGETDURATION 2 s"
            ))
        #expect(finding.location?.line == (try Self.line(of: "index0.ts", in: folder, playlist)) - 1)
    }

    // MARK: track-change-without-discontinuity (bis-22 §4.4.4.3, §6.2.1, AS 8.13)

    /// What a spliced segment changes, and how the finding says it.
    enum Splice: String, CaseIterable, CustomTestStringConvertible {
        case resolution, tracks, trackIDs, container

        var testDescription: String { rawValue }

        /// Encodes the segments spliced in, as `b/`.
        func encode(_ folder: TemporaryFolder) throws -> String {
            switch self {
            case .resolution: try SegmentTimingRuleTests.encode(folder, "b", ["-s", "320x180"])
            case .tracks: try SegmentTimingRuleTests.encode(folder, "b", audioOnly: true)
            case .trackIDs:
                try SegmentTimingRuleTests.encode(folder, "b", ["-hls_segment_options", "mpegts_start_pid=0x200"])
            case .container: try SegmentTimingRuleTests.encode(folder, "b", fmp4: true)
            }
        }

        var message: String {
            switch self {
            case .resolution: "its video is 320x180 where a/index0.ts has 160x90"
            case .tracks: "its tracks are audio where a/index0.ts has video + audio"
            case .trackIDs: "its track ids are 512, 513 where a/index0.ts has 256, 257"
            case .container: "its container is fMP4 where a/index0.ts is MPEG-TS"
            }
        }
    }

    /// A playlist of a/index0.ts, then b's second segment (on the same timeline, 1 s later), marked
    /// with EXT-X-DISCONTINUITY or not.
    @Test(arguments: Splice.allCases, [false, true])
    func flagsAnUnmarkedChangeOfContainerOrTracks(_ splice: Splice, _ marked: Bool) async throws {
        let folder = try TemporaryFolder()
        try Self.encode(folder, "a")
        try splice.encode(folder)
        let map = splice == .container ? "#EXT-X-MAP:URI=\"b/init.mp4\"\n" : ""
        let second = splice == .container ? "b/index1.m4s" : "b/index1.ts"
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\na/index0.ts\n"
            + (marked ? "#EXT-X-DISCONTINUITY\n" : "") + map + "#EXTINF:1.0,\n\(second)\n#EXT-X-ENDLIST\n"
        try folder.write(Data(playlist.utf8), to: "spliced.m3u8")
        let findings = try await Self.findings(
            "track-change-without-discontinuity", folder, "spliced.m3u8", profile: .rfc8216)
        if marked {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.severity == .error, "bis-22 §4.4.4.3 is a MUST")
        #expect(finding.message.hasPrefix("segment \(second) follows a/index0.ts without EXT-X-DISCONTINUITY, but "))
        #expect(finding.message.contains(splice.message), "\(finding.message)")
        #expect(finding.message.contains("put EXT-X-DISCONTINUITY before \(second)"))
        #expect(finding.location?.line == (map.isEmpty ? 7 : 8))
    }

    @Test func segmentsOfOneEncodeNeverChange() async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.encode(folder, "a", seconds: 4)
        #expect(
            try await Self.findings("track-change-without-discontinuity", folder, playlist, profile: .rfc8216).isEmpty)
    }

    // MARK: media-end-misaligned (AS 8.7, 8.3, 2.15)

    /// A video variant of 3 s (1.48 s to 4.48 s in ffmpeg's MPEG-TS) and an audio rendition
    /// encoded apart, of `audioSeconds`: AAC frames from 1.4 s, to 4.45 s for 3.05 s, to 3.43 s
    /// for 2 s.
    @Test(arguments: [3.05, 2.0])
    func flagsAnAudioRenditionThatEndsBeforeTheVideo(_ audioSeconds: Double) async throws {
        let folder = try TemporaryFolder()
        try Self.encode(folder, "video", ["-an"])
        try Self.encode(folder, "audio", seconds: audioSeconds, audioOnly: true)
        let multivariant =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
            + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.64000c,mp4a.40.2\",AUDIO=\"aud\"\nvideo/index.m3u8\n"
        try folder.write(Data(multivariant.utf8), to: "master.m3u8")
        let report = try await EncodedStream.check(folder.path("master.m3u8"), profile: .appleIOS)
        let findings = report.filter { $0.rule == "media-end-misaligned" }
        if audioSeconds > 3 {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.uri.hasSuffix("audio/index.m3u8") == true)
        // At the last segment's EXTINF line.
        let lines = try Self.text(folder, "audio/index.m3u8").split(separator: "\n", omittingEmptySubsequences: false)
        let last = try #require(lines.lastIndex { $0.hasSuffix(".ts") })
        #expect(finding.location?.line == last)
        #expect(finding.message.contains("before the 1 other playlist of this stream"))
        #expect(finding.message.contains("every audio and video playlist must cover the same media time range"))
        // bis-22 §6.2.4 allows a target duration at either end: silent in the RFC's profile.
        let rfc = try await EncodedStream.check(folder.path("master.m3u8"), profile: .rfc8216)
        #expect(!rfc.contains { $0.rule == "media-end-misaligned" })
    }

    // MARK: decode-time-discontinuous (AS 7.3)

    /// The offset of the base media decode time in the first `tfdt` box of `bytes` (ISO/IEC
    /// 14496-12 §8.8.12: a full box; version 1 has 64 bits), and its width in bytes.
    static func tfdt(_ bytes: [UInt8]) throws -> (offset: Int, width: Int) {
        let type = Array("tfdt".utf8)
        let at = try #require((0..<(bytes.count - 12)).first { Array(bytes[$0..<$0 + 4]) == type })
        return (at + 8, bytes[at + 4] == 1 ? 8 : 4)
    }

    @Test(arguments: [0, 1])
    func flagsAFragmentWhoseDecodeTimeIsOffByOneUnit(_ shift: Int) async throws {
        let folder = try TemporaryFolder()
        let playlist = try Self.encode(folder, "s", fmp4: true)
        // The last segment's first track fragment starts `shift` units late.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("s/index2.m4s"))))
        let (offset, width) = try Self.tfdt(bytes)
        var value = bytes[offset..<offset + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + UInt64(shift)
        for index in (offset..<offset + width).reversed() {
            bytes[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        try folder.write(Data(bytes), to: "s/index2.m4s")
        let findings = try await Self.findings("decode-time-discontinuous", folder, playlist)
        if shift == 0 {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(
            finding.message.contains(
                "segment index2.m4s does not continue the decode times of index1.m4s: track 1 starts at decode time"))
        #expect(finding.message.contains("a gap of 1 unit"))
        #expect(finding.location?.line == (try Self.line(of: "index2.m4s", in: folder, playlist)) - 1)
        // Apple's requirement alone: silent in the RFC's profile.
        #expect(try await Self.findings("decode-time-discontinuous", folder, playlist, profile: .rfc8216).isEmpty)
    }
}

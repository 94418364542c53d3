import Foundation
import HLSCheck
import MediaFormats
import TestSupport
import Testing

/// The timeline and integrity rules on the committed sample's real TS segments, bent the way
/// streams nobody here made are bent: a lost packet, counters of another muxer run, a restart
/// without EXT-X-DISCONTINUITY, a variant on another clock, a segment cut between keyframes.
@Suite struct TimelineRuleTests {
    static let multivariant = "#EXTM3U\n" + MediaFixtures.v0 + MediaFixtures.audio

    func file(_ folder: TemporaryFolder, _ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
    }

    func write(_ bytes: [UInt8], _ folder: TemporaryFolder, _ name: String) throws {
        try folder.write(Data(bytes), to: name)
    }

    /// The PID that carries the most packets with payload (the video in v0, the audio in audio/).
    func busiestPID(_ ts: [UInt8]) -> UInt16 {
        var counts: [UInt16: Int] = [:]
        for offset in stride(from: 0, to: ts.count, by: 188) {
            guard let packet = TransportStreamPacket(ts[offset...]), packet.hasPayload else { continue }
            counts[packet.pid, default: 0] += 1
        }
        return counts.max { $0.value < $1.value }?.key ?? 0
    }

    func lineOf(_ uri: String, in folder: TemporaryFolder, playlist: String) throws -> Int {
        let text = try String(contentsOfFile: folder.path(playlist), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let uriLine = try #require(lines.firstIndex { $0 == uri }) + 1
        return uriLine - 1  // findings point at the EXTINF line
    }

    @Test func theSampleHasContinuousCountersAlignedVariantsAndKeyframeStarts() async throws {
        let report = try await check(try MediaFixtures.sampleStream(multivariant: Self.multivariant))
        let timeline: Set = [
            "continuity-error", "discontinuity-missing", "timestamps-misaligned",
            "segment-starts-without-keyframe", "target-duration-inconsistent",
        ]
        #expect(rules(report).isDisjoint(with: timeline), "\(report.diagnostics)")
    }

    @Test func flagsAPacketLostInsideASegment() async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        var segment = try file(stream, "v0/seg1.ts")
        let pid = busiestPID(segment)
        // Drop the 40th packet of that PID: its counter gap is what a lost packet looks like.
        var seen = 0
        for offset in stride(from: 0, to: segment.count, by: 188) {
            guard let packet = TransportStreamPacket(segment[offset...]), packet.pid == pid, packet.hasPayload else {
                continue
            }
            seen += 1
            if seen == 40 { segment.removeSubrange(offset..<offset + 188); break }
        }
        try write(segment, stream, "v0/seg1.ts")
        let report = try await check(stream)
        let finding = try #require(report.diagnostics.first { $0.rule == "continuity-error" })
        #expect(finding.message.contains("seg1.ts") && finding.message.contains("packets were lost"))
        #expect(finding.location?.line == (try lineOf("seg1.ts", in: stream, playlist: "v0/index.m3u8")))
        #expect(!rules(report).contains("discontinuity-missing"))
    }

    @Test(arguments: [false, true])
    func flagsCountersOfAnotherMuxerRunAtAJoinUnlessADiscontinuityIsMarked(_ marked: Bool) async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        // Every counter of the last segment moved by 5: continuous inside, broken at the join.
        var segment = try file(stream, "audio/seg2.ts")
        for offset in stride(from: 0, to: segment.count, by: 188) where segment[offset] == 0x47 {
            segment[offset + 3] = segment[offset + 3] & 0xF0 | (segment[offset + 3] &+ 5) & 0x0F
        }
        try write(segment, stream, "audio/seg2.ts")
        if marked {
            let playlist = try String(contentsOfFile: stream.path("audio/index.m3u8"), encoding: .utf8)
            let lines = playlist.components(separatedBy: "\n")
            let index = try #require(lines.firstIndex(of: "seg2.ts"))
            var edited = lines
            edited.insert("#EXT-X-DISCONTINUITY", at: index - 1)
            try stream.write(Data(edited.joined(separator: "\n").utf8), to: "audio/index.m3u8")
        }
        let findings = try await check(stream).diagnostics.filter { $0.rule == "continuity-error" }
        if marked {
            #expect(findings.isEmpty, "\(findings)")
        } else {
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.message.contains("does not continue the continuity counters of seg1.ts"))
            #expect(finding.message.contains("EXT-X-DISCONTINUITY"))
        }
    }

    @Test(arguments: [false, true])
    func flagsTimestampsThatRestartWithoutDiscontinuity(_ marked: Bool) async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        // The third segment is the first one again: its timestamps go back 12 s.
        let playlist = try String(contentsOfFile: stream.path("audio/index.m3u8"), encoding: .utf8)
        var edited = playlist.replacingOccurrences(of: "seg2.ts", with: "seg0.ts")
        if marked {
            let lines = edited.components(separatedBy: "\n")
            let index = try #require(lines.lastIndex(of: "seg0.ts"))
            var withTag = lines
            withTag.insert("#EXT-X-DISCONTINUITY", at: index - 1)
            edited = withTag.joined(separator: "\n")
        }
        try stream.write(Data(edited.utf8), to: "audio/index.m3u8")
        let report = try await check(stream)
        let findings = report.diagnostics.filter { $0.rule == "discontinuity-missing" }
        if marked {
            #expect(findings.isEmpty, "\(findings)")
        } else {
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.message.contains("jump back by 12."))
            #expect(finding.severity == .error)
        }
    }

    @Test(arguments: [(Int64(0), true), (Int64(126_000), false)])
    func flagsAVariantOnAnotherClock(_ timestamp: Int64, _ flagged: Bool) async throws {
        // ffmpeg's TS variants start at 1.4 s (126 000 at 90 kHz); a packed-audio variant whose
        // PRIV timestamps start at 0 is 1.4 s off.
        let stream = try MediaFixtures.sampleStream(
            multivariant: Self.multivariant
                + "#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\npacked/index.m3u8\n")
        let segment = try MediaFixtures.packedSegment(timestamp: timestamp)
        try write(segment, stream, "packed/seg0.aac")
        try stream.write(Data((Examples.packedPlaylist).utf8), to: "packed/index.m3u8")
        let report = try await check(stream)
        let findings = report.diagnostics.filter { $0.rule == "timestamps-misaligned" }
        if flagged {
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.location?.uri.hasSuffix("packed/index.m3u8") == true)
            #expect(finding.message.contains("1.400 s before the 2 other playlists of this VOD stream"))
            #expect(
                finding.message.contains(
                    "the first segment of every media playlist must start at the same media timestamp"))
        } else {
            #expect(findings.isEmpty, "\(findings)")
        }
    }

    /// bis-22 §4.4.3.2 lets media sequence numbers differ between playlists: the same content
    /// numbered one higher in the audio playlist is aligned, not a jump.
    @Test func alignsAVODStreamByItsFirstSegmentsNotBySequenceNumber() async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        let playlist = try String(contentsOfFile: stream.path("audio/index.m3u8"), encoding: .utf8)
        try stream.write(
            Data(playlist.replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:1").utf8),
            to: "audio/index.m3u8")
        let findings = try await check(stream).diagnostics.filter { $0.rule == "timestamps-misaligned" }
        #expect(findings.isEmpty, "\(findings)")
    }

    /// Live playlists hold different windows: the segments of one date are the same content.
    @Test(arguments: [false, true])
    func alignsLivePlaylistsByDate(_ shifted: Bool) async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        // The video window starts at seg0, the audio window one segment later, numbered 7.
        let video = try String(contentsOfFile: stream.path("v0/index.m3u8"), encoding: .utf8)
            .replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "").replacingOccurrences(
                of: "#EXT-X-ENDLIST\n", with: ""
            )
            .replacingOccurrences(
                of: "#EXTINF:6.000000,\nseg0.ts",
                with: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n#EXTINF:6.000000,\nseg0.ts")
        try stream.write(Data(video.utf8), to: "v0/index.m3u8")
        let lines = try String(contentsOfFile: stream.path("audio/index.m3u8"), encoding: .utf8).components(
            separatedBy: "\n")
        let first = try #require(lines.firstIndex(of: "seg0.ts"))
        // Dated as what it is (6 s after the video's first segment), or as if it were that one.
        let date = shifted ? "2026-01-01T00:00:00.000Z" : "2026-01-01T00:00:06.000Z"
        let audio = (lines[..<(first - 1)] + ["#EXT-X-PROGRAM-DATE-TIME:\(date)"] + lines[(first + 1)...])
            .filter { $0 != "#EXT-X-PLAYLIST-TYPE:VOD" && $0 != "#EXT-X-ENDLIST" }
            .joined(separator: "\n").replacingOccurrences(
                of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:7")
        try stream.write(Data(audio.utf8), to: "audio/index.m3u8")
        let findings = try await check(stream).diagnostics.filter { $0.rule == "timestamps-misaligned" }
        if shifted {
            let finding = try #require(findings.first)
            #expect(findings.count == 1, "\(findings)")
            #expect(finding.message.contains("the same EXT-X-PROGRAM-DATE-TIME"), "\(finding.message)")
        } else {
            #expect(findings.isEmpty, "\(findings)")
        }
    }

    @Test func flagsASegmentCutBetweenKeyframesAndOneWithoutItsParameterSets() async throws {
        let stream = try MediaFixtures.sampleStream(multivariant: Self.multivariant)
        // seg1 starts at a keyframe whose SPS and PPS are renamed away (NAL type 7/8 → 6).
        var segment = try file(stream, "v0/seg1.ts")
        for pattern: [UInt8] in [[0, 0, 1, 0x67], [0, 0, 1, 0x68]] {
            let index = try #require(segment.indices.dropLast(4).first { Array(segment[$0..<$0 + 4]) == pattern })
            segment[index + 3] = 0x66
        }
        try write(segment, stream, "v0/seg1.ts")
        let report = try await check(stream)
        let findings = report.diagnostics.filter { $0.rule == "segment-starts-without-keyframe" }
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.message.contains("seg1.ts") == true)
        #expect(findings.first?.location?.line == (try lineOf("seg1.ts", in: stream, playlist: "v0/index.m3u8")))
    }
}

private enum Examples {
    static let packedPlaylist =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:\(MediaFixtures.adtsDuration),\nseg0.aac\n#EXT-X-ENDLIST\n"
}

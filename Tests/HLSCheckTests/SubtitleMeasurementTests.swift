import Foundation
import HLSCheck
import TestSupport
import Testing

/// A video variant the ffmpeg CLI encodes (H.264 + AAC in MPEG-TS, four 1-second segments) with
/// a SUBTITLES group of WebVTT segments written here, each of a known size: the subtitles' share
/// of the peak and of the average is known to the bit without hlscheck's arithmetic.
enum SubtitledLadder {
    /// Bytes of each WebVTT segment: 4 000 bytes a second is 32 000 bit/s, a fifth or so of the
    /// video's peak, well past the 10 % tolerance.
    static let subtitleSegmentBytes = 4_000
    static let segmentCount = 4
    /// Peak and average of the subtitle playlist: every segment lasts 1 s and weighs the same.
    static let subtitleRate = subtitleSegmentBytes * 8

    /// A WebVTT file of exactly `bytes` bytes: the signature, a cue, and text to fill it.
    static func webVTT(index: Int, bytes: Int) -> Data {
        let head = "WEBVTT\n\n00:00:0\(index).000 --> 00:00:0\(index).900\n"
        let filler = String(repeating: "subtitle text ", count: bytes / 14 + 1)
        return Data((head + filler).utf8.prefix(bytes - 1) + [0x0A])
    }

    /// Encodes the video into `video/`, writes the subtitle playlist `subs/en.m3u8` and its
    /// segments (`missing`: the index of one left unwritten). The multivariant playlist is
    /// written by `multivariant`.
    static func make(missing: Int? = nil) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try EncodedStream.encode(
            folder, "video", seconds: Double(segmentCount), EncodedStream.x264 + EncodedStream.stereoAAC)
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<segmentCount {
            if index != missing {
                try folder.write(webVTT(index: index, bytes: subtitleSegmentBytes), to: "subs/en\(index).vtt")
            }
            playlist += "#EXTINF:1.000,\nen\(index).vtt\n"
        }
        try folder.write(Data((playlist + "#EXT-X-ENDLIST\n").utf8), to: "subs/en.m3u8")
        return folder
    }

    /// The multivariant playlist: the video variant with BANDWIDTH and AVERAGE-BANDWIDTH as
    /// given, in the subtitle group when `subtitled`.
    @discardableResult
    static func multivariant(
        _ folder: TemporaryFolder, bandwidth: Int, average: Int, subtitled: Bool = true,
        codecs: String = "avc1.64000b,mp4a.40.2"
    ) throws -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        if subtitled {
            text +=
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"subs/en.m3u8\"\n"
        }
        text +=
            "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(average),CODECS=\"\(codecs)\",RESOLUTION=160x90,FRAME-RATE=25.000"
        text += (subtitled ? ",SUBTITLES=\"subs\"" : "") + "\nvideo/index.m3u8\n"
        try folder.write(Data(text.utf8), to: "master.m3u8")
        return folder.path("master.m3u8")
    }

    static func report(_ folder: TemporaryFolder, profile: Profile = .appleIOS) async throws -> CheckReport {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return try await Checker(configuration: configuration).check(folder.path("master.m3u8"))
    }

    /// The video variant's own peak and average, measured with no subtitle group.
    static func videoRates(_ folder: TemporaryFolder) async throws -> (peak: Int, average: Int) {
        try multivariant(folder, bandwidth: 1, average: 1, subtitled: false)
        let variant = try #require(try await report(folder).variants.first)
        return (try #require(variant.measuredPeakBitrate), try #require(variant.measuredAverageBitrate))
    }
}

@Suite struct SubtitleMeasurementTests {
    static let bandwidthRules: Set<String> = [
        "bandwidth-below-peak", "bandwidth-above-peak", "average-bandwidth-mismatch",
    ]

    @Test func subtitleRenditionCountsInThePeakAndTheAverage() async throws {
        let folder = try SubtitledLadder.make()
        let video = try await SubtitledLadder.videoRates(folder)
        let peak = video.peak + SubtitledLadder.subtitleRate, average = video.average + SubtitledLadder.subtitleRate
        try SubtitledLadder.multivariant(folder, bandwidth: peak, average: average)
        // Declared to the bit with the subtitles counted: right in every profile, the one that
        // follows bis-22 exactly included.
        for profile in Profile.allCases {
            let report = try await SubtitledLadder.report(folder, profile: profile)
            let variant = try #require(report.variants.first)
            #expect(variant.measuredPeakBitrate == peak)
            #expect(variant.measuredAverageBitrate == average)
            #expect(variant.peakCombination?.contains { $0.hasSuffix("subs/en.m3u8") } == true)
            #expect(variant.measurementComplete == true)
            let findings = report.diagnostics.filter { Self.bandwidthRules.contains($0.rule) }
            #expect(findings.isEmpty, "\(profile): \(findings.map(\.message))")
        }
    }

    @Test func bandwidthRightWithoutSubtitlesIsBelowThePeakWithThem() async throws {
        let folder = try SubtitledLadder.make()
        let video = try await SubtitledLadder.videoRates(folder)
        let peak = video.peak + SubtitledLadder.subtitleRate
        try SubtitledLadder.multivariant(folder, bandwidth: video.peak, average: video.average)
        let report = try await SubtitledLadder.report(folder)
        let below = try #require(report.diagnostics.first { $0.rule == "bandwidth-below-peak" })
        #expect(below.message.contains("peaks at \(peak) bit/s measured over video/index.m3u8 + subs/en.m3u8"))
        #expect(below.message.contains("declare at least BANDWIDTH=\(peak)"))
        #expect(
            report.diagnostics.contains {
                $0.rule == "average-bandwidth-mismatch"
                    && $0.message.contains("averages \(video.average + SubtitledLadder.subtitleRate) bit/s")
            })
        // The proposed edit raises BANDWIDTH to the peak with the subtitles (rounded up), never lower.
        let edit = try #require(below.fix)
        let written = try #require(edit.text.firstMatch(of: /BANDWIDTH=(\d+)/).map { Int($0.1) } ?? nil)
        #expect(written >= peak)
        #expect(!report.diagnostics.contains { $0.rule == "bandwidth-above-peak" })
    }

    @Test func bandwidthWithSubtitlesGetsNoAdviceToLowerIt() async throws {
        let folder = try SubtitledLadder.make()
        let video = try await SubtitledLadder.videoRates(folder)
        // Within 10 % above the peak with the subtitles, but more than 10 % above the video alone:
        // counted without the subtitles, this was "declare BANDWIDTH=<video peak>".
        let peak = video.peak + SubtitledLadder.subtitleRate
        try SubtitledLadder.multivariant(
            folder, bandwidth: peak + peak / 20, average: video.average + SubtitledLadder.subtitleRate)
        let report = try await SubtitledLadder.report(folder)
        let findings = report.diagnostics.filter { Self.bandwidthRules.contains($0.rule) }
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(report.diagnostics.allSatisfy { $0.fix.map { !$0.text.contains("BANDWIDTH=\(video.peak)") } ?? true })
    }

    @Test func overDeclaredBandwidthIsAnErrorOnlyWhereBisIsFollowedExactly() async throws {
        let folder = try SubtitledLadder.make()
        let video = try await SubtitledLadder.videoRates(folder)
        let peak = video.peak + SubtitledLadder.subtitleRate, average = video.average + SubtitledLadder.subtitleRate
        try SubtitledLadder.multivariant(folder, bandwidth: peak + 1_000, average: average)
        // bis-22 §4.4.6.2: BANDWIDTH is the peak. rfc8216 holds it to the bit; Apple allows 10 % (AS 1.27).
        let strict = try await SubtitledLadder.report(folder, profile: .rfc8216)
        let above = try #require(strict.diagnostics.first { $0.rule == "bandwidth-above-peak" })
        #expect(above.severity == .error)
        #expect(above.message.contains("declare BANDWIDTH=\(peak)"))
        let apple = try await SubtitledLadder.report(folder, profile: .appleIOS)
        #expect(!apple.diagnostics.contains { Self.bandwidthRules.contains($0.rule) })
    }

    @Test func missingSubtitleSegmentIsReportedAndNoAdviceIsGiven() async throws {
        let folder = try SubtitledLadder.make(missing: 2)
        let video = try await SubtitledLadder.videoRates(folder)
        try SubtitledLadder.multivariant(
            folder, bandwidth: video.peak + 3 * SubtitledLadder.subtitleRate, average: video.average)
        let report = try await SubtitledLadder.report(folder)
        let unreadable = try #require(report.diagnostics.first { $0.rule == "segment-unreadable" })
        #expect(unreadable.location?.uri.hasSuffix("subs/en.m3u8") == true)
        #expect(unreadable.location?.line == 9)
        #expect(report.variants.first?.measurementComplete == false)
        // BANDWIDTH far above and AVERAGE-BANDWIDTH off by what was read: no verdict from a part.
        #expect(
            !report.diagnostics.contains {
                $0.rule == "bandwidth-above-peak" || $0.rule == "average-bandwidth-mismatch"
            })
    }

    @Test func missingSubtitleSegmentStillProvesBandwidthTooLow() async throws {
        let folder = try SubtitledLadder.make(missing: 0)
        let video = try await SubtitledLadder.videoRates(folder)
        try SubtitledLadder.multivariant(folder, bandwidth: video.peak, average: video.average)
        let report = try await SubtitledLadder.report(folder)
        let below = try #require(report.diagnostics.first { $0.rule == "bandwidth-below-peak" })
        #expect(below.message.contains("measured 7 of 8 segments, so the real peak may be higher"))
    }

    @Test func unreadableSubtitlePlaylistIsNamedAndNoAdviceIsGiven() async throws {
        let folder = try SubtitledLadder.make()
        try FileManager.default.removeItem(atPath: folder.path("subs/en.m3u8"))
        let video = try await SubtitledLadder.videoRates(folder)
        try SubtitledLadder.multivariant(
            folder, bandwidth: video.peak * 8 / 10, average: video.average + 2 * SubtitledLadder.subtitleRate)
        let report = try await SubtitledLadder.report(folder)
        #expect(report.diagnostics.contains { $0.rule == "playlist-unreadable" })
        #expect(report.variants.first?.measurementComplete == false)
        let below = try #require(report.diagnostics.first { $0.rule == "bandwidth-below-peak" })
        #expect(
            below.message.contains(
                "measured 4 of 4 segments (subs/en.m3u8 was not read), so the real peak may be higher"))
        #expect(!report.diagnostics.contains { $0.rule == "average-bandwidth-mismatch" })
    }

    @Test func segmentThatIsNoWebVTTIsUnreadable() async throws {
        let folder = try SubtitledLadder.make()
        try folder.write(Data("1\n00:00:01,000 --> 00:00:02,000\nan SRT cue\n".utf8), to: "subs/en1.vtt")
        let video = try await SubtitledLadder.videoRates(folder)
        try SubtitledLadder.multivariant(folder, bandwidth: video.peak, average: video.average)
        let report = try await SubtitledLadder.report(folder)
        let unreadable = try #require(report.diagnostics.first { $0.rule == "segment-unreadable" })
        #expect(unreadable.location?.line == 7)
        #expect(unreadable.message.contains("WEBVTT signature"))
    }

    @Test func webVTTSegmentsAreNoTimelineOrDurationFinding() async throws {
        // Their cue times are not the stream's timestamps: no rule compares them.
        let folder = try SubtitledLadder.make()
        let video = try await SubtitledLadder.videoRates(folder)
        try SubtitledLadder.multivariant(
            folder, bandwidth: video.peak + SubtitledLadder.subtitleRate,
            average: video.average + SubtitledLadder.subtitleRate)
        let report = try await SubtitledLadder.report(folder)
        let onSubtitles = report.diagnostics.filter { $0.location?.uri.hasSuffix("subs/en.m3u8") == true }
        #expect(onSubtitles.isEmpty, "\(onSubtitles.map { "\($0.rule): \($0.message)" })")
    }

    /// IMSC subtitles in ISO BMFF as ffmpeg writes them (TTML in an `stpp` sample entry), one
    /// segment of a SUBTITLES rendition beside the ladder's video.
    static func imscStream() throws -> TemporaryFolder {
        let folder = try SubtitledLadder.make()
        try folder.write(
            Data("1\n00:00:00,500 --> 00:00:02,000\nHello\n\n2\n00:00:02,500 --> 00:00:03,500\nWorld\n".utf8),
            to: "subs/cues.srt")
        try ChildProcess.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", "cues.srt", "-c:s", "ttml",
                "-f", "mp4", "imsc.mp4",
            ],
            in: folder.path("subs"))
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.000,\nimsc.mp4\n#EXT-X-ENDLIST\n"
        try folder.write(Data(playlist.utf8), to: "subs/imsc.m3u8")
        return folder
    }

    /// The multivariant playlist of `imscStream` with CODECS as given.
    static func imscMultivariant(_ folder: TemporaryFolder, codecs: String) throws {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
            + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"subs/imsc.m3u8\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=10000000,CODECS=\"\(codecs)\",RESOLUTION=160x90,SUBTITLES=\"subs\"\nvideo/index.m3u8\n"
        try folder.write(Data(text.utf8), to: "master.m3u8")
    }

    @Test func codecsMustNameIMSCSubtitleRenditions() async throws {
        let folder = try Self.imscStream()
        try Self.imscMultivariant(folder, codecs: "avc1.64000b,mp4a.40.2")
        let video = try #require(try await SubtitledLadder.report(folder, profile: .rfc8216).variants.first)
        // The video and audio as the segments hold them, so that only the subtitles are missing.
        let audioVideo = video.codecs.detected.filter { !$0.hasPrefix("stpp") }
        #expect(video.codecs.detected.contains("stpp"))
        try Self.imscMultivariant(folder, codecs: audioVideo.joined(separator: ","))
        let report = try await SubtitledLadder.report(folder, profile: .rfc8216)
        let mismatch = try #require(report.diagnostics.first { $0.rule == "codecs-mismatch" })
        #expect(mismatch.severity == .error)
        #expect(mismatch.location?.line == 5)
        #expect(mismatch.message.contains("the segments hold stpp, not declared"))
        #expect(mismatch.message.contains("such as stpp.ttml.im1t"))
        // The IMSC segment is read as what it is: no unreadable segment, no finding on it.
        #expect(!report.diagnostics.contains { $0.location?.uri.hasSuffix("subs/imsc.m3u8") == true })

        try Self.imscMultivariant(folder, codecs: (audioVideo + ["stpp.ttml.im1t"]).joined(separator: ","))
        let declared = try await SubtitledLadder.report(folder, profile: .rfc8216)
        #expect(
            !declared.diagnostics.contains { $0.rule == "codecs-mismatch" }, "\(declared.diagnostics.map(\.message))")
    }
}

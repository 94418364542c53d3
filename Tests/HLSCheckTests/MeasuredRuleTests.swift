import Foundation
import HLSCheck
import MediaFormats
import TestSupport
import Testing

/// Real segments (the committed samples and MediaInspection fixtures) in real files, checked by
/// the real inspector: one test per media rule, firing and silent.
enum MediaFixtures {
    static let folder = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures")
    static let samples = PackageRoot.url.appendingPathComponent("Samples/compliant")

    static func bytes(_ name: String, in base: URL = folder) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: base.appendingPathComponent(name)))
    }

    /// 2.056 s of ADTS AAC-LC at 48 kbit/s, its leading ID3 tag removed.
    static func rawADTS() throws -> [UInt8] {
        let file = try bytes("audio.aac")
        let leading = try ID3Tag.parse(file[...]).byteCount
        return Array(file[leading...])
    }

    static let adtsDuration = 2.056

    /// A packed-audio segment: optionally an ID3 tag with the PRIV timestamp and a poster, then audio.
    static func packedSegment(timestamp: Int64?, poster: [UInt8]? = nil, mimeType: String = "image/jpeg") throws
        -> [UInt8]
    {
        var frames: [ID3Frame] = []
        if let timestamp { frames.append(TransportStreamTimestamp.makeFrame(pts90k: timestamp)) }
        if let poster { frames.append(.attachedPicture(AttachedPicture(mimeType: mimeType, data: poster))) }
        let tag = frames.isEmpty ? [] : ID3Tag(frames: frames).serialized()
        return tag + (try rawADTS())
    }

    /// A stream of one audio-only variant whose segments are `segments`, plus a video variant
    /// so the audio-only rules apply.
    static func audioOnlyStream(_ segments: [[UInt8]], streamInf: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        var media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (index, segment) in segments.enumerated() {
            try folder.write(Data(segment), to: "audio/seg\(index).aac")
            media += "#EXTINF:\(adtsDuration),\nseg\(index).aac\n"
        }
        try folder.write(Data((media + "#EXT-X-ENDLIST\n").utf8), to: "audio/index.m3u8")
        try folder.write(Data(("#EXTM3U\n#EXT-X-STREAM-INF:\(streamInf)\naudio/index.m3u8\n").utf8), to: "master.m3u8")
        return folder
    }

    /// A copy of the compliant sample with its multivariant playlist replaced.
    static func sampleStream(multivariant: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for variant in ["v0", "audio"] {
            for name in try FileManager.default.contentsOfDirectory(
                atPath: samples.appendingPathComponent(variant).path)
            {
                try folder.write(
                    Data(contentsOf: samples.appendingPathComponent("\(variant)/\(name)")), to: "\(variant)/\(name)")
            }
        }
        try folder.write(Data(multivariant.utf8), to: "master.m3u8")
        return folder
    }

    static let v0 =
        "#EXT-X-STREAM-INF:BANDWIDTH=254427,AVERAGE-BANDWIDTH=253174,CODECS=\"avc1.42c01e,mp4a.40.2\",RESOLUTION=256x144\nv0/index.m3u8\n"
    /// The sample's own audio-only variant line, as `hlscheck embed` declared it.
    static var audio: String {
        let multivariant =
            (try? String(contentsOf: samples.appendingPathComponent("master.m3u8"), encoding: .utf8)) ?? ""
        let lines = multivariant.split(separator: "\n")
        guard let index = lines.firstIndex(of: "audio/index.m3u8"), index > 0 else { return "" }
        return "\(lines[index - 1])\naudio/index.m3u8\n"
    }
}

func check(_ folder: TemporaryFolder, budget: Int = 64_000) async throws -> CheckReport {
    try await Checker(configuration: CheckConfiguration(audioOnlyBudget: budget)).check(folder.path("master.m3u8"))
}

func rules(_ report: CheckReport) -> Set<String> { Set(report.diagnostics.map(\.rule)) }

@Suite struct MeasuredRuleTests {
    @Test func compliantSampleMeasuresCleanWithItsPoster() async throws {
        let report = try await Checker().check(MediaFixtures.samples.appendingPathComponent("master.m3u8").path)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let audio = try #require(report.variants.first { $0.uri == "audio/index.m3u8" })
        #expect(audio.audioOnly)
        #expect(audio.measuredPeakBitrate == audio.declaredBandwidth)
        #expect(audio.artwork?.segmentsWithArtwork == 3)
        #expect(audio.artwork?.width == 320 && audio.artwork?.height == 180)
        #expect(audio.codecs.detected == ["mp4a.40.2"])
        let video = try #require(report.variants.first { $0.uri == "v0/index.m3u8" })
        #expect(!video.audioOnly)
        #expect(video.codecs.detected.contains("mp4a.40.2"))
    }

    @Test func flagsBandwidthBelowMeasuredPeakWithTheValueToDeclare() async throws {
        let stream = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n" + MediaFixtures.v0
                + "#EXT-X-STREAM-INF:BANDWIDTH=20000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n")
        let report = try await check(stream)
        let finding = try #require(report.diagnostics.first { $0.rule == "bandwidth-below-peak" })
        let peak = try #require(report.variants.first { $0.uri == "audio/index.m3u8" }?.measuredPeakBitrate)
        #expect(finding.message.contains("declare at least BANDWIDTH=\(peak)"))
        #expect(finding.location?.line == 4)
    }

    @Test func flagsAverageBandwidthOffByMoreThanTenPercent() async throws {
        let stream = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n" + MediaFixtures.v0
                + "#EXT-X-STREAM-INF:BANDWIDTH=60000,AVERAGE-BANDWIDTH=30000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n")
        #expect(rules(try await check(stream)).contains("average-bandwidth-mismatch"))
    }

    @Test func flagsCodecsThatDoNotMatchTheSegments() async throws {
        let stream = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n" + MediaFixtures.v0
                + "#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.5\"\naudio/index.m3u8\n")
        let finding = try #require(try await check(stream).diagnostics.first { $0.rule == "codecs-mismatch" })
        #expect(finding.message.contains("mp4a.40.2"))
    }

    @Test func flagsVideoInsideAVariantDeclaredAudioOnly() async throws {
        let stream = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=254427,CODECS=\"mp4a.40.2\"\nv0/index.m3u8\n" + MediaFixtures.audio)
        let report = try await check(stream)
        #expect(rules(report).contains("audio-only-contains-video"))
        // What the segments hold decides: the video variant does not count as audio-only.
        #expect(report.variants.first { $0.uri == "v0/index.m3u8" }?.audioOnly == false)
    }

    @Test func flagsDeclaredResolutionThatDiffersFromTheVideo() async throws {
        let stream = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=254427,CODECS=\"avc1.42c01e,mp4a.40.2\",RESOLUTION=1280x720\nv0/index.m3u8\n"
                + MediaFixtures.audio)
        let finding = try #require(try await check(stream).diagnostics.first { $0.rule == "resolution-mismatch" })
        #expect(finding.message.contains("256x144"))
    }

    /// bis-22 §4.4.6.2.1: with RESOLUTION and VIDEO, every video rendition of the group has
    /// that resolution. ffmpeg's ladder: stream_0 is 640x360, stream_1 320x180.
    @Test func flagsVideoRenditionWhoseResolutionDiffersFromTheVariants() async throws {
        let folder = try TemporaryFolder()
        let ladder = folder.path("ladder")
        _ = try makeFFmpegDefaultLadder(in: ladder, seconds: 2)
        func multivariant(_ second: String) -> String {
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"cam\",NAME=\"Main\",DEFAULT=YES,URI=\"stream_0.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"cam\",NAME=\"Wide\",URI=\"\(second)\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.64001e,mp4a.40.2\",RESOLUTION=640x360,VIDEO=\"cam\"\nstream_0.m3u8\n"
        }
        try Data(multivariant("stream_1.m3u8").utf8).write(to: URL(fileURLWithPath: ladder + "/angles.m3u8"))
        let report = try await Checker().check(ladder + "/angles.m3u8")
        let findings = report.diagnostics.filter { $0.rule == "resolution-mismatch" }
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.location?.line == 3)
        #expect(
            finding.message.contains(
                "the video of rendition \"Wide\" (stream_1.m3u8) is 320x180, but the variant on line 4"),
            "\(finding.message)")
        // Both renditions at the variant's resolution: nothing to report.
        try Data(multivariant("stream_0.m3u8").utf8).write(to: URL(fileURLWithPath: ladder + "/same.m3u8"))
        let same = try await Checker().check(ladder + "/same.m3u8")
        #expect(same.diagnostics.filter { $0.rule == "resolution-mismatch" }.isEmpty, "\(same.diagnostics)")
    }

    @Test func flagsMissingAndCorruptSegmentsAtTheirLine() async throws {
        let stream = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: 0), Array(repeating: 0x5A, count: 4000)],
            streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        try FileManager.default.removeItem(atPath: stream.path("audio/seg0.aac"))
        let findings = try await check(stream).diagnostics.filter { $0.rule == "segment-unreadable" }
        #expect(findings.count == 2, "\(findings)")
        #expect(findings.map { $0.location?.line } == [5, 7])
        // The missing one (not the corrupt one) may be a gap segment without its tag (bis-22 §6.2.1).
        #expect(
            findings.map { $0.message.contains("if its media is missing from the source, mark it with EXT-X-GAP") } == [
                true, false,
            ], "\(findings)")
        #expect(findings.allSatisfy { $0.location?.uri == stream.path("audio/index.m3u8") })
    }

    @Test func flagsExtinfFarFromTheMeasuredDuration() async throws {
        let stream = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n",
            "audio/index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:5.0,\nseg0.aac\n#EXT-X-ENDLIST\n",
        ])
        try stream.write(Data(try MediaFixtures.packedSegment(timestamp: 0)), to: "audio/seg0.aac")
        let finding = try #require(try await check(stream).diagnostics.first { $0.rule == "extinf-duration-mismatch" })
        #expect(finding.message.contains("EXTINF says 5.000 s"))
    }

    @Test func packedAudioNeedsTheTimestampTag() async throws {
        let without = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: nil)], streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        #expect(rules(try await check(without)).contains("packed-audio-timestamp-missing"))
        let with = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: 900_000)], streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        #expect(!rules(try await check(with)).contains("packed-audio-timestamp-missing"))
    }

    @Test func posterInEverySegmentSatisfiesTheArtworkRules() async throws {
        let poster = try MediaFixtures.bytes("poster.jpg")
        let segments = try (0..<3).map {
            try MediaFixtures.packedSegment(timestamp: Int64($0) * 185_040, poster: poster)
        }
        let stream = try MediaFixtures.audioOnlyStream(segments, streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        let report = try await check(stream)
        #expect(
            rules(report).isDisjoint(with: [
                "artwork-missing", "artwork-inconsistent", "artwork-invalid", "artwork-over-budget",
            ]),
            "\(report.diagnostics)")
        let artwork = try #require(report.variants.first?.artwork)
        #expect(artwork.segmentsWithArtwork == 3)
        #expect(artwork.maxBytes == poster.count)
        #expect(artwork.width == 64 && artwork.height == 48)
        // The poster's share of the peak: its APIC frame (image + 24 bytes of frame header, MIME,
        // picture type and empty description) over one 2.056 s segment.
        #expect(artwork.peakShare.map { abs($0 - Int(Double((poster.count + 24) * 8) / 2.056)) <= 1 } == true)
    }

    @Test func posterThatBlowsTheBudgetSaysHowManyBytesFit() async throws {
        let poster = try MediaFixtures.bytes("poster.jpg")
        let segment = try MediaFixtures.packedSegment(timestamp: 0, poster: poster)
        let stream = try MediaFixtures.audioOnlyStream(
            [segment, segment], streamInf: "BANDWIDTH=50000,CODECS=\"mp4a.40.2\"")
        // Audio alone: (segment − poster) bytes; pick a budget between audio alone and audio + poster.
        let audioBits = Double((segment.count - poster.count) * 8) / MediaFixtures.adtsDuration
        let budget = Int(audioBits) + 2_000
        let report = try await check(stream, budget: budget)
        let finding = try #require(report.diagnostics.first { $0.rule == "artwork-over-budget" })
        // Exact: the APIC frame is the image plus 24 bytes (header, encoding, MIME, type, empty
        // description), and (base + 24 + S) × 8 / 2.056 s must stay within the budget.
        let base = segment.count - poster.count - 24
        let fits = Int((Double(budget) * MediaFixtures.adtsDuration / 8).rounded(.down)) - base - 24
        #expect(finding.message.contains("a poster of at most \(fits) bytes"), "\(finding.message) vs \(fits)")
        #expect(report.variants.first?.largestPosterBytes == fits, "the JSON report gives the same number")
        #expect(!rules(report).contains("audio-only-over-budget"), "the audio alone fits: only the poster is to blame")
    }

    @Test func posterInSomeSegmentsOnlyIsInconsistent() async throws {
        let poster = try MediaFixtures.bytes("poster.jpg")
        let stream = try MediaFixtures.audioOnlyStream(
            [
                try MediaFixtures.packedSegment(timestamp: 0, poster: poster),
                try MediaFixtures.packedSegment(timestamp: 185_040),
            ],
            streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        let finding = try #require(try await check(stream).diagnostics.first { $0.rule == "artwork-inconsistent" })
        #expect(finding.message.contains("seg1.aac"))
        #expect(finding.location?.line == 7)
    }

    @Test func posterThatDoesNotDecodeIsInvalid() async throws {
        let stream = try MediaFixtures.audioOnlyStream(
            [try MediaFixtures.packedSegment(timestamp: 0, poster: Array("not a jpeg at all".utf8))],
            streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        #expect(rules(try await check(stream)).contains("artwork-invalid"))
    }

    @Test func playlistOnlyModeReadsNoSegment() async throws {
        let stream = try MediaFixtures.audioOnlyStream(
            [Array(repeating: 0, count: 100)], streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
            stream.path("master.m3u8"))
        #expect(!rules(report).contains("segment-unreadable"))
        #expect(report.variants.first?.measuredPeakBitrate == nil)
    }
}

@Suite struct UnusableDurationTests {
    /// An EXTINF the parser rejects (1e20, NaN, negative) leaves its segment without a duration.
    /// Its bytes used to join its neighbours' window as a 0-second segment, and a clean 48 kbit/s
    /// variant was reported over the 64 kbit/s budget with a made-up BANDWIDTH to declare; the
    /// segment is now a hole in the bit rate, like an unreadable one.
    @Test("a segment whose EXTINF cannot be used makes up no bit rate", arguments: ["1e20", "NaN", "-6", "0"])
    func unusableExtinfIsAHoleInTheBitrate(_ extinf: String) async throws {
        let segments = try (0..<6).map { try MediaFixtures.packedSegment(timestamp: Int64($0) * 185_040) }
        let stream = try MediaFixtures.audioOnlyStream(segments, streamInf: "BANDWIDTH=60000,CODECS=\"mp4a.40.2\"")
        let clean = try await check(stream)
        let cleanPeak = try #require(clean.variants.first?.measuredPeakBitrate)
        #expect(!rules(clean).contains("audio-only-over-budget") && !rules(clean).contains("bandwidth-below-peak"))

        let playlist = try String(contentsOfFile: stream.path("audio/index.m3u8"), encoding: .utf8)
        let lines = playlist.components(separatedBy: "\n")
        let third = try #require(lines.indices.filter { lines[$0].hasPrefix("#EXTINF:") }.dropFirst(2).first)
        var edited = lines
        edited[third] = "#EXTINF:\(extinf),"
        try stream.write(Data(edited.joined(separator: "\n").utf8), to: "audio/index.m3u8")

        let report = try await check(stream)
        #expect(!rules(report).contains("audio-only-over-budget"), "\(report.diagnostics)")
        #expect(!rules(report).contains("bandwidth-below-peak"), "\(report.diagnostics)")
        let peak = try #require(report.variants.first?.measuredPeakBitrate)
        #expect(peak <= cleanPeak)
        // Said as a partial measurement, so no rule gives numeric advice from it.
        #expect(report.variants.first?.segmentsMeasured == 5)
        #expect(report.variants.first?.measurementComplete == false)
    }
}

import Foundation
import HLSCheck
import TestSupport
import Testing

/// The measurement cases of docs/measurement.md on streams the ffmpeg CLI makes at test time
/// (Tests/Scripts/verdict-fixtures.sh): what a user of a third-party stream would see.
@Suite struct VerdictFixtureTests {
    func report(_ name: String, _ folder: TemporaryFolder, profile: Profile = .audioOnly64k) async throws -> CheckReport
    {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return try await Checker(configuration: configuration).check(VerdictFixtures.multivariant(folder, name))
    }

    func variant(_ report: CheckReport, _ uri: String) throws -> VariantSummary {
        try #require(report.variants.first { $0.uri == uri })
    }

    @Test func aVariantWhoseURIIsItsAudioRenditionIsCountedOnce() async throws {
        let folder = try VerdictFixtures.make("double-count")
        let report = try await report("double-count", folder)
        let audio = try variant(report, "audio/index.m3u8")
        // Declared as the one playlist's peak: measured the same, not twice over.
        let declared = try #require(audio.declaredBandwidth)
        let measured = try #require(audio.measuredPeakBitrate)
        #expect(abs(measured - declared) <= declared / 100, "\(measured) vs \(declared)")
        #expect(audio.peakCombination == [folder.path("double-count/audio/index.m3u8")])
        #expect(!report.diagnostics.contains { $0.rule == "bandwidth-below-peak" }, "\(report.diagnostics)")
        let video = try variant(report, "video/index.m3u8")
        #expect(video.peakCombination == ["video", "audio"].map { folder.path("double-count/\($0)/index.m3u8") })
    }

    @Test func aLargerAlternateVideoAngleRaisesThePeak() async throws {
        let folder = try VerdictFixtures.make("alternate-angle")
        let report = try await report("alternate-angle", folder)
        let finding = try #require(report.diagnostics.first { $0.rule == "bandwidth-below-peak" })
        #expect(finding.location?.line == 6)
        #expect(finding.message.contains("over angle/index.m3u8 + audio/index.m3u8"), "\(finding.message)")
        let video = try variant(report, "video/index.m3u8")
        #expect(video.peakCombination == ["angle", "audio"].map { folder.path("alternate-angle/\($0)/index.m3u8") })
        #expect(video.codecs.detected.contains("mp4a.40.2"))
    }

    @Test func unreadableSegmentsAreLeftOutAndNoAdviceComesFromTheRest() async throws {
        let folder = try VerdictFixtures.make("partial")
        let report = try await report("partial", folder)
        #expect(report.diagnostics.filter { $0.rule == "segment-unreadable" }.map { $0.location?.line } == [6, 8])
        // The declared average is the true one: two missing segments must not make it "too high".
        #expect(!report.diagnostics.contains { $0.rule == "average-bandwidth-mismatch" }, "\(report.diagnostics)")
        #expect(!report.diagnostics.contains { $0.message.contains("would fit") })
        let audio = try variant(report, "audio/index.m3u8")
        #expect(audio.segmentsMeasured == 2 && audio.segmentCount == 4)
        #expect(audio.measurementComplete == false)
        #expect(audio.largestPosterBytes == nil, "no poster size from half the segments")
        let average = try #require(audio.measuredAverageBitrate),
            declared = try #require(audio.declaredAverageBandwidth)
        #expect(
            Double(average) > Double(declared) * 0.9,
            "missing bytes do not lower the average: \(average) vs \(declared)")
    }

    @Test func aes128SegmentsAreDecryptedWithALocalKeyAndNotedWithout() async throws {
        let folder = try VerdictFixtures.make("encrypted")
        let withKey = try await report("encrypted", folder)
        let audio = try variant(withKey, "audio/index.m3u8")
        #expect(audio.codecs.detected == ["mp4a.40.2"], "decrypted and demuxed")
        #expect(!withKey.diagnostics.contains { $0.rule == "segment-encrypted" || $0.rule == "segment-unreadable" })

        let without = try await report("encrypted/nokey", folder)
        let note = try #require(without.diagnostics.first { $0.rule == "segment-encrypted" })
        #expect(note.severity == .note)
        #expect(note.message.contains("4 of 4 segments") && note.message.contains("enc.key"))
        let hidden = try variant(without, "audio/index.m3u8")
        #expect(hidden.codecs.detected.isEmpty)
        // The downloaded bytes are the same either way: so is the bit rate.
        #expect(hidden.measuredPeakBitrate == audio.measuredPeakBitrate)
        #expect(hidden.segmentsMeasured == 4)

        // No IV attribute: the media sequence number (7, 8, …) is the IV. The key sits one folder
        // up (../enc.key): the stream's root is that folder, as a user would say with --root.
        var configuration = CheckConfiguration()
        configuration.confinement.root = folder.path("encrypted")
        let sequence = try await Checker(configuration: configuration).check(
            folder.path("encrypted/sequence/index.m3u8"))
        #expect(sequence.variants.first?.codecs.detected == ["mp4a.40.2"], "\(sequence.diagnostics)")
        #expect(!sequence.diagnostics.contains { $0.rule == "segment-unreadable" || $0.rule == "segment-encrypted" })
    }

    @Test func sampleAESSegmentsCountTheirBytesAndAreNotedOnce() async throws {
        // The compliant sample's audio, declared SAMPLE-AES (hlscheck decrypts AES-128 only).
        let folder = try TemporaryFolder()
        let samples = PackageRoot.url.appendingPathComponent("Samples/compliant/audio")
        var media =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://key\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n"
        for index in 0..<3 {
            try folder.write(Data(contentsOf: samples.appendingPathComponent("seg\(index).ts")), to: "seg\(index).ts")
            media += "#EXTINF:6.0,\nseg\(index).ts\n"
        }
        try folder.write(Data((media + "#EXT-X-ENDLIST\n").utf8), to: "index.m3u8")
        let report = try await Checker().check(folder.path("index.m3u8"))
        let notes = report.diagnostics.filter { $0.rule == "segment-encrypted" }
        #expect(notes.count == 1)
        #expect(
            notes.first?.message.contains("3 of 3 segments") == true
                && notes.first?.message.contains("METHOD=SAMPLE-AES") == true)
        #expect(notes.first?.location?.line == 5, "the first segment's EXTINF")
        #expect(!report.diagnostics.contains { $0.rule == "segment-unreadable" })
        let variant = try #require(report.variants.first)
        #expect(variant.segmentsMeasured == 3)
        #expect((variant.measuredPeakBitrate ?? 0) > 40_000, "the downloaded bytes count")
        #expect(variant.codecs.detected.isEmpty)
    }

    @Test func mp3DeclaredAsObjectType6BMatchesTheSegments() async throws {
        let folder = try VerdictFixtures.make("mp3")
        let report = try await report("mp3", folder)
        #expect(try variant(report, "audio/index.m3u8").codecs.detected == ["mp4a.40.34"])
        #expect(!report.diagnostics.contains { $0.rule.hasPrefix("codecs-") }, "\(report.diagnostics)")
    }

    @Test func hvc1DeclaredForHev1SegmentsIsASampleEntryWarning() async throws {
        let folder = try VerdictFixtures.make("sample-entry")
        let report = try await report("sample-entry", folder)
        let findings = report.diagnostics.filter { $0.rule == "codecs-sample-entry-mismatch" }
        #expect(findings.map(\.location?.line) == [3, 5])
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(
            findings.first?.message.contains("hvc1.1.6.L60.90 is declared but the segments use hev1.1.6.L60.90") == true
        )
        #expect(
            findings.last?.message.contains("avc1.42c01e is declared but the segments use avc3.42c01e") == true,
            "\(findings)")
        #expect(!report.diagnostics.contains { $0.rule == "codecs-mismatch" }, "\(report.diagnostics)")
    }

    @Test func aStreamWithoutVideoIsHeldToTheBudgetOnlyByTheAudioOnlyProfile() async throws {
        let folder = try VerdictFixtures.make("radio")
        let budgetRules: Set<String> = ["audio-only-over-budget", "audio-only-variant-missing", "artwork-over-budget"]
        let ios = try await report("radio", folder, profile: .appleIOS)
        #expect(ios.diagnostics.allSatisfy { !budgetRules.contains($0.rule) }, "\(ios.diagnostics)")
        let strict = try await report("radio", folder)
        #expect(strict.diagnostics.contains { $0.rule == "audio-only-over-budget" })
    }

    @Test func bandwidthFarAboveThePeakIsANoteByDefaultAndAnErrorForApple() async throws {
        let folder = try VerdictFixtures.make("above-peak")
        let standard = try await report("above-peak", folder)
        let note = try #require(standard.diagnostics.first { $0.rule == "bandwidth-above-peak" })
        #expect(note.severity == .note)
        let peak = try #require(try variant(standard, "audio/index.m3u8").measuredPeakBitrate)
        #expect(note.message.contains("declare BANDWIDTH=\(peak)"))
        let ios = try await report("above-peak", folder, profile: .appleIOS)
        // AS 1.27: for VOD the measured peak MUST be within 10 % of BANDWIDTH.
        #expect(ios.diagnostics.first { $0.rule == "bandwidth-above-peak" }?.severity == .error)
        // The video variant declares its own peak: nothing to say.
        #expect(standard.diagnostics.filter { $0.rule == "bandwidth-above-peak" }.count == 1)
    }
}

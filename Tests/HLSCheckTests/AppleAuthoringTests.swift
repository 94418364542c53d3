import Foundation
import HLSCheck
import TestSupport
import Testing

/// Apple's HLS Authoring Specification on real streams: ffmpeg's default ladder, the bundled
/// samples, and FRAME-RATE against the measured video.
@Suite struct AppleAuthoringTests {
    func check(_ path: String, profile: Profile) async throws -> CheckReport {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return try await Checker(configuration: configuration).check(path)
    }

    @Test func ffmpegDefaultLadderBreaksFourAppleMustsUnderAppleIOS() async throws {
        let folder = try VerdictFixtures.make("ffmpeg-ladder")
        let multivariant = VerdictFixtures.multivariant(folder, "ffmpeg-ladder")
        let report = try await check(multivariant, profile: .appleIOS)
        let errors = Set(report.diagnostics.filter { $0.severity == .error }.map(\.rule))
        // AS 8.6, 9.15, 9.12, 6.1: what ffmpeg's defaults leave out.
        for rule in [
            "playlist-type-missing", "frame-rate-missing", "independent-segments-missing", "iframe-playlist-missing",
        ] {
            #expect(errors.contains(rule), "\(rule) missing from \(report.diagnostics)")
        }
        let frameRate = try #require(report.diagnostics.first { $0.rule == "frame-rate-missing" })
        #expect(frameRate.message.contains("25.000 frames per second"), "\(frameRate.message)")
        #expect(
            report.diagnostics.filter { $0.rule == "playlist-type-missing" }.compactMap(\.location?.uri).sorted()
                == ["stream_0.m3u8", "stream_1.m3u8"].map { folder.path("ffmpeg-ladder/\($0)") })
        // The same ladder under RFC 8216 alone: none of them is a protocol requirement.
        let rfc = Set(try await check(multivariant, profile: .rfc8216).diagnostics.map(\.rule))
        #expect(
            rfc.isDisjoint(with: [
                "playlist-type-missing", "frame-rate-missing", "independent-segments-missing",
                "iframe-playlist-missing",
            ]))
    }

    @Test(arguments: [Profile.audioOnly64k, .appleIOS, .rfc8216], ["compliant", "fmp4"])
    func bundledSamplesAreClean(_ profile: Profile, _ sample: String) async throws {
        let multivariant = PackageRoot.url.appendingPathComponent("Samples/\(sample)/master.m3u8").path
        let report = try await check(multivariant, profile: profile)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    @Test(arguments: ["compliant", "fmp4"])
    func bundledSamplesBreakOnlyTheTVOSAudioOnlyRule(_ sample: String) async throws {
        let multivariant = PackageRoot.url.appendingPathComponent("Samples/\(sample)/master.m3u8").path
        let report = try await check(multivariant, profile: .appleTVOS)
        #expect(Set(report.diagnostics.map(\.rule)) == ["audio-only-variant-present"], "\(report.diagnostics)")
    }

    @Test func flagsAFrameRateTheVideoDoesNotHave() async throws {
        let declared60 = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n"
                + MediaFixtures.v0.replacingOccurrences(
                    of: "RESOLUTION=256x144", with: "RESOLUTION=256x144,FRAME-RATE=60.000"))
        let report = try await check(declared60.path("master.m3u8"), profile: .appleIOS)
        let finding = try #require(report.diagnostics.first { $0.rule == "frame-rate-mismatch" })
        #expect(finding.severity == .error)
        #expect(
            finding.message.contains("FRAME-RATE=60.000") && finding.message.contains("runs at 25.000"),
            "\(finding.message)")
        #expect(finding.location?.line == 2)

        let declared25 = try MediaFixtures.sampleStream(
            multivariant: "#EXTM3U\n"
                + MediaFixtures.v0.replacingOccurrences(
                    of: "RESOLUTION=256x144", with: "RESOLUTION=256x144,FRAME-RATE=25.000"))
        let clean = try await check(declared25.path("master.m3u8"), profile: .appleIOS)
        #expect(!clean.diagnostics.contains { $0.rule.hasPrefix("frame-rate") }, "\(clean.diagnostics)")
    }

    @Test func attributesAnIFrameStreamCannotHaveAreErrorsNamingTheSection() async throws {
        let stream = try TemporaryFolder([
            "master.m3u8": """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f",RESOLUTION=640x360,FRAME-RATE=25
            video.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,CODECS="avc1.4d401f",RESOLUTION=640x360,FRAME-RATE=25,SUBTITLES="subs",URI="video.m3u8"

            """,
            "video.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg0.ts\n#EXT-X-ENDLIST\n",
        ])
        let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
            stream.path("master.m3u8"))
        let syntax = report.diagnostics.filter { $0.rule == "playlist-syntax" }
        #expect(syntax.map(\.location?.line) == [4, 4], "\(report.diagnostics)")
        #expect(syntax.allSatisfy { $0.severity == .error && $0.message.contains("bis-22 §4.4.6.3") })
        #expect(
            syntax.contains { $0.message.contains("must not have FRAME-RATE") }
                && syntax.contains { $0.message.contains("must not have SUBTITLES") })
        #expect(!report.diagnostics.contains { $0.message.contains("unknown attribute") }, "\(report.diagnostics)")
        // The playlist it points to is a regular one.
        let target = try #require(report.diagnostics.first { $0.rule == "iframes-only-missing" })
        #expect(target.location?.line == 4 && target.severity == .error)
    }
}

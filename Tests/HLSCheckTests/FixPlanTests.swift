import Foundation
import HLSCheck
import HLSPlaylist
import TestSupport
import Testing

/// The plan `hlscheck fix` computes from an analysis, without writing anything.
@Suite struct FixPlanTests {
    static func plan(_ files: [String: String], playlistOnly: Bool = true) async throws -> (FixPlan, TemporaryFolder) {
        let folder = try TemporaryFolder(files)
        var configuration = CheckConfiguration(profile: .appleIOS, file: nil)
        configuration.playlistOnly = playlistOnly
        let analysis = try await Checker(configuration: configuration).analyse(folder.path("master.m3u8"))
        return (FixPlan(analysis, configuration: configuration), folder)
    }

    @Test(arguments: [(1, 1000), (999, 1000), (1000, 1000), (1001, 2000), (950_401, 951_000), (0, 0)])
    func declaredBitRatesAreRoundedUpToTheNextThousandAndNeverBelowTheMeasurement(_ measured: Int, _ declared: Int) {
        #expect(FixPlan.declaredBitrate(measured: measured) == declared)
        #expect(FixPlan.declaredBitrate(measured: measured) >= measured)
    }

    @Test func frameRatesAreWrittenWithThreeDecimals() {
        #expect(FixPlan.frameRateText(25) == "25.000")
        #expect(FixPlan.frameRateText(29.97002997) == "29.970")
        #expect(FixPlan.frameRateText(23.976) == "23.976")
    }

    @Test func playlistFactsAreFixedWithoutMediaAndMeasuredValuesAreNot() async throws {
        let (plan, _) = try await Self.plan([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.5,\na.aac\n#EXTINF:6.4,\nb.aac\n#EXT-X-ENDLIST\n",
        ])
        let media = plan.fixes.filter { $0.playlist.hasSuffix("audio.m3u8") }
        #expect(media.map(\.rule).sorted() == ["playlist-type-missing", "target-duration-exceeded", "version-too-low"])
        #expect(media.contains { $0.change == .tagValue(tag: "#EXT-X-TARGETDURATION", value: "6") && $0.line == 3 })
        #expect(media.contains { $0.change == .tagValue(tag: "#EXT-X-VERSION", value: "3") && $0.line == 2 })
        #expect(media.contains { $0.change == .insertLine("#EXT-X-PLAYLIST-TYPE:VOD") && $0.line == 3 })
        // Nothing was measured: BANDWIDTH=1 is not proven wrong by anything here.
        #expect(
            !plan.fixes.contains { $0.rule.contains("bandwidth") || $0.rule.contains("codecs") },
            "\(plan.fixes.map(\.summary))")
        #expect(!plan.fixes.contains { $0.rule == "independent-segments-missing" })
    }

    @Test func aLivePlaylistGetsNoPlaylistTypeAndTheEditsApplyFromTheBottomUp() async throws {
        let media = "#EXTM3U\r\n#EXT-X-TARGETDURATION:2\r\n#EXTINF:2.6,\r\na.ts\r\n"
        let (plan, folder) = try await Self.plan([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\nlive.m3u8\n",
            "live.m3u8": media,
        ])
        let fixes = plan.fixes.filter { $0.playlist.hasSuffix("live.m3u8") }
        #expect(fixes.map(\.rule).sorted() == ["target-duration-exceeded", "version-too-low"])
        let fixed = try FixPlan.apply(
            fixes, to: Array(try Data(contentsOf: folder.url.appendingPathComponent("live.m3u8"))))
        #expect(
            String(decoding: fixed, as: UTF8.self)
                == "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-TARGETDURATION:3\r\n#EXTINF:2.6,\r\na.ts\r\n")
    }

    @Test func aFixProposesTheLineItLeaves() {
        let fix = PlaylistFix(
            playlist: "m", line: 7, change: .attribute(name: "BANDWIDTH", value: "951000"),
            rule: "bandwidth-below-peak", reason: "")
        #expect(
            fix.proposedLine(from: "#EXT-X-STREAM-INF:BANDWIDTH=950400,RESOLUTION=640x360")
                == "#EXT-X-STREAM-INF:BANDWIDTH=951000,RESOLUTION=640x360")
        let frameRate = PlaylistFix(
            playlist: "m", line: 7, change: .attribute(name: "FRAME-RATE", value: "25.000"), rule: "frame-rate-missing",
            reason: "")
        #expect(
            frameRate.proposedLine(from: "#EXT-X-STREAM-INF:BANDWIDTH=1")
                == "#EXT-X-STREAM-INF:BANDWIDTH=1,FRAME-RATE=25.000")
    }
}

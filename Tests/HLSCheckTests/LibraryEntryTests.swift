import Foundation
import HLSCheck
import TestSupport
import Testing

/// `Checker.check(_:)`, the library's one-call entry point, honours the configuration file as the
/// CLI does (docs/configuration.md): a program embedding hlscheck gets the same verdicts as CI.
@Suite struct LibraryEntryTests {
    static let multivariant = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
        v.m3u8

        """
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"

    @Test func theNearestConfigurationFileDecidesSeveritiesAndWhatFails() async throws {
        let tree = try TemporaryFolder([
            ".hlscheck.yml": "rules:\n  audio-only-variant-missing: warning\nfail-on: warning\n",
            "show/master.m3u8": Self.multivariant, "show/v.m3u8": Self.media,
        ])
        let reports = await Checker.check(tree.path("show/master.m3u8")) { $0.playlistOnly = true }
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        let missing = try #require(report.diagnostics.first { $0.rule == "audio-only-variant-missing" })
        #expect(missing.severity == .warning)
        #expect(report.failureThreshold == .warning)
        #expect(report.fails)
    }

    @Test func withoutAFileTheDefaultProfileApplies() async throws {
        let tree = try TemporaryFolder(["show/master.m3u8": Self.multivariant, "show/v.m3u8": Self.media])
        let reports = await Checker.check(tree.path("show/master.m3u8")) { $0.playlistOnly = true }
        let report = try #require(reports.first)
        #expect(report.diagnostics.first { $0.rule == "audio-only-variant-missing" }?.severity == .error)
        #expect(report.failureThreshold == .error)
    }

    @Test func aFolderIsSearchedAndItsIgnorePatternsApply() async throws {
        let tree = try TemporaryFolder([
            ".hlscheck.json": #"{"ignore": ["old/**"]}"#,
            "new/master.m3u8": Self.multivariant, "new/v.m3u8": Self.media,
            "old/master.m3u8": Self.multivariant, "old/v.m3u8": Self.media,
        ])
        let reports = await Checker.check(tree.url.path) { $0.playlistOnly = true }
        #expect(reports.map { URL(fileURLWithPath: $0.input).deletingLastPathComponent().lastPathComponent } == ["new"])
    }

    @Test func anUnusableInputOrConfigurationIsAReportNotAThrow() async throws {
        let tree = try TemporaryFolder([".hlscheck.yml": "budget: 64\n", "show/master.m3u8": Self.multivariant])
        let broken = await Checker.check(tree.path("show/master.m3u8"))
        #expect(broken.count == 1)
        #expect(broken.first?.inputError?.description.contains(".hlscheck.yml:1:1: unknown setting") == true)
        let missing = await Checker.check(tree.path("nowhere/master.m3u8"), configurationFile: tree.path("none.yml"))
        #expect(missing.first?.diagnostics.first?.rule == CheckReport.inputUnreadableRule)
        #expect(missing.first?.fails == true)
    }
}

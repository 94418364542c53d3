import Foundation
import HLSCheck
import HLSReporting
import TestSupport
import Testing

/// The README's "As a library" example, line for line, on a real stream: if the API it shows
/// changes, this stops compiling.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleChecksAndRendersLikeTheCLI() async throws {
        let tree = try TemporaryFolder([
            "streams/.hlscheck.yml": "rules:\n  codecs-missing: off\n",
            "streams/show/master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nv.m3u8\n",
            "streams/show/v.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
        ])
        let path = tree.path("streams/show/master.m3u8")
        // From README.md, "As a library" (with an absolute path: tests share one working folder):
        let reports = await Checker.check(path) { $0.audioOnlyBudget = 48_000 }
        let text = TextReporter().render(reports)
        let failed = reports.contains(where: \.fails)

        #expect(failed)  // no audio-only variant, and s.ts is missing
        #expect(text.contains("\(path):1: error: no audio-only variant: add one of at most 48 kbit/s"))
        #expect(!text.contains("codecs-missing"))  // switched off by streams/.hlscheck.yml
    }
}

import Foundation
import Testing
import TestSupport

/// The CLI on streams whose check used to trap (see Tests/HLSCheckTests/FuzzRegressionTests.swift):
/// every report format must come out, with the usual exit code for findings.
@Suite("Fuzzing regressions: the command line")
struct FuzzRegressionCommandTests {
    static let extremeDurations = [
        "0.0000000000000000001",  // a peak of 8·10²² bit/s
        "99999999999999999999999",  // 10²³ s: the variant table's duration, the poster allowance
    ]

    @Test("extreme EXTINF values give a report in every format, not a crash", arguments: extremeDurations)
    func extremeExtinfIsReported(extinf: String) throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:\(extinf),\nseg0.ts\n#EXT-X-ENDLIST\n",
        ])
        try folder.write(
            Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg0.ts")), to: "seg0.ts")
        for format in ["text", "json", "junit", "github", "sarif"] {
            let result = try HLSCheckBinary.run([folder.path("master.m3u8"), "--format", format])
            #expect(result.status == 1, "\(format): \(result.stderr)")
            #expect(
                result.stdout.contains("bandwidth-below-peak") || result.stdout.contains("extinf-duration-mismatch"),
                "\(format)")
        }
    }
}

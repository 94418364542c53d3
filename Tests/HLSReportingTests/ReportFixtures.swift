import Foundation
import HLSCheck
import Testing
import TestSupport

/// Reports produced by the real checker, the inputs every reporter test renders.
enum ReportFixtures {
    /// The fixed time and host injected into JUnit reports, so golden files are stable.
    static let timestamp = "2026-11-21T10:00:00"
    static let hostname = "ci-runner"

    /// A committed sample, checked from the package root with a relative path, as a user's CI
    /// would (`hlscheck Samples/compliant/master.m3u8`); the path is what the reports show.
    /// The rules golden reports are made with: one per stream and one per variant, so that adding
    /// a rule to the catalogue leaves the golden files alone.
    static let goldenRules: [any Rule] = ["audio-only-variant-missing", "codecs-missing"].compactMap { id in
        RuleCatalogue.all.first { type(of: $0).description.id == id }
    }

    static func sample(_ name: String, rules: [any Rule] = RuleCatalogue.all) async throws -> CheckReport {
        let path = "Samples/\(name)/master.m3u8"
        try #require(
            FileManager.default.fileExists(atPath: path),
            "run the tests from the package root: \(path) is not in \(FileManager.default.currentDirectoryPath)")
        // Some samples reuse the variants of Samples/compliant: their root is Samples.
        var configuration = CheckConfiguration(playlistOnly: true)
        configuration.confinement.root = "Samples"
        return try await Checker(configuration: configuration, rules: rules).check(path)
    }

    /// An input that could not be checked, as the CLI reports it.
    static let unreadable = CheckReport(
        input: "streams/gone.m3u8", error: CheckError("streams/gone.m3u8: no such file or folder"))

    /// A folder name holding every character some report format must escape.
    static let awkwardFolder = "we,ird:50%&<x>\"q'\nname"

    /// A stream with an error, a warning and a note, in a folder whose name needs escaping in
    /// every format, with a variant URI that needs escaping too.
    struct AwkwardStream {
        let folder: TemporaryFolder
        let report: CheckReport
        var input: String { report.input }
    }

    static func awkwardStream() async throws -> AwkwardStream {
        let folder = try TemporaryFolder([
            // Line 2: no CODECS (codecs-missing, configured as a note below).
            // Line 5: a URI that does not exist (playlist-unreadable, an error).
            "\(awkwardFolder)/master.m3u8": """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=640x360
            video/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=40000,CODECS="mp4a.40.2"
            a&b<c>%,:"q".m3u8

            """,
            // An EXTINF without its comma (playlist-lenient, a warning) that also exceeds the
            // target duration (target-duration-exceeded, an error).
            "\(awkwardFolder)/video/index.m3u8": """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:6
            #EXTINF:6.0,
            seg0.ts
            #EXTINF:7.6
            seg1.ts
            #EXT-X-ENDLIST

            """,
        ])
        let configuration = CheckConfiguration(playlistOnly: true, severityOverrides: ["codecs-missing": .note])
        let report = try await Checker(configuration: configuration).check(folder.path("\(awkwardFolder)/master.m3u8"))
        return AwkwardStream(folder: folder, report: report)
    }
}

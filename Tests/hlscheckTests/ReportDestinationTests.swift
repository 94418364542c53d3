import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `hlscheck check` writes besides standard output (`--output`, `--write-baseline`): never
/// over what the run reads, always whole, and the summary line stays on the terminal when a
/// report cannot be written. Through the real binary, on a copy of Samples/compliant.
@Suite("Report destinations (CLI)")
struct ReportDestinationTests {
    /// A folder holding a copy of Samples/compliant as `compliant/`.
    func compliantCopy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            atPath: PackageRoot.url.appendingPathComponent("Samples/compliant").path, toPath: folder.path("compliant"))
        return folder
    }

    func run(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        let result = try HLSCheckBinary.run(
            arguments, in: folder.url, timeLimit: .seconds(120), environment: environment)
        #expect(!result.killedBySignal, "hlscheck \(arguments) did not finish: \(result.stderr)")
        return result
    }

    func bytes(_ folder: TemporaryFolder, _ name: String) throws -> Data {
        try Data(contentsOf: folder.url.appendingPathComponent(name))
    }

    /// Every spelling of the input playlist as a report path: as typed, through `./` and `..`,
    /// through a symlink, and a hard link (another name, the same inode).
    @Test(arguments: [
        "compliant/master.m3u8", "./compliant/../compliant/master.m3u8", "link-to-master.m3u8",
        "hard-link-to-master.m3u8",
    ])
    func reportOverTheInputPlaylistIsRefused(_ target: String) throws {
        let folder = try compliantCopy()
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link-to-master.m3u8"), withDestinationPath: "compliant/master.m3u8")
        try #require(link(folder.path("compliant/master.m3u8"), folder.path("hard-link-to-master.m3u8")) == 0)
        let before = try bytes(folder, "compliant/master.m3u8")
        let result = try run(["check", "compliant/master.m3u8", "--playlist-only", "-o", "json=\(target)"], in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("--output json=\(target) would replace compliant/master.m3u8"), "\(result.stderr)")
        #expect(try bytes(folder, "compliant/master.m3u8") == before)
        #expect(!result.stdout.contains("report is in"))
    }

    /// A segment is named only inside the playlists: refused once they are read, before any
    /// report is written; the other report of the run is still written, and the summary shows.
    @Test func reportOverASegmentTheCheckReadIsRefused() throws {
        let folder = try compliantCopy()
        let before = try bytes(folder, "compliant/v0/seg0.ts")
        let result = try run(
            ["check", "compliant/master.m3u8", "-o", "html=compliant/v0/seg0.ts", "-o", "json=report.json"],
            in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--output html=compliant/v0/seg0.ts would replace compliant/v0/seg0.ts, a file the check of"),
            "\(result.stderr)")
        #expect(try bytes(folder, "compliant/v0/seg0.ts") == before)
        #expect(result.stdout.contains("1 stream checked"), "\(result.stdout)")
        #expect(result.stdout.contains("The html report was not written"))
        #expect(result.stdout.contains("The json report is in report.json"))
        #expect(FileManager.default.fileExists(atPath: folder.path("report.json")))
    }

    @Test func reportInsideAFolderBeingCheckedIsRefused() throws {
        let folder = try compliantCopy()
        let result = try run(
            ["check", "compliant", "--playlist-only", "-o", "sarif=compliant/v1/out.sarif"], in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--output sarif=compliant/v1/out.sarif lies inside compliant, a folder this run checks"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("compliant/v1/out.sarif")))
    }

    @Test func baselineOverTheInputPlaylistIsRefused() throws {
        let folder = try compliantCopy()
        let before = try bytes(folder, "compliant/v0/index.m3u8")
        let result = try run(
            ["check", "compliant/master.m3u8", "--write-baseline", "compliant/v0/index.m3u8"], in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("--write-baseline compliant/v0/index.m3u8 would replace compliant/v0/index.m3u8"),
            "\(result.stderr)")
        #expect(try bytes(folder, "compliant/v0/index.m3u8") == before)
    }

    @Test func reportOverTheConfigurationFileIsRefused() throws {
        let folder = try compliantCopy()
        try folder.write(Data("profile: rfc8216\n".utf8), to: "settings.yml")
        let result = try run(
            [
                "check", "compliant/master.m3u8", "--playlist-only", "--config", "settings.yml", "-o",
                "json=settings.yml",
            ],
            in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("the --config file this run reads"), "\(result.stderr)")
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("settings.yml"), encoding: .utf8)
                == "profile: rfc8216\n")
    }

    @Test func twoReportsToOneFileAreRefused() throws {
        let folder = try compliantCopy()
        let result = try run(
            ["check", "compliant/master.m3u8", "--playlist-only", "-o", "json=out", "-o", "sarif=./out"], in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("--output sarif=./out and --output json=out name the same file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    /// `--write-baseline` over `--baseline` is how a baseline is updated: still allowed.
    @Test func baselineMayReplaceTheBaselineItWasReadFrom() throws {
        let folder = try compliantCopy()
        let first = try run(["check", "compliant/master.m3u8", "--write-baseline", "b.json"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try run(
            ["check", "compliant/master.m3u8", "--baseline", "b.json", "--write-baseline", "b.json"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
    }

    /// A report that cannot be written: exit 2 with the reason, and the summary line still on
    /// the terminal (what was found is not lost with the file).
    @Test func summaryStaysWhenAReportCannotBeWritten() throws {
        let folder = try compliantCopy()
        let result = try run(
            ["check", "compliant/master.m3u8", "--playlist-only", "-o", "json=missing-folder/report.json"], in: folder)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot write the json report: missing-folder/report.json"), "\(result.stderr)")
        #expect(result.stdout.contains("1 stream checked: 0 errors"), "\(result.stdout)")
        #expect(result.stdout.contains("The json report was not written"))
    }
}

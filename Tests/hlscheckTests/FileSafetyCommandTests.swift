import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile file-system input through the real binary: every run is guarded by the runner's
/// watchdog, so a FIFO that blocks again fails the test (killed) instead of hanging the suite.
@Suite("File safety (CLI)")
struct FileSafetyCommandTests {
    static let audioVariant = "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n"

    /// A folder with a FIFO at `name` (made with mkfifo(3)).
    func folder(_ files: [String: String], fifo name: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder(files)
        try #require(mkfifo(folder.path(name), 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return folder
    }

    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> CommandResult {
        let result = try HLSCheckBinary.run(arguments, in: folder.url, timeLimit: .seconds(60))
        #expect(!result.killedBySignal, "hlscheck \(arguments) did not finish: \(result.stderr)")
        return result
    }

    @Test func fifoAsSegmentIsALocatedFinding() throws {
        let folder = try folder(
            ["index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\npipe.ts\n#EXT-X-ENDLIST\n"], fifo: "pipe.ts")
        let result = try run(["check", "index.m3u8"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("index.m3u8:3: error: segment pipe.ts: is a FIFO (named pipe), not a regular file"))
    }

    @Test func fifoAsVariantPlaylistIsALocatedFinding() throws {
        let folder = try folder(["master.m3u8": "#EXTM3U\n" + Self.audioVariant + "pipe.m3u8\n"], fifo: "pipe.m3u8")
        let result = try run(["check", "master.m3u8", "--playlist-only"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("master.m3u8:3:1: error: cannot read pipe.m3u8: is a FIFO (named pipe)"))
        #expect(result.stdout.contains("[playlist-unreadable]"))
    }

    @Test func fifoAsInputPlaylistCannotRun() throws {
        let folder = try folder([:], fifo: "live.m3u8")
        let result = try run(["check", "live.m3u8"], in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.contains("live.m3u8: is a FIFO (named pipe), not a regular file"), "\(result.stdout)")
    }

    @Test func fifoAsConfigurationFileIsRefused() throws {
        let folder = try folder(
            ["master.m3u8": "#EXTM3U\n" + Self.audioVariant + "audio.m3u8\n"], fifo: ".hlscheck.yml")
        let result = try run(["check", "master.m3u8", "--playlist-only"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stdout.contains(".hlscheck.yml: cannot read the configuration file: is a FIFO (named pipe)"),
            "\(result.stdout)")
    }

    @Test func folderModeSkipsFIFOsAndSymlinkLoops() throws {
        let folder = try folder(
            ["s/index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n"],
            fifo: "s/live.m3u8")
        try FileManager.default.createSymbolicLink(atPath: folder.path("s/loop"), withDestinationPath: "..")
        let result = try run(["check", ".", "--playlist-only"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 stream checked"))
        #expect(!result.stdout.contains("live.m3u8"))
    }

    @Test(arguments: [["inspect", "pipe.ts"], ["artwork", "pipe.ts"], ["inspect", "seg.aac", "--init", "pipe.ts"]])
    func fifoGivenToInspectOrArtworkIsRefused(_ arguments: [String]) throws {
        let folder = try folder([:], fifo: "pipe.ts")
        try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/packed-audio/audio/seg0.aac"))
            .write(to: folder.url.appendingPathComponent("seg.aac"))
        let result = try run(arguments, in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("pipe.ts: is a FIFO (named pipe), not a regular file; only regular files are read"))
    }

    @Test func fifoAsEmbedImageIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try folder([:], fifo: "poster.jpg")
        let multivariant = PackageRoot.url.appendingPathComponent("Samples/compliant/master.m3u8").path
        let result = try run(["embed", "--image", "poster.jpg", multivariant, "--output", "out"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("poster.jpg: is a FIFO (named pipe), not a regular file"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func fragmentWithoutItsInitSectionSaysWhatIsMissing() throws {
        let result = try HLSCheckBinary.run(["inspect", "Samples/fmp4/audio/seg0.m4s"], timeLimit: .seconds(60))
        #expect(result.stdout.contains("without its initialization section"), "\(result.stdout)")
        #expect(result.stdout.contains("--init"))
        #expect(!result.stdout.contains("-1094995529"), "a bare libav error code")
    }

    /// What sits at PATH survives: the report is not written through a symlink, into a FIFO or a device.
    @Test(arguments: ["symlink", "fifo", "device"])
    func outputRefusesAnythingButARegularFile(_ kind: String) throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n" + Self.audioVariant + "audio.m3u8\n", "precious.txt": "keep",
        ])
        let target: String
        switch kind {
        case "symlink":
            try FileManager.default.createSymbolicLink(
                atPath: folder.path("report.json"), withDestinationPath: "precious.txt")
            target = "report.json"
        case "fifo":
            try #require(mkfifo(folder.path("report.json"), 0o644) == 0)
            target = "report.json"
        default:
            target = "/dev/null"
        }
        let result = try run(["check", "master.m3u8", "--playlist-only", "--output", "json=\(target)"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("only a regular file is replaced, so nothing was written"), "\(result.stderr)")
        #expect(try String(contentsOfFile: folder.path("precious.txt"), encoding: .utf8) == "keep")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func extractRefusesASymlink() throws {
        let folder = try TemporaryFolder(["precious.txt": "keep"])
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("poster.jpg"), withDestinationPath: "precious.txt")
        let segment = PackageRoot.url.appendingPathComponent("Samples/packed-audio/audio/seg0.aac").path
        let result = try run(["artwork", segment, "--extract", "poster.jpg"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("poster.jpg: is a symbolic link; only a regular file is replaced"))
        #expect(try String(contentsOfFile: folder.path("precious.txt"), encoding: .utf8) == "keep")
    }

    @Test func outputReplacesARegularFile() throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n" + Self.audioVariant + "audio.m3u8\n", "report.json": "old",
        ])
        let result = try run(["check", "master.m3u8", "--playlist-only", "--output", "json=report.json"], in: folder)
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: folder.path("report.json"), encoding: .utf8).contains("\"diagnostics\""))
    }

    @Test func timeoutStopsTheRunWithExitCode2() throws {
        // A sparse 128 MiB segment of zeros, named 32 times: libav hunts through it for TS
        // sync bytes for many seconds per segment, far past the 1-second limit.
        let folder = try TemporaryFolder([
            "index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + String(repeating: "#EXTINF:6,\nbig.ts\n", count: 32)
                + "#EXT-X-ENDLIST\n",
            "big.ts": "",
        ])
        try #require(truncate(folder.path("big.ts"), 128 << 20) == 0)
        let result = try run(["check", "index.m3u8", "--timeout", "1"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("check stopped after 1 s, the run time limit"))
        #expect(result.stderr.contains("--timeout"))
    }

    @Test func limitsAreNamedWithTheFlagThatRaisesThem() throws {
        let folder = try TemporaryFolder([
            "index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + String(repeating: "#EXTINF:6,\nseg.ts\n", count: 3)
                + "#EXT-X-ENDLIST\n"
        ])
        let segments = try run(["check", "index.m3u8", "--max-segments", "2"], in: folder)
        #expect(segments.status == 2)
        #expect(segments.stdout.contains("has 3 segments, more than the limit of 2 (raise it with --max-segments)"))
        let bytes = try run(["check", "index.m3u8", "--max-playlist-bytes", "10"], in: folder)
        #expect(bytes.stdout.contains("over the limit of 10 bytes (raise it with --max-playlist-bytes)"))
        let lines = try run(["check", "index.m3u8", "--max-playlist-lines", "5"], in: folder)
        #expect(lines.stdout.contains("has more than 5 lines (raise the limit with --max-playlist-lines)"))
        let usage = try run(["check", "index.m3u8", "--max-segments", "0"], in: folder)
        #expect(usage.status == 64)
    }

    @Test func controlCharactersInURIsAreEscapedInTextAndGitHubOutput() throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n" + Self.audioVariant + "\u{1B}[2J\u{1B}]0;owned\u{07}x\u{202E}gpj.m3u8\n"
        ])
        for format in ["text", "github"] {
            let result = try run(["check", "master.m3u8", "--playlist-only", "--format", format], in: folder)
            #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
            #expect(
                result.stdout.contains("\\x1b[2J\\x1b]0;owned\\x07x\\u{202e}gpj.m3u8"), "\(format): \(result.stdout)")
        }
    }

    /// `runuser`, when the tests run as root and it is installed: a user who may not read a file.
    static let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: runuser != nil, "needs root and runuser(1) to run the check as another user"))
    func aFileTheUserMayNotReadSaysWhichUserAndWhatToCheck() throws {
        let folder = try TemporaryFolder()
        let stream = folder.path("stream")
        try FileManager.default.copyItem(
            atPath: PackageRoot.url.appendingPathComponent("Samples/compliant").path, toPath: stream)
        for path in [folder.url.path, stream, stream + "/audio", stream + "/v0", stream + "/v1"] { chmod(path, 0o755) }
        #expect(chmod(stream + "/audio/seg1.ts", 0) == 0)
        #expect(chmod(stream + "/v1", 0o700) == 0)
        // A copy of the binary where that user may run it, wherever the package was cloned.
        let binary = folder.path("hlscheck")
        try FileManager.default.copyItem(atPath: HLSCheckBinary.executable, toPath: binary)
        let runuser = try #require(Self.runuser)
        let result = try ChildProcess.capture(
            ["-u", "nobody", "--", binary, stream + "/master.m3u8"],
            executable: runuser)
        let stdout = result.stdout
        #expect(result.status == 1 && !result.killedBySignal, "\(result.stderr)")
        let uid =
            "hlscheck runs as user id 65534, which may not read it or open a folder on its way: check their permissions"
        #expect(stdout.contains("audio/index.m3u8:8: error: segment seg1.ts: Permission denied (\(uid))"), "\(stdout)")
        #expect(
            stdout.contains("master.m3u8:7:1: error: cannot read \(stream)/v1/index.m3u8: Permission denied (\(uid))"),
            "\(stdout)")
    }
}

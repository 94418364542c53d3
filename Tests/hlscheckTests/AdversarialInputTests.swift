import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Attacks on what the hurried session added (lazy libraries, the staging folder of a new
/// `--output`, discovery's kept bytes), through the real binary: each ends in a clear message
/// or the right result, never a crash, a hang or someone's files removed.
@Suite("Adversarial input (CLI)")
struct AdversarialInputTests {
    static let poster = PackageRoot.url.appendingPathComponent("Samples/poster.jpg").path

    func run(_ arguments: [String], in folder: URL = PackageRoot.url, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        let result = try HLSCheckBinary.run(arguments, in: folder, timeLimit: .seconds(120), environment: environment)
        #expect(!result.killedBySignal, "hlscheck \(arguments) crashed or hung: \(result.stderr.suffix(500))")
        return result
    }

    /// A copy of Samples/compliant at `stream/` in a fresh folder.
    func compliantCopy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: PackageRoot.url.appendingPathComponent("Samples/compliant"),
            to: folder.url.appendingPathComponent("stream"))
        return folder
    }

    // MARK: embed --output: the staging folder's clean-up

    /// A run that finds a folder whose name merely looks like a staging folder's must not take
    /// it for the leftover of a dead run: only what embed marked as its own is removed.
    @Test func aUsersFolderNamedLikeAStagingFolderIsLeftAlone() throws {
        let folder = try compliantCopy()
        let lookalike = folder.path(".out.hlscheck-embed-backup.tmp")
        try folder.write(Data("precious\n".utf8), to: ".out.hlscheck-embed-backup.tmp/thesis.txt")
        let result = try run([
            "embed", "--image", Self.poster, folder.path("stream/master.m3u8"), "--output", folder.path("out"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/master.m3u8")))
        #expect(
            try String(contentsOfFile: lookalike + "/thesis.txt", encoding: .utf8) == "precious\n",
            "the user's folder was removed")
        #expect(!result.stderr.contains("interrupted run"), "\(result.stderr)")
        // Nothing of the run itself is left beside the copy.
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(beside == [".out.hlscheck-embed-backup.tmp", "out", "stream"])
    }

    // MARK: FFmpeg under its name but of another version

    /// The FFmpeg functions hlscheck looks up in libavformat (Sources/CLazyLibraries/functions.h).
    static func libavformatFunctions() throws -> [String] {
        let header = try String(
            contentsOf: PackageRoot.url.appendingPathComponent("Sources/CLazyLibraries/functions.h"), encoding: .utf8)
        return header.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let fields = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if trimmed.hasPrefix("F(avformat,"), fields.count > 2 { return fields[2] }
            if trimmed.hasPrefix("V(avformat,"), fields.count > 1 { return fields[1] }
            return nil
        }
    }

    /// The C compiler of the Swift toolchain (clang), or the system's; nil when there is none.
    static var compiler: String? {
        for name in ["clang", "cc"] {
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
                let path = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// `LD_LIBRARY_PATH` pointing at a folder whose `libavformat.so.59` (the SONAME hlscheck
    /// opens) is another major version — every function hlscheck looks up exists, so only the
    /// version can tell. Calling it with the wrong ABI would crash; hlscheck must refuse it with
    /// one line naming the file, the versions and the package, exit 2.
    @Test(.enabled(if: compiler != nil, "needs a C compiler to build the impostor library"))
    func anotherMajorVersionUnderLibavformatsNameIsRefusedByItsVersion() throws {
        let folder = try TemporaryFolder()
        let functions = try Self.libavformatFunctions()
        #expect(functions.count > 10, "functions.h lists libavformat's functions: \(functions)")
        // `major` is whatever libavformat.so.N hlscheck opens: the impostor claims N + 1.
        let libraryFolders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let installed = try #require(
            libraryFolders.lazy.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
                .first { $0.hasPrefix("libavformat.so.") && $0.split(separator: ".").count == 3 },
            "libavformat.so.N is installed")
        let major = try #require(Int(installed.split(separator: ".")[2]))
        let source =
            functions.map { "long \($0)(void) { return 1; }\n" }.joined()
            + "unsigned avformat_version(void) { return \(major + 1)u << 16 | 3u << 8 | 100u; }\n"
        try folder.write(Data(source.utf8), to: "impostor.c")
        let compiler = try #require(Self.compiler)
        let compiled = try ChildProcess.capture(
            ["-shared", "-fPIC", "-Wl,-soname,\(installed)", "-o", folder.path(installed), folder.path("impostor.c")],
            executable: compiler)
        try #require(
            compiled.status == 0 && !compiled.killedBySignal, "the impostor library compiles: \(compiled.stderr)")

        for arguments in [["Samples/compliant/master.m3u8"], ["inspect", "Samples/compliant/audio/seg0.ts"]] {
            let result = try run(arguments, environment: ["LD_LIBRARY_PATH": folder.url.path])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(folder.path(installed)) is version \(major + 1).3.100, not the major version \(major)"),
                "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("install the Debian package libavformat\(major)"), "\(result.stderr)")
        }
    }

    // MARK: links that lead nowhere

    /// A segment that is a dangling symbolic link (a copy that lost its targets) or a loop of
    /// links is a located finding that says so — not "a symbolic link; not followed", which
    /// reads as if hlscheck refused a link that works.
    @Test func segmentLinksThatLeadNowhereSayWhy() throws {
        let folder = try compliantCopy()
        let audio = folder.path("stream/audio")
        try FileManager.default.removeItem(atPath: audio + "/seg1.ts")
        try FileManager.default.createSymbolicLink(
            atPath: audio + "/seg1.ts", withDestinationPath: "../../elsewhere/seg1.ts")
        try FileManager.default.removeItem(atPath: audio + "/seg2.ts")
        try FileManager.default.createSymbolicLink(atPath: audio + "/seg2.ts", withDestinationPath: "seg2.ts")
        let result = try run([folder.path("stream/master.m3u8")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "audio/index.m3u8:8: error: segment seg1.ts: is a symbolic link to a file that does not exist (../../elsewhere/seg1.ts); restore the file or fix the link"
            ),
            "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "audio/index.m3u8:10: error: segment seg2.ts: is a symbolic link in a loop of links (seg2.ts); fix the link"
            ),
            "\(result.stdout)")
    }
}

extension AdversarialInputTests {
    /// `--output` naming a file (a report, a playlist of another stream) or a device is refused
    /// before anything is written, in words that say what `--output` wants.
    @Test(arguments: ["notes.txt", "/dev/null"])
    func outputThatIsAFileIsRefusedSayingWhatItNeeds(_ output: String) throws {
        let folder = try compliantCopy()
        try folder.write(Data("keep\n".utf8), to: "notes.txt")
        let target = output.hasPrefix("/") ? output : folder.path(output)
        let result = try run(["embed", "--image", Self.poster, folder.path("stream/master.m3u8"), "--output", target])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--output \(target) is a"), "\(result.stderr)")
        #expect(result.stderr.contains("not a folder: name a new folder"), "\(result.stderr)")
        #expect(try String(contentsOfFile: folder.path("notes.txt"), encoding: .utf8) == "keep\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["notes.txt", "stream"])
    }
}

extension AdversarialInputTests {
    /// MPEG-TS segments whose PAT and PMT are in an EXT-X-MAP init section (RFC 8216 §4.3.2.5
    /// allows it for TS; packagers cut streams this way): they are read as TS with the init
    /// section in front, not demuxed as fMP4 and reported unreadable with libav's "invalid data",
    /// and their poster is found through the PMT the init section holds.
    @Test func transportStreamSegmentsWithAnInitSectionAreMeasured() throws {
        let folder = try TemporaryFolder()
        let source = PackageRoot.url.appendingPathComponent("Samples/compliant/audio")
        // Every segment of the sample starts with its SDT, PAT and PMT: three packets.
        let tables = 3 * 188
        let first = try Data(contentsOf: source.appendingPathComponent("seg0.ts"))
        try folder.write(first.prefix(tables), to: "audio/init.ts")
        var playlist =
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.ts\"\n"
        for index in 0..<3 {
            let bytes = try Data(contentsOf: source.appendingPathComponent("seg\(index).ts"))
            #expect(bytes.count > tables && bytes[tables] == 0x47)
            try folder.write(bytes.dropFirst(tables), to: "audio/s\(index).ts")
            playlist += "#EXTINF:6.0,\ns\(index).ts\n"
        }
        try folder.write(Data((playlist + "#EXT-X-ENDLIST\n").utf8), to: "audio/index.m3u8")
        try folder.write(
            Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n".utf8),
            to: "master.m3u8")
        let result = try run([folder.path("master.m3u8"), "--format", "json"])
        #expect(!result.stdout.contains("segment-unreadable"), "\(result.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let variant = try #require((report["variants"] as? [[String: Any]])?.first)
        #expect(variant["segmentCount"] as? Int == 3)
        #expect(((variant["codecs"] as? [String: Any])?["detected"] as? [String]) == ["mp4a.40.2"], "\(variant)")
        #expect(variant["audioOnly"] as? Bool == true)
        // The poster's timed ID3 PID is named by the PMT in the init section.
        #expect((variant["artwork"] as? [String: Any])?["segmentsWithArtwork"] as? Int == 3, "\(variant)")
    }
}

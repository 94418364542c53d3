import Foundation
import HTTPTestServer
import Testing
import TestSupport

/// FFmpeg, libxml2 and libcurl are loaded on first use: a command that needs none of them starts
/// without mapping them (with them, ~40 ms before `main`), and a machine without them gets one
/// line naming the library and the package to install, never a crash.
@Suite struct StartupTests {
    /// The shared objects the dynamic loader opened for a run (glibc's `LD_DEBUG=files` trace,
    /// written to a file: on standard error it could fill the pipe before the runner reads it).
    static func loadedLibraries(_ arguments: [String]) async throws -> (result: CommandResult, libraries: [String]) {
        let folder = try TemporaryFolder()
        let result = try await HLSCheckBinary.run(
            arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.path("trace")])
        // glibc appends the process id to the name.
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix("trace")
        }
        #expect(!traces.isEmpty, "no LD_DEBUG trace was written")
        let text = try traces.map { try String(contentsOfFile: folder.path($0), encoding: .utf8) }.joined()
        let libraries = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
        }
        return (result, libraries)
    }

    static let lazilyLoaded = [
        "libavformat", "libavcodec", "libavutil", "libswscale", "libswresample", "libxml2", "libcurl",
    ]

    @Test(arguments: [
        ["--version"], ["--help"], ["rules"],
        ["Samples/compliant/master.m3u8", "--playlist-only"],
        ["Samples/compliant/master.m3u8", "--playlist-only", "--format", "json"],
    ])
    func localCommandsThatReadNoMediaLoadNeitherFFmpegNorLibxml2NorLibcurl(_ arguments: [String]) async throws {
        let (result, libraries) = try await Self.loadedLibraries(arguments)
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        let loaded = libraries.filter { library in Self.lazilyLoaded.contains { library.hasPrefix($0) } }
        #expect(loaded.isEmpty, "hlscheck \(arguments.joined(separator: " ")) loaded \(loaded)")
    }

    @Test func aFullCheckLoadsFFmpegAndAnXMLReportLoadsLibxml2() async throws {
        // The probe above sees what it looks for: the same trace names them when they are used.
        let (check, checkLibraries) = try await Self.loadedLibraries(["Samples/compliant/master.m3u8"])
        #expect(check.status == 0, "\(check.stderr.suffix(500))")
        #expect(checkLibraries.contains { $0.hasPrefix("libavformat.so.") })
        let (junit, junitLibraries) = try await Self.loadedLibraries([
            "Samples/compliant/master.m3u8", "--playlist-only", "--format", "junit",
        ])
        #expect(junit.status == 0, "\(junit.stderr.suffix(500))")
        #expect(junitLibraries.contains { $0.hasPrefix("libxml2.so.") })
        #expect(!junitLibraries.contains { $0.hasPrefix("libavformat.so.") })
    }

    static func withoutLibrary(_ name: String, _ arguments: [String]) async throws -> CommandResult {
        try await HLSCheckBinary.run(arguments, environment: ["HLSCHECK_TEST_MISSING_LIBRARY": name])
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the missing-library hook exists in debug builds only"))
    func aCheckWithoutLibavcodecSaysWhichPackageToInstall() async throws {
        let result = try await Self.withoutLibrary("libavcodec", ["Samples/compliant/master.m3u8"])
        #expect(result.status == 2)
        #expect(!result.killedBySignal)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("hlscheck: cannot load libavcodec.so."))
        #expect(line.contains("install the Debian package libavcodec"))
        #expect(line.contains("--playlist-only"))
        // Nothing was checked, so no report claims the stream was.
        #expect(!result.stdout.contains("checked"))

        // The playlists alone need no FFmpeg.
        let playlistOnly = try await Self.withoutLibrary(
            "libavcodec", ["Samples/compliant/master.m3u8", "--playlist-only"])
        #expect(playlistOnly.status == 0, "\(playlistOnly.stderr)")
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the missing-library hook exists in debug builds only"))
    func inspectWithoutLibavformatSaysWhichPackageToInstall() async throws {
        let result = try await Self.withoutLibrary("libavformat", ["inspect", "Samples/compliant/audio/seg0.ts"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("hlscheck: cannot load libavformat.so."))
        #expect(result.stderr.contains("install the Debian package libavformat"))
        #expect(result.stdout.isEmpty)
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the missing-library hook exists in debug builds only"))
    func aJUnitReportWithoutLibxml2SaysWhichPackageToInstall() async throws {
        let result = try await Self.withoutLibrary(
            "libxml2", ["Samples/compliant/master.m3u8", "--playlist-only", "--format", "junit"])
        #expect(result.status == 2)
        #expect(!result.killedBySignal)
        #expect(result.stderr.contains("cannot write the junit report: cannot load libxml2.so."))
        #expect(result.stderr.contains("install the Debian package libxml2"))
    }

    /// A server over the samples, stopped after `body`.
    static func withSamplesServer<T>(_ body: (HTTPTestServer) async throws -> T) async throws -> T {
        let server = try await HTTPTestServer(folder: PackageRoot.url.appendingPathComponent("Samples").path)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func aRemoteCheckLoadsLibcurlAndNotFFmpegForPlaylistsOnly() async throws {
        let (result, libraries) = try await Self.withSamplesServer { server in
            try await Self.loadedLibraries([server.url("compliant/master.m3u8"), "--playlist-only"])
        }
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        #expect(libraries.contains { $0.hasPrefix("libcurl.so.") })
        #expect(!libraries.contains { $0.hasPrefix("libavformat.so.") })
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the missing-library hook exists in debug builds only"))
    func aRemoteCheckWithoutLibcurlSaysWhichPackageToInstall() async throws {
        let result = try await Self.withSamplesServer { server in
            try await Self.withoutLibrary("libcurl", [server.url("compliant/master.m3u8"), "--playlist-only"])
        }
        #expect(result.status == 2)
        #expect(!result.killedBySignal)
        #expect(result.stdout.contains("cannot load libcurl.so.4"), "\(result.stdout)")
        #expect(result.stdout.contains("install the Debian package libcurl4"), "\(result.stdout)")
        // A local check needs no libcurl.
        let local = try await Self.withoutLibrary("libcurl", ["Samples/compliant/master.m3u8", "--playlist-only"])
        #expect(local.status == 0, "\(local.stderr)")
    }
}

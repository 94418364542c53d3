import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// `hlscheck` against a loopback server: what a user sees for a URL.
@Suite("hlscheck with URLs")
struct RemoteCommandTests {
    static var samples: String { PackageRoot.url.appendingPathComponent("Samples").path }

    static func withServer<T>(_ body: (HTTPTestServer) async throws -> T) async throws -> T {
        let server = try await HTTPTestServer(folder: samples)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func checksARemoteStreamWithHeadersSent() async throws {
        let (result, requests) = try await Self.withServer { server in
            (
                try await HLSCheckBinary.run([
                    server.url("compliant/master.m3u8"), "--header", "X-Token: abc", "--format", "json",
                ]), server.requests
            )
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"measuredPeakBitrate\""))
        #expect(requests.count > 10)
        #expect(requests.allSatisfy { $0.header("X-Token") == "abc" })
        // The executable names itself and its version to the server, as a CDN's logs show it.
        let version = try await HLSCheckBinary.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        #expect(requests.allSatisfy { $0.header("User-Agent") == "hlscheck/\(version)" })
    }

    @Test func credentialsNeverReachTheReportOrStandardError() async throws {
        let result = try await Self.withServer { server in
            server.inject(.basicAuth(user: "viewer", password: "hunter2"), at: "compliant/master.m3u8")
            server.inject(.status(404), at: "compliant/audio/seg1.ts")
            let url = server.url("compliant/master.m3u8", userinfo: "viewer:hunter2")
            return try await HLSCheckBinary.run([url, "--format", "json", "--retries", "0"])
        }
        // The 404 is a finding, so the check ran with the credentials: exit code 1.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("HTTP 404"))
        #expect(!result.stdout.contains("hunter2"))
        #expect(!result.stderr.contains("hunter2"))
        #expect(result.stdout.contains("***@127.0.0.1"))
    }

    @Test func unreadableRemoteInputExitsTwoWithoutEchoingCredentials() async throws {
        let result = try await Self.withServer { server in
            server.inject(.basicAuth(user: "viewer", password: "hunter2"), at: "compliant/master.m3u8")
            return try await HLSCheckBinary.run([server.url("compliant/master.m3u8", userinfo: "viewer:wrongpass")])
        }
        #expect(result.status == 2)
        // Said once, in the text report on standard output.
        #expect(result.stdout.contains("HTTP 401"), "\(result.stdout)")
        #expect(!result.stderr.contains("wrongpass"))
        #expect(!result.stdout.contains("wrongpass"))
    }

    /// FFmpeg loads while a remote stream is fetched: a missing library still stops the run
    /// with exit status 2 and one line naming it and its package, and no report. Two
    /// inspections reach the missing library at once; about one run in ten printed the line
    /// twice, so the run is repeated.
    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the missing-library hook exists in debug builds only"))
    func aRemoteCheckWithoutLibavformatSaysWhichPackageToInstall() async throws {
        let results = try await Self.withServer { server in
            var results: [CommandResult] = []
            for _ in 0..<30 {
                results.append(
                    try await HLSCheckBinary.run(
                        [server.url("compliant/master.m3u8")],
                        environment: ["HLSCHECK_TEST_MISSING_LIBRARY": "libavformat"]))
            }
            return results
        }
        for result in results {
            #expect(result.status == 2)
            #expect(!result.killedBySignal)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("hlscheck: cannot load libavformat.so.") == true, "\(result.stderr)")
            #expect(result.stderr.contains("install the Debian package libavformat"))
            #expect(!result.stdout.contains("checked"))
        }
    }

    @Test func embedRefusesAURL() throws {
        let result = try HLSCheckBinary.run([
            "embed", "--image", "Samples/poster.jpg", "https://user:pw@example.invalid/master.m3u8", "--output",
            "/tmp/x",
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("local streams only"), "\(result.stderr)")
        #expect(!result.stderr.contains(":pw@"))
    }

    @Test func artworkAndInspectReadURLs() async throws {
        let (artwork, inspect) = try await Self.withServer { server in
            (
                try await HLSCheckBinary.run(["artwork", server.url("packed-audio/master.m3u8")]),
                try await HLSCheckBinary.run(["inspect", server.url("packed-audio/audio/seg0.aac")])
            )
        }
        // Samples/packed-audio reaches ../compliant: from a server that is just another path.
        #expect(artwork.status == 0 || artwork.status == 1, "\(artwork.stderr)")
        #expect(artwork.stderr.isEmpty, "\(artwork.stderr)")
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("audio, aac") || inspect.stdout.contains("mp4a.40.2"), "\(inspect.stdout)")
    }

    @Test func sampleIsReportedInTheTextReport() async throws {
        let result = try await Self.withServer { server in
            try await HLSCheckBinary.run([server.url("packed-audio/audio/index.m3u8"), "--sample", "1"])
        }
        #expect(result.stdout.contains("segments-sampled"), "\(result.stdout)")
        #expect(result.stdout.contains("1 of 3 segments"))
    }

    @Test func jsonReportSaysHowTheStreamTravelledAndDocumentsIt() async throws {
        let (result, requests) = try await Self.withServer { server in
            (try await HLSCheckBinary.run([server.url("compliant/master.m3u8"), "--format", "json"]), server.requests)
        }
        let json = try CIReportTests.json(result.stdout)
        let delivery = try #require((json["delivery"] as? [[String: Any]])?.first, "\(result.stdout)")
        #expect(delivery["responses"] as? Int == requests.count)
        #expect(delivery["tls"] as? Bool == false)
        let versions = try #require(delivery["httpVersions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? String } == ["HTTP/1.1"])
        #expect(versions.first?["responses"] as? Int == requests.count)
        // Every key under `delivery` is documented, as CIReportTests asks of the local keys.
        var paths: Set<String> = []
        func collect(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                for (key, child) in object { collect(child, "\(path).\(key)") }
            } else if let array = value as? [Any] {
                for child in array { collect(child, path + "[]") }
            }
            paths.insert(path)
        }
        collect(json["delivery"] as Any, "delivery")
        let document = try String(
            contentsOf: PackageRoot.url.appendingPathComponent("docs/json-report.md"), encoding: .utf8)
        for path in paths.sorted() where path.hasPrefix("delivery[") {
            #expect(document.contains("`\(path)`"), "docs/json-report.md does not document \(path)")
        }
        #expect(paths.contains("delivery[].httpVersions[].version"))
    }

    @Test func localRunHasNoDeliveryKey() throws {
        let result = try HLSCheckBinary.run([
            Self.samples + "/compliant/master.m3u8", "--format", "json", "--playlist-only",
        ])
        #expect(try CIReportTests.json(result.stdout)["delivery"] == nil)
    }
}

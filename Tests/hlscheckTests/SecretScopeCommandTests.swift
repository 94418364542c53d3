import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// What hlscheck does with the secrets a user gives it (`--header` values, a URL's userinfo, a
/// signed URL's query): sent to the origin they were given for and nowhere else, and shown in
/// no output (docs/security.md, "It cannot make hlscheck send a secret elsewhere").
@Suite("secrets stay with their origin")
struct SecretScopeCommandTests {
    static let headerSecret = "HEADERs3cretBEARER"
    static let keySecret = "APIKEYs3cret"
    static let userSecret = "USERs3cretPASSWORD"
    static let querySecret = "QUERYs3cretSIGNATURE"
    static let mediaSecret = "MEDIAs3cretTOKEN"
    static var secrets: [String] { [headerSecret, keySecret, userSecret, querySecret, mediaSecret] }

    static let secretArguments = [
        "--header", "Authorization: Bearer \(headerSecret)", "--header=X-Api-Key: \(keySecret)",
    ]

    /// Two loopback origins (two ports) over the samples: the origin the user typed and another.
    static func withTwoOrigins<T>(_ body: (HTTPTestServer, HTTPTestServer) async throws -> T) async throws -> T {
        let origin = try await HTTPTestServer(folder: RemoteCommandTests.samples)
        let other: HTTPTestServer
        do {
            other = try await HTTPTestServer(folder: RemoteCommandTests.samples)
        } catch {
            await origin.stop()
            throw error
        }
        do {
            let result = try await body(origin, other)
            await origin.stop()
            await other.stop()
            return result
        } catch {
            await origin.stop()
            await other.stop()
            throw error
        }
    }

    /// Whether any of a request's headers holds a secret (`Authorization: Basic` included: the
    /// userinfo travels base64-encoded).
    static func carriesASecret(_ request: ReceivedRequest) -> Bool {
        let basic = Data("viewer:\(userSecret)".utf8).base64EncodedString()
        return request.headers.contains { _, value in
            secrets.contains { value.contains($0) } || value.contains(basic)
        } || request.header("Authorization") != nil || request.header("X-Api-Key") != nil
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func headersAndUserinfoDoNotFollowARedirectToAnotherOrigin(status: Int) async throws {
        let (result, atOrigin, atOther) = try await Self.withTwoOrigins { origin, other in
            origin.inject(.redirect(to: other.url("compliant/master.m3u8"), status: status), at: "moved/master.m3u8")
            let result = try await HLSCheckBinary.run(
                [
                    origin.url("moved/master.m3u8", userinfo: "viewer:\(Self.userSecret)"), "--playlist-only",
                    "--retries", "0", "--format", "json",
                ] + Self.secretArguments)
            return (result, origin.requests, other.requests)
        }
        #expect(!result.killedBySignal)
        #expect(result.stdout.contains("\"input\""), "\(result.stderr)")
        // The origin the user typed got the headers; the redirect was followed to the other one.
        let first = try #require(atOrigin.first { $0.path == "/moved/master.m3u8" })
        #expect(first.header("X-Api-Key") == Self.keySecret)
        #expect(first.header("Authorization") == "Bearer \(Self.headerSecret)")
        #expect(atOther.contains { $0.path == "/compliant/master.m3u8" }, "\(atOther.map(\.path))")
        // The other origin never saw a header value nor the userinfo, on any request.
        #expect(atOther.count >= 4, "\(atOther.map(\.path))")
        #expect(!atOther.contains(where: Self.carriesASecret), "\(atOther.map(\.headers))")
    }

    @Test func headersAndUserinfoDoNotGoToAnotherOriginAPlaylistNames() async throws {
        let (result, atOrigin, atOther) = try await Self.withTwoOrigins { origin, other in
            // A multivariant playlist on the origin whose media playlists live on the other.
            let master = """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=47133,CODECS="mp4a.40.2"
                \(other.url("compliant/audio/index.m3u8"))
                #EXT-X-STREAM-INF:BANDWIDTH=254427,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=256x144
                \(other.url("compliant/v0/index.m3u8"))

                """
            origin.inject(.dynamic { _ in master }, at: "elsewhere/master.m3u8")
            let result = try await HLSCheckBinary.run(
                [
                    origin.url("elsewhere/master.m3u8", userinfo: "viewer:\(Self.userSecret)"), "--retries", "0",
                    "--format", "json",
                ] + Self.secretArguments)
            return (result, origin.requests, other.requests)
        }
        #expect(!result.killedBySignal)
        #expect(result.stdout.contains("\"input\""), "\(result.stderr)")
        #expect(atOrigin.first?.header("X-Api-Key") == Self.keySecret)
        // The media playlists and their segments came from the other origin, without the secrets.
        #expect(atOther.contains { $0.path == "/compliant/audio/index.m3u8" })
        #expect(atOther.contains { $0.path.hasSuffix(".ts") }, "\(atOther.map(\.path))")
        #expect(!atOther.contains(where: Self.carriesASecret), "\(atOther.map(\.headers))")
    }

    /// A stream served with a finding on its multivariant playlist and on a media playlist,
    /// whose URL carries a query token; the media playlist's URI carries one of its own.
    static func failingStream() throws -> TemporaryFolder {
        try TemporaryFolder([
            "fails/master.m3u8": """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=640x360
            video.m3u8?sig=\(mediaSecret)

            """,
            "fails/video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\na.ts\n#EXTINF:9.5,\nb.ts\n#EXT-X-ENDLIST\n",
        ])
    }

    @Test(arguments: ["text", "json", "junit", "sarif", "github", "html"])
    func noOutputHoldsAHeaderValueUserinfoOrQueryToken(format: String) async throws {
        let folder = try Self.failingStream()
        let summary = try TemporaryFolder()
        let server = try await HTTPTestServer(folder: folder.url.path)
        let result: CommandResult
        do {
            result = try await HLSCheckBinary.run(
                [
                    server.url("fails/master.m3u8", userinfo: "viewer:\(Self.userSecret)")
                        + "?token=\(Self.querySecret)&Key-Pair-Id=K2",
                    server.url("gone.m3u8", userinfo: "viewer:\(Self.userSecret)") + "?token=\(Self.querySecret)",
                    "--playlist-only", "--retries", "0", "--format", format,
                ] + Self.secretArguments,
                environment: ["GITHUB_STEP_SUMMARY": summary.path("summary.md")])
        } catch {
            await server.stop()
            throw error
        }
        let requests = server.requests
        await server.stop()
        // The check ran (the media playlist was read) and one input could not be read: exit 2.
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(requests.contains { $0.path == "/fails/video.m3u8" })
        #expect(result.stdout.contains("127.0.0.1"), "\(result.stdout)")
        #expect(result.stdout.contains("fails/master.m3u8"))
        var outputs = ["stdout": result.stdout, "stderr": result.stderr]
        if format == "github" {
            let written = try String(contentsOfFile: summary.path("summary.md"), encoding: .utf8)
            #expect(written.contains("fails/master.m3u8"))
            outputs["step summary"] = written
        }
        for (name, text) in outputs {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(name) of --format \(format) shows \(secret)")
            }
        }
    }

    @Test func messagesOnStandardErrorHoldNoSecret() async throws {
        // A malformed --header is refused without echoing its value.
        let malformed = try await HLSCheckBinary.run([
            "x.m3u8", "--header", "Authorization Bearer \(Self.headerSecret)",
        ])
        #expect(malformed.status == 64)
        #expect(malformed.stderr.contains("--header takes 'Name: value'"), "\(malformed.stderr)")
        let (inspect, artwork) = try await RemoteCommandTests.withServer { server in
            let gone =
                server.url("gone.ts", userinfo: "viewer:\(Self.userSecret)") + "?token=\(Self.querySecret)"
            return (
                try await HLSCheckBinary.run(["inspect", gone, "--retries", "0"] + Self.secretArguments),
                try await HLSCheckBinary.run(
                    ["artwork", gone.replacing("gone.ts", with: "gone.m3u8"), "--retries", "0"] + Self.secretArguments)
            )
        }
        #expect(inspect.status == 2)
        #expect(inspect.stderr.contains("HTTP 404"), "\(inspect.stderr)")
        #expect(artwork.status == 2)
        #expect(artwork.stderr.contains("HTTP 404"), "\(artwork.stderr)")
        for (name, result) in [("check", malformed), ("inspect", inspect), ("artwork", artwork)] {
            for secret in Self.secrets {
                #expect(!result.stderr.contains(secret), "stderr of \(name) shows \(secret): \(result.stderr)")
                #expect(!result.stdout.contains(secret), "stdout of \(name) shows \(secret): \(result.stdout)")
            }
        }
    }
}

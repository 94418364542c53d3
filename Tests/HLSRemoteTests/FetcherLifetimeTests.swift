import HLSRemote
import HTTPTestServer
import Testing

/// A fetcher's connections, thread and curl handles last as long as the fetcher: a long-running
/// library client that makes one per check must not collect them.
/// A leak shows as a connection that never closes: the suite's time limit ends the wait.
@Suite(.timeLimit(.minutes(1))) struct FetcherLifetimeTests {
    @Test func aFetcherDroppedWithoutShutdownClosesItsConnections() async throws {
        try await Remote.withSamplesServer { server in
            do {
                let source = RemotePlaylistSource(fetcher: RemoteFetcher(options: Remote.fast))
                let bytes = try await source.read(server.url("compliant/master.m3u8"))
                #expect(bytes.starts(with: Array("#EXTM3U".utf8)))
                #expect(server.openConnections == 1, "curl keeps the connection for the next request")
            }
            await server.noConnectionOpen()
            #expect(server.openConnections == 0)
        }
    }

    @Test func shutdownClosesTheConnections() async throws {
        try await Remote.withSamplesServer { server in
            let fetcher = RemoteFetcher(options: Remote.fast)
            _ = try await RemotePlaylistSource(fetcher: fetcher).read(server.url("compliant/master.m3u8"))
            #expect(server.openConnections == 1)
            await fetcher.shutdown()
            await server.noConnectionOpen()
            #expect(server.openConnections == 0)
        }
    }
}

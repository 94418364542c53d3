package import HLSPlaylist
package import MediaFormats
package import MediaInspection
package import StreamSources

/// Playlists from http(s) URLs through the fetcher, anything else from local files (a local
/// multivariant playlist may name remote media playlists). A stream read from the network never
/// reaches the local branch: the loader refuses its local and non-http(s) URIs first
/// (uri-outside-root).
package struct RemotePlaylistSource: PlaylistSource {
    package var fetcher: RemoteFetcher
    /// Where anything but an http(s) URL is read from.
    package var local: any PlaylistSource
    package var maximumSize: Int

    /// Local playlists from `local` (default: files within `maximumSize`).
    package init(fetcher: RemoteFetcher, maximumSize: Int = maximumPlaylistSize, local: (any PlaylistSource)? = nil) {
        self.fetcher = fetcher
        self.maximumSize = maximumSize
        self.local = local ?? LocalFileSource(maximumSize: maximumSize)
    }

    package func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)? {
        URIScheme.isRemote(uri) ? nil : await local.parsedPlaylist(uri)
    }

    package func read(_ uri: String) async throws -> [UInt8] {
        guard URIScheme.isRemote(uri) else { return try await local.read(uri) }
        do throws(RemoteFetchError) {
            return try await fetcher.fetch(
                uri, kind: .playlist, maximumBytes: maximumSize, limitFlag: "--max-playlist-bytes"
            ).bytes
        } catch {
            throw InputReadError(uri: uri, reason: error.reason)
        }
    }

    package func canonicalName(_ uri: String) async -> String? {
        URIScheme.isRemote(uri) ? nil : await local.canonicalName(uri)
    }

    package func finalURI(_ uri: String) async -> String? {
        URIScheme.isRemote(uri) ? await fetcher.finalURL(of: uri) : nil
    }
}

/// Segments, init sections and keys from http(s) URLs, held in memory (bounded by
/// `--max-segment-bytes`) and inspected there; anything else from local files, opened where they
/// lie: a local segment of any size is read through positioned reads, never held whole (every
/// check goes through this source, local inputs too).
package struct RemoteSegmentSource: SegmentByteSource {
    package var fetcher: RemoteFetcher
    package var local: LocalSegmentSource

    package init(fetcher: RemoteFetcher, maximumByteCount: Int = LocalSegmentSource.defaultMaximumByteCount) {
        self.fetcher = fetcher
        self.local = LocalSegmentSource(maximumByteCount: maximumByteCount)
    }

    package func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        guard URIScheme.isRemote(uri) else { return try await local.read(uri, range: range) }
        return try await read(uri, range: range, firstAttempt: nil)
    }

    /// A local file through `local` (positioned reads, bounded memory); an http(s) body is
    /// fetched whole and wrapped, as a body must be.
    package func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        guard URIScheme.isRemote(uri) else { return try await local.open(uri, range: range) }
        return InMemoryBytes(try await read(uri, range: range, firstAttempt: nil))
    }

    /// What inspecting holds: a local file's streaming footprint, a remote body's length.
    package func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        guard URIScheme.isRemote(uri) else { return local.residentByteEstimate(uri, range: range) }
        return range?.length ?? SegmentInspector.typicalSegmentBytes
    }

    /// Whether a read of `range` is refused before any request (`read` says why).
    func refusesBeforeFetching(_ range: SegmentByteRange?) -> Bool {
        guard let range else { return false }
        return range.offset < 0 || range.length < 0 || range.length > local.maximumByteCount
    }

    /// A remote read; `firstAttempt`, the answer to a GET the read-ahead made for it.
    func read(_ uri: String, range: SegmentByteRange?, firstAttempt: RemoteFetcher.FirstAttempt?) async throws
        -> [UInt8]
    {
        if let range {
            guard range.offset >= 0, range.length >= 0 else {
                throw InputReadError(uri: uri, reason: "invalid byte range \(range.length)@\(range.offset)")
            }
            guard range.length <= local.maximumByteCount else {
                throw InputReadError(
                    uri: uri,
                    reason:
                        "\(range.length) bytes, over the limit of \(local.maximumByteCount) bytes per segment (raise it with --max-segment-bytes)"
                )
            }
        }
        do throws(RemoteFetchError) {
            return try await fetcher.fetch(
                uri, kind: .segment, range: range, maximumBytes: local.maximumByteCount,
                limitFlag: "--max-segment-bytes",
                firstAttempt: firstAttempt
            ).bytes
        } catch {
            // The reason leads with the HTTP status when there was one: segment-unreadable shows it.
            throw InputReadError(
                uri: uri,
                reason: error.reason
                    + " (GET \(CredentialRedaction.redact(uri))\(error.httpVersion.map { " over \($0)" } ?? ""))")
        }
    }
}

extension RemoteSegmentSource {
    /// At most this many bytes of segments fetched ahead wait to be inspected: a few segments
    /// of 4K video, hundreds of audio segments.
    package static let readAheadBytes = 64 << 20

    /// Fetches the batch's remote segments ahead of their inspection (SegmentReadAhead), in
    /// order, `--http-connections` requests at a time, each started on the HTTP thread as the
    /// previous answer completes; bounded by the bytes waiting to be read (`readAheadBytes`).
    package func readingAhead<Value: Sendable>(
        _ requests: [SegmentRequest], _ body: (any SegmentByteSource) async -> Value
    ) async -> Value {
        // A read refused before any request (a bad range) is left to its reader, which says why.
        let plan = requests.lazy.filter { URIScheme.isRemote($0.uri) && !refusesBeforeFetching($0.range) }
            .map { SegmentReadAheadKey(uri: $0.uri, range: $0.range) }
        guard plan.count > 1 else { return await body(self) }
        let (fetcher, maximumBytes) = (fetcher, local.maximumByteCount)
        let ahead = SegmentReadAhead<RemoteFetcher.FirstAttempt>(
            plan: Array(plan), window: plan.count, byteBudget: Self.readAheadBytes,
            maximumInFlight: fetcher.options.maximumConnections, permits: fetcher.permits,
            size: { (attempt: RemoteFetcher.FirstAttempt) -> Int in attempt.byteCount }
        ) {
            (key: SegmentReadAheadKey, completion: @escaping @Sendable (RemoteFetcher.FirstAttempt) -> Void) -> (
                @Sendable () -> Void
            )? in
            guard
                let task = fetcher.startFirstAttempt(
                    key.uri, range: key.range, maximumBytes: maximumBytes, limitFlag: "--max-segment-bytes",
                    completion: completion)
            else { return nil }
            return { task.cancel() }
        }
        ahead.start()
        let value = await body(ReadAheadSegmentSource(base: self, ahead: ahead))
        ahead.stop()
        return value
    }
}

/// The delivery log of one input: the fetcher serves every input of a run, checked one after
/// another, so each check takes the records made since the previous one.
package struct RemoteDeliveryLog: DeliveryObserver {
    package var fetcher: RemoteFetcher
    package var input: String

    package init(fetcher: RemoteFetcher, input: String) {
        self.fetcher = fetcher
        self.input = input
    }

    package func deliveryLog() async -> DeliveryLog {
        await fetcher.takeDeliveryLog()
    }
}

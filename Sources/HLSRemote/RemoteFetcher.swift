// Fetching playlists and segments over http(s) with AsyncHTTPClient: connection reuse, HTTP/2
// where the server offers it (ALPN), redirects followed by hand (bounded, and judged: https → http
// is a finding, other schemes are refused), bounded retries with backoff, timeouts, and bodies
// bounded before they are held (docs/remote.md).

import AsyncHTTPClient
public import HLSCheck
import HLSPlaylist
import MediaInspection
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// What the remote sources may do; every value has a flag (docs/remote.md).
public struct RemoteOptions: Sendable, Hashable {
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `--header 'Name: value'`, sent with every request.
    public var headers: [Header] = []
    /// `--insecure`: accept any TLS certificate (the report says so: tls-not-verified).
    public var insecure = false
    /// `--connect-timeout`: seconds to establish a connection (TCP and TLS).
    public var connectTimeoutSeconds: Double = 10
    /// `--request-timeout`: seconds for one request, from sending it to the last body byte.
    public var requestTimeoutSeconds: Double = 30
    /// Redirects followed for one resource before giving up (a loop ends here).
    public var maximumRedirects = 5
    /// `--retries`: further attempts after a 5xx answer or a broken connection.
    public var retries = 2
    /// The first backoff delay in seconds; each further retry doubles it.
    public var retryDelaySeconds: Double = 0.25
    /// `--http-connections`: connections per host, and requests in flight.
    public var maximumConnections = 4

    public init() {}
}

/// Why a resource could not be fetched: the user-facing reason (credentials redacted), and the
/// HTTP status when one arrived.
public struct RemoteFetchError: Error, Sendable, CustomStringConvertible {
    public var uri: String
    public var reason: String
    public var status: Int?

    public var description: String { CredentialRedaction.redact("\(uri): \(reason)") }
}

/// One fetched body.
struct FetchedResource: Sendable {
    var bytes: [UInt8]
    var status: Int
    var contentType: String?
    var finalURL: String
}

/// The HTTP client of one run, shared by the playlist and segment sources. Call `shutdown()`
/// when the run is over.
public final class RemoteFetcher: Sendable, DeliveryObserver {
    public let options: RemoteOptions
    private let client: HTTPClient
    private let recorder = DeliveryRecorder()
    /// Requests in flight, bounded by `maximumConnections`.
    private let permits: Permits

    public init(options: RemoteOptions = RemoteOptions()) {
        self.options = options
        var tls = TLSConfiguration.makeClientConfiguration()
        if options.insecure { tls.certificateVerification = .none }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // Followed by hand: each hop is judged (scheme, downgrade, credentials) and recorded.
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(
                connect: .milliseconds(Int64(options.connectTimeoutSeconds * 1000)),
                read: .milliseconds(Int64(options.requestTimeoutSeconds * 1000))),
            // gzip bodies are inflated within the playlist byte limit (checked again after).
            decompression: .enabled(limit: .ratio(200)))
        configuration.httpVersion = .automatic
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, options.maximumConnections))
        // Connection failures are retried here, bounded and reported, not inside the pool.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        permits = Permits(max(1, options.maximumConnections))
    }

    /// Closes every connection. The fetcher cannot be used afterwards.
    public func shutdown() async {
        try? await client.shutdown()
    }

    public func deliveryLog() async -> DeliveryLog {
        DeliveryLog(
            records: await recorder.records, tlsVerificationDisabled: options.insecure, usedTLS: await recorder.usedTLS)
    }

    /// Where the playlist at `uri` was found, when a redirect moved it.
    func finalURL(of uri: String) async -> String? {
        await recorder.finalURLs[uri]
    }

    /// The records since the last call, which clears them: the inputs of a run are checked one
    /// after another, so each report gets its own stream's records.
    func takeDeliveryLog() async -> DeliveryLog {
        let (records, usedTLS) = await recorder.take()
        return DeliveryLog(records: records, tlsVerificationDisabled: options.insecure, usedTLS: usedTLS)
    }

    /// GETs `uri` (or `range` of it), following redirects, retrying what is worth retrying.
    /// Playlists are always recorded; segments when something is worth reporting.
    func fetch(
        _ uri: String, kind: DeliveryRecord.Kind, range: SegmentByteRange? = nil, maximumBytes: Int, limitFlag: String
    ) async throws(RemoteFetchError) -> FetchedResource {
        var record = DeliveryRecord(uri: uri, kind: kind)
        // Requests in flight are bounded; a request's deadline starts once it holds a permit.
        await permits.acquire()
        let outcome: Result<FetchedResource, RemoteFetchError>
        do {
            outcome = .success(try await follow(uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record))
        } catch {
            outcome = .failure(error)
        }
        await permits.release()
        do throws(RemoteFetchError) {
            let resource = try outcome.get()
            if kind == .playlist, resource.finalURL != uri { await recorder.moved(uri, to: resource.finalURL) }
            record.status = resource.status
            record.contentType = resource.contentType
            if kind == .playlist || !record.retries.isEmpty || record.downgrade != nil {
                await recorder.add(record)
            }
            return resource
        } catch {
            record.status = error.status
            record.failure = error.reason
            await recorder.add(record)
            throw error
        }
    }

    private func follow(
        _ uri: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String, record: inout DeliveryRecord
    ) async throws(RemoteFetchError) -> FetchedResource {
        var url = uri
        var visited: [String] = [uri]
        for _ in 0...options.maximumRedirects {
            let scheme = URIScheme.of(url)
            guard scheme == "http" || scheme == "https" else {
                throw RemoteFetchError(
                    uri: uri, reason: "was redirected to \(url), a \(scheme ?? "scheme-less") URL; only http and https are fetched")
            }
            if scheme == "https" { await recorder.noteTLS() }
            let outcome = try await attempt(url, original: uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record)
            switch outcome {
            case .body(let resource):
                return resource
            case .redirect(let location):
                var next = URIResolver.resolve(location, against: Self.withoutUserinfo(url))
                // Credentials follow a redirect only to the same origin they were written for.
                if let userinfo = Self.userinfo(of: url), Self.origin(of: next) == Self.origin(of: Self.withoutUserinfo(url)) {
                    next = Self.inserting(userinfo: userinfo, into: next)
                }
                record.redirects.append(next)
                if visited.contains(next) {
                    throw RemoteFetchError(uri: uri, reason: "redirect loop: \(next) was already visited (\(visited.count) hops)")
                }
                visited.append(next)
                url = next
            }
        }
        throw RemoteFetchError(
            uri: uri, reason: "more than \(options.maximumRedirects) redirects (last to \(url)); a redirect loop or a misconfigured server")
    }

    private enum Outcome {
        case body(FetchedResource)
        case redirect(String)
    }

    /// One URL, with retries: a 5xx answer or a broken connection is tried again after a
    /// doubling delay, at most `retries` times.
    private func attempt(
        _ url: String, original: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String,
        record: inout DeliveryRecord
    ) async throws(RemoteFetchError) -> Outcome {
        var delay = options.retryDelaySeconds
        var attemptNumber = 0
        while true {
            attemptNumber += 1
            do throws(Failure) {
                return try await once(url, original: original, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
            } catch {
                let failure = error
                guard failure.retryable, attemptNumber <= options.retries else {
                    let retried = attemptNumber > 1 ? " (after \(attemptNumber - 1) retr\(attemptNumber == 2 ? "y" : "ies"))" : ""
                    throw RemoteFetchError(uri: original, reason: failure.reason + retried, status: failure.status)
                }
                record.retries.append(failure.shortReason)
                try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
                delay *= 2
            }
        }
    }

    /// Why one attempt failed, and whether trying again may help.
    struct Failure: Error {
        var reason: String
        var shortReason: String
        var status: Int?
        var retryable: Bool
    }

    private func once(
        _ url: String, original: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String
    ) async throws(Failure) -> Outcome {
        var request = HTTPClientRequest(url: Self.withoutUserinfo(url))
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "hlscheck/\(HLSCheckVersion.current)")
        if let (user, password) = Self.credentials(of: url) {
            request.setBasicAuth(username: user, password: password)
        }
        if let range {
            request.headers.add(name: "Range", value: "bytes=\(range.offset)-\(range.offset + max(0, range.length) - 1)")
        } else {
            // Segments are compressed media; playlists are text that gzip shrinks tenfold.
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        for header in options.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }

        let timeout = Duration.milliseconds(Int64(options.requestTimeoutSeconds * 1000))
        let deadline = NIODeadline.now() + .milliseconds(Int64(options.requestTimeoutSeconds * 1000))
        let bodyDeadline = ContinuousClock.now.advanced(by: timeout)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            throw describe(error, receivedBytes: nil)
        }
        let status = Int(response.status.code)
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = response.headers.first(name: "Location"), !location.isEmpty else {
                throw Failure(reason: "HTTP \(status) redirect without a Location header", shortReason: "HTTP \(status)", status: status, retryable: false)
            }
            return .redirect(location)
        }
        guard (200..<300).contains(status) else {
            let text = "HTTP \(status) \(response.status.reasonPhrase)"
            throw Failure(reason: text, shortReason: "HTTP \(status)", status: status, retryable: (500..<600).contains(status) && status != 501)
        }
        // A range asked for and answered whole (200): the server ignores Range; cut it here.
        let skip = range != nil && status == 200 ? range?.offset ?? 0 : 0
        let wanted = range.map(\.length) ?? maximumBytes + 1
        if wanted > maximumBytes {
            if let declared = response.headers.first(name: "Content-Length").flatMap(Int.init), declared - skip > maximumBytes {
                throw Failure(
                    reason: "\(declared) bytes, over the limit of \(maximumBytes) (raise it with \(limitFlag))", shortReason: "too large",
                    status: status, retryable: false)
            }
        }
        // The deadline covers the body too: a body that trickles is cut off when it passes.
        let bytes: [UInt8]
        do {
            bytes = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask {
                    try await self.collect(response.body, skip: skip, wanted: range == nil ? nil : wanted, maximumBytes: maximumBytes, limitFlag: limitFlag, status: status)
                }
                group.addTask {
                    try await Task.sleep(until: bodyDeadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let body = first else {
                    throw Failure(
                        reason: "no complete answer within \(Self.seconds(options.requestTimeoutSeconds)) s (raise it with --request-timeout)",
                        shortReason: "timeout", status: status, retryable: false)
                }
                return body
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw describe(error, receivedBytes: nil)
        }
        if let range, bytes.count < range.length {
            throw Failure(
                reason: "byte range \(range.length)@\(range.offset) asked for, \(bytes.count) bytes received (HTTP \(status))",
                shortReason: "short range", status: status, retryable: false)
        }
        return .body(FetchedResource(bytes: bytes, status: status, contentType: response.headers.first(name: "Content-Type"), finalURL: url))
    }

    /// Reads a body within `maximumBytes`, skipping `skip` leading bytes and stopping after
    /// `wanted` (a range the server answered whole).
    private func collect(
        _ body: HTTPClientResponse.Body, skip: Int, wanted: Int?, maximumBytes: Int, limitFlag: String, status: Int
    ) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        var received = 0
        do {
            for try await buffer in body {
                received += buffer.readableBytes
                var chunk = buffer
                if skip > 0, received - buffer.readableBytes < skip {
                    chunk.moveReaderIndex(forwardBy: min(chunk.readableBytes, skip - (received - buffer.readableBytes)))
                }
                bytes.append(contentsOf: chunk.readableBytesView)
                if let wanted, bytes.count >= wanted {
                    bytes.removeLast(bytes.count - wanted)
                    break
                }
                if bytes.count > maximumBytes {
                    throw Failure(
                        reason: "more than \(maximumBytes) bytes, over the limit (raise it with \(limitFlag))", shortReason: "too large",
                        status: status, retryable: false)
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw describe(error, receivedBytes: received)
        }
        return bytes
    }

    /// A network error as a user reads it; whether a retry may help.
    private func describe(_ error: any Error, receivedBytes: Int?) -> Failure {
        let partial = receivedBytes.map { " after \($0) bytes of the body" } ?? ""
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout:
                return Failure(reason: "no connection within \(Self.seconds(options.connectTimeoutSeconds)) s (raise it with --connect-timeout)", shortReason: "connect timeout", retryable: true)
            case .deadlineExceeded, .readTimeout:
                return Failure(reason: "no complete answer within \(Self.seconds(options.requestTimeoutSeconds)) s\(partial) (raise it with --request-timeout)", shortReason: "timeout", retryable: false)
            case .remoteConnectionClosed, .uncleanShutdown:
                return Failure(reason: "the server closed the connection\(partial) before the answer was complete", shortReason: "connection closed", retryable: true)
            case .tlsHandshakeTimeout:
                return Failure(reason: "no TLS handshake within \(Self.seconds(options.connectTimeoutSeconds)) s", shortReason: "TLS timeout", retryable: true)
            case .invalidURL, .emptyHost, .emptyScheme:
                return Failure(reason: "is not a valid URL", shortReason: "invalid URL", retryable: false)
            case .bodyLengthMismatch:
                return Failure(reason: "the body was shorter than its Content-Length\(partial)", shortReason: "short body", retryable: true)
            default:
                return Failure(reason: "HTTP client error (\(error.shortDescription))", shortReason: "client error", retryable: false)
            }
        }
        if let error = error as? NIOSSLError {
            if case .handshakeFailed(let detail) = error {
                return Self.handshakeFailure(String(describing: detail))
            }
            if case .uncleanShutdown = error {
                return Failure(reason: "the server closed the TLS connection\(partial) before the answer was complete", shortReason: "connection closed", retryable: true)
            }
            return Failure(reason: "TLS error (\(error))", shortReason: "TLS", retryable: false)
        }
        if let error = error as? NIOConnectionError {
            let refused = error.connectionErrors.map { String(describing: $0.error) }.joined(separator: "; ")
            return Failure(
                reason: "cannot connect to \(error.host):\(error.port)\(refused.isEmpty ? "" : " (\(Self.errnoText(refused)))")",
                shortReason: "cannot connect", retryable: true)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case 111:  // ECONNREFUSED
                return Failure(reason: "cannot connect: connection refused", shortReason: "connection refused", retryable: true)
            case 104, 32:  // ECONNRESET, EPIPE
                return Failure(reason: "the connection was reset" + partial, shortReason: "connection reset", retryable: true)
            default:
                return Failure(reason: "network error (errno \(error.errnoCode))" + partial, shortReason: "network error", retryable: true)
            }
        }
        if error is HTTPParserError {
            // What a connection closed mid-body looks like to the HTTP/1.1 parser.
            return Failure(
                reason: "the server closed the connection\(partial) before the answer was complete", shortReason: "connection closed",
                retryable: true)
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout:
                return Failure(reason: "no connection within \(Self.seconds(options.connectTimeoutSeconds)) s (raise it with --connect-timeout)", shortReason: "connect timeout", retryable: true)
            default:
                return Failure(reason: "the connection failed (\(error))\(partial)", shortReason: "connection failed", retryable: true)
            }
        }
        if error is NIOHTTPDecompression.DecompressionError {
            return Failure(reason: "the compressed body expands beyond the limit, or is not valid gzip", shortReason: "bad gzip", retryable: false)
        }
        return Failure(reason: "network error (\(type(of: error)))\(partial)", shortReason: "network error", retryable: true)
    }

    /// BoringSSL's reason code ("CERTIFICATE_VERIFY_FAILED"), in words; never its raw dump.
    static func handshakeFailure(_ detail: String) -> Failure {
        var reason = "UNKNOWN"
        if let marker = detail.range(of: "OPENSSL_internal:") {
            reason = String(detail[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
        switch reason {
        case "CERTIFICATE_VERIFY_FAILED":
            return Failure(
                reason: "TLS handshake failed: the server's certificate was not accepted (self-signed, expired, or not for this host); if you trust this server, pass --insecure (reported as tls-not-verified)",
                shortReason: "TLS", retryable: false)
        case "WRONG_VERSION_NUMBER":
            return Failure(
                reason: "TLS handshake failed: the server did not answer in TLS (a plain-http server? try an http:// URL)",
                shortReason: "TLS", retryable: false)
        default:
            return Failure(reason: "TLS handshake failed (\(reason.lowercased().replacingUnderscores()))", shortReason: "TLS", retryable: false)
        }
    }

    private static func errnoText(_ text: String) -> String {
        text.contains("111") || text.lowercased().contains("refused") ? "connection refused" : text
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    // MARK: - URL parts (RFC 3986 §3.2.1: userinfo is "user:password@" before the host)

    /// The authority's userinfo, nil without one.
    static func userinfo(of url: String) -> String? {
        guard let authority = authorityRange(of: url) else { return nil }
        let text = url[authority]
        guard let at = text.lastIndex(of: "@") else { return nil }
        return String(text[..<at])
    }

    /// The user and password of a URL's userinfo, percent-decoded.
    static func credentials(of url: String) -> (String, String)? {
        guard let userinfo = userinfo(of: url) else { return nil }
        let parts = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return (percentDecoded(String(parts[0])), parts.count > 1 ? percentDecoded(String(parts[1])) : "")
    }

    static func withoutUserinfo(_ url: String) -> String {
        guard let authority = authorityRange(of: url), let at = url[authority].lastIndex(of: "@") else { return url }
        return String(url[..<authority.lowerBound]) + String(url[url.index(after: at)...])
    }

    static func inserting(userinfo: String, into url: String) -> String {
        guard let authority = authorityRange(of: url) else { return url }
        return String(url[..<authority.lowerBound]) + userinfo + "@" + String(url[authority.lowerBound...])
    }

    /// scheme://host:port, lowercased, default ports filled in.
    static func origin(of url: String) -> String {
        let bare = withoutUserinfo(url)
        guard let scheme = URIScheme.of(bare), let authority = authorityRange(of: bare) else { return bare }
        var host = bare[authority].lowercased()
        if !host.contains(":") || host.hasSuffix("]") { host += scheme == "https" ? ":443" : ":80" }
        return scheme + "://" + host
    }

    private static func authorityRange(of url: String) -> Range<String.Index>? {
        guard let marker = url.range(of: "://") else { return nil }
        let start = marker.upperBound
        let end = url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        return start..<end
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}

/// The delivery records of one run.
actor DeliveryRecorder {
    private(set) var records: [DeliveryRecord] = []
    private(set) var usedTLS = false

    /// Playlists a redirect moved: requested URL → final URL.
    private(set) var finalURLs: [String: String] = [:]

    func add(_ record: DeliveryRecord) { records.append(record) }
    func moved(_ uri: String, to final: String) { finalURLs[uri] = final }
    func noteTLS() { usedTLS = true }

    /// Hands over the records so far and starts afresh.
    func take() -> ([DeliveryRecord], Bool) {
        defer {
            records = []
            usedTLS = false
        }
        return (records, usedTLS)
    }
}

/// A counting semaphore for tasks.
actor Permits {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { available = count }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

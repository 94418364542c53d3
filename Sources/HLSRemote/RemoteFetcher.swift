// Fetching playlists and segments over http(s) with AsyncHTTPClient: connection reuse, HTTP/2
// where the server offers it (ALPN), redirects followed by hand (bounded, and judged: https → http
// is a finding, other schemes are refused), bounded retries with backoff, timeouts, and bodies
// bounded before they are held (docs/remote.md).

import AsyncHTTPClient
package import HLSCheck
import HLSPlaylist
import MediaInspection
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// What the remote sources may do; every value has a flag (docs/remote.md).
package struct RemoteOptions: Sendable, Hashable {
    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `--header 'Name: value'`, sent with every request.
    package var headers: [Header] = []
    /// `--insecure`: accept any TLS certificate (the report says so: tls-not-verified).
    package var insecure = false
    /// `--connect-timeout`: seconds to establish a connection (TCP and TLS).
    package var connectTimeoutSeconds: Double = 10
    /// `--request-timeout`: seconds for one request, from sending it to the last body byte.
    package var requestTimeoutSeconds: Double = 30
    /// Redirects followed for one resource before giving up (a loop ends here).
    package var maximumRedirects = 5
    /// `--retries`: further attempts after a 5xx answer or a broken connection.
    package var retries = 2
    /// The first backoff delay in seconds; each further retry doubles it.
    package var retryDelaySeconds: Double = 0.25
    /// `--http-connections`: connections per host, and requests in flight.
    package var maximumConnections = 4

    package init() {}
}

/// Why a resource could not be fetched: the user-facing reason (credentials redacted), and the
/// HTTP status when one arrived.
package struct RemoteFetchError: Error, Sendable, CustomStringConvertible {
    package var uri: String
    package var reason: String
    package var status: Int?
    /// The protocol of the last answer ("HTTP/1.1", "HTTP/2"), nil when none arrived.
    package var httpVersion: String?

    package var description: String { CredentialRedaction.redact("\(uri): \(reason)") }
}

/// One fetched body.
struct FetchedResource: Sendable {
    var bytes: [UInt8]
    var status: Int
    var contentType: String?
    var finalURL: String
    /// "HTTP/1.1", "HTTP/2": what the final answer came over.
    var httpVersion: String
    /// The response's Content-Encoding ("gzip"), nil when the body came as it is.
    var contentEncoding: String? = nil
}

/// The HTTP client of one run, shared by the playlist and segment sources. Call `shutdown()`
/// when the run is over.
package final class RemoteFetcher: Sendable, DeliveryObserver {
    package let options: RemoteOptions
    private let configuration: HTTPClient.Configuration
    /// Made on the first request: a local check whose playlists might name a URL holds a
    /// fetcher, and pays for an HTTP client only if one does.
    private let madeClient = NIOLockedValueBox<HTTPClient?>(nil)
    private var client: HTTPClient {
        madeClient.withLockedValue { made in
            if let made { return made }
            // One event loop (a loop is a group of one) for every connection and every response: a
            // response goes from the socket to the body collector without hopping to another loop
            // (with the whole group, a hop per body part cost a wake-up and a context switch), and
            // the other core stays free for inspecting; one loop carries far more than a checker
            // fetches, TLS included. Not pinned per request (`.delegateAndChannel(on:)`): the pool
            // then opens a short-lived extra connection whenever its connections are all leased.
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration)
            made = client
            return client
        }
    }
    private let recorder = DeliveryRecorder()
    /// Requests in flight, bounded by `maximumConnections`.
    let permits: Permits

    package init(options: RemoteOptions = RemoteOptions()) {
        self.options = options
        var tls = TLSConfiguration.makeClientConfiguration()
        if options.insecure { tls.certificateVerification = .none }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // Followed by hand: each hop is judged (scheme, downgrade, credentials) and recorded.
            redirectConfiguration: .disallow,
            // No idle-read timeout: each request's deadline (--request-timeout, from sending
            // to the last body byte) already bounds it, and an idle timer is re-armed on every
            // read of every response.
            timeout: HTTPClient.Configuration.Timeout(connect: .milliseconds(Int64(options.connectTimeoutSeconds * 1000))),
            // gzip bodies are inflated within the playlist byte limit (checked again after).
            decompression: .enabled(limit: .ratio(Self.inflationRatio)))
        configuration.httpVersion = .automatic
        // No distributed tracing: a span per request costs time and nobody collects it.
        configuration.tracing.tracer = nil
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, options.maximumConnections))
        // Connection failures are retried here, bounded and reported, not inside the pool.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.configuration = configuration
        permits = Permits(max(1, options.maximumConnections))
    }

    /// Closes every connection. The fetcher cannot be used afterwards.
    package func shutdown() async {
        let made = madeClient.withLockedValue { $0 }
        try? await made?.shutdown()
    }

    package func deliveryLog() async -> DeliveryLog {
        DeliveryLog(
            records: recorder.records, tlsVerificationDisabled: options.insecure, usedTLS: recorder.usedTLS,
            traffic: recorder.traffic)
    }

    /// Where the playlist at `uri` was found, when a redirect moved it.
    func finalURL(of uri: String) async -> String? {
        recorder.finalURL(of: uri)
    }

    /// The records since the last call, which clears them: the inputs of a run are checked one
    /// after another, so each report gets its own stream's records.
    func takeDeliveryLog() async -> DeliveryLog {
        let taken = recorder.take()
        return DeliveryLog(
            records: taken.records, tlsVerificationDisabled: options.insecure, usedTLS: taken.usedTLS, traffic: taken.traffic)
    }

    /// GETs `uri` (or `range` of it), following redirects, retrying what is worth retrying.
    /// Playlists are always recorded; segments when something is worth reporting.
    ///
    /// `firstAttempt`: the answer to a first GET of `uri` already made (a segment fetched ahead,
    /// `startFirstAttempt`): it counts as the first attempt of the first hop, so a redirect is
    /// followed, a 5xx retried and a failure reported exactly as if this call had made it.
    func fetch(
        _ uri: String, kind: DeliveryRecord.Kind, range: SegmentByteRange? = nil, maximumBytes: Int, limitFlag: String,
        firstAttempt: FirstAttempt? = nil, recorded: Bool = true
    ) async throws(RemoteFetchError) -> FetchedResource {
        // The common case of a read ahead: the body came at the first try, nothing to record
        // (segments are recorded only with retries or a redirect, both impossible here).
        if kind == .segment, case .success(.body(let resource))? = firstAttempt?.result { return resource }
        var record = DeliveryRecord(uri: uri, kind: kind, acceptEncoding: acceptEncoding(range: range))
        // Requests in flight are bounded; a request's deadline starts once it holds a permit.
        await permits.acquire()
        let outcome: Result<FetchedResource, RemoteFetchError>
        do {
            outcome = .success(try await follow(
                uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record, firstAttempt: firstAttempt))
        } catch {
            outcome = .failure(error)
        }
        permits.release()
        do throws(RemoteFetchError) {
            let resource = try outcome.get()
            if kind == .playlist, resource.finalURL != uri { recorder.moved(uri, to: resource.finalURL) }
            record.status = resource.status
            record.contentType = resource.contentType
            record.httpVersion = resource.httpVersion
            record.contentEncoding = resource.contentEncoding
            if recorded, kind == .playlist || !record.retries.isEmpty || !record.redirects.isEmpty {
                recorder.add(record)
            }
            return resource
        } catch {
            record.status = error.status
            record.failure = error.reason
            record.httpVersion = error.httpVersion
            if recorded { recorder.add(record) }
            throw error
        }
    }

    private func follow(
        _ uri: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String, record: inout DeliveryRecord,
        firstAttempt: FirstAttempt?
    ) async throws(RemoteFetchError) -> FetchedResource {
        var url = uri
        var visited: [String] = [uri]
        var firstAttempt = firstAttempt
        for _ in 0...options.maximumRedirects {
            let scheme = URIScheme.of(url)
            guard scheme == "http" || scheme == "https" else {
                throw RemoteFetchError(
                    uri: uri, reason: "was redirected to \(url), a \(scheme ?? "scheme-less") URL; only http and https are fetched")
            }
            // A first attempt made ahead noted TLS itself.
            if scheme == "https", firstAttempt == nil { recorder.noteTLS() }
            let outcome = try await attempt(
                url, original: uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record, first: firstAttempt?.result)
            firstAttempt = nil
            switch outcome {
            case .body(let resource):
                return resource
            case .redirect(let location):
                var next = URIResolver.resolve(location, against: Self.withoutUserinfo(url))
                // Credentials follow a redirect only to the same origin they were written for,
                // and only when the redirect names none: a Location's own userinfo replaces
                // them (inserted before it, "user:pw@other@host" sent "user:pw@other" as the user).
                if Self.userinfo(of: next) == nil, let userinfo = Self.userinfo(of: url),
                   Self.origin(of: next) == Self.origin(of: Self.withoutUserinfo(url)) {
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

    enum Outcome: Sendable {
        case body(FetchedResource)
        case redirect(String)
    }

    /// The answer to one GET made ahead of its reader (`startFirstAttempt`).
    struct FirstAttempt: Sendable {
        var result: Result<Outcome, Failure>

        /// Body bytes it holds (what a read-ahead budgets with).
        var byteCount: Int {
            if case .success(.body(let resource)) = result { return resource.bytes.count }
            return 0
        }
    }

    /// One URL, with retries: a 5xx answer or a broken connection is tried again after a
    /// doubling delay, at most `retries` times.
    private func attempt(
        _ url: String, original: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String,
        record: inout DeliveryRecord, first: Result<Outcome, Failure>?
    ) async throws(RemoteFetchError) -> Outcome {
        var delay = options.retryDelaySeconds
        var attemptNumber = 0
        var first = first
        while true {
            attemptNumber += 1
            do throws(Failure) {
                if let made = first {
                    first = nil
                    return try made.get()
                }
                return try await once(url, original: original, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
            } catch {
                let failure = error
                guard failure.retryable, attemptNumber <= options.retries else {
                    let retried = attemptNumber > 1 ? " (after \(attemptNumber - 1) retr\(attemptNumber == 2 ? "y" : "ies"))" : ""
                    throw RemoteFetchError(uri: original, reason: failure.reason + retried, status: failure.status, httpVersion: failure.httpVersion)
                }
                record.retries.append(failure.shortReason)
                try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
                delay *= 2
            }
        }
    }

    /// Why one attempt failed, and whether trying again may help.
    struct Failure: Error, Sendable {
        var reason: String
        var shortReason: String
        var status: Int?
        var retryable: Bool
        /// The protocol of the answer that failed, when one arrived.
        var httpVersion: String?
    }

    private func once(
        _ url: String, original: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String
    ) async throws(Failure) -> Outcome {
        let (task, collector) = try send(url, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        let result: Result<BodyCollector.Collected, any Error>
        do {
            result = .success(try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            })
        } catch {
            result = .failure(error)
        }
        return try judge(result, collector: collector, url: url, range: range)
    }

    /// GETs a segment (or `range` of it) ahead of its reader, without a Swift task: the request
    /// is sent from the calling thread and `completion` runs on the event loop with the answer,
    /// judged as `once` judges it. The caller holds a permit for it. Returns the request, to
    /// cancel it, or nil when it could not be built (`completion` has run then).
    func startFirstAttempt(
        _ url: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String,
        completion: @escaping @Sendable (FirstAttempt) -> Void
    ) -> HTTPClient.Task<BodyCollector.Collected>? {
        if URIScheme.of(url) == "https" { recorder.noteTLS() }
        let sent: (HTTPClient.Task<BodyCollector.Collected>, BodyCollector)
        do throws(Failure) {
            sent = try send(url, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        } catch {
            completion(FirstAttempt(result: .failure(error)))
            return nil
        }
        let (task, collector) = sent
        task.futureResult.whenComplete { [self] result in
            completion(FirstAttempt(result: Result { () throws(Failure) in
                try judge(result, collector: collector, url: url, range: range)
            }))
        }
        return task
    }

    /// Builds the request for `url` and hands it to the client.
    private func send(
        _ url: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String
    ) throws(Failure) -> (HTTPClient.Task<BodyCollector.Collected>, BodyCollector) {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: Self.userAgent)
        if let range {
            headers.add(name: "Range", value: "bytes=\(range.offset)-\(range.offset + max(0, range.length) - 1)")
        }
        for header in options.headers { headers.replaceOrAdd(name: header.name, value: header.value) }
        if let encoding = acceptEncoding(range: range) { headers.replaceOrAdd(name: "Accept-Encoding", value: encoding) }
        var request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: Self.withoutUserinfo(url), method: .GET, headers: headers)
        } catch {
            throw describe(error, receivedBytes: nil)
        }
        if let (user, password) = Self.credentials(of: url) {
            request.setBasicAuth(username: user, password: password)
        }

        // One deadline for the whole exchange, head and body: a body that trickles is cut off
        // when it passes. The body is gathered on the event loop, within its bounds, and the
        // task resumes once with all of it (docs/remote.md, "How resources are fetched").
        let collector = BodyCollector(range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        let deadline = NIODeadline.now() + .milliseconds(Int64(options.requestTimeoutSeconds * 1000))
        return (client.execute(request: request, delegate: collector, deadline: deadline), collector)
    }

    /// What one answer (or the error instead of one) means: a body, a redirect, or a failure.
    private func judge(
        _ result: Result<BodyCollector.Collected, any Error>, collector: BodyCollector, url: String, range: SegmentByteRange?
    ) throws(Failure) -> Outcome {
        let collected: BodyCollector.Collected
        switch result {
        case .success(let value):
            collected = value
        case .failure(let failure as Failure):
            throw failure
        case .failure(is BodyCollector.Enough):
            // The range a server answered whole (200) is complete: the rest is not read.
            collected = collector.collected
        case .failure(let error):
            throw describe(
                error, receivedBytes: collector.collected.head == nil ? nil : collector.received,
                limit: (collector.maximumBytes, collector.limitFlag))
        }
        guard let head = collected.head else {
            throw Failure(reason: "the server closed the connection before answering", shortReason: "connection closed", retryable: true)
        }
        let status = Int(head.status.code)
        let version = DeliveryRecord.protocolName(head.version.major, head.version.minor)
        recorder.count(version: head.version, bytes: collected.bytes.count)
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = head.headers.first(name: "Location"), !location.isEmpty else {
                throw Failure(
                    reason: "HTTP \(status) redirect without a Location header", shortReason: "HTTP \(status)", status: status, retryable: false,
                    httpVersion: version)
            }
            return .redirect(location)
        }
        guard (200..<300).contains(status) else {
            let text = "HTTP \(status) \(head.status.reasonPhrase)"
            throw Failure(
                reason: text, shortReason: "HTTP \(status)", status: status, retryable: (500..<600).contains(status) && status != 501,
                httpVersion: version)
        }
        if let range, collected.bytes.count < range.length {
            throw Failure(
                reason: "byte range \(range.length)@\(range.offset) asked for, \(collected.bytes.count) bytes received (HTTP \(status))",
                shortReason: "short range", status: status, retryable: false, httpVersion: version)
        }
        return .body(FetchedResource(
            bytes: collected.bytes, status: status, contentType: head.headers.first(name: "Content-Type"), finalURL: url,
            httpVersion: version, contentEncoding: head.headers.first(name: "Content-Encoding")))
    }

    private static let userAgent = "hlscheck/\(HLSCheckVersion.current)"

    /// The Accept-Encoding a request sends: gzip and deflate for a whole resource (segments are
    /// compressed media; playlists are text that gzip shrinks tenfold), none for a byte range;
    /// `--header 'Accept-Encoding: …'` overrides it.
    private func acceptEncoding(range: SegmentByteRange?) -> String? {
        if let header = options.headers.last(where: { $0.name.lowercased() == "accept-encoding" }) { return header.value }
        return range == nil ? "gzip, deflate" : nil
    }

    /// How many times its compressed size a gzip body may inflate to (docs/security.md); the
    /// byte limits apply to the inflated body as well.
    static let inflationRatio = 200

    /// A network error as a user reads it; whether a retry may help.
    /// `limit`: the byte limit of the resource and the flag that raises it, when known.
    private func describe(_ error: any Error, receivedBytes: Int?, limit: (bytes: Int, flag: String)? = nil) -> Failure {
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
        if let error = error as? HTTPParserError, error == .invalidContentLength, let limit {
            // llhttp refuses a Content-Length past 2^64 − 1 before handing over the head, so the
            // collector never sees it: it is a size over any limit, not a broken connection.
            return Failure(
                reason: "the server declared a Content-Length that is not a byte count hlscheck accepts (too large, or not a number): over the limit of \(limit.bytes) bytes (raise it with \(limit.flag)), so it was not read",
                shortReason: "too large", retryable: false)
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
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            // Compressed bodies are asked for with Accept-Encoding; --header replaces that header.
            let identity = "to have it sent uncompressed, pass --header 'Accept-Encoding: identity'"
            if error == .limit {
                return Failure(
                    reason: "the gzip-compressed body inflates to more than \(Self.inflationRatio) times its size (a compression bomb, or an unusually repetitive playlist), so it was not read; \(identity)",
                    shortReason: "bad gzip", retryable: false)
            }
            return Failure(
                reason: "the body is not valid gzip or deflate although the server said so (Content-Encoding); \(identity)",
                shortReason: "bad gzip", retryable: false)
        }
        return Failure(reason: "network error (\(type(of: error)))\(partial)", shortReason: "network error", retryable: true)
    }

    /// BoringSSL's reason code ("CERTIFICATE_VERIFY_FAILED"), in words; never its raw dump.
    static func handshakeFailure(_ detail: String) -> Failure {
        var reason = "UNKNOWN"
        if let marker = detail.firstRange(of: "OPENSSL_internal:") {
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
        guard let at = url.utf8[authority].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return String(url[authority.lowerBound..<at])
    }

    /// The user and password of a URL's userinfo, percent-decoded.
    static func credentials(of url: String) -> (String, String)? {
        guard let userinfo = userinfo(of: url) else { return nil }
        let parts = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return (percentDecoded(String(parts[0])), parts.count > 1 ? percentDecoded(String(parts[1])) : "")
    }

    static func withoutUserinfo(_ url: String) -> String {
        guard let authority = authorityRange(of: url), let at = url.utf8[authority].lastIndex(of: UInt8(ascii: "@")) else { return url }
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

    /// After the first "://", up to the path, query or fragment. Scanned as bytes: it runs for
    /// every request, and Foundation's `range(of:)` cost more than the rest of building one.
    private static func authorityRange(of url: String) -> Range<String.Index>? {
        let bytes = url.utf8
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: colon) {
            let rest = bytes[bytes.index(after: found)...]
            if rest.starts(with: [slash, slash]) {
                let start = bytes.index(found, offsetBy: 3)
                let end = bytes[start...].firstIndex { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
                return start..<end
            }
            index = rest.startIndex
        }
        return nil
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

/// Gathers one response on the event loop that delivers it: the head, then the body within its
/// bounds (a declared or actual length over `maximumBytes` fails at once, a range the server
/// answered whole is cut to the range). A redirect's or an error's body is not kept.
final class BodyCollector: HTTPClientResponseDelegate {
    struct Collected: Sendable {
        var head: HTTPResponseHead?
        var bytes: [UInt8] = []
    }
    typealias Response = Collected

    /// Ends a body early once the wanted range is complete.
    struct Enough: Error {}

    private struct State {
        var collected = Collected()
        var keeps = false
        var skip = 0
        var received = 0
    }

    private let range: SegmentByteRange?
    let maximumBytes: Int
    let limitFlag: String
    /// Touched only on the request's event loop; the lock makes that provable to the compiler.
    private let state = NIOLockedValueBox(State())

    init(range: SegmentByteRange?, maximumBytes: Int, limitFlag: String) {
        self.range = range
        self.maximumBytes = maximumBytes
        self.limitFlag = limitFlag
    }

    /// What arrived so far (all of it once the task has finished).
    var collected: Collected { state.withLockedValue { $0.collected } }
    /// Body bytes received so far, skipped ones included.
    var received: Int { state.withLockedValue { $0.received } }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        let keeps = (200..<300).contains(status)
        // A range asked for and answered whole (200): the server ignores Range; cut it here.
        let skip = range != nil && status == 200 ? range?.offset ?? 0 : 0
        // A length of digits that no Int holds (past 2^63 − 1) is over any limit too.
        if keeps, range == nil, let declared = head.headers.first(name: "Content-Length"),
           Int(declared).map({ $0 > maximumBytes }) ?? (!declared.isEmpty && declared.utf8.allSatisfy { (0x30...0x39).contains($0) }) {
            state.withLockedValue { $0.collected.head = head }
            return task.eventLoop.makeFailedFuture(RemoteFetcher.Failure(
                reason: "\(declared) bytes, over the limit of \(maximumBytes) (raise it with \(limitFlag))", shortReason: "too large",
                status: status, retryable: false))
        }
        let expected = range?.length ?? head.headers.first(name: "Content-Length").flatMap(Int.init).map { $0 - skip } ?? 0
        state.withLockedValue {
            $0.collected.head = head
            $0.keeps = keeps
            $0.skip = skip
            // Never more than the limit, nor more than a lying header can make us hold unused.
            if keeps { $0.collected.bytes.reserveCapacity(max(0, min(expected, maximumBytes, 16 << 20))) }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let failure: (any Error)? = state.withLockedValue { state in
            state.received += buffer.readableBytes
            guard state.keeps else { return nil }
            var chunk = buffer
            if state.skip > 0 {
                let skipped = min(chunk.readableBytes, state.skip)
                chunk.moveReaderIndex(forwardBy: skipped)
                state.skip -= skipped
            }
            state.collected.bytes.append(contentsOf: chunk.readableBytesView)
            if let range, state.collected.bytes.count >= range.length {
                state.collected.bytes.removeLast(state.collected.bytes.count - range.length)
                state.keeps = false
                return Enough()
            }
            if state.collected.bytes.count > maximumBytes {
                state.collected.bytes = []
                state.keeps = false
                return RemoteFetcher.Failure(
                    reason: "more than \(maximumBytes) bytes, over the limit (raise it with \(limitFlag))", shortReason: "too large",
                    status: state.collected.head.map { Int($0.status.code) }, retryable: false)
            }
            return nil
        }
        if let failure { return task.eventLoop.makeFailedFuture(failure) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        state.withLockedValue { $0.collected }
    }
}

/// The delivery records of one run, and what every request had in common (how many, over
/// which protocol, how many bytes): counted under a lock, not an actor, since every request
/// passes here and a hop per request is measurable (docs/benchmarks.md).
final class DeliveryRecorder: Sendable {
    private struct State {
        var records: [DeliveryRecord] = []
        var usedTLS = false
        var traffic = DeliveryTraffic()
        /// Playlists a redirect moved: requested URL → final URL.
        var finalURLs: [String: String] = [:]
    }

    private let state = NIOLockedValueBox(State())

    var records: [DeliveryRecord] { state.withLockedValue { $0.records } }
    var usedTLS: Bool { state.withLockedValue { $0.usedTLS } }
    var traffic: DeliveryTraffic { state.withLockedValue { $0.traffic } }
    func finalURL(of uri: String) -> String? { state.withLockedValue { $0.finalURLs[uri] } }

    func add(_ record: DeliveryRecord) { state.withLockedValue { $0.records.append(record) } }
    func moved(_ uri: String, to final: String) { state.withLockedValue { $0.finalURLs[uri] = final } }
    func noteTLS() { state.withLockedValue { $0.usedTLS = true } }

    /// One answer received (any status, redirects included).
    func count(version: HTTPVersion, bytes: Int) {
        state.withLockedValue {
            $0.traffic.responses += 1
            $0.traffic.bodyBytes += bytes
            $0.traffic.httpVersions[DeliveryRecord.protocolName(version.major, version.minor), default: 0] += 1
        }
    }

    /// Hands over the records so far and starts afresh.
    func take() -> (records: [DeliveryRecord], usedTLS: Bool, traffic: DeliveryTraffic) {
        state.withLockedValue { state in
            defer {
                state.records = []
                state.usedTLS = false
                state.traffic = DeliveryTraffic()
            }
            return (state.records, state.usedTLS, state.traffic)
        }
    }
}

/// A counting semaphore for tasks: a lock and the waiters' continuations.
final class Permits: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    init(_ count: Int) { state = NIOLockedValueBox(State(available: count)) }

    func acquire() async {
        let granted = state.withLockedValue { state -> Bool in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
        guard !granted else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// A permit if one is free now; never waits (the read-ahead, on the event loop, asks again later).
    func tryAcquire() -> Bool {
        state.withLockedValue { state in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
    }

    func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

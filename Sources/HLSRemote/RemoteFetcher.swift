// Fetching playlists and segments over http(s) with libcurl (CurlEngine): connection reuse,
// HTTP/2 where the server offers it (ALPN), redirects followed by hand (bounded, and judged:
// https → http is a finding, other schemes are refused), bounded retries with backoff, timeouts,
// and bodies bounded before they are held (docs/remote.md).

import CCurl
import CLazyLibraries
package import StreamSources
import Glibc
import HLSPlaylist
import MediaInspection
import Synchronization

/// What the remote sources may do; every value has a flag (docs/remote.md).
package struct RemoteOptions: Sendable, Hashable {
    /// A header and the origins it is sent to: a bearer token or an API key given for the URL
    /// the user typed is meant for that server, not for every server its playlists or
    /// redirects name (docs/security.md, "It cannot make hlscheck send a secret elsewhere").
    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String
        /// `scheme://host:port` of each URL it was given with (`RemoteFetcher.origin(of:)`).
        package var origins: Set<String>

        /// A header for the origins of `urls`; a URL that is not http(s) adds none.
        package init(name: String, value: String, sentTo urls: [String]) {
            self.name = name
            self.value = value
            origins = Set(urls.filter(URIScheme.isRemote).map(RemoteFetcher.origin(of:)))
        }
    }

    /// `--header 'Name: value'`, sent with every request to the origins each was given for.
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
    /// The User-Agent every request sends; the executable names its version ("hlscheck/0.1.0").
    package var userAgent = "hlscheck"

    package init() {}
}

/// Why a resource could not be fetched: the user-facing reason (credentials redacted), and the
/// HTTP status when one arrived. Internal: the sources turn it into `InputReadError`, the one
/// error every source throws.
struct RemoteFetchError: Error, Sendable, CustomStringConvertible {
    var uri: String
    var reason: String
    var status: Int?
    /// The protocol of the last answer ("HTTP/1.1", "HTTP/2"), nil when none arrived.
    var httpVersion: String?

    var description: String { CredentialRedaction.redact("\(uri): \(reason)") }
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
    /// Made on the first request: a local check whose playlists might name a URL holds a
    /// fetcher, and pays for loading libcurl, a thread and a connection pool only if one does.
    private let madeEngine = Mutex<Result<CurlEngine, Failure>?>(nil)

    private func engine() throws(Failure) -> CurlEngine {
        let made = madeEngine.withLock { made -> Result<CurlEngine, Failure> in
            if let made { return made }
            let result: Result<CurlEngine, Failure>
            if let failure = hls_load_curl() {
                // No libcurl: every remote resource says so, with the package to install.
                result = .failure(
                    Failure(reason: String(cString: failure), shortReason: "no libcurl", retryable: false))
            } else {
                result = .success(CurlEngine(maximumConnections: options.maximumConnections))
            }
            made = result
            return result
        }
        return try made.get()
    }

    private let recorder = DeliveryRecorder()
    /// Requests in flight, bounded by `maximumConnections`.
    let permits: Permits

    package init(options: RemoteOptions = RemoteOptions()) {
        self.options = options
        permits = Permits(max(1, options.maximumConnections))
    }

    /// Closes every connection. The fetcher cannot be used afterwards.
    package func shutdown() async {
        if case .success(let engine)? = madeEngine.withLock({ $0 }) { await engine.shutdown() }
    }

    /// A fetcher dropped without `shutdown()` (a library client that returns early, a cancelled
    /// task) still ends its engine: the engine's thread holds the engine, so without this the
    /// thread, curl's multi handle with its wakeup socket pair, and every pooled connection
    /// would last as long as the process.
    deinit {
        if case .success(let engine)? = madeEngine.withLock({ $0 }) { engine.stop() }
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
            records: taken.records, tlsVerificationDisabled: options.insecure, usedTLS: taken.usedTLS,
            traffic: taken.traffic)
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
        var record = DeliveryRecord(uri: uri, kind: kind, acceptEncoding: acceptEncoding(url: uri, range: range))
        // Requests in flight are bounded; a request's deadline starts once it holds a permit.
        await permits.acquire()
        let outcome: Result<FetchedResource, RemoteFetchError>
        do {
            outcome = .success(
                try await follow(
                    uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record,
                    firstAttempt: firstAttempt))
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
                    uri: uri,
                    reason:
                        "was redirected to \(url), a \(scheme ?? "scheme-less") URL; only http and https are fetched")
            }
            // A first attempt made ahead noted TLS itself.
            if scheme == "https", firstAttempt == nil { recorder.noteTLS() }
            let outcome = try await attempt(
                url, original: uri, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag, record: &record,
                first: firstAttempt?.result)
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
                    Self.origin(of: next) == Self.origin(of: Self.withoutUserinfo(url))
                {
                    next = Self.inserting(userinfo: userinfo, into: next)
                }
                record.redirects.append(next)
                // What the rules judge is the answer of the last hop, and so what it was asked with.
                record.acceptEncoding = acceptEncoding(url: next, range: range)
                if visited.contains(next) {
                    throw RemoteFetchError(
                        uri: uri, reason: "redirect loop: \(next) was already visited (\(visited.count) hops)")
                }
                visited.append(next)
                url = next
            }
        }
        throw RemoteFetchError(
            uri: uri,
            reason:
                "more than \(options.maximumRedirects) redirects (last to \(url)); a redirect loop or a misconfigured server"
        )
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
                return try await once(
                    url, original: original, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
            } catch {
                let failure = error
                guard failure.retryable, attemptNumber <= options.retries else {
                    let retried =
                        attemptNumber > 1 ? " (after \(attemptNumber - 1) retr\(attemptNumber == 2 ? "y" : "ies"))" : ""
                    throw RemoteFetchError(
                        uri: original, reason: failure.reason + retried, status: failure.status,
                        httpVersion: failure.httpVersion)
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
        let transfer = try send(url, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        let finished = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CurlTransfer.Finished, Never>) in
                transfer.start { continuation.resume(returning: $0) }
                // A task cancelled before its transfer started (while it waited for a permit)
                // had its cancellation find nothing to end: end it now, or it would run to its
                // timeout.
                if Task.isCancelled { transfer.cancel() }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try judge(finished, url: url, range: range)
    }

    /// GETs a segment (or `range` of it) ahead of its reader, without a Swift task: the request
    /// is handed to the HTTP thread and `completion` runs there with the answer, judged as
    /// `once` judges it. The caller holds a permit for it. Returns the request, to cancel it, or
    /// nil when it could not be built (`completion` has run then).
    func startFirstAttempt(
        _ url: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String,
        completion: @escaping @Sendable (FirstAttempt) -> Void
    ) -> CurlTransfer? {
        if URIScheme.of(url) == "https" { recorder.noteTLS() }
        let transfer: CurlTransfer
        do throws(Failure) {
            transfer = try send(url, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        } catch {
            completion(FirstAttempt(result: .failure(error)))
            return nil
        }
        transfer.start { [self] finished in
            completion(
                FirstAttempt(
                    result: Result { () throws(Failure) in
                        try judge(finished, url: url, range: range)
                    }))
        }
        return transfer
    }

    /// Builds the request for `url`: headers, credentials, limits (docs/remote.md, "How
    /// resources are fetched").
    private func send(
        _ url: String, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String
    ) throws(Failure) -> CurlTransfer {
        var headers: [String] = []
        if let range {
            headers.append("Range: bytes=\(range.offset)-\(range.offset + max(0, range.length) - 1)")
        }
        // Each hop of a redirect is a request of its own (CURLOPT_FOLLOWLOCATION is off), so
        // this decides for every URL a request goes to, redirect targets included.
        let origin = Self.origin(of: url)
        for header in options.headers where header.origins.contains(origin) {
            headers.removeAll { $0.lowercased().hasPrefix(header.name.lowercased() + ":") }
            headers.append("\(header.name): \(header.value)")
        }
        if let encoding = acceptEncoding(url: url, range: range) {
            headers.removeAll { $0.lowercased().hasPrefix("accept-encoding:") }
            headers.append("Accept-Encoding: \(encoding)")
        }
        let credentials = Self.credentials(of: url)
        let request = CurlRequest(
            url: Self.withoutUserinfo(url), headers: headers, userAgent: options.userAgent,
            user: credentials?.0, password: credentials?.1, insecure: options.insecure,
            connectTimeoutMilliseconds: Int(options.connectTimeoutSeconds * 1000),
            timeoutMilliseconds: Int(options.requestTimeoutSeconds * 1000))
        guard
            let transfer = try engine().transfer(
                request, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        else {
            throw Failure(
                reason: "cannot make an HTTP request (out of memory)", shortReason: "client error", retryable: false)
        }
        return transfer
    }

    /// What one answer (or the error instead of one) means: a body, a redirect, or a failure.
    private func judge(_ finished: CurlTransfer.Finished, url: String, range: SegmentByteRange?) throws(Failure)
        -> Outcome
    {
        let collected = finished.collected
        switch finished.abort {
        case .failure(let failure)?:
            throw failure
        case .enough?:
            // The range a server answered whole (200) is complete: the rest is not read.
            break
        case nil:
            if finished.code != CURLE_OK { throw describe(finished, url: url) }
        }
        guard let status = collected.status else {
            throw Failure(
                reason: "the server closed the connection before answering", shortReason: "connection closed",
                retryable: true)
        }
        let version = DeliveryRecord.protocolName(collected.version.major, collected.version.minor)
        recorder.count(version: version, bytes: collected.bytes.count)
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = collected.header("location"), !location.isEmpty else {
                throw Failure(
                    reason: "HTTP \(status) redirect without a Location header", shortReason: "HTTP \(status)",
                    status: status, retryable: false,
                    httpVersion: version)
            }
            return .redirect(location)
        }
        guard (200..<300).contains(status) else {
            let phrase = collected.reasonPhrase.isEmpty ? Self.reasonPhrase(status) : collected.reasonPhrase
            let text = "HTTP \(status)" + (phrase.isEmpty ? "" : " \(phrase)")
            throw Failure(
                reason: text, shortReason: "HTTP \(status)", status: status,
                retryable: (500..<600).contains(status) && status != 501,
                httpVersion: version)
        }
        if let range, collected.bytes.count < range.length {
            throw Failure(
                reason:
                    "byte range \(range.length)@\(range.offset) asked for, \(collected.bytes.count) bytes received (HTTP \(status))",
                shortReason: "short range", status: status, retryable: false, httpVersion: version)
        }
        return .body(
            FetchedResource(
                bytes: collected.bytes, status: status, contentType: collected.header("content-type"), finalURL: url,
                httpVersion: version, contentEncoding: collected.header("content-encoding")))
    }

    /// The reason phrase of a status an HTTP/2 answer carries without one (RFC 9113 §8.3.2).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }

    /// The Accept-Encoding a request to `url` sends: gzip and deflate for a whole resource
    /// (segments are compressed media; playlists are text that gzip shrinks tenfold), none for a
    /// byte range; `--header 'Accept-Encoding: …'` overrides it on the origins it was given for.
    private func acceptEncoding(url: String, range: SegmentByteRange?) -> String? {
        let origin = Self.origin(of: url)
        if let header = options.headers.last(where: {
            $0.name.lowercased() == "accept-encoding" && $0.origins.contains(origin)
        }) {
            return header.value
        }
        return range == nil ? "gzip, deflate" : nil
    }

    /// How many times its compressed size a gzip body may inflate to (docs/security.md); the
    /// byte limits apply to the inflated body as well.
    static let inflationRatio = 200

    /// A gzip body that inflates past `inflationRatio` times its size.
    static var inflationFailure: Failure {
        Failure(
            reason:
                "the gzip-compressed body inflates to more than \(inflationRatio) times its size (a compression bomb, or an unusually repetitive playlist), so it was not read; \(identityAdvice)",
            shortReason: "bad gzip", retryable: false)
    }

    /// A gzip or deflate body that does not inflate.
    static var badEncodingFailure: Failure {
        Failure(
            reason:
                "the body is not valid gzip or deflate although the server said so (Content-Encoding); \(identityAdvice)",
            shortReason: "bad gzip", retryable: false)
    }

    /// Compressed bodies are asked for with Accept-Encoding; --header replaces that header.
    private static let identityAdvice = "to have it sent uncompressed, pass --header 'Accept-Encoding: identity'"

    /// A transfer curl ended with an error, as a user reads it; whether a retry may help.
    private func describe(_ finished: CurlTransfer.Finished, url: String) -> Failure {
        let partial = finished.collected.status == nil ? "" : " after \(finished.received) bytes of the body"
        let message = finished.message
        if finished.cancelled {
            return Failure(reason: "the request was cancelled", shortReason: "cancelled", retryable: false)
        }
        switch finished.code {
        case CURLE_OPERATION_TIMEDOUT:
            return timeoutFailure(finished, url: url, partial: partial)
        case CURLE_COULDNT_CONNECT:
            let why =
                finished.osErrno == Int(ECONNREFUSED)
                ? "connection refused"
                : (finished.osErrno != 0 ? String(cString: strerror(Int32(finished.osErrno))) : message)
            return Failure(
                reason: "cannot connect to \(Self.hostAndPort(of: url)) (\(why))", shortReason: "cannot connect",
                retryable: true)
        case CURLE_COULDNT_RESOLVE_HOST:
            return Failure(
                reason: "cannot resolve the host name of \(Self.hostAndPort(of: url))", shortReason: "cannot resolve",
                retryable: true)
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING:
            return Failure(
                reason: "the server closed the connection\(partial) before the answer was complete",
                shortReason: "connection closed", retryable: true)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            if finished.osErrno == Int(ECONNRESET) || finished.osErrno == Int(EPIPE) {
                return Failure(
                    reason: "the connection was reset" + partial, shortReason: "connection reset", retryable: true)
            }
            return Failure(
                reason: "the server closed the connection\(partial) before the answer was complete",
                shortReason: "connection closed", retryable: true)
        case CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return Failure(
                reason: "the server reset the HTTP/2 stream\(partial) before the answer was complete",
                shortReason: "stream reset", retryable: true)
        case CURLE_PEER_FAILED_VERIFICATION:
            return Failure(
                reason:
                    "TLS handshake failed: the server's certificate was not accepted (self-signed, expired, or not for this host); if you trust this server, pass --insecure (reported as tls-not-verified)",
                shortReason: "TLS", retryable: false)
        case CURLE_SSL_CONNECT_ERROR:
            if message.lowercased().contains("wrong version number") {
                return Failure(
                    reason:
                        "TLS handshake failed: the server did not answer in TLS (a plain-http server? try an http:// URL)",
                    shortReason: "TLS", retryable: false)
            }
            return Failure(reason: "TLS handshake failed (\(message))", shortReason: "TLS", retryable: false)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return Failure(reason: "is not a valid URL", shortReason: "invalid URL", retryable: false)
        case CURLE_BAD_CONTENT_ENCODING:
            return Self.badEncodingFailure
        case CURLE_WEIRD_SERVER_REPLY:
            return Failure(
                reason: "the server's answer is not valid HTTP (\(message))\(partial)", shortReason: "bad answer",
                retryable: true)
        case CURLE_OUT_OF_MEMORY where !finished.headEnded && finished.received == 0,
            CURLcode(rawValue: Self.curlTooLarge) where !finished.headEnded:
            // curl refuses a header line over CURL_MAX_HTTP_HEADER (and, from 8.x, a head over
            // 300 KiB) with "out of memory" (CURLE_TOO_LARGE from 8.6): the same answer comes
            // back at every retry, so none is made.
            return Failure(
                reason:
                    "the answer's header is larger than curl's limit of \(Self.headerLimit(in: message)) bytes, so it cannot be read (the server, or a proxy before it, sends an oversized header: a cookie, a debugging or tracing header)",
                shortReason: "header too large", status: finished.collected.status, retryable: false)
        default:
            let text = message.isEmpty ? String(cString: curl_easy_strerror(finished.code)) : message
            return Failure(reason: "network error (\(text))\(partial)", shortReason: "network error", retryable: true)
        }
    }

    /// CURLE_TOO_LARGE, which curl 8.6 added for a head over its limits (older headers lack it).
    static let curlTooLarge: UInt32 = 100

    /// The limit curl names in `message` ("max is 102400", "… > 307200"), else
    /// CURL_MAX_HTTP_HEADER, its limit on one header line.
    static func headerLimit(in message: String) -> Int {
        let numbers = message.split { !$0.isNumber }.compactMap { Int($0) }
        if let limit = numbers.last, message.contains("max") || message.contains(">") { return limit }
        return Int(CURL_MAX_HTTP_HEADER)
    }

    /// A timeout, named after the limit that expired. Until the connection is up (TCP, then TLS
    /// for https) curl bounds the wait by the smaller of `--connect-timeout` and
    /// `--request-timeout`; after, by `--request-timeout` alone. A server that accepts the TCP
    /// connection and never answers the TLS ClientHello ends at the connect timeout: the
    /// message says so, with the seconds that applied, not the request timeout's. The phase is
    /// curl's own words (its connect time stays unset until TLS is up, and reads 0 for a reused
    /// connection): "Connection timed out", "Resolving timed out", "SSL connection timeout" while
    /// connecting, "Operation timed out" after.
    private func timeoutFailure(_ finished: CurlTransfer.Finished, url: String, partial: String) -> Failure {
        let connect = options.connectTimeoutSeconds, request = options.requestTimeoutSeconds
        let message = finished.message
        let handshake = message.contains("SSL") || message.contains("TLS")
        let connecting =
            finished.collected.status == nil
            && (handshake || message.hasPrefix("Connection timed out") || message.hasPrefix("Resolving timed out")
                || message.hasPrefix("Failed to connect"))
        guard connecting else {
            return Failure(
                reason:
                    "no complete answer within \(Self.seconds(request)) s\(partial) (raise it with --request-timeout)",
                shortReason: "timeout", retryable: false)
        }
        let what =
            handshake
            ? "connected to \(Self.hostAndPort(of: url)), but the TLS handshake did not complete"
            : "no connection to \(Self.hostAndPort(of: url))"
                + (URIScheme.of(url) == "https" ? " (TCP and TLS handshake)" : "")
        if connect <= request {
            return Failure(
                reason: "\(what) within \(Self.seconds(connect)) s (raise it with --connect-timeout)",
                shortReason: "connect timeout", retryable: true)
        }
        return Failure(
            reason:
                "\(what) within \(Self.seconds(request)) s, the request's whole deadline, shorter than --connect-timeout's \(Self.seconds(connect)) s (raise it with --request-timeout)",
            shortReason: "timeout", retryable: false)
    }

    /// host:port of a URL, for messages (credentials left out).
    static func hostAndPort(of url: String) -> String {
        let origin = origin(of: url)
        return origin.firstRange(of: "://").map { String(origin[$0.upperBound...]) } ?? origin
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
        guard let authority = authorityRange(of: url), let at = url.utf8[authority].lastIndex(of: UInt8(ascii: "@"))
        else { return url }
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
                let end =
                    bytes[start...].firstIndex { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                    ?? bytes.endIndex
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
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
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

    private let state = Mutex(State())

    var records: [DeliveryRecord] { state.withLock { $0.records } }
    var usedTLS: Bool { state.withLock { $0.usedTLS } }
    var traffic: DeliveryTraffic { state.withLock { $0.traffic } }
    func finalURL(of uri: String) -> String? { state.withLock { $0.finalURLs[uri] } }

    func add(_ record: DeliveryRecord) { state.withLock { $0.records.append(record) } }
    func moved(_ uri: String, to final: String) { state.withLock { $0.finalURLs[uri] = final } }
    func noteTLS() { state.withLock { $0.usedTLS = true } }

    /// One answer received (any status, redirects included).
    func count(version: String, bytes: Int) {
        state.withLock {
            $0.traffic.responses += 1
            $0.traffic.bodyBytes += bytes
            $0.traffic.httpVersions[version, default: 0] += 1
        }
    }

    /// Hands over the records so far and starts afresh.
    func take() -> (records: [DeliveryRecord], usedTLS: Bool, traffic: DeliveryTraffic) {
        state.withLock { state in
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

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(available: count)) }

    func acquire() async {
        let granted = state.withLock { state -> Bool in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
        guard !granted else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
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

    /// A permit if one is free now; never waits (the read-ahead, on the HTTP thread, asks again later).
    func tryAcquire() -> Bool {
        state.withLock { state in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

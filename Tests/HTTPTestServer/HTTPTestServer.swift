// A real HTTP/1.1 and HTTP/2 server on 127.0.0.1 for the remote tests: serves a folder, and
// injects the faults a CDN shows (statuses, failures that heal, slow bodies, resets mid-body,
// redirect loops, wrong Content-Type, gzip, basic auth, a live playlist that advances, an
// endless body, a huge Content-Length). Playlists are gzipped for clients that accept it.
// No mock client: hlscheck's own HTTP client talks to it
// over loopback. HTTP/2 is offered as browsers and CDNs offer it: over TLS, chosen by ALPN.

import Foundation
import TestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// What the server does for one path (the path without query).
public enum Fault: Sendable {
    /// Always answer with this status and a short text body.
    case status(Int)
    /// Answer `status` to the first `times` requests, then serve the file.
    case failFirst(times: Int, status: Int)
    /// Send the head at once, then the body in `chunks` pieces, `delayMilliseconds` apart.
    case slowBody(chunks: Int, delayMilliseconds: Int)
    /// Announce the whole length, send `bytes` of the body, then close the connection.
    case resetAfter(bytes: Int)
    /// Redirect to this location, as written (relative or absolute), with this status (301,
    /// 302, 303, 307 or 308).
    case redirect(to: String, status: Int = 302)
    /// Serve the file with this Content-Type instead of the one its extension gives.
    case contentType(String)
    /// Serve these bytes, gzip-compressed, with Content-Encoding: gzip.
    case gzip
    /// Require HTTP basic authentication with these credentials (401 otherwise).
    case basicAuth(user: String, password: String)
    /// Serve the text the closure gives for the n-th request (from 0) of this path.
    case dynamic(@Sendable (Int) -> String)
    /// Answer with the status and playlist text the closure gives for the request's query (what
    /// follows "?", empty without one): an origin that reads delivery directives.
    case respond(@Sendable (_ query: String) -> (status: Int, body: String))
    /// As `respond`, but a nil from the closure holds the request without ever answering: an
    /// origin whose blocking reloads (bis-22 §6.2.5.2) never return. `mostHeldAtOnce` counts them.
    case respondOrHold(@Sendable (_ query: String) -> (status: Int, body: String)?)
    /// Answer with the status and bytes the closure gives for the path (no query); as
    /// `HTTPTestServer.fallback`, for every path no other fault names.
    case media(@Sendable (_ path: String) -> (status: Int, body: [UInt8]))
    /// A body without end: chunks of `pieceBytes` as fast as the client takes them, no length
    /// announced (chunked over HTTP/1.1, DATA frames over HTTP/2). Stops when the client leaves.
    case endlessBody(pieceBytes: Int)
    /// Announce `Content-Length: declaredBytes` (a lie), send a few bytes, then wait.
    case hugeLength(declaredBytes: Int)
    /// The same with the header's text as given: a length no 64-bit integer holds.
    case declaredLength(String)
    /// Accept the request and never answer (a slowloris the other way round).
    case noAnswer
    /// Serve the file with one more header, `X-Padding`, whose value is this many bytes.
    case oversizedHeader(bytes: Int)
}

/// One request as the server saw it.
public struct ReceivedRequest: Sendable {
    public var path: String
    /// What follows "?" in the request target, nil without one.
    public var query: String? = nil
    public var headers: [(String, String)]
    /// "HTTP/1.1" or "HTTP/2": what the request came over.
    public var httpVersion: String

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// A loopback HTTP server over a folder. `stop()` it at the end of the test.
public final class HTTPTestServer: Sendable {
    public let port: Int
    public let scheme: String
    private let channel: any Channel
    /// The server's own event-loop thread: nothing another test runs on a shared group (a
    /// client in the same process, a busy or blocking handler of another server) can delay its
    /// answers, so a client with a timeout of its own (GStreamer's is 10 s) never sees one.
    private let group: MultiThreadedEventLoopGroup
    private let state: NIOLockedValueBox<ServerState>

    struct ServerState {
        var faults: [String: Fault] = [:]
        var fallback: Fault?
        var counts: [String: Int] = [:]
        var requests: [ReceivedRequest] = []
        var openConnections = 0
        /// Requests held without an answer (`respondOrHold`) whose connection is still open, and
        /// the most there were at once.
        var held = 0
        var mostHeldAtOnce = 0
        /// Tasks waiting for the last connection to close.
        var waitingForNoConnection: [CheckedContinuation<Void, Never>] = []
    }

    /// Serves `folder` on 127.0.0.1 at a free port; with `tls` (certificate and key PEM files),
    /// https; with `http2` too, HTTP/2 is offered first by ALPN ("h2", then "http/1.1").
    public init(folder: String, tls: (certificate: String, key: String)? = nil, http2: Bool = false) async throws {
        precondition(!http2 || tls != nil, "HTTP/2 is offered over TLS only")
        let state = NIOLockedValueBox(ServerState())
        self.state = state
        var sslContext: NIOSSLContext?
        if let tls {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(tls.certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: tls.key, format: .pem)))
            if http2 { configuration.applicationProtocols = ["h2", "http/1.1"] }
            sslContext = try NIOSSLContext(configuration: configuration)
        }
        let context = sslContext
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                try? channel.pipeline.syncOperations.addHandler(ConnectionCounter(state: state))
                let secured = channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                }
                @Sendable func http1(_ channel: any Channel) -> EventLoopFuture<Void> {
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(RequestHandler(folder: folder, state: state))
                    }
                }
                guard http2 else { return secured.flatMap { http1(channel) } }
                return secured.flatMap {
                    channel.configureHTTP2SecureUpgrade(
                        h2ChannelConfigurator: { connection in
                            connection.configureHTTP2Pipeline(mode: .server) { stream in
                                // Each stream sees HTTP/1-style parts: the same handler serves both.
                                stream.eventLoop.makeCompletedFuture {
                                    try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                                    try stream.pipeline.syncOperations.addHandler(
                                        RequestHandler(folder: folder, state: state))
                                }
                            }.map { _ in }
                        },
                        http1ChannelConfigurator: http1)
                }
            }
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        port = channel.localAddress?.port ?? 0
        scheme = tls == nil ? "http" : "https"
    }

    /// The URL of `path` (no leading slash) on this server.
    public func url(_ path: String, userinfo: String? = nil) -> String {
        "\(scheme)://\(userinfo.map { $0 + "@" } ?? "")127.0.0.1:\(port)/\(path)"
    }

    public func inject(_ fault: Fault, at path: String) {
        state.withLockedValue { $0.faults["/" + path] = fault }
    }

    /// What the server does for a path that no `inject` names, instead of serving the folder.
    public func fallback(_ fault: Fault) {
        state.withLockedValue { $0.fallback = fault }
    }

    /// Every request so far, in arrival order.
    public var requests: [ReceivedRequest] { state.withLockedValue { $0.requests } }

    /// The most requests `respondOrHold` held unanswered at the same time.
    public var mostHeldAtOnce: Int { state.withLockedValue { $0.mostHeldAtOnce } }

    /// Connections a client holds open to the server now.
    public var openConnections: Int { state.withLockedValue { $0.openConnections } }

    /// Returns once no client holds a connection open: when the last one closes, not by polling
    /// (a connection that never closes leaves the test to its time limit).
    public func noConnectionOpen() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let open = state.withLockedValue { state in
                if state.openConnections > 0 { state.waitingForNoConnection.append(waiter) }
                return state.openConnections > 0
            }
            if !open { waiter.resume() }
        }
    }

    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// Counts the connections open: one instance per connection, first in its pipeline.
private final class ConnectionCounter: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let state: NIOLockedValueBox<HTTPTestServer.ServerState>

    init(state: NIOLockedValueBox<HTTPTestServer.ServerState>) { self.state = state }

    func channelActive(context: ChannelHandlerContext) {
        state.withLockedValue { $0.openConnections += 1 }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let waiters = state.withLockedValue { state in
            state.openConnections -= 1
            guard state.openConnections == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waitingForNoConnection = [] }
            return state.waitingForNoConnection
        }
        waiters.forEach { $0.resume() }
        context.fireChannelInactive()
    }
}

/// One instance per connection, used only on its channel's event loop.
private final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let folder: String
    let state: NIOLockedValueBox<HTTPTestServer.ServerState>
    private var head: HTTPRequestHead?
    /// Whether this connection's request is held unanswered (`respondOrHold`).
    private var holding = false

    init(folder: String, state: NIOLockedValueBox<HTTPTestServer.ServerState>) {
        self.folder = folder
        self.state = state
    }

    func channelInactive(context: ChannelHandlerContext) {
        if holding { state.withLockedValue { $0.held -= 1 } }
        holding = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            if let head { respond(context: context, head: head) }
            head = nil
        }
    }

    private func respond(context: ChannelHandlerContext, head: HTTPRequestHead) {
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "/")
        let (fault, count) = state.withLockedValue { state -> (Fault?, Int) in
            state.requests.append(
                ReceivedRequest(
                    path: path, query: head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init),
                    headers: head.headers.map { ($0.name, $0.value) },
                    httpVersion: head.version.major == 2 ? "HTTP/2" : "HTTP/\(head.version.major).\(head.version.minor)"
                ))
            let count = state.counts[path, default: 0]
            state.counts[path] = count + 1
            return (state.faults[path] ?? state.fallback, count)
        }
        switch fault {
        case .status(let status)?:
            send(context, status: status, body: Array("status \(status)\n".utf8))
        case .failFirst(let times, let status)? where count < times:
            send(context, status: status, body: Array("status \(status)\n".utf8))
        case .redirect(let location, let status)?:
            send(context, status: status, body: [], extra: [("Location", location)])
        case .oversizedHeader(let bytes)?:
            guard let body = file(path) else { return send(context, status: 404, body: []) }
            send(
                context, status: 200, body: body,
                extra: [("Content-Type", contentType(path)), ("X-Padding", String(repeating: "p", count: bytes))])
        case .basicAuth(let user, let password)?:
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            guard head.headers.first(name: "Authorization") == expected else {
                send(
                    context, status: 401, body: Array("authentication required\n".utf8),
                    extra: [("WWW-Authenticate", "Basic realm=\"test\"")])
                return
            }
            serveFile(context, path: path, head: head)
        case .dynamic(let text)?:
            sendPlaylist(context, head: head, body: Array(text(count).utf8))
        case .respond(let answer)?:
            let (status, body) = answer(
                head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "")
            sendPlaylist(context, head: head, status: status, body: Array(body.utf8))
        case .respondOrHold(let answer)?:
            guard
                let (status, body) = answer(
                    head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "")
            else {
                holding = true
                state.withLockedValue { state in
                    state.held += 1
                    state.mostHeldAtOnce = max(state.mostHeldAtOnce, state.held)
                }
                return
            }
            sendPlaylist(context, head: head, status: status, body: Array(body.utf8))
        case .media(let answer)?:
            let (status, body) = answer(path)
            send(context, status: status, body: body, extra: [("Content-Type", "video/mp2t")])
        case .contentType(let type)?:
            serveFile(context, path: path, head: head, contentType: type)
        case .gzip?:
            guard let bytes = file(path) else { return send(context, status: 404, body: []) }
            send(
                context, status: 200, body: gzip(bytes),
                extra: [("Content-Encoding", "gzip"), ("Content-Type", contentType(path))])
        case .slowBody(let chunks, let delay)?:
            guard let bytes = file(path) else { return send(context, status: 404, body: []) }
            var headers = HTTPHeaders([("Content-Length", "\(bytes.count)"), ("Content-Type", contentType(path))])
            // HTTP/2 forbids connection-specific headers (RFC 9113 §8.2.2).
            if head.version.major < 2 { headers.add(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))),
                promise: nil)
            context.flush()
            let size = max(1, (bytes.count + chunks - 1) / max(1, chunks))
            let pieces = stride(from: 0, to: bytes.count, by: size).map {
                Array(bytes[$0..<min(bytes.count, $0 + size)])
            }
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            for (index, piece) in pieces.enumerated() {
                loop.scheduleTask(in: .milliseconds(Int64(delay * (index + 1)))) {
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    context.writeAndFlush(
                        handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
                    if index == pieces.count - 1 {
                        context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
                    }
                }
            }
        case .resetAfter(let sent)?:
            guard let bytes = file(path) else { return send(context, status: 404, body: []) }
            let headers = HTTPHeaders([("Content-Length", "\(bytes.count)"), ("Content-Type", contentType(path))])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))),
                promise: nil)
            context.writeAndFlush(
                wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes.prefix(sent))))), promise: nil)
            context.close(promise: nil)
        case .endlessBody(let size)?:
            let head = HTTPResponseHead(
                version: head.version, status: .ok, headers: HTTPHeaders([("Content-Type", contentType(path))]))
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            writeForever(context, piece: ByteBuffer(repeating: UInt8(ascii: "#"), count: max(1, size)))
        case .noAnswer?:
            break
        case .hugeLength(let declared)?:
            lieAboutLength(context, head: head, path: path, declared: "\(declared)")
        case .declaredLength(let declared)?:
            lieAboutLength(context, head: head, path: path, declared: declared)
        default:
            serveFile(context, path: path, head: head)
        }
    }

    /// Announces `declared` as the Content-Length, sends a few bytes, then waits.
    private func lieAboutLength(_ context: ChannelHandlerContext, head: HTTPRequestHead, path: String, declared: String)
    {
        let headers = HTTPHeaders([("Content-Length", declared), ("Content-Type", contentType(path))])
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil
        )
        context.writeAndFlush(
            wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: Array(repeating: 0x47, count: 188))))), promise: nil)
    }

    /// Writes `piece` again each time the previous write is done, until the channel closes:
    /// as fast as the client reads, never faster (memory stays flat on both sides).
    private func writeForever(_ context: ChannelHandlerContext, piece: ByteBuffer) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(piece)))).whenComplete { result in
            guard case .success = result else { return }
            // Through the loop, not inline: a write that completes at once must not recurse.
            loop.execute {
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                handler.writeForever(context, piece: piece)
            }
        }
    }

    private func file(_ path: String) -> [UInt8]? {
        let relative = path.split(separator: "/").filter { $0 != ".." }.joined(separator: "/")
        return FileManager.default.contents(atPath: folder + "/" + relative).map { Array($0) }
    }

    private func contentType(_ path: String) -> String {
        if path.hasSuffix(".m3u8") { return "application/vnd.apple.mpegurl" }
        if path.hasSuffix(".ts") { return "video/mp2t" }
        if path.hasSuffix(".aac") { return "audio/aac" }
        return "application/octet-stream"
    }

    /// A file, or the byte range the Range header asks for (206).
    private func serveFile(
        _ context: ChannelHandlerContext, path: String, head: HTTPRequestHead, contentType type: String? = nil
    ) {
        guard let bytes = file(path) else { return send(context, status: 404, body: Array("not found\n".utf8)) }
        if let range = head.headers.first(name: "Range"), range.hasPrefix("bytes=") {
            let bounds = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            if bounds.count == 2, let start = bounds[0], let end = bounds[1], start <= end, start < bytes.count {
                let last = min(end, bytes.count - 1)
                send(
                    context, status: 206, body: Array(bytes[start...last]),
                    extra: [
                        ("Content-Type", type ?? contentType(path)),
                        ("Content-Range", "bytes \(start)-\(last)/\(bytes.count)"),
                    ])
                return
            }
            // RFC 9110 §15.5.17: a range that starts past the end is unsatisfiable.
            if bounds.count == 2, let start = bounds[0], start >= bytes.count {
                return send(
                    context, status: 416, body: Array("range not satisfiable\n".utf8),
                    extra: [("Content-Range", "bytes */\(bytes.count)")])
            }
        }
        // Playlists are gzipped for a client that accepts it, as a well-configured origin does
        // (AS 10.1); `.contentType` serves them as they are.
        if type == nil, path.hasSuffix(".m3u8") { return sendPlaylist(context, head: head, body: bytes) }
        send(context, status: 200, body: bytes, extra: [("Content-Type", type ?? contentType(path))])
    }

    /// A playlist body, gzipped when the request accepts gzip.
    private func sendPlaylist(_ context: ChannelHandlerContext, head: HTTPRequestHead, status: Int = 200, body: [UInt8])
    {
        let type = ("Content-Type", "application/vnd.apple.mpegurl")
        guard (200..<300).contains(status),
            head.headers.first(name: "Accept-Encoding")?.lowercased().contains("gzip") == true
        else {
            return send(context, status: status, body: body, extra: [type])
        }
        send(context, status: status, body: gzip(body), extra: [type, ("Content-Encoding", "gzip")])
    }

    private func send(_ context: ChannelHandlerContext, status: Int, body: [UInt8], extra: [(String, String)] = []) {
        var headers = HTTPHeaders(extra)
        headers.add(name: "Content-Length", value: "\(body.count)")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// gzip through the gzip command (on every Debian and macOS machine): the test needs real
    /// gzip bytes, not a second implementation of deflate.
    private func gzip(_ bytes: [UInt8]) -> [UInt8] {
        guard
            let outcome = try? ChildProcess("gzip", ["-c", "-n"], environment: [:], input: .bytes(bytes)).wait(),
            outcome.termination == .exited(0)
        else { return bytes }
        return outcome.standardOutput
    }
}

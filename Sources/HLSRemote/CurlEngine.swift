// The HTTP transport under RemoteFetcher: libcurl's multi interface, driven by one thread of
// its own per fetcher.
//
// Why a thread of its own and the multi interface (not an easy handle per request on a thread
// each, nor curl called from Swift tasks): curl_easy_perform and curl_multi_poll block, and a
// blocked thread of Swift's cooperative pool (two threads on a 2-core machine) stalls every task
// of the run, the inspections among them. One thread running one multi handle carries every
// request of the run: the connections are pooled and reused (keep-alive, HTTP/2 streams
// multiplexed on one connection), the number of threads does not grow with
// `--http-connections`, and a request costs an easy handle, not a thread. Requests are handed
// to the thread through a locked queue and curl_multi_wakeup; answers go back through a
// completion called on that thread (a continuation resumed, or the read-ahead starting its next
// request at once).

import CCurl
import Glibc
import MediaInspection
import Synchronization

/// One GET in flight: its easy handle and what its callbacks gathered. Everything but `id` is
/// touched on the engine's thread only (curl's callbacks run there, and so does the
/// completion), so the state needs no lock; `@unchecked Sendable` lets a task hold it to cancel.
final class CurlTransfer: @unchecked Sendable {
    /// What came back: the head (status, headers) and the body within its bounds.
    struct Collected: Sendable {
        var status: Int?
        var reasonPhrase = ""
        /// (major, minor) of the status line: (1, 1), (2, 0).
        var version = (major: 1, minor: 1)
        /// Header fields of the final answer, names lowercased; the last of a repeated field.
        var headers: [String: String] = [:]
        var bytes: [UInt8] = []

        func header(_ name: String) -> String? { headers[name] }
    }

    /// How the transfer ended, as the engine saw it.
    struct Finished: Sendable {
        var code: CURLcode
        /// curl's own words for a failure (CURLOPT_ERRORBUFFER).
        var message: String
        /// errno of the last socket call that failed (CURLINFO_OS_ERRNO).
        var osErrno: Int
        /// The head of the answer ended (its empty line came).
        var headEnded = false
        var collected: Collected
        /// Body bytes received, after decoding, skipped ones included.
        var received: Int
        /// Why a callback ended the transfer early: a limit, or `enough`.
        var abort: Abort?
        var cancelled: Bool
    }

    enum Abort: Sendable {
        /// The range asked for is complete (a server that ignored Range): the rest is not read.
        case enough
        case failure(RemoteFetcher.Failure)
    }

    let range: SegmentByteRange?
    let maximumBytes: Int
    let limitFlag: String
    fileprivate let handle: UnsafeMutableRawPointer
    fileprivate var headerList: UnsafeMutablePointer<curl_slist>?
    fileprivate let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    fileprivate var completion: (@Sendable (Finished) -> Void)?
    private let engine: CurlEngine

    // Gathered by the callbacks.
    private var collected = Collected()
    /// Body bytes as they came over the wire (compressed ones, for a gzip body).
    private var wireBytes = 0
    /// Set while a gzip or deflate body is inflated; `inflated` once its end was reached.
    private var inflater: UnsafeMutablePointer<z_stream>?
    private var inflated = false
    private var headEnded = false
    private var keeps = false
    private var skip = 0
    private var received = 0
    private var abort: Abort?

    fileprivate init(
        engine: CurlEngine, handle: UnsafeMutableRawPointer, range: SegmentByteRange?, maximumBytes: Int,
        limitFlag: String
    ) {
        self.engine = engine
        self.handle = handle
        self.range = range
        self.maximumBytes = maximumBytes
        self.limitFlag = limitFlag
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        if let inflater {
            inflateEnd(inflater)
            inflater.deallocate()
        }
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Hands the request to the engine's thread; `completion` runs there once it has ended.
    func start(_ completion: @escaping @Sendable (Finished) -> Void) { engine.start(self, completion: completion) }

    /// Ends the request; its completion runs with `cancelled` set (unless it finished first).
    func cancel() { engine.cancel(self) }

    fileprivate func finished(code: CURLcode, cancelled: Bool) -> Finished {
        // A compressed body that stopped before its end: what was inflated is not the body.
        if code == CURLE_OK, abort == nil, inflater != nil, wireBytes > 0, !inflated {
            abort = .failure(RemoteFetcher.badEncodingFailure)
        }
        var osErrno = 0
        _ = hls_curl_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
        return Finished(
            code: code, message: String(cString: errorBuffer), osErrno: osErrno, headEnded: headEnded,
            collected: collected, received: received, abort: abort, cancelled: cancelled)
    }

    /// One header line (CRLF included) of any answer: a status line starts an answer afresh (a
    /// 100 Continue comes before the real one), the empty line ends its head.
    fileprivate func headerLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // Without the line break, as bytes: "\r\n" is one Character, which a test for "\r" misses.
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\r") || line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let text = Substring(String(decoding: UnsafeBufferPointer(rebasing: line[..<end]), as: UTF8.self))
        if text.hasPrefix("HTTP/") {
            collected = Collected()
            headEnded = false
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            let version = parts[0].dropFirst("HTTP/".count).split(separator: ".")
            collected.version = (Int(version.first ?? "1") ?? 1, version.count > 1 ? Int(version[1]) ?? 0 : 0)
            collected.status = parts.count > 1 ? Int(parts[1]) : nil
            collected.reasonPhrase = parts.count > 2 ? String(parts[2]) : ""
            return true
        }
        if text.isEmpty {
            guard let status = collected.status, status >= 200 else { return true }
            headEnded = true
            return endOfHead(status)
        }
        if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].lowercased()
            var value = text[text.index(after: colon)...]
            while value.first == " " || value.first == "\t" { value.removeFirst() }
            while value.last == " " || value.last == "\t" { value.removeLast() }
            collected.headers[name] = String(value)
        }
        return true
    }

    /// The head is complete: a declared length over the limit ends the transfer before its body.
    private func endOfHead(_ status: Int) -> Bool {
        keeps = (200..<300).contains(status)
        // A range asked for and answered whole (200): the server ignores Range; cut it here.
        skip = range != nil && status == 200 ? range?.offset ?? 0 : 0
        // A length of digits that no Int holds (past 2^63 − 1) is over any limit too.
        if keeps, range == nil, let declared = collected.header("content-length"),
            Int(declared).map({ $0 > maximumBytes })
                ?? (!declared.isEmpty && declared.utf8.allSatisfy { (0x30...0x39).contains($0) })
        {
            abort = .failure(
                RemoteFetcher.Failure(
                    reason: "\(declared) bytes, over the limit of \(maximumBytes) (raise it with \(limitFlag))",
                    shortReason: "too large",
                    status: status, retryable: false))
            return false
        }
        // gzip and deflate, as Accept-Encoding offered them (docs/remote.md, "compression").
        let encoding = collected.header("content-encoding")?.lowercased()
        if keeps, encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate" {
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard hls_inflate_init(stream) == Z_OK else {
                stream.deallocate()
                abort = .failure(
                    RemoteFetcher.Failure(
                        reason: "cannot inflate the gzip body (out of memory)", shortReason: "bad gzip",
                        retryable: false))
                return false
            }
            inflater = stream
        }
        let expected = range?.length ?? collected.header("content-length").flatMap { Int($0) }.map { $0 - skip } ?? 0
        // Never more than the limit, nor more than a lying header can make us hold unused.
        if keeps { collected.bytes.reserveCapacity(max(0, min(expected, maximumBytes, 16 << 20))) }
        return true
    }

    /// Body bytes as they came over the wire. False ends the transfer: the range is complete, a
    /// limit passed, or a compressed body is broken.
    fileprivate func body(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        wireBytes += chunk.count
        guard let inflater else { return take(chunk) }
        guard keeps, !inflated, chunk.count > 0 else { return true }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 << 10)
        defer { output.deallocate() }
        inflater.pointee.next_in = UnsafeMutablePointer(mutating: chunk.baseAddress)
        inflater.pointee.avail_in = UInt32(chunk.count)
        repeat {
            inflater.pointee.next_out = output
            inflater.pointee.avail_out = 64 << 10
            let status = inflate(inflater, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                abort = .failure(RemoteFetcher.badEncodingFailure)
                return false
            }
            let produced = (64 << 10) - Int(inflater.pointee.avail_out)
            if produced > 0, !take(UnsafeBufferPointer(start: output, count: produced)) { return false }
            // Against the bytes that came over the wire so far (docs/security.md).
            if received > RemoteFetcher.inflationRatio * wireBytes {
                abort = .failure(RemoteFetcher.inflationFailure)
                return false
            }
            if status == Z_STREAM_END {
                inflated = true
                break
            }
            if status == Z_BUF_ERROR || produced == 0 && inflater.pointee.avail_in == 0 { break }
        } while inflater.pointee.avail_in > 0 || inflater.pointee.avail_out == 0
        return true
    }

    /// Body bytes, decoded, within the range and the limit.
    private func take(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        received += chunk.count
        guard keeps else { return true }
        var chunk = chunk[...]
        if skip > 0 {
            let skipped = min(chunk.count, skip)
            chunk = chunk.dropFirst(skipped)
            skip -= skipped
        }
        collected.bytes.append(contentsOf: chunk)
        if let range, collected.bytes.count >= range.length {
            collected.bytes.removeLast(collected.bytes.count - range.length)
            keeps = false
            abort = .enough
            return false
        }
        if collected.bytes.count > maximumBytes {
            collected.bytes = []
            keeps = false
            abort = .failure(
                RemoteFetcher.Failure(
                    reason: "more than \(maximumBytes) bytes, over the limit (raise it with \(limitFlag))",
                    shortReason: "too large",
                    status: collected.status, retryable: false))
            return false
        }
        return true
    }
}

/// The request a fetcher asks the engine for.
struct CurlRequest {
    var url: String
    var headers: [String]
    var userAgent: String
    var user: String?
    var password: String?
    var insecure: Bool
    var connectTimeoutMilliseconds: Int
    var timeoutMilliseconds: Int
}

/// One multi handle and the thread that drives it (see the top of this file).
final class CurlEngine: @unchecked Sendable {
    private struct Queue {
        var added: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        /// Set once, with the last wakeup: every curl_multi_wakeup is made under the lock while
        /// this is false, and the thread frees the multi handle only after it saw it true, so no
        /// wakeup can reach a freed handle.
        var stopping = false
        /// The thread has ended and the multi handle is gone.
        var ended = false
        var stopped: [CheckedContinuation<Void, Never>] = []
    }

    /// Used on the engine's thread only, but for curl_multi_wakeup (thread-safe by curl's contract).
    private let multi: UnsafeMutableRawPointer
    private let queue = Mutex(Queue())
    /// In flight, by easy handle: the engine's thread only.
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private static let initialized: Bool = hls_curl_global_init() == CURLE_OK

    /// `maximumConnections`: connections per host (requests beyond wait for one).
    init(maximumConnections: Int) {
        _ = Self.initialized
        multi = curl_multi_init()
        _ = hls_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maximumConnections))
        // HTTP/2 streams share one connection (curl's default since 7.62; said here because it matters).
        _ = hls_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                let engine = Unmanaged<CurlEngine>.fromOpaque(context!).takeRetainedValue()
                engine.run()
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<CurlEngine>.fromOpaque(context).release()
        }
    }

    /// Makes the easy handle for `request`; nil when curl cannot (out of memory).
    func transfer(
        _ request: CurlRequest, range: SegmentByteRange?, maximumBytes: Int, limitFlag: String
    ) -> CurlTransfer? {
        guard let handle = curl_easy_init() else { return nil }
        let transfer = CurlTransfer(
            engine: self, handle: handle, range: range, maximumBytes: maximumBytes, limitFlag: limitFlag)
        _ = hls_curl_easy_setopt_string(handle, CURLOPT_URL, request.url)
        _ = hls_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed by RemoteFetcher, hop by hop (each judged and recorded).
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        // HTTP/2 where TLS's ALPN offers it, HTTP/1.1 otherwise.
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // A request waits for a connection that may carry it as an HTTP/2 stream rather than
        // opening one more.
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
        // No signals: timeouts are curl's own timers, and the process has threads.
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, request.connectTimeoutMilliseconds))
        // One deadline for the whole exchange, head and body: a body that trickles is cut off.
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, request.timeoutMilliseconds))
        _ = hls_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, request.userAgent)
        // Bodies come as they were sent; CurlTransfer inflates gzip itself (shim.h says why).
        _ = hls_curl_easy_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        if let user = request.user {
            _ = hls_curl_easy_setopt_string(handle, CURLOPT_USERNAME, user)
            _ = hls_curl_easy_setopt_string(handle, CURLOPT_PASSWORD, request.password ?? "")
        }
        if request.insecure {
            _ = hls_curl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
            _ = hls_curl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
        }
        for header in request.headers { transfer.headerList = curl_slist_append(transfer.headerList, header) }
        if let list = transfer.headerList { _ = hls_curl_easy_setopt_list(handle, CURLOPT_HTTPHEADER, list) }
        _ = hls_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        _ = hls_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = hls_curl_easy_setopt_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            let line = UnsafeBufferPointer(
                start: UnsafeRawPointer(buffer)?.assumingMemoryBound(to: UInt8.self), count: size * count)
            return transfer.headerLine(line) ? size * count : 0
        }
        _ = hls_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = hls_curl_easy_setopt_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            let chunk = UnsafeBufferPointer(
                start: UnsafeRawPointer(buffer)?.assumingMemoryBound(to: UInt8.self), count: size * count)
            return transfer.body(chunk) ? size * count : 0
        }
        return transfer
    }

    /// Starts `transfer`; `completion` runs once, on the engine's thread, when it has ended.
    fileprivate func start(_ transfer: CurlTransfer, completion: @escaping @Sendable (CurlTransfer.Finished) -> Void) {
        transfer.completion = completion
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.stopping else { return false }
            queue.added.append(transfer)
            curl_multi_wakeup(multi)
            return true
        }
        guard accepted else {
            completion(transfer.finished(code: CURLE_ABORTED_BY_CALLBACK, cancelled: true))
            return
        }
    }

    fileprivate func cancel(_ transfer: CurlTransfer) {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.cancelled.append(transfer)
            curl_multi_wakeup(multi)
        }
    }

    /// Asks the thread to end every transfer still running and itself, and returns at once.
    func stop() {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.stopping = true
            curl_multi_wakeup(multi)
        }
    }

    /// Ends every transfer still running and the thread; returns once the thread is done.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = queue.withLock { queue -> Bool in
                if queue.ended { return true }
                queue.stopped.append(continuation)
                if !queue.stopping {
                    queue.stopping = true
                    curl_multi_wakeup(multi)
                }
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// The engine's thread: hands new requests to curl, lets it move every transfer on, completes
    /// those that ended, and sleeps in curl_multi_poll until a socket is ready, a timer of curl's
    /// is due, or curl_multi_wakeup is called.
    private func run() {
        while true {
            let (added, cancelled, stopping) = queue.withLock { queue in
                defer {
                    queue.added = []
                    queue.cancelled = []
                }
                return (queue.added, queue.cancelled, queue.stopping)
            }
            for transfer in added {
                running[transfer.handle] = transfer
                curl_multi_add_handle(multi, transfer.handle)
            }
            for transfer in cancelled where running[transfer.handle] === transfer {
                complete(transfer, code: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
            }
            if stopping {
                for transfer in Array(running.values) {
                    complete(transfer, code: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
                }
                break
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = running[handle]
                else { continue }
                complete(transfer, code: hls_curl_message_result(message), cancelled: false)
            }
            // Transfers that ended may have queued the next requests (the read-ahead does):
            // look at the queue again before sleeping.
            let queued = queue.withLock { !$0.added.isEmpty || !$0.cancelled.isEmpty || $0.stopping }
            if !queued { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
        curl_multi_cleanup(multi)
        let stopped = queue.withLock { queue in
            queue.ended = true
            defer { queue.stopped = [] }
            return queue.stopped
        }
        for continuation in stopped { continuation.resume() }
    }

    private func complete(_ transfer: CurlTransfer, code: CURLcode, cancelled: Bool) {
        curl_multi_remove_handle(multi, transfer.handle)
        running[transfer.handle] = nil
        let finished = transfer.finished(code: code, cancelled: cancelled)
        let completion = transfer.completion
        transfer.completion = nil
        completion?(finished)
    }
}

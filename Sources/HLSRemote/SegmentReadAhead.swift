import MediaFormats
import MediaInspection
import StreamSources
import Synchronization

/// A segment a read-ahead plans to fetch: its URL and byte range.
struct SegmentReadAheadKey: Hashable, Sendable {
    var uri: String
    var range: SegmentByteRange?
}

/// Fetches one batch of segments ahead of the inspector, in playlist order, so that the next
/// segments travel while the current ones are inspected ("fetch and inspect
/// overlap").
///
/// The fetches are started without a Swift task: `fetch` sends a request and calls back when
/// its answer is complete, and that callback, on the HTTP thread (CurlEngine), starts the next
/// planned request at once. A reader whose body has arrived takes it without waiting; only a
/// reader that is ahead of the network suspends. (With a task per fetch, each answer woke a
/// task to hand over the body and start the next one: about a third of the client's CPU per
/// request on loopback, and no fetch could start while the inspection tasks held every thread,
/// e.g. while the first of them waits for FFmpeg to load.)
///
/// Bounded four ways: at most `window` segments fetched and not yet read; no new fetch while the
/// fetched, unread bodies hold `byteBudget` bytes or more; at most `maximumInFlight` requests of
/// its own in flight; and each of them holds one of the fetcher's `--http-connections` permits
/// (`permits`), taken without waiting: a fetch that finds none free is started later, or read by
/// its reader. A segment is fetched ahead at most once per time it is planned; a read the plan
/// does not hold (an init section, a key, a segment read twice, a segment whose turn has not
/// come) goes to the network as before.
final class SegmentReadAhead<Value: Sendable>: Sendable {
    typealias Key = SegmentReadAheadKey
    /// Cancels one fetch started ahead.
    typealias Cancel = @Sendable () -> Void
    /// Starts fetching `key`; calls the completion exactly once, on any thread, with the answer.
    typealias Fetch = @Sendable (Key, @escaping @Sendable (Value) -> Void) -> Cancel?

    /// One fetch started ahead: its answer once it came, and the reader waiting for it.
    final class Pending: Sendable {
        private struct State {
            var value: Value?
            var waiter: CheckedContinuation<Value, Never>?
            var cancel: Cancel?
            var cancelled = false
        }

        private let state = Mutex(State())

        /// The answer; waits for it when it has not come yet. Cancelling the reader cancels the fetch
        /// (its answer is then the fetch's cancellation failure).
        func value() async -> Value {
            if let value = state.withLock({ $0.value }) { return value }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                    let ready = state.withLock { state -> Value? in
                        if let value = state.value { return value }
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                cancel()
            }
        }

        var isComplete: Bool { state.withLock { $0.value != nil } }

        func complete(_ value: Value) {
            let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
                guard state.value == nil else { return nil }
                state.value = value
                state.cancel = nil
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: value)
        }

        /// How to cancel the fetch, once it was started; at once when it was cancelled before.
        func started(_ cancel: Cancel?) {
            let now = state.withLock { state -> Bool in
                guard state.value == nil else { return false }
                state.cancel = cancel
                return state.cancelled
            }
            if now { cancel?() }
        }

        func cancel() {
            let cancel = state.withLock { state -> Cancel? in
                state.cancelled = true
                return state.value == nil ? state.cancel : nil
            }
            cancel?()
        }
    }

    private struct Entry {
        var pending: Pending
        /// The body's size once it arrived, while nobody has read it.
        var readyBytes: Int?
    }

    private struct State {
        /// Plan positions of each key not yet read, in order.
        var positions: [Key: ArraySlice<Int>]
        /// The next plan position to fetch ahead.
        var next = 0
        /// Fetched ahead (or being fetched) and not yet read, by plan position.
        var running: [Int: Entry] = [:]
        /// Positions read before their turn came: fetched directly, skipped here.
        var readEarly: Set<Int> = []
        /// Bytes of the bodies that arrived and wait to be read.
        var readyBytes = 0
        /// Requests of this read-ahead in flight.
        var inFlight = 0
        var stopped = false
        /// Fetches started ahead so far.
        var started = 0
    }

    private let plan: [Key]
    private let fetch: Fetch
    private let size: @Sendable (Value) -> Int
    private let window: Int
    private let byteBudget: Int
    private let maximumInFlight: Int
    private let permits: Permits?
    private let state: Mutex<State>

    /// `fetch` starts one segment's request; `size` is the bytes an answer holds.
    init(
        plan: [Key], window: Int, byteBudget: Int, maximumInFlight: Int, permits: Permits? = nil,
        size: @escaping @Sendable (Value) -> Int, fetch: @escaping Fetch
    ) {
        self.plan = plan
        self.fetch = fetch
        self.size = size
        self.window = max(1, window)
        self.byteBudget = max(1, byteBudget)
        self.maximumInFlight = max(1, maximumInFlight)
        self.permits = permits
        var positions: [Key: ArraySlice<Int>] = [:]
        for (position, key) in plan.enumerated() { positions[key, default: []].append(position) }
        state = Mutex(State(positions: positions))
    }

    /// Starts the first fetches.
    func start() {
        launch(state.withLock { topUp(&$0) })
    }

    /// Cancels what is still fetched ahead; later reads go to the network directly.
    func stop() {
        let abandoned = state.withLock { state -> [Pending] in
            state.stopped = true
            defer { state.running = [:] }
            return state.running.values.map(\.pending)
        }
        for pending in abandoned where !pending.isComplete { pending.cancel() }
    }

    /// The fetch of `key` planned next, if there is one, and the window moved on; nil when the
    /// plan does not hold it or its turn has not come (read it directly).
    func take(_ key: Key) -> Pending? {
        let (taken, starts) = state.withLock { state -> (Pending?, [(Int, Pending)]) in
            guard !state.stopped, let position = state.positions[key]?.popFirst() else { return (nil, []) }
            let taken: Pending?
            if let entry = state.running.removeValue(forKey: position) {
                state.readyBytes -= entry.readyBytes ?? 0
                taken = entry.pending
            } else {
                state.readEarly.insert(position)
                taken = nil
            }
            return (taken, topUp(&state))
        }
        launch(starts)
        return taken
    }

    /// Fetches started ahead so far (tests).
    var started: Int { state.withLock { $0.started } }

    /// Reserves the fetches the window, the byte budget and the permits allow now; `launch`
    /// starts them once the lock is released (a fetch may complete at once).
    private func topUp(_ state: inout State) -> [(Int, Pending)] {
        var starts: [(Int, Pending)] = []
        while !state.stopped, state.next < plan.count, state.running.count < window, state.readyBytes < byteBudget,
            state.inFlight < maximumInFlight
        {
            let position = state.next
            if state.readEarly.remove(position) != nil {
                state.next += 1
                continue
            }
            if let permits, !permits.tryAcquire() { break }
            state.next += 1
            state.inFlight += 1
            state.started += 1
            let pending = Pending()
            state.running[position] = Entry(pending: pending)
            starts.append((position, pending))
        }
        return starts
    }

    private func launch(_ starts: [(Int, Pending)]) {
        for (position, pending) in starts {
            pending.started(fetch(plan[position]) { value in self.arrived(position, pending, value) })
        }
    }

    private func arrived(_ position: Int, _ pending: Pending, _ value: Value) {
        pending.complete(value)
        permits?.release()
        let byteCount = size(value)
        launch(
            state.withLock { state in
                state.inFlight -= 1
                if state.running[position]?.pending === pending {
                    state.running[position]?.readyBytes = byteCount
                    state.readyBytes += byteCount
                }
                return topUp(&state)
            })
    }
}

/// The remote source as seen by the inspector during one batch: reads the plan holds come from
/// the read-ahead (its answer is the first attempt of an ordinary fetch: retried, followed or
/// reported as if the read had made it), everything else from `base`.
struct ReadAheadSegmentSource: SegmentByteSource {
    var base: RemoteSegmentSource
    var ahead: SegmentReadAhead<RemoteFetcher.FirstAttempt>

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        guard let pending = ahead.take(SegmentReadAheadKey(uri: uri, range: range)) else {
            return try await base.read(uri, range: range)
        }
        return try await base.read(uri, range: range, firstAttempt: await pending.value())
    }

    /// A local file is opened where it lies (never fetched ahead); a remote body as `read` has it.
    func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        guard URIScheme.isRemote(uri) else { return try await base.open(uri, range: range) }
        return InMemoryBytes(try await read(uri, range: range))
    }

    func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        base.residentByteEstimate(uri, range: range)
    }
}

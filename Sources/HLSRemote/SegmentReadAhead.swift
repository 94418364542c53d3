public import MediaInspection
import NIOConcurrencyHelpers

/// Fetches one batch of segments ahead of the inspector, in playlist order, so that the next
/// segments travel while the current ones are inspected (issue 11: "fetch and inspect
/// overlap"). Without it each inspection slot fetched, then inspected: on two cores the CPU
/// waited for every response.
///
/// Bounded three ways: at most `window` segments fetched and not yet read; no new fetch while
/// the fetched, unread bodies hold `byteBudget` bytes or more; and requests in flight stay
/// within the fetcher's `--http-connections` permits (a fetch ahead waits for a permit like any
/// other). A segment is fetched ahead at most once per time it is planned; a read the plan does
/// not hold (an init section, a key, a segment read twice) goes to the network as before.
final class SegmentReadAhead: Sendable {
    struct Key: Hashable, Sendable {
        var uri: String
        var range: SegmentByteRange?
    }

    private struct Entry {
        var task: Task<[UInt8], any Error>
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
        var stopped = false
        /// Fetches started ahead so far.
        var started = 0
    }

    private let plan: [Key]
    private let fetch: @Sendable (Key) async throws -> [UInt8]
    private let window: Int
    private let byteBudget: Int
    private let state: NIOLockedValueBox<State>

    /// `fetch` reads one segment (RemoteSegmentSource.read): its failures are the read's.
    init(plan: [Key], window: Int, byteBudget: Int, fetch: @escaping @Sendable (Key) async throws -> [UInt8]) {
        self.plan = plan
        self.fetch = fetch
        self.window = max(1, window)
        self.byteBudget = max(1, byteBudget)
        var positions: [Key: ArraySlice<Int>] = [:]
        for (position, key) in plan.enumerated() { positions[key, default: []].append(position) }
        state = NIOLockedValueBox(State(positions: positions))
    }

    /// Fetches the first `window` segments.
    func start() {
        state.withLockedValue { topUp(&$0) }
    }

    /// Cancels what is still fetched ahead; later reads go to the network directly.
    func stop() {
        let abandoned = state.withLockedValue { state -> [Task<[UInt8], any Error>] in
            state.stopped = true
            defer { state.running = [:] }
            return state.running.values.map(\.task)
        }
        for task in abandoned { task.cancel() }
    }

    /// The fetch of `key` planned next, if there is one (started now when its turn has not come),
    /// and the window moved on; nil when the plan does not hold it (read it directly).
    func take(_ key: Key) -> Task<[UInt8], any Error>? {
        state.withLockedValue { state in
            guard !state.stopped, let position = state.positions[key]?.popFirst() else { return nil }
            let taken: Task<[UInt8], any Error>?
            if let entry = state.running.removeValue(forKey: position) {
                state.readyBytes -= entry.readyBytes ?? 0
                taken = entry.task
            } else {
                state.readEarly.insert(position)
                taken = nil
            }
            topUp(&state)
            return taken
        }
    }

    /// Starts fetches ahead while the window and the byte budget allow.
    private func topUp(_ state: inout State) {
        while !state.stopped, state.next < plan.count, state.running.count < window, state.readyBytes < byteBudget {
            let position = state.next
            state.next += 1
            if state.readEarly.remove(position) != nil { continue }
            let key = plan[position], fetch = fetch
            state.started += 1
            state.running[position] = Entry(task: Task {
                let bytes = try await fetch(key)
                self.arrived(position, byteCount: bytes.count)
                return bytes
            })
        }
    }

    /// Fetches started ahead so far (tests).
    var started: Int { state.withLockedValue { $0.started } }

    private func arrived(_ position: Int, byteCount: Int) {
        state.withLockedValue { state in
            guard state.running[position] != nil else { return }
            state.running[position]?.readyBytes = byteCount
            state.readyBytes += byteCount
        }
    }
}

/// The remote source as seen by the inspector during one batch: reads the plan holds come from
/// the read-ahead, everything else from `base`.
struct ReadAheadSegmentSource: SegmentByteSource {
    var base: RemoteSegmentSource
    var ahead: SegmentReadAhead

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        guard let task = ahead.take(SegmentReadAhead.Key(uri: uri, range: range)) else {
            return try await base.read(uri, range: range)
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        base.residentByteEstimate(uri, range: range)
    }
}

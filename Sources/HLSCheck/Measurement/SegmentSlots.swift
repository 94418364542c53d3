/// A bound on the segments inspected at once across every stream of a run, shared by the
/// checkers of concurrently checked streams: with `--jobs N` streams in flight, each allowed
/// `maxConcurrentSegments` of its own, the total still never exceeds `capacity` (no N × fan-out,
/// and no more segment bytes held in memory than `capacity` segments). Waiters are served first
/// come, first served. Also counts the segments done, for a progress line.
package actor SegmentSlots {
    package nonisolated let capacity: Int
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// `waiting[head...]` still wait; the prefix is compacted away now and then.
    private var head = 0
    /// Segments inspected (or found unreadable) so far.
    package private(set) var completed = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.available = max(1, capacity)
    }

    /// Waits for a free slot. Every `acquire` must be followed by one `release`.
    package func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Frees a slot (handing it to the longest waiter) and counts one segment done.
    package func release() {
        completed += 1
        guard head < waiting.count else {
            available += 1
            return
        }
        let next = waiting[head]
        head += 1
        if head > 256, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        next.resume()
    }
}

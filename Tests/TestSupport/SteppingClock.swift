import Synchronization

/// A clock whose time moves only when its owner sleeps on it: `sleep(until:)` makes that instant
/// the clock's time at once and returns. Code that schedules itself by such a clock takes the
/// same steps whatever the machine's load, and a watch of 10 s costs the work it does, not 10 s.
public final class SteppingClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let time = Mutex(Duration.zero)

    public init() {}

    public var now: Instant { Instant(offset: time.withLock { $0 }) }
    public var minimumResolution: Duration { .zero }

    /// Seconds since the clock was made.
    public var elapsedSeconds: Double {
        let components = now.offset.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        time.withLock { $0 = max($0, deadline.offset) }
        // Let other tasks run, as a real sleep would.
        await Task.yield()
    }
}

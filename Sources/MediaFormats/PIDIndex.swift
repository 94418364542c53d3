/// Numbers the PIDs of a transport stream (13 bits, ISO/IEC 13818-1 §2.4.3.2) 0, 1, 2, … in the
/// order they are added, so that what a reader keeps per PID sits in a plain array at that
/// number (its slot), found without hashing.
///
/// A segment has a handful of PIDs, found by a look along `pids`; past `listedPIDs` of them a
/// table maps each PID to its slot + 1 instead, so that a lookup still costs one step however
/// many PIDs a stream uses. (A table from the start is 16 KB to zero for every segment a check
/// or embed scans.)
struct PIDIndex {
    /// The PIDs added, at their slots.
    private(set) var pids: [UInt16] = []
    private var table: [UInt16]?
    private static let listedPIDs = 16

    /// An index with room for `capacity` PIDs before it grows.
    init(capacity: Int = 0) {
        pids.reserveCapacity(capacity)
    }

    /// The slot of `pid`, nil when it was not added. Asked for every packet: inlined.
    @inline(__always)
    func slot(of pid: UInt16) -> Int? {
        if let table {
            let entry = table[Int(pid & 0x1FFF)]
            return entry == 0 ? nil : Int(entry) - 1
        }
        return pids.firstIndex(of: pid)
    }

    /// Adds `pid`, which has no slot yet, and returns the slot it gets: the next number.
    @discardableResult
    mutating func add(_ pid: UInt16) -> Int {
        pids.append(pid)
        if table != nil {
            table?[Int(pid & 0x1FFF)] = UInt16(pids.count)
        } else if pids.count > Self.listedPIDs {
            var built = [UInt16](repeating: 0, count: 8192)
            for (index, listed) in pids.enumerated() { built[Int(listed & 0x1FFF)] = UInt16(index + 1) }
            table = built
        }
        return pids.count - 1
    }
}

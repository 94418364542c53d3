/// Damages MPEG-TS bytes the way a lossy network or a broken disk does, for `--decode` tests.
public enum TransportStreamDamage {
    /// The PID whose PES packets carry video (stream_id 0xE0), nil when there is none.
    public static func videoPID(_ ts: [UInt8]) -> Int? {
        (0..<ts.count / 188).first { isPESStart(ts, packet: $0, streamID: 0xE0) }.map { pid(ts, packet: $0) }
    }

    public static func pid(_ ts: [UInt8], packet index: Int) -> Int {
        Int(ts[index * 188 + 1] & 0x1F) << 8 | Int(ts[index * 188 + 2])
    }

    /// Packets of `pid` in the second half of the stream that continue a PES (not its start) and
    /// carry no adaptation field: their 184 bytes lie inside a frame.
    public static func framePackets(_ ts: [UInt8], pid wanted: Int) -> [Int] {
        let count = ts.count / 188
        return (count / 2..<count).filter {
            pid(ts, packet: $0) == wanted && ts[$0 * 188 + 1] & 0x40 == 0 && ts[$0 * 188 + 3] & 0x30 == 0x10
        }
    }

    /// Zeroes the payload of the given packets (headers, hence continuity counters, intact).
    public static func zeroingPayload(_ ts: [UInt8], packets: [Int]) -> [UInt8] {
        var damaged = ts
        for index in packets { for byte in (index * 188 + 4)..<((index + 1) * 188) { damaged[byte] = 0 } }
        return damaged
    }

    /// Removes the given packets, as a network that drops them would.
    public static func dropping(_ ts: [UInt8], packets: [Int]) -> [UInt8] {
        let dropped = Set(packets)
        return (0..<ts.count / 188).filter { !dropped.contains($0) }.flatMap { ts[$0 * 188..<($0 + 1) * 188] }
    }

    private static func isPESStart(_ ts: [UInt8], packet index: Int, streamID: UInt8) -> Bool {
        let offset = index * 188
        guard ts[offset + 1] & 0x40 != 0 else { return false }
        let start = offset + 4 + (ts[offset + 3] & 0x20 != 0 ? 1 + Int(ts[offset + 4]) : 0)
        return start + 4 <= offset + 188 && Array(ts[start..<start + 4]) == [0, 0, 1, streamID]
    }
}

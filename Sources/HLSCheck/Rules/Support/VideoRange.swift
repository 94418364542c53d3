import HLSPlaylist

/// The dynamic range the transfer characteristics of video call for (bis-22 §4.4.6.2).
enum VideoRange {
    /// TransferCharacteristics code points (ITU-T H.273) that make video SDR.
    static let standard: Set<Int> = [1, 6, 13, 14, 15]
    static let pq = 16, hlg = 18

    /// The VIDEO-RANGE that video with these transfer characteristics must declare: PQ when any
    /// is PQ (mixed with SDR or HLG), HLG when any is HLG (mixed with SDR), SDR when all are SDR;
    /// nil when none is known, or when one is none of those.
    static func required(by transfers: Set<Int>) -> String? {
        guard !transfers.isEmpty, transfers.isSubset(of: standard.union([pq, hlg])) else { return nil }
        if transfers.contains(pq) { return "PQ" }
        if transfers.contains(hlg) { return "HLG" }
        return "SDR"
    }

    static func name(_ transfer: Int) -> String {
        switch transfer {
        case 1: return "1 (BT.709)"
        case 6: return "6 (BT.601)"
        case 13: return "13 (sRGB)"
        case 14, 15: return "\(transfer) (BT.2020)"
        case 16: return "16 (PQ)"
        case 18: return "18 (HLG)"
        default: return String(transfer)
        }
    }

    /// The declared range of a variant: VIDEO-RANGE, whose absence means SDR (bis-22 §4.4.6.2).
    static func declared(_ value: String?) -> String { value ?? "SDR" }

    static func isHDR(_ value: String?) -> Bool { value == "PQ" || value == "HLG" }
}

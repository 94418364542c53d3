import HLSPlaylist

/// "6.013": seconds with three decimals, for messages. Total on any Double: a negative value
/// keeps one sign ("-1.500", not "-1.-500"); an infinite, NaN or huge one prints as Swift writes it.
func seconds(_ value: Double) -> String {
    guard value.isFinite, value.magnitude < 1e12 else { return "\(value)" }
    let thousandths = Int((value.magnitude * 1000).rounded())
    let fraction = String(thousandths % 1000)
    let sign = value < 0 && thousandths > 0 ? "-" : ""
    return "\(sign)\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

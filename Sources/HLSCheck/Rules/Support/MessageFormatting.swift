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

/// "1.5": seconds rounded to the millisecond and written without trailing zeros ("3", "0.333"),
/// for messages that quote an attribute as a playlist would write it; a non-finite value prints
/// as Swift writes it.
func compactSeconds(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
}

/// How far `value` is from `base`, for a message: "12 %", or in bits below 1 % ("500 bit/s"),
/// where a rounded "0 %" would say there is no difference at all.
package func percent(_ value: Int, of base: Int) -> String {
    guard base > 0 else { return "∞" }
    // In Doubles, and clamped: two Ints from a file must not overflow a subtraction here.
    let difference = Double(value) - Double(base)
    if abs(difference) < Double(base) / 100, let bits = Int(exactly: difference) {
        return "\(bits.groupedDigits) bit/s"
    }
    let ratio = (difference / Double(base) * 100).rounded()
    return "\(Int(exactly: ratio) ?? (ratio > 0 ? Int.max : Int.min)) %"
}

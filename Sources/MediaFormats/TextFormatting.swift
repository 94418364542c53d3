// Number, date and whitespace formatting without swift-corelibs-foundation (String(format:),
// DateFormatter, trimmingCharacters): the static binary then links FoundationEssentials only,
// without ICU and its ~45 MB of data (docs/benchmarks.md, "Build time and binary size").

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `value` with `decimals` digits after the point, as printf's "%.Nf" writes it (rounded, "-0.0"
/// included); "inf" and "nan" for those.
package func fixedPoint(_ value: Double, decimals: Int) -> String {
    let format = "%.\(max(0, min(decimals, 17)))f"
    var buffer = [CChar](repeating: 0, count: 400)  // DBL_MAX with 17 decimals fits
    let written = withVaList([value]) { arguments in vsnprintf(&buffer, buffer.count, format, arguments) }
    guard written > 0 else { return String(value) }
    return String(
        decoding: buffer.prefix(Int(min(written, Int32(buffer.count - 1)))).map { UInt8(bitPattern: $0) }, as: UTF8.self
    )
}

/// A moment in UTC, split as the Gregorian calendar counts it (gmtime_r: no time-zone data read).
package struct UTCTime: Sendable, Hashable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    package var millisecond: Int

    /// `seconds` since 1970-01-01T00:00:00Z, cut to the millisecond below, or with
    /// `roundingToMilliseconds` rounded to the nearest one (as ISO8601DateFormatter's fractional
    /// seconds are); nil past what the C library can split.
    package init?(secondsSince1970 seconds: Double, roundingToMilliseconds: Bool = false) {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded(roundingToMilliseconds ? .toNearestOrAwayFromZero : .down))
        let (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var time = time_t(fraction < 0 ? whole - 1 : whole)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        millisecond = Int(fraction < 0 ? fraction + 1000 : fraction)
    }

    /// "2026-11-21"
    package var date: String { "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))" }
    /// "10:00:05"
    package var time: String { "\(Self.digits(hour, 2)):\(Self.digits(minute, 2)):\(Self.digits(second, 2))" }
    /// RFC 3339 with milliseconds: "2026-11-21T10:00:05.250Z".
    package var internetDateTimeWithMilliseconds: String { "\(date)T\(time).\(Self.digits(millisecond, 3))Z" }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, count - text.count)) + text
    }
}

extension StringProtocol {
    /// Without leading and trailing white space: spaces and tabs (Unicode's Zs and U+0009), and
    /// with `newlines` also line and paragraph separators and U+000A–U+000D, U+0085 — the
    /// characters CharacterSet.whitespaces and .whitespacesAndNewlines hold.
    package func trimmingWhiteSpace(newlines: Bool = true) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .spaceSeparator: return true
            case .lineSeparator, .paragraphSeparator: return newlines
            default: return scalar == "\t" || newlines && ((0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85)
            }
        }
        let text = String(self)
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

import HLSPlaylist

/// ISO 8601 date-times as HLS writes them (`YYYY-MM-DDThh:mm:ss[.fff][Z|±hh[:]mm]`), to seconds
/// since 1970 UTC; nil for anything else. No time zone means UTC (rfc8216bis §4.4.4.6).
enum ISO8601Instant {
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: Set<UInt8>) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect([0x2D]), let month = digits(2), expect([0x2D]), let day = digits(2),
            expect([0x54, 0x74, 0x20]), let hour = digits(2), expect([0x3A]), let minute = digits(2), expect([0x3A]),
            let second = digits(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x2C {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            if bytes[index] == 0x5A || bytes[index] == 0x7A {
                index += 1
            } else {
                let sign = bytes[index] == 0x2D ? -1 : 1
                guard expect([0x2B, 0x2D]), let hours = digits(2) else { return nil }
                _ = expect([0x3A])
                let minutes = index < bytes.count ? digits(2) ?? 0 : 0
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == bytes.count else { return nil }
        // Days from the civil date (proleptic Gregorian), 1970-01-01 = 0.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}

/// Text from a playlist or a file name, made safe to print: control characters could move the
/// cursor, rewrite earlier lines of a CI log or hide text, so each is shown as an escape instead.
package enum TerminalText {
    /// C0 and C1 controls and DEL become `\xNN`; Unicode bidirectional overrides and isolates
    /// (which can make text read in another order than it is) become `\u{NNNN}`. A backslash
    /// stays a backslash: the output is for reading, not for parsing back.
    /// `keepingLineBreaks` leaves CR and LF for a format that encodes them itself (GitHub's
    /// workflow commands turn them into `%0D` / `%0A`).
    package static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        let escapes = { (scalar: Unicode.Scalar) in
            needsEscape(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\r"))
        }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard escapes(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if scalar.value < 0x100 {
                result += "\\x" + hex(scalar.value, digits: 2)
            } else {
                result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

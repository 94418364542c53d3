// Lexing and typed validation of attribute lists (RFC 8216 §4.2).
//
// The lexer is tolerant: it records a problem for every grammar break, then resynchronises at
// the next comma that is not inside a quoted string, so one bad attribute never hides the others.

/// The type an attribute's value must have (RFC 8216 §4.2).
enum AttributeType: Sendable {
    case decimalInteger
    case hexadecimalSequence
    case decimalFloatingPoint
    case signedDecimalFloatingPoint
    case quotedString
    /// An enumerated string that must be one of the listed values (an error otherwise).
    case enumeratedString([String])
    /// An enumerated string whose list the spec may extend: another value is only a warning.
    case openEnumeratedString([String])
    case decimalResolution
    /// CLOSED-CAPTIONS: a quoted string, or the enumerated string NONE.
    case quotedStringOrNone
}

/// Collects problems with locations, shared by the lexer and the tag parser.
struct ProblemSink {
    let uri: String
    var problems: [PlaylistProblem] = []

    mutating func error(_ message: String, line: Int, column: Int, kind: PlaylistProblem.Kind = .syntax) {
        problems.append(PlaylistProblem(.error, message, at: SourceLocation(uri: uri, line: line, column: column), kind: kind))
    }

    mutating func warning(_ message: String, line: Int, column: Int, kind: PlaylistProblem.Kind = .syntax) {
        problems.append(PlaylistProblem(.warning, message, at: SourceLocation(uri: uri, line: line, column: column), kind: kind))
    }
}

enum AttributeListLexer {
    /// Splits `text` (the part of a tag line after the colon, starting at 1-based `column`) into
    /// attributes. Duplicate names are reported; the first occurrence wins for typed access.
    static func lex(_ text: Substring, line: Int, column startColumn: Int, tagName: String, sink: inout ProblemSink) -> [Attribute] {
        let scalars = Array(text.unicodeScalars)
        var attributes: [Attribute] = []
        var seen: Set<String> = []
        var i = 0
        let n = scalars.count

        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }
        func column(_ index: Int) -> Int { startColumn + index }
        func append(_ name: String, _ raw: String, _ nameStart: Int) {
            if name.isEmpty { return }
            if seen.contains(name) {
                sink.error("\(tagName): attribute \(name) appears more than once", line: line, column: column(nameStart))
                return
            }
            seen.insert(name)
            attributes.append(Attribute(name: name, rawValue: raw, column: column(nameStart)))
        }

        while i < n {
            // Leading whitespace before a name: tolerated with a warning.
            if isSpace(scalars[i]) {
                let start = i
                while i < n, isSpace(scalars[i]) { i += 1 }
                sink.warning("\(tagName): unexpected whitespace in attribute list", line: line, column: column(start))
                continue
            }
            if scalars[i] == "," {
                sink.warning("\(tagName): empty attribute (extra comma)", line: line, column: column(i))
                i += 1
                continue
            }
            let nameStart = i
            while i < n, scalars[i] != "=", scalars[i] != ",", !isSpace(scalars[i]) { i += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<i]))
            // Whitespace between name and '='.
            var j = i
            while j < n, isSpace(scalars[j]) { j += 1 }
            if j < n, scalars[j] == "=", j > i {
                sink.warning("\(tagName): unexpected whitespace before '=' of attribute \(name)", line: line, column: column(i))
                i = j
            }
            guard i < n, scalars[i] == "=" else {
                sink.error("\(tagName): attribute \"\(name)\" has no value (expected NAME=VALUE)", line: line, column: column(nameStart))
                while i < n, scalars[i] != "," { i += 1 }
                if i < n { i += 1 }
                continue
            }
            if name.isEmpty {
                sink.error("\(tagName): attribute value without a name", line: line, column: column(nameStart))
            } else if !name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) {
                sink.warning("\(tagName): attribute name \"\(name)\" should contain only A-Z, 0-9 and '-'", line: line, column: column(nameStart))
            }
            i += 1 // '='
            var k = i
            while k < n, isSpace(scalars[k]) { k += 1 }
            if k > i {
                sink.warning("\(tagName): unexpected whitespace after '=' of attribute \(name)", line: line, column: column(i))
                i = k
            }
            let valueStart = i
            if i < n, scalars[i] == "\"" {
                i += 1
                while i < n, scalars[i] != "\"" { i += 1 }
                if i >= n {
                    sink.error("\(tagName): attribute \(name): quoted string is not terminated", line: line, column: column(valueStart))
                } else {
                    i += 1 // closing quote
                }
                let valueEnd = i
                // Anything between the closing quote and the next comma is junk.
                var m = i
                while m < n, isSpace(scalars[m]) { m += 1 }
                if m < n, scalars[m] != "," {
                    sink.error("\(tagName): attribute \(name): unexpected characters after the quoted string", line: line, column: column(m))
                    while m < n, scalars[m] != "," { m += 1 }
                } else if m > i {
                    sink.warning("\(tagName): unexpected whitespace after attribute \(name)", line: line, column: column(i))
                }
                i = m
                let raw = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
                append(name, raw, nameStart)
            } else {
                while i < n, scalars[i] != "," { i += 1 }
                var valueEnd = i
                while valueEnd > valueStart, isSpace(scalars[valueEnd - 1]) { valueEnd -= 1 }
                if valueEnd < i {
                    sink.warning("\(tagName): unexpected whitespace after attribute \(name)", line: line, column: column(valueEnd))
                }
                let raw = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
                if raw.isEmpty {
                    sink.error("\(tagName): attribute \(name) has an empty value", line: line, column: column(nameStart))
                }
                append(name, raw, nameStart)
            }
            if i < n, scalars[i] == "," {
                i += 1
                if i == n {
                    sink.warning("\(tagName): trailing comma after the last attribute", line: line, column: column(i - 1))
                }
            }
        }

        return attributes
    }
}

enum AttributeValueParser {
    /// Parses a decimal-integer (RFC 8216 §4.2: 0 to 2^64-1) with overflow checking.
    static func decimalInteger<S: StringProtocol>(_ text: S) -> UInt64? {
        guard !text.isEmpty else { return nil }
        var value: UInt64 = 0
        for u in text.utf8 {
            guard u >= 48, u <= 57 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(u - 48))
            if o1 || o2 { return nil }
            value = a
        }
        return value
    }

    static func isDigits<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// decimal-floating-point: digits with an optional fraction. Lenient about a missing
    /// integer part ("`.5`") only through `lenient`.
    static func decimalFloatingPoint<S: StringProtocol>(_ text: S) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let intPart = parts.first, isDigits(intPart) else { return nil }
        if parts.count == 2, !parts[1].isEmpty, !isDigits(parts[1]) { return nil }
        guard let d = Double(String(text)), d.isFinite else { return nil }
        return d
    }

    static func signedDecimalFloatingPoint<S: StringProtocol>(_ text: S) -> Double? {
        if text.hasPrefix("-") { return decimalFloatingPoint(text.dropFirst()).map { -$0 } }
        return decimalFloatingPoint(text)
    }

    static func hexadecimalSequence<S: StringProtocol>(_ text: S) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = Array(text.utf8.dropFirst(2))
        guard !digits.isEmpty else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2 + 1)
        var index = 0
        if digits.count % 2 == 1 {
            guard let v = nibble(digits[0]) else { return nil }
            bytes.append(v)
            index = 1
        }
        while index < digits.count {
            guard let hi = nibble(digits[index]), let lo = nibble(digits[index + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            index += 2
        }
        return bytes
    }

    static func resolution<S: StringProtocol>(_ text: S) -> Resolution? {
        let parts = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2,
              let w = decimalInteger(parts[0]), let h = decimalInteger(parts[1]),
              let width = Int(exactly: w), let height = Int(exactly: h) else { return nil }
        return Resolution(width: width, height: height)
    }

    static func isEnumeratedString<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == "\"" || $0 == "," || $0 == " " || $0 == "\t" }
    }
}

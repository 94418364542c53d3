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
///
/// Bounded: a line keeps at most `ValueLimits.maximumProblemsPerLine` problems and a file at most
/// `ValueLimits.maximumProblemsPerFile`; what is left out is counted and summed up by `close()`.
/// A 2 MB line of commas therefore costs a few problems, not two million.
struct ProblemSink {
    let uri: String
    var problems: [PlaylistProblem] = []

    /// The line the last problem was on, and how many problems that line has.
    private var currentLine = 0
    private var currentLineCount = 0
    /// Problems left out on lines over the per-line limit, one entry per line.
    private var lineOverflow: [(line: Int, count: Int, anyError: Bool)] = []
    /// Problems left out over the per-file limit.
    private var fileOverflow: (line: Int, count: Int, anyError: Bool)?

    init(uri: String) {
        self.uri = uri
    }

    /// Returns whether the problem was kept (false when over a limit).
    @discardableResult
    mutating func error(
        _ message: @autoclosure () -> String, line: Int, column: Int, kind: PlaylistProblem.Kind = .syntax
    ) -> Bool {
        add(.error, message, line: line, column: column, kind: kind)
    }

    @discardableResult
    mutating func warning(
        _ message: @autoclosure () -> String, line: Int, column: Int, kind: PlaylistProblem.Kind = .syntax
    ) -> Bool {
        add(.warning, message, line: line, column: column, kind: kind)
    }

    /// The message is built only when the problem is kept.
    private mutating func add(
        _ severity: PlaylistProblem.Severity, _ message: () -> String, line: Int, column: Int,
        kind: PlaylistProblem.Kind
    ) -> Bool {
        let isError = severity == .error
        if line != currentLine {
            currentLine = line
            currentLineCount = 0
        }
        currentLineCount += 1
        if currentLineCount > ValueLimits.maximumProblemsPerLine {
            if let last = lineOverflow.last, last.line == line {
                lineOverflow[lineOverflow.count - 1].count += 1
                lineOverflow[lineOverflow.count - 1].anyError = last.anyError || isError
            } else {
                lineOverflow.append((line, 1, isError))
            }
            return false
        }
        if problems.count >= ValueLimits.maximumProblemsPerFile {
            if let overflow = fileOverflow {
                fileOverflow = (overflow.line, overflow.count + 1, overflow.anyError || isError)
            } else {
                fileOverflow = (line, 1, isError)
            }
            return false
        }
        problems.append(
            PlaylistProblem(severity, message(), at: SourceLocation(uri: uri, line: line, column: column), kind: kind))
        return true
    }

    /// Appends one problem per line that went over its limit, and one for the file.
    mutating func close() {
        for overflow in lineOverflow {
            guard problems.count < ValueLimits.maximumProblemsPerFile else {
                let file = fileOverflow ?? (overflow.line, 0, false)
                fileOverflow = (
                    min(file.line, overflow.line), file.count + overflow.count, file.anyError || overflow.anyError
                )
                continue
            }
            problems.append(
                PlaylistProblem(
                    overflow.anyError ? .error : .warning,
                    "\(overflow.count) more problems on this line are not shown (hlscheck reports at most \(ValueLimits.maximumProblemsPerLine) per line)",
                    at: SourceLocation(uri: uri, line: overflow.line, column: 0)))
        }
        if let overflow = fileOverflow {
            problems.append(
                PlaylistProblem(
                    overflow.anyError ? .error : .warning,
                    "\(overflow.count) more problems from this line on are not shown (hlscheck reports at most \(ValueLimits.maximumProblemsPerFile) per file)",
                    at: SourceLocation(uri: uri, line: overflow.line, column: 0)))
        }
        lineOverflow = []
        fileOverflow = nil
    }
}

enum AttributeListLexer {
    /// Splits `text` (the part of a tag line after the colon, starting at 1-based `column`) into
    /// attributes. Duplicate names are reported; the first occurrence wins for typed access.
    static func lex(_ text: Substring, line: Int, column startColumn: Int, tagName: String, sink: inout ProblemSink)
        -> [Attribute]
    {
        // One forward pass over the UTF-8 bytes: every delimiter of the grammar is ASCII, so a
        // slice between two delimiters is valid UTF-8 again. Linear in the length of the line.
        let bytes = Array(text.utf8)
        let n = bytes.count
        // Columns count Unicode scalars. For ASCII (nearly every playlist) the byte index is the
        // scalar index; otherwise a prefix table maps one to the other.
        var scalarIndex: [Int32] = []
        if bytes.contains(where: { $0 >= 0x80 }) {
            scalarIndex.reserveCapacity(n + 1)
            var count: Int32 = 0
            for byte in bytes {
                scalarIndex.append(count)
                if byte & 0xC0 != 0x80 { count += 1 }
            }
            scalarIndex.append(count)
        }
        var attributes: [Attribute] = []
        var seen: Set<String> = []
        var i = 0

        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","),
            equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        func isSpace(_ b: UInt8) -> Bool { b == space || b == tab }
        func column(_ index: Int) -> Int { startColumn + (scalarIndex.isEmpty ? index : Int(scalarIndex[index])) }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func append(_ name: String, _ raw: String, _ nameStart: Int) {
            if name.isEmpty { return }
            if seen.contains(name) {
                sink.error(
                    "\(tagName): attribute \(excerpt(name)) appears more than once", line: line,
                    column: column(nameStart))
                return
            }
            seen.insert(name)
            attributes.append(Attribute(name: name, rawValue: raw, column: column(nameStart)))
        }

        while i < n {
            // Leading whitespace before a name: tolerated with a warning.
            if isSpace(bytes[i]) {
                let start = i
                while i < n, isSpace(bytes[i]) { i += 1 }
                sink.warning("\(tagName): unexpected whitespace in attribute list", line: line, column: column(start))
                continue
            }
            if bytes[i] == comma {
                sink.warning("\(tagName): empty attribute (extra comma)", line: line, column: column(i))
                i += 1
                continue
            }
            let nameStart = i
            while i < n, bytes[i] != equals, bytes[i] != comma, !isSpace(bytes[i]) { i += 1 }
            let nameRange = nameStart..<i
            // Whitespace between name and '='.
            var j = i
            while j < n, isSpace(bytes[j]) { j += 1 }
            if j < n, bytes[j] == equals, j > i {
                sink.warning(
                    "\(tagName): unexpected whitespace before '=' of attribute \(excerpt(string(nameRange)))",
                    line: line, column: column(i))
                i = j
            }
            guard i < n, bytes[i] == equals else {
                sink.error(
                    "\(tagName): attribute \"\(excerpt(string(nameRange)))\" has no value (expected NAME=VALUE)",
                    line: line, column: column(nameStart))
                while i < n, bytes[i] != comma { i += 1 }
                if i < n { i += 1 }
                continue
            }
            let name = string(nameRange)
            if name.isEmpty {
                sink.error("\(tagName): attribute value without a name", line: line, column: column(nameStart))
            } else if !bytes[nameRange].allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == 45 }) {
                sink.warning(
                    "\(tagName): attribute name \"\(excerpt(name))\" should contain only A-Z, 0-9 and '-'", line: line,
                    column: column(nameStart))
            }
            i += 1  // '='
            var k = i
            while k < n, isSpace(bytes[k]) { k += 1 }
            if k > i {
                sink.warning(
                    "\(tagName): unexpected whitespace after '=' of attribute \(excerpt(name))", line: line,
                    column: column(i))
                i = k
            }
            let valueStart = i
            if i < n, bytes[i] == quote {
                i += 1
                while i < n, bytes[i] != quote { i += 1 }
                if i >= n {
                    sink.error(
                        "\(tagName): attribute \(excerpt(name)): quoted string is not terminated", line: line,
                        column: column(valueStart))
                } else {
                    i += 1  // closing quote
                }
                let valueEnd = i
                // Anything between the closing quote and the next comma is junk.
                var m = i
                while m < n, isSpace(bytes[m]) { m += 1 }
                if m < n, bytes[m] != comma {
                    sink.error(
                        "\(tagName): attribute \(excerpt(name)): unexpected characters after the quoted string",
                        line: line, column: column(m))
                    while m < n, bytes[m] != comma { m += 1 }
                } else if m > i {
                    sink.warning(
                        "\(tagName): unexpected whitespace after attribute \(excerpt(name))", line: line,
                        column: column(i))
                }
                i = m
                append(name, string(valueStart..<valueEnd), nameStart)
            } else {
                while i < n, bytes[i] != comma { i += 1 }
                var valueEnd = i
                while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                if valueEnd < i {
                    sink.warning(
                        "\(tagName): unexpected whitespace after attribute \(excerpt(name))", line: line,
                        column: column(valueEnd))
                }
                if valueEnd == valueStart {
                    sink.error(
                        "\(tagName): attribute \(excerpt(name)) has an empty value", line: line,
                        column: column(nameStart))
                }
                append(name, string(valueStart..<valueEnd), nameStart)
            }
            if i < n, bytes[i] == comma {
                i += 1
                if i == n {
                    sink.warning(
                        "\(tagName): trailing comma after the last attribute", line: line, column: column(i - 1))
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
        guard isDecimalFloatingPointSyntax(text), let d = Double(String(text)), d.isFinite else { return nil }
        return d
    }

    /// `[0-9]+(\.[0-9]*)?`, checked in one pass over the bytes.
    static func isDecimalFloatingPointSyntax<S: StringProtocol>(_ text: S) -> Bool {
        var integerDigits = 0
        var sawDot = false
        for u in text.utf8 {
            if u >= 48, u <= 57 {
                if !sawDot { integerDigits += 1 }
            } else if u == 46, !sawDot, integerDigits > 0 {
                sawDot = true
            } else {
                return false
            }
        }
        return integerDigits > 0
    }

    /// Written as a decimal-floating-point (digits, optional fraction) but too large for a
    /// finite Double: out of range rather than malformed.
    static func isOverlongDecimal<S: StringProtocol>(_ text: S) -> Bool {
        isDecimalFloatingPointSyntax(text) && decimalFloatingPoint(text) == nil
    }

    /// Written as WIDTHxHEIGHT but a side does not fit an Int: out of range rather than malformed.
    static func isOverlongResolution<S: StringProtocol>(_ text: S) -> Bool {
        let parts = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 && isDigits(parts[0]) && isDigits(parts[1]) && resolution(text) == nil
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
            let width = Int(exactly: w), let height = Int(exactly: h)
        else { return nil }
        return Resolution(width: width, height: height)
    }

    static func isEnumeratedString<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == "\"" || $0 == "," || $0 == " " || $0 == "\t" }
    }
}

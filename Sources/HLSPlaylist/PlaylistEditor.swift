// Byte-preserving edits of a playlist, for the packager and `hlscheck fix`.
//
// The editor keeps the original bytes and splices only the value being changed, so an untouched
// playlist reproduces byte for byte and an edit leaves the BOM, line endings, attribute order and
// spelling of everything else exactly as they were.

/// Edits a playlist's bytes in place, changing only the value being set (see the file comment).
package struct PlaylistEditor: Sendable, Hashable {
    /// Why an edit was refused; the bytes are left unchanged.
    package enum EditError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The playlist has no such 1-based line.
        case lineOutOfRange(Int)
        /// The line is not a tag with an attribute list (`#EXT…:NAME=value,…`).
        case notAnAttributeTag(line: Int)
        /// The name is not a valid attribute name (A-Z, 0-9 and '-' only, RFC 8216 §4.2).
        case invalidAttributeName(String)

        /// The reason, naming the line or attribute.
        package var description: String {
            switch self {
            case .lineOutOfRange(let line): return "line \(line) does not exist in the playlist"
            case .notAnAttributeTag(let line): return "line \(line) is not a tag with an attribute list"
            case .invalidAttributeName(let name): return "\"\(name)\" is not a valid attribute name (A-Z, 0-9, '-')"
            }
        }
    }

    /// The playlist's bytes, with every edit made so far.
    package private(set) var bytes: [UInt8]

    /// Starts from a playlist's bytes, kept exactly (BOM and line endings included).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Starts from a playlist's text, as UTF-8.
    package init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// Sets attribute `name` of the tag at 1-based `line` to `value`, written as given (include the
    /// quotes for a quoted string). Adds `,NAME=value` at the end of the list when absent.
    package mutating func setAttribute(_ name: String, to value: String, onTagAtLine line: Int) throws {
        guard !name.isEmpty, name.utf8.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == 45 })
        else {
            throw EditError.invalidAttributeName(name)
        }
        guard let range = lineRange(line) else { throw EditError.lineOutOfRange(line) }
        var start = range.lowerBound
        var end = range.upperBound
        if line == 1, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start += 3 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        guard end - start > 4, bytes[start] == 0x23,  // "#EXT"
            let colon = bytes[start..<end].firstIndex(of: 0x3A)
        else {
            throw EditError.notAnAttributeTag(line: line)
        }
        let newValue = Array(value.utf8)
        let nameBytes = Array(name.utf8)
        var i = colon + 1
        while i < end {
            // One attribute: NAME=VALUE, the value possibly quoted.
            let nameStart = i
            while i < end, bytes[i] != 0x3D, bytes[i] != 0x2C { i += 1 }
            let attributeName = trimmed(nameStart, i)
            guard i < end, bytes[i] == 0x3D else {
                i += 1
                continue
            }
            i += 1
            let valueStart = i
            var inQuotes = false
            while i < end {
                if bytes[i] == 0x22 { inQuotes.toggle() }
                if bytes[i] == 0x2C, !inQuotes { break }
                i += 1
            }
            if Array(bytes[attributeName]) == nameBytes {
                let valueRange = trimmed(valueStart, i)
                bytes.replaceSubrange(valueRange, with: newValue)
                return
            }
            i += 1
        }
        let hasAttributes = end > colon + 1
        bytes.insert(contentsOf: (hasAttributes ? [0x2C] : []) + nameBytes + [0x3D] + newValue, at: end)
    }

    /// Sets the value of the tag at 1-based `line` (`#EXT-X-VERSION:3` → `#EXT-X-VERSION:4`): the
    /// text after the colon, or with `upToComma` only the part before the first comma (EXTINF's
    /// duration, its title kept).
    package mutating func setTagValue(_ value: String, onTagAtLine line: Int, upToComma: Bool = false) throws {
        guard let (start, end) = content(ofLine: line), end - start > 4, bytes[start] == 0x23,
            let colon = bytes[start..<end].firstIndex(of: 0x3A)
        else {
            throw EditError.notAnAttributeTag(line: line)
        }
        var valueEnd = end
        if upToComma, let comma = bytes[(colon + 1)..<end].firstIndex(of: 0x2C) { valueEnd = comma }
        bytes.replaceSubrange((colon + 1)..<valueEnd, with: Array(value.utf8))
    }

    /// Inserts `text` as a line of its own after 1-based `line`, ending it the way that line ends
    /// (CRLF after a CRLF line), so a playlist keeps one style of line ending.
    package mutating func insertLine(_ text: String, afterLine line: Int) throws {
        guard let range = lineRange(line) else { throw EditError.lineOutOfRange(line) }
        let crlf = range.upperBound > range.lowerBound && bytes[range.upperBound - 1] == 0x0D
        let ending: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        if range.upperBound < bytes.count {
            // After the line's LF.
            bytes.insert(contentsOf: Array(text.utf8) + ending, at: range.upperBound + 1)
        } else {
            // The last line has no line ending: give it one, and none to the new last line.
            bytes.insert(contentsOf: ending + Array(text.utf8), at: range.upperBound)
        }
    }

    /// The content of 1-based `line`: without BOM, CR, LF and surrounding blanks.
    private func content(ofLine line: Int) -> (Int, Int)? {
        guard let range = lineRange(line) else { return nil }
        var start = range.lowerBound
        var end = range.upperBound
        if line == 1, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start += 3 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        return (start, end)
    }

    /// Convenience for integer attributes (BANDWIDTH, AVERAGE-BANDWIDTH).
    package mutating func setAttribute(_ name: String, to value: Int, onTagAtLine line: Int) throws {
        try setAttribute(name, to: String(value), onTagAtLine: line)
    }

    /// The text of the playlist after the edits.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    private func trimmed(_ start: Int, _ end: Int) -> Range<Int> {
        var s = start
        var e = end
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        return s..<e
    }

    /// Byte range of 1-based `line`, without its LF.
    private func lineRange(_ line: Int) -> Range<Int>? {
        guard line >= 1 else { return nil }
        var current = 1
        var start = 0
        while current < line {
            guard let lf = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            start = lf + 1
            current += 1
        }
        if start > bytes.count { return nil }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        if start == bytes.count, line > 1 { return nil }
        return start..<end
    }
}

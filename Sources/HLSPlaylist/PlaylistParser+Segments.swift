// Media segments: EXTINF, byte ranges, partial segments and keys, and the URI line that ends
// each segment (rfc8216bis §4.4.4).

extension ParserState {
    /// `#EXTINF:<digits>[.<digits>],<title>` with an accepted duration, read on its bytes —
    /// the line of nearly every segment. Returns false, having changed nothing, for anything
    /// else (`handleExtinf` then reads it and says what is wrong).
    mutating func handleCommonExtinf(_ bytes: UnsafeBufferPointer<UInt8>, _ line: SourceLine, _ column: Int) -> Bool {
        guard pendingExtinf == nil else { return false }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0, index = 0
        var sawDot = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 15 else { return false }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
                if sawDot { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawDot, digits > 0 {
                sawDot = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        // At most 15 digits and a power of ten up to 10^15: both exact in a Double, so one
        // division is correctly rounded, the same value `Double(String)` gives (Clinger).
        let duration = Double(mantissa) / Self.powersOfTen[fractionDigits]
        guard ValueLimits.isAcceptableDuration(duration) else { return false }
        if sawDot, !requiredDecimalExtinfVersion {
            requiredDecimalExtinfVersion = true
            requireVersion(3, "a decimal-floating-point EXTINF duration", line.number, column)
        }
        let title = index + 1 < bytes.count ? String(decoding: bytes[(index + 1)...], as: UTF8.self) : nil
        pendingExtinf = (line.number, duration, title)
        return true
    }

    static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    mutating func handleExtinf(_ value: Substring?, _ line: SourceLine, _ column: Int) {
        if let pending = pendingExtinf {
            sink.error("EXTINF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            pendingExtinf = nil
        }
        guard let value, !value.isEmpty else {
            sink.error("EXTINF needs a duration: #EXTINF:<duration>,[<title>]", line: line.number, column: line.column)
            pendingExtinf = (line.number, 0, nil)
            return
        }
        let durationText: Substring
        var title: String?
        if let comma = value.utf8.firstIndex(of: UInt8(ascii: ",")) {
            durationText = value[..<comma]
            let t = value[value.index(after: comma)...]
            title = t.isEmpty ? nil : String(t)
        } else {
            durationText = value
            // Reported once per file (a generated playlist repeats it on every segment).
            if commalessExtinfCount == 0 {
                let index = sink.problems.count
                if sink.warning(
                    "EXTINF: a comma must follow the duration (#EXTINF:<duration>,[<title>])", line: line.number,
                    column: column + value.unicodeScalars.count)
                {
                    commalessExtinfProblemIndex = index
                }
            }
            commalessExtinfCount += 1
        }
        let trimmed = durationText.trimmingSpaces
        var duration = 0.0
        // An out-of-range duration is reported and then ignored (0, "unknown"), so that no bit
        // rate, window or message downstream ever sees it (docs/security.md).
        func outOfRange(_ text: String) {
            sink.error(
                "EXTINF: the duration \(excerpt(text)) is out of range (hlscheck accepts \(ValueLimits.durationRangeText)); it is ignored",
                line: line.number, column: column)
        }
        if AttributeValueParser.isDigits(trimmed) {
            let d = Double(trimmed) ?? .infinity
            if d.isFinite, ValueLimits.isAcceptableDuration(d) { duration = d } else { outOfRange(trimmed) }
        } else if let d = AttributeValueParser.decimalFloatingPoint(trimmed) {
            if ValueLimits.isAcceptableDuration(d) { duration = d } else { outOfRange(trimmed) }
            if !requiredDecimalExtinfVersion {
                requiredDecimalExtinfVersion = true
                requireVersion(3, "a decimal-floating-point EXTINF duration", line.number, column)
            }
        } else if AttributeValueParser.isOverlongDecimal(trimmed) {
            outOfRange(trimmed)
        } else if AttributeValueParser.signedDecimalFloatingPoint(trimmed) != nil
            || AttributeValueParser.isOverlongDecimal(trimmed.dropFirst()) && trimmed.hasPrefix("-")
        {
            sink.error(
                "EXTINF: the duration must not be negative, found \(excerpt(trimmed)); it is ignored",
                line: line.number, column: column)
        } else {
            sink.error(
                "EXTINF: expected a duration in seconds, found \"\(excerpt(trimmed))\"", line: line.number,
                column: column)
        }
        pendingExtinf = (line.number, duration, title)
    }

    mutating func parseByteRange(_ text: Substring, tag: String, line: Int, column: Int) -> (length: Int, offset: Int?)?
    {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int? {
            AttributeValueParser.decimalInteger(s).flatMap { Int(exactly: $0) }
        }
        guard let lengthText = parts.first, let length = number(lengthText) else {
            sink.error(
                "\(bare(tag)): expected <length>[@<offset>], found \"\(excerpt(trimmed))\"", line: line, column: column)
            return nil
        }
        var offset: Int?
        if parts.count == 2, parts[1].isEmpty {
            sink.error(
                "\(bare(tag)): the offset after '@' is missing, found \"\(excerpt(trimmed))\"", line: line,
                column: column)
        } else if parts.count == 2 {
            guard let o = number(parts[1]) else {
                sink.error(
                    "\(bare(tag)): expected <length>[@<offset>], found \"\(excerpt(trimmed))\"", line: line,
                    column: column)
                return nil
            }
            offset = o
        }
        let end = (offset ?? 0).addingReportingOverflow(length)
        if end.overflow || end.partialValue > ValueLimits.maximumInteger {
            sink.error(
                "\(bare(tag)): the range \(excerpt(trimmed)) ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                line: line, column: column)
            return nil
        }
        return (length, offset)
    }

    mutating func handlePart(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        let attrs = attributeList(tagName, value, line, column)
        require(["URI", "DURATION"], in: attrs, tag: tagName, line: line)
        if firstPartLine == nil { firstPartLine = line.number }
        let uri = attrs.string("URI") ?? ""
        var range: ByteRange?
        if let attr = attrs["BYTERANGE"],
            let parsed = parseByteRange(
                Substring(attr.stringValue), tag: "EXT-X-PART BYTERANGE", line: line.number, column: attr.column)
        {
            let offset = parsed.offset ?? partRangeEnds[uri] ?? 0
            let end = offset.addingReportingOverflow(parsed.length)
            if end.overflow || end.partialValue > ValueLimits.maximumInteger {
                sink.error(
                    "EXT-X-PART BYTERANGE: continuing the previous part, this range ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                    line: line.number, column: attr.column)
                partRangeEnds[uri] = nil
            } else {
                range = ByteRange(length: parsed.length, offset: offset)
                partRangeEnds[uri] = end.partialValue
            }
        }
        pendingParts.append(
            PartialSegment(
                line: line.number, uri: uri, duration: attrs.decimalFloatingPoint("DURATION") ?? 0,
                independent: attrs.string("INDEPENDENT") == "YES", byteRange: range, gap: attrs.string("GAP") == "YES"))
    }

    mutating func encryptionKey(_ tagName: String, _ attrs: AttributeList, _ line: SourceLine) -> EncryptionKey? {
        guard let method = attrs.string("METHOD") else {
            require(["METHOD"], in: attrs, tag: tagName, line: line)
            return nil
        }
        var key = EncryptionKey(line: line.number, method: method)
        key.uri = attrs.string("URI")
        key.iv = attrs.hexadecimalSequence("IV")
        key.keyFormat = attrs.string("KEYFORMAT")
        key.keyFormatVersions = attrs.string("KEYFORMATVERSIONS")
        if method == "NONE" {
            for attr in attrs.attributes where attr.name != "METHOD" {
                sink.error(
                    "\(bare(tagName)) with METHOD=NONE must not have other attributes, found \(attr.name)",
                    line: line.number, column: attr.column, kind: .structure)
            }
        } else if key.uri == nil {
            require(["URI"], in: attrs, tag: tagName, line: line)
        }
        if let ivAttr = attrs["IV"], method == "AES-256-GCM" || method == "SAMPLE-AES-CTR" {
            sink.error(
                "\(bare(tagName)) with METHOD=\(method) must not have an IV attribute (bis-22 §4.4.4.4); remove it",
                line: line.number, column: ivAttr.column, kind: .structure)
        }
        if tagName == "#EXT-X-KEY", method == "SAMPLE-AES" {
            // bis-22 §8: an EXT-X-KEY with METHOD=SAMPLE-AES is protocol version 5.
            requireVersion(5, "EXT-X-KEY with METHOD=SAMPLE-AES", line.number, attrs["METHOD"]?.column ?? line.column)
        }
        if let ivAttr = attrs["IV"] {
            requireVersion(2, "the IV attribute", line.number, ivAttr.column)
            if let iv = key.iv, iv.count != 16 {
                sink.error(
                    "attribute IV: expected a 128-bit value (32 hexadecimal digits), found \(iv.count * 8) bits",
                    line: line.number, column: ivAttr.column)
            }
        }
        for name in ["KEYFORMAT", "KEYFORMATVERSIONS"] {
            if let attr = attrs[name] { requireVersion(5, "the \(name) attribute", line.number, attr.column) }
        }
        return key
    }

    // MARK: URI lines

    mutating func handleURILine(_ line: SourceLine) {
        handleURILine(String(line.text), number: line.number, column: line.column)
    }

    mutating func handleURILine(_ text: String, number: Int, column: Int, substituting: Bool = true) {
        let uri = substituting ? substitute(text, number, column) : text
        if let pending = pendingStreamInf {
            pendingStreamInf = nil
            multivariant.variants.append(
                makeVariant(uri: uri, line: pending.line, uriLine: number, attributes: pending.attributes))
            return
        }
        if pendingExtinf == nil {
            if multivariantTagCount > 0, mediaTagCount == 0 {
                sink.error(
                    "URI line is not preceded by #EXT-X-STREAM-INF", line: number, column: column, kind: .structure)
                return
            }
            sink.error(
                "URI line \"\(text.prefix(60))\" is not preceded by #EXTINF", line: number, column: column,
                kind: .structure)
        }
        var written = uri
        appendSegment(written.withUTF8 { storeURI($0) }, number: number)
    }

    /// A URI as the parser keeps it: a template's number, or bytes in `uriBytes` (in its own
    /// buffer when a range of `uriBytes` cannot name it).
    enum SegmentURI {
        case templated(URITemplate, UInt64)
        case pending(offset: Int, length: Int)
        case own(URIText)
    }

    /// Keeps a URI's bytes with the others.
    mutating func storeURI(_ bytes: UnsafeBufferPointer<UInt8>) -> SegmentURI {
        let offset = uriBytes.count
        guard URIText.payload(offset: offset, length: bytes.count) != nil else { return .own(URIText(Array(bytes))) }
        uriBytes.append(contentsOf: bytes)
        return .pending(offset: offset, length: bytes.count)
    }

    /// The text of a URI the parser keeps.
    func string(_ uri: SegmentURI) -> String {
        switch uri {
        case .templated(let template, let number): return template.uri(number)
        case .pending(let offset, let length):
            return uriBytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self)
            }
        case .own(let text): return text.string(URIText.whole)
        }
    }

    /// The media sequence base of segments made now: EXT-X-MEDIA-SEQUENCE plus EXT-X-SKIP's
    /// skipped segments (as `finish` computes it).
    var sequenceBase: Int {
        let first = media.mediaSequence.addingReportingOverflow(media.skippedSegments ?? 0)
        return first.overflow ? media.mediaSequence : first.partialValue
    }

    /// The segment a URI line ends, made of the tags before it.
    mutating func appendSegment(_ segmentURI: SegmentURI, number: Int) {
        let extinf = pendingExtinf
        pendingExtinf = nil
        let base = sequenceBase
        let context: SegmentContext
        if !currentContextIsStale, let current = currentContext, current.sequenceBase == base {
            context = current
        } else {
            context = SegmentContext(key: currentKey, map: currentMap, bitrate: currentBitrate, sequenceBase: base)
            currentContext = context
            currentContextIsStale = false
        }
        let source: URISource, payload: UInt64
        switch segmentURI {
        case .templated(let template, let number): (source, payload) = (.template(template), number)
        case .pending(let offset, let length):
            (source, payload) = (.text(pendingURIText), UInt64(offset) << 24 | UInt64(length))
        case .own(let text): (source, payload) = (.text(text), URIText.whole)
        }
        // The delta is the index; `finish` fixes what 24 bits or a base changed later cannot hold.
        var segment = MediaSegment(
            source: source, payload: payload, uriLine: number, extinfLine: extinf?.line,
            duration: extinf?.duration ?? 0, context: context, sequenceDelta: media.segments.count)
        if pendingDiscontinuity { segment.discontinuity = true }
        if pendingGap { segment.gap = true }
        segment.packedDateTime = pendingPackedDateTime
        var byteRange: ByteRange?
        if let range = pendingByteRange {
            let offset: Int
            if let explicit = range.offset {
                offset = explicit
            } else {
                // RFC 8216 §4.3.2.2: without an offset, the previous media segment MUST be a
                // sub-range of the same resource; the range continues right after it.
                let uri = string(segmentURI)
                if !(previousSegmentHadRange && previousSegmentURI.map(string) == uri) {
                    sink.error(
                        "EXT-X-BYTERANGE has no offset, but the previous media segment is not a sub-range of \(uri) (RFC 8216 §4.3.2.2)",
                        line: range.line, column: range.column, kind: .structure)
                }
                // "the sub-range begins at the next byte following the sub-range of the previous
                // Media Segment" (§4.3.2.2), also when that segment broke the rule above.
                offset = previousSegmentRangeEnd ?? 0
            }
            let end = offset.addingReportingOverflow(range.length)
            if end.overflow || end.partialValue > ValueLimits.maximumInteger {
                sink.error(
                    "EXT-X-BYTERANGE: continuing the previous segment, this range ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                    line: range.line, column: range.column)
                pendingUnreadableByteRange = range.line
                previousSegmentRangeEnd = nil
            } else {
                byteRange = ByteRange(length: range.length, offset: offset)
                previousSegmentRangeEnd = end.partialValue
            }
        }
        var rare = SegmentRareFields(
            title: extinf?.title, byteRange: byteRange, parts: pendingParts,
            writtenDateTime: pendingPackedDateTime == 0 ? pendingProgramDateTime : nil)
        rare.unreadableByteRangeLine = pendingUnreadableByteRange
        if !rare.isEmpty { segment.rare = rare }
        previousSegmentURI = segmentURI
        previousSegmentHadRange = pendingByteRange != nil
        if pendingByteRange == nil { previousSegmentRangeEnd = nil }
        pendingByteRange = nil
        pendingUnreadableByteRange = nil
        pendingDiscontinuity = false
        pendingGap = false
        pendingProgramDateTime = nil
        pendingPackedDateTime = 0
        pendingParts = []
        media.segments.append(segment)
    }
}
